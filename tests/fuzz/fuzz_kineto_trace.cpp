// PyTorch profiler traces: any input gives sound points and a summary whose sums hold (placed and
// unplaced GPU time add up to the kernels' time; the points' seconds to the placed time), with
// the launches of each point; collectives' args, tensor lists and concrete inputs included (the
// corpus has a trace of each).
#include "core/io/formats/kineto_trace.h"
#include "fuzz_checks.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto result = ridgepoint::readKinetoTrace(fuzz::text(data, size), "trace.json");
    fuzz::checkPoints(result);
    if (result.trace) {
        const ridgepoint::TraceSummary &trace = *result.trace;
        double points = 0.0;
        for (const auto &point : result.points)
            points += point.seconds.value_or(0.0);
        double unplaced = 0.0;
        for (const auto &u : trace.unplaced) {
            fuzz::require(!u.name.empty() || u.launches > 0);
            fuzz::require(!u.reason.empty() && u.seconds >= 0.0);
            unplaced += u.seconds;
        }
        // One record of launches per point, in the points' order, each of at least one launch.
        fuzz::require(trace.points.size() == result.points.size());
        for (std::size_t i = 0; i < trace.points.size(); ++i) {
            fuzz::require(trace.points[i].launches > 0);
            fuzz::require(trace.points[i].name == result.points[i].name);
            fuzz::require(trace.points[i].group == result.points[i].group);
        }
        const double slack = 1e-9 * (1.0 + trace.gpuSeconds);
        if (std::isfinite(trace.gpuSeconds)) {
            fuzz::require(std::abs(points - trace.placedSeconds) <= slack);
            fuzz::require(std::abs(trace.placedSeconds + unplaced - trace.gpuSeconds) <= slack);
        }
    }
    const auto machines = ridgepoint::readKinetoMachines(fuzz::text(data, size), "trace.json");
    for (const auto &d : machines.diagnostics)
        fuzz::require(!d.message.empty());
    return 0;
}
