// The roofline model (docs/MODEL.md §1-§4) applied to one point on one machine.
#pragma once

#include "core/analysis/doctor.h"
#include "core/analysis/energy.h"
#include "core/model/diagnostic.h"
#include "core/model/hardware.h"
#include "core/model/point.h"

#include "core/model/expected.h"
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {

// Latency: the machine's launch latency is longer than both roofs' times (docs/MODEL.md §13).
enum class Bound { Memory, Compute, Latency };
std::string_view boundName(Bound bound); // "memory", "compute", "latency"

// The limiting ceiling's name of a latency-bound point.
inline constexpr std::string_view kLaunchLatencyName = "launch latency";

struct Ridge {
    std::string compute; // ceiling names
    std::string memory;
    double intensity = 0.0; // π/β, FLOP/B
};

// The ridge intensity of every (compute, memory) pair, in the order the machine lists them.
std::vector<Ridge> ridges(const Hardware &hardware);

struct AnalysisOptions {
    // Compute ceiling for every point, by name. Empty: the ceiling of the point's precision,
    // else the machine's default.
    std::string computeCeiling;
    // Relative slack before a measurement faster than T_min is called inconsistent; absorbs
    // rounding in files, not real disagreements.
    double tolerance = 1e-6;
};

struct LevelAnalysis {
    std::string memory; // ceiling name
    MemoryLevel level = MemoryLevel::DRAM;
    double bandwidth = 0.0; // β_l, B/s
    double bytes = 0.0; // B_l
    double intensity = 0.0; // I_l = F / B_l
    double attainable = 0.0; // min(π, β_l·I_l)
    double tMem = 0.0; // T_l = B_l / β_l
    std::optional<double> achievedBandwidth; // B_l / measured seconds
    std::optional<double> bandwidthUtilization; // achieved / β_l (docs/MODEL.md §4.4)
    // false: the machine has no ceiling for this level (memory empty, bandwidth, attainable and
    // tMem 0); kept so what the file gave is not lost (core/analysis/levels.h).
    bool bounded = true;
};

struct PointAnalysis {
    std::string computeCeiling;
    double peak = 0.0; // π of that ceiling
    std::vector<LevelAnalysis> levels; // the levels with a ceiling on this machine
    // Levels the point has bytes or an intensity for but the machine no ceiling: bounded false,
    // not part of the roof (core/analysis/levels.h joins both lists).
    std::vector<LevelAnalysis> unbounded;
    double tMath = 0.0; // F / π
    double tMin = 0.0; // max(T_math, T_l..., launch latency)
    double tMax = 0.0; // max(T_math + Σ T_l, T_min)
    double attainable = 0.0; // min(π, min_l β_l·I_l) = F / T_min
    Bound bound = Bound::Memory;
    // the compute ceiling, the memory ceiling that binds, or kLaunchLatencyName
    std::string limitingCeiling;
    std::optional<double> performance; // achieved FLOP/s
    std::optional<double> utilization; // performance / attainable
    bool consistent = true; // false: faster than the roofline allows
    std::string note; // why it is inconsistent, or other caveats
    std::vector<Diagnosis> diagnosis; // inconsistent only: likely causes, best first (doctor.h)
    // The energy roofline's figures (energy.h), when the machine has an energy model.
    std::optional<PointEnergy> energy;
};

// Analyses one point. Fails (with a message naming the point) when the point cannot be placed:
// non-positive or non-finite counts, no compute ceiling for its precision, or no memory
// ceiling for any of its byte levels.
ridgepoint::Expected<PointAnalysis, std::string> analyzePoint(
    const KernelPoint &point, const Hardware &hardware, const AnalysisOptions &options = {});

struct AnalyzedPoint {
    KernelPoint point;
    PointAnalysis analysis;
};

// Analyses many points; those that cannot be placed are left out, each with a diagnostic
// "file:line: reason" taken from the point's source.
std::vector<AnalyzedPoint> analyzePoints(const std::vector<KernelPoint> &points,
    const Hardware &hardware, const AnalysisOptions &options, std::vector<Diagnostic> &problems);

// min(π, β·I): the roof of a single compute/memory pair at an intensity.
double attainablePerformance(double peak, double bandwidth, double intensity);

} // namespace ridgepoint
