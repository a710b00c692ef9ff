// A workload parameter swept over a range: an ordered series of points and where the bound
// flips (the trajectory crossing the ridge).
#pragma once

#include "core/analysis/analysis.h"

#include "core/model/expected.h"
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

// "PARAM=A:B[:STEP]": from A to B inclusive. STEP "xK" (or "*K") multiplies by K, "+K" or "K"
// adds K; without a step the values double.
struct SweepRange {
    std::string parameter;
    double from = 1.0;
    double to = 1.0;
    double step = 2.0;
    bool multiplicative = true;
};
ridgepoint::Expected<SweepRange, std::string> parseSweep(std::string_view text);
// The values of the range in order (at most `limit`, else an error). Integer parameters are
// rounded by the caller.
ridgepoint::Expected<std::vector<double>, std::string> sweepValues(
    const SweepRange &range, std::size_t limit = 100000);

struct SweepSample {
    double value = 0.0;
    AnalyzedPoint point;
};

// Between two consecutive samples whose bound differs.
struct SweepCrossing {
    double before = 0.0; // last value with the old bound
    double after = 0.0; // first value with the new bound
    Bound from = Bound::Memory;
    Bound to = Bound::Compute;
};

struct SweepResult {
    std::string parameter;
    std::vector<SweepSample> samples;
    std::vector<SweepCrossing> crossings;
};

// Evaluates `model` at every value; fails with the first value's error, naming the value.
ridgepoint::Expected<SweepResult, std::string> runSweep(const std::string &parameter,
    const std::vector<double> &values,
    const std::function<ridgepoint::Expected<AnalyzedPoint, std::string>(double)> &model);

} // namespace ridgepoint
