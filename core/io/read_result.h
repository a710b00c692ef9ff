// What every reader returns: the points or machines it could use, and a diagnostic for each
// thing it could not, with its line and column.
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/hardware.h"
#include "core/model/point.h"
#include "core/model/trace_summary.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {

struct [[nodiscard]] PointsReadResult {
    std::vector<KernelPoint> points; // the rows that could be used
    std::vector<Diagnostic> diagnostics; // one per row that could not, with line and column
    int rowsRead = 0; // data rows seen
    int rowsSkipped = 0; // data rows left out because of an error
    // A profiler trace's GPU time, placed and not (the Kineto reader); nullopt for tables.
    std::optional<TraceSummary> trace;
};

struct [[nodiscard]] HardwareReadResult {
    std::vector<Hardware> machines; // empty when the file is unusable
    std::vector<Diagnostic> diagnostics;
};

// Receives the points of a file one by one, in file order.
using PointSink = std::function<void(KernelPoint &&)>;

// Why a point a reader built must not be returned: an empty name, or a count that is NaN,
// infinite or negative, or bytes, time, rate or intensity that are not greater than zero, or
// a value outside the accepted ranges (core/model/value_ranges.h: 1e308 FLOPs, 5e-324 bytes).
// nullopt when the point is sound. Every points reader checks each point with this before
// returning it, so arithmetic on valid-looking cells (1e300 GB x 1e9 overflows to infinity,
// a negative counter, FLOPs / intensity rounding to 0 bytes) becomes an error on that row
// instead of a point the chart cannot place.
std::optional<std::string> pointProblem(const KernelPoint &point);

// Gives every ceiling of `hardware` whose basis is unstated this provenance: a profiler's roofs
// are all of one kind (ERT's, rocprof-compute's and Advisor's measured, Nsight Compute's derived).
void stateBasis(Hardware &hardware, const Provenance &provenance);
// The provenance of a file's figures: measured by `tool`, or derived by `formula`.
Provenance measuredBy(std::string source, std::string tool);
Provenance derivedBy(std::string source, std::string formula);

// The machine when it is valid (validateHardware), else its problems as errors at `line`.
void keepValidMachine(
    Hardware hardware, const std::string &fileName, HardwareReadResult &result, int line = 0);

} // namespace ridgepoint
