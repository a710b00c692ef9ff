// Internal to core/calibrate: the collective fits, a latency and a bus bandwidth for each
// message-size regime of each layout (docs/MODEL.md "Calibration").
#pragma once

#include "core/calibrate/calibration.h"
#include "core/calibrate/measured.h"
#include "core/model/expected.h"

#include <string>
#include <vector>

namespace ridgepoint {

// One fit per (collective, ranks, ranks per node) with at least 3 rows; up to three regimes,
// as many as the Bayesian information criterion favours.
ridgepoint::Expected<std::vector<CollectiveFit>, std::string> fitCollectives(
    const std::vector<const MeasuredRow *> &rows);

} // namespace ridgepoint
