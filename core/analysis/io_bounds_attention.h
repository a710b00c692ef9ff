// The I/O lower bound of an attention forward pass (docs/MODEL.md §12.1): exact attention
// O = softmax(Q·Kᵀ)·V over P (query, key) pairs of head size d moves at least
//   max(compulsory, w·(P·d² − p·M²) / (M + 2·d²))
// bytes past p fast memories of M = C/w words each, the compulsory being Q, K, V read and O
// written once. The second term is Saha and Ye's Θ(N²d²/M) (ICML 2024) with the constant
// Ridgepoint proves in MODEL.md §12.1 (a segment argument after Hong and Kung); FlashAttention
// (Dao et al. 2022) attains the order.
#pragma once

#include "core/analysis/io_bounds.h"
#include "core/model/hardware.h"

#include <optional>
#include <vector>

namespace ridgepoint {

// One attention forward (every head of every sequence of one kernel).
struct AttentionShape {
    double heads = 1.0; // query heads in all: batch · heads
    double kvHeads = 1.0; // key/value heads in all: batch · kv heads (grouped-query: fewer)
    double n = 1.0; // query rows per head
    double nKv = 1.0; // key rows per head
    double pairs = 1.0; // (query, key) pairs scored per head: n·nKv, fewer when causal
    double d = 128.0; // the length of q·k (head dim of Q and K)
    double dv = 128.0; // head dim of V and O
    double qWordBytes = 2.0; // Q and O
    double kvWordBytes = 2.0; // K and V
};

// The pairs a head scores: n·nKv, or under PyTorch's causal mask (query i sees keys 0..i)
// Σ min(i + 1, nKv) = n(n+1)/2 when n ≤ nKv.
double attentionPairs(double n, double nKv, bool causal);

// The narrowest word of the shape: every word counted at it keeps the bound a lower bound.
double attentionWordBytes(const AttentionShape &shape);

// 2·P·(d + dv) in all: Q·Kᵀ and P·V, as the trace's and the LLM's FLOP models count them.
double attentionFlops(const AttentionShape &shape);

// Q and K, V read once and O written once, each in its own width (bytes).
double attentionCompulsoryBytes(const AttentionShape &shape);

// The least bytes the shape moves past `units` fast memories of `capacityBytes` each (one per
// SM, or one per chip): max(compulsory, w·(P·d² − units·M²)/(M + 2d²)), M = C/w. units ≤ 0
// (the count of such memories is not known) keeps the compulsory term alone.
double attentionMinTraffic(const AttentionShape &shape, double capacityBytes, double units);

// The intensity no attention of head size d (value dim dv, w-byte words) passes against the
// memory below a fast memory of C bytes as its sequence grows: 2(d + dv)(M + 2d²)/(w·d²).
double attentionLimitIntensity(double capacityBytes, double wordBytes, double d, double dv);

// The smallest fast memory, bytes each, with which `trafficBytes` can suffice at this shape:
// 0 when the traffic is at least the pebble term with no memory at all, infinite when it is
// below the compulsory bytes (no memory makes that possible) or `units` is not known.
double attentionCapacityNeeded(const AttentionShape &shape, double trafficBytes, double units);

// How many of a capacity work at once: 1 for a chip's, the machine's compute units for a
// per-SM/CU/core one when it gives them; 0 when not known (MODEL.md §12.1).
double capacityUnits(const Hardware &hardware, const MemoryCapacity &capacity);

// One capacity's bound on the shape: the IoBound (its maxIntensity the shape's own limit,
// attentionFlops / minTrafficBytes), the units, the least traffic and the shape-free limit.
struct AttentionIoBound {
    IoBound bound;
    double units = 0.0;
    double minTrafficBytes = 0.0;
    double limitIntensity = 0.0; // attentionLimitIntensity, FLOP/B
};

// One bound per capacity of the machine, in the machine's order; empty when it gives none.
std::vector<AttentionIoBound> attentionIoBounds(
    const Hardware &hardware, const AttentionShape &shape);

// The first bound whose memory below is `trafficLevel` (main memory for HBM and DRAM) that
// `trafficBytes` (the whole attention's bytes there) breaks; nullopt when none is broken.
std::optional<IoBoundExcess> beyondAttentionIoBound(const AttentionShape &shape,
    const std::vector<AttentionIoBound> &bounds, MemoryLevel trafficLevel, double trafficBytes);

// The doctor's explanation of an attention past its bound (ioBoundDiagnosis dispatches here).
Diagnosis attentionIoBoundDiagnosis(const IoBoundExcess &excess);

} // namespace ridgepoint
