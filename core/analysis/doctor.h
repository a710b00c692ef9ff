// The doctor for impossible points (docs/MODEL.md §2.1, "The doctor"): a point measured faster than
// its roof is explained by ranked, numbered guesses (FLOPs counted twice, a sparse or
// lower-precision roof, cache bytes taken for DRAM bytes, a clock above the roof's basis, ...).
#pragma once

#include "core/model/hardware.h"
#include "core/model/point.h"

#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {

struct PointAnalysis;

struct Diagnosis {
    std::string cause; // short: "FLOPs counted twice"
    std::string evidence; // the numbers: ratio, the roof it fits and at what utilisation
    std::string fix; // what to check or choose
    double score = 0.0; // in (0, 1]; higher is likelier. The list is sorted by it.
};

// The likely causes of a point faster than its roof, best first; the generic "counts or peaks
// are off" is always present and always last. Empty when the analysis has no measured
// performance above its attainable roof. Deterministic: equal scores keep the fixed order of
// the checks (sparse, dies, lower precision, tensor roof, FMA, cache, clock, generic).
std::vector<Diagnosis> diagnose(
    const KernelPoint &point, const Hardware &hardware, const PointAnalysis &analysis);

// A point far under both roofs (under half its attainable) whose bytes at some level are fewer
// than that level's bandwidth × latency (Little's law: bandwidth ≤ bytes in flight ÷ latency):
// the latency, not the bandwidth, holds it back (docs/MODEL.md §13). Needs the machine's
// per-level latencies; nullopt when none applies.
std::optional<Diagnosis> diagnoseFewBytesInFlight(
    const KernelPoint &point, const Hardware &hardware, const PointAnalysis &analysis);

// The cause as a short verdict for notes and tables: "FLOPs counted twice?", or "counts or
// peaks are off" for the generic one.
std::string diagnosisVerdict(const Diagnosis &diagnosis);

// performance / attainable with two decimals: "×2.00" (empty without a performance).
std::string overshootText(const PointAnalysis &analysis);

} // namespace ridgepoint
