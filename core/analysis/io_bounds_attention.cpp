#include "core/analysis/io_bounds_attention.h"

#include "core/model/units.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgepoint {
namespace {

bool sameMemory(MemoryLevel a, MemoryLevel b)
{
    return a == b || (isMainMemory(a) && isMainMemory(b));
}

// The pebble term in words, w·(P·d² − p·M²)/(M + 2d²) without the w, never negative.
double pebbleWords(const AttentionShape &shape, double words, double units)
{
    if (!(units > 0.0))
        return 0.0;
    const double d2 = shape.d * shape.d;
    const double pairs = shape.heads * shape.pairs;
    return std::max(0.0, (pairs * d2 - units * words * words) / (words + 2.0 * d2));
}

} // namespace

double attentionPairs(double n, double nKv, bool causal)
{
    if (!causal)
        return n * nKv;
    // Query i (from 0) sees keys 0..i, so the first nKv queries a triangle, the rest every key.
    const double full = std::min(n, nKv);
    return full * (full + 1.0) / 2.0 + std::max(0.0, n - nKv) * nKv;
}

double attentionWordBytes(const AttentionShape &shape)
{
    return std::min(shape.qWordBytes, shape.kvWordBytes);
}

double attentionFlops(const AttentionShape &shape)
{
    return 2.0 * shape.heads * shape.pairs * (shape.d + shape.dv);
}

double attentionCompulsoryBytes(const AttentionShape &shape)
{
    return shape.heads * shape.n * (shape.d + shape.dv) * shape.qWordBytes
        + shape.kvHeads * shape.nKv * (shape.d + shape.dv) * shape.kvWordBytes;
}

double attentionMinTraffic(const AttentionShape &shape, double capacityBytes, double units)
{
    const double w = attentionWordBytes(shape);
    return std::max(
        attentionCompulsoryBytes(shape), w * pebbleWords(shape, capacityBytes / w, units));
}

double attentionLimitIntensity(double capacityBytes, double wordBytes, double d, double dv)
{
    const double words = capacityBytes / wordBytes;
    return 2.0 * (d + dv) * (words + 2.0 * d * d) / (wordBytes * d * d);
}

double attentionCapacityNeeded(const AttentionShape &shape, double trafficBytes, double units)
{
    if (!(trafficBytes >= attentionCompulsoryBytes(shape)) || !(units > 0.0))
        return std::numeric_limits<double>::infinity();
    // w·(P·d² − p·M²)/(M + 2d²) = T, with t = T/w words: p·M² + t·M − d²(P − 2t) = 0, whose
    // positive root is the M at which the pebble term falls to T (it falls as M grows).
    const double w = attentionWordBytes(shape);
    const double t = trafficBytes / w;
    const double d2 = shape.d * shape.d;
    const double c = d2 * (shape.heads * shape.pairs - 2.0 * t);
    if (c <= 0.0)
        return 0.0;
    return w * (std::sqrt(t * t + 4.0 * units * c) - t) / (2.0 * units);
}

double capacityUnits(const Hardware &hardware, const MemoryCapacity &capacity)
{
    if (capacity.per.empty() || capacity.per == "chip")
        return 1.0;
    const auto &units = hardware.limits.computeUnits;
    if (units && units->kind == capacity.per && units->count > 0)
        return static_cast<double>(units->count);
    return 0.0;
}

std::vector<AttentionIoBound> attentionIoBounds(
    const Hardware &hardware, const AttentionShape &shape)
{
    std::vector<AttentionIoBound> out;
    const double w = attentionWordBytes(shape);
    // The matmul's bounds give each capacity the level below it; the intensities are replaced.
    for (IoBound bound : matmulIoBounds(hardware, w)) {
        AttentionIoBound a;
        a.units = capacityUnits(hardware, bound.capacity);
        a.minTrafficBytes = attentionMinTraffic(shape, bound.capacity.bytes, a.units);
        a.limitIntensity = attentionLimitIntensity(bound.capacity.bytes, w, shape.d, shape.dv);
        bound.maxIntensity = a.minTrafficBytes > 0.0 ? attentionFlops(shape) / a.minTrafficBytes
                                                     : std::numeric_limits<double>::infinity();
        a.bound = std::move(bound);
        out.push_back(std::move(a));
    }
    return out;
}

std::optional<IoBoundExcess> beyondAttentionIoBound(const AttentionShape &shape,
    const std::vector<AttentionIoBound> &bounds, MemoryLevel trafficLevel, double trafficBytes)
{
    for (const auto &a : bounds) {
        if (!sameMemory(a.bound.against, trafficLevel))
            continue;
        // Rounding slack: a point exactly on its bound is not past it.
        if (!(trafficBytes < a.minTrafficBytes * (1.0 - 1e-9)))
            continue;
        IoBoundExcess e { a.bound, trafficBytes, a.minTrafficBytes,
            attentionCapacityNeeded(shape, trafficBytes, a.units) };
        e.kind = IoBoundKind::Attention;
        e.compulsoryBytes = attentionCompulsoryBytes(shape);
        return e;
    }
    return std::nullopt;
}

Diagnosis attentionIoBoundDiagnosis(const IoBoundExcess &excess)
{
    const MemoryCapacity &capacity = excess.bound.capacity;
    const std::string level(memoryLevelName(capacity.level));
    const std::string below(memoryLevelName(excess.bound.against));
    const std::string per = capacity.per.empty() ? std::string() : " per " + capacity.per;
    const std::string moved = formatQuantity(excess.trafficBytes, Dimension::Bytes);
    const std::string least = formatQuantity(excess.minTrafficBytes, Dimension::Bytes);
    Diagnosis d;
    d.cause = "beyond the " + level + " attention I/O bound";
    if (excess.trafficBytes < excess.compulsoryBytes) {
        d.evidence = "moves " + moved + " to and from " + below
            + ", less than reading Q, K and V and writing O once ("
            + formatQuantity(excess.compulsoryBytes, Dimension::Bytes)
            + "): no on-chip memory makes that possible";
    } else {
        d.evidence = "needs more than " + capacityText(capacity.bytes) + per
            + " of on-chip memory (" + level + ") at this shape: moving " + moved
            + " past it needs at least " + formatQuantity(excess.capacityNeeded, Dimension::Bytes)
            + per + ", and with " + capacityText(capacity.bytes) + " it moves at least " + least
            + " to and from " + below
            + " (max(Q, K, V and O once, w·(P·d² − p·M²)/(M + 2d²)); MODEL.md §12.1 after Saha "
              "and Ye 2024)";
    }
    d.fix = "count the " + below + " traffic the attention kernel really causes (it cannot fall "
        + "below " + least + "), or give the machine's real " + level + " capacity";
    d.score = 1.0;
    return d;
}

} // namespace ridgepoint
