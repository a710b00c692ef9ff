// The I/O lower bound of a matrix multiplication (docs/MODEL.md §12): with a fast memory of S
// words, C = A·B (m×k by k×n) moves at least 2mnk/√S − 2S words between that memory and the one
// below it (Smith, Lowery, Langou, van de Geijn, "A Tight I/O Lower Bound for Matrix
// Multiplication", 2019; Hong and Kung, 1981, for the order). So its intensity against the
// memory below is at most √S / w FLOP/B for w-byte words as the shape grows: the "tiling wall".
#pragma once

#include "core/analysis/doctor.h"
#include "core/model/hardware.h"

#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {

// The wall one on-chip capacity puts on a matmul's intensity against the level below it.
struct IoBound {
    MemoryCapacity capacity; // the fast memory: level, name, bytes, per, provenance
    // The memory whose traffic it bounds: the next level of the hierarchy, given a capacity or
    // not (L1/LDS → L2; L2 → L3 where the machine has an L3, else main memory; L3 → main
    // memory, HBM or DRAM as the machine has it).
    MemoryLevel against = MemoryLevel::HBM;
    double maxIntensity = 0.0; // √(C/w) / w, FLOP/B
};

// √(C/w) / w: the intensity no matmul of w-byte words can pass against the memory below a fast
// memory of C bytes, as its shape grows (H100 bf16: 228 KiB → 170.8, 50 MiB → 2560 FLOP/B).
double matmulMaxIntensity(double capacityBytes, double wordBytes);

// One bound per capacity of the machine, in the machine's order; empty when it gives none.
std::vector<IoBound> matmulIoBounds(const Hardware &hardware, double wordBytes);

// The shape of C[m,n] = A[m,k]·B[k,n], and the bytes of the narrowest of its operands: with
// mixed widths, every word counted at the narrowest keeps the bound a true lower bound.
struct MatmulShape {
    double m = 1.0;
    double n = 1.0;
    double k = 1.0;
    double wordBytes = 2.0;
};

// The least bytes the matmul moves past a fast memory of C bytes: w·max(0, 2mnk/√S − 2S),
// S = C/w words (Smith et al. 2019, the bound their title names).
double matmulMinTraffic(const MatmulShape &shape, double capacityBytes);

// The smallest fast memory, in bytes, with which `trafficBytes` can suffice at this shape: the
// C at which matmulMinTraffic(shape, C) = trafficBytes (infinite when the traffic is not
// positive).
double matmulCapacityNeeded(const MatmulShape &shape, double trafficBytes);

// Which operator's bound: a matmul's (Smith et al.) or attention's (io_bounds_attention.h).
enum class IoBoundKind { Matmul, Attention };

// A matmul (or an attention) that moves fewer bytes past a fast memory than its bound allows.
struct IoBoundExcess {
    IoBound bound;
    double trafficBytes = 0.0; // what the point moves against bound.against
    double minTrafficBytes = 0.0; // the least it can move at its shape
    double capacityNeeded = 0.0; // the fast memory that traffic would need, bytes
    IoBoundKind kind = IoBoundKind::Matmul;
    double compulsoryBytes = 0.0; // attention: Q, K, V read and O written once
};

// The first bound (in the machine's order) whose memory below is `trafficLevel` (main memory
// for HBM and DRAM) and which `trafficBytes` breaks at this shape; nullopt when none is broken.
std::optional<IoBoundExcess> beyondIoBound(const MatmulShape &shape,
    const std::vector<IoBound> &bounds, MemoryLevel trafficLevel, double trafficBytes);

// The doctor's explanation of a matmul past its tiling wall: "needs more than 50 MiB of
// on-chip memory at this shape" with the numbers, the bound and what to change (an attention's
// excess gets attentionIoBoundDiagnosis's).
Diagnosis ioBoundDiagnosis(const IoBoundExcess &excess);

// A capacity as people write it: "228 KiB", "50 MiB" when a whole number of a binary unit,
// else the decimal form ("52.43 MB").
std::string capacityText(double bytes);

} // namespace ridgepoint
