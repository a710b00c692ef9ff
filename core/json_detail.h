// Internal to core: nlohmann_json conversions shared by the readers and report writers.
// Kept out of the public headers so only the .cpp files that need it pay for it.
#pragma once

#include "core/analysis.h"
#include "core/hardware.h"

#include <nlohmann/json.hpp>

namespace ridgepoint::detail {

// The machine with its ceilings (peaks as numbers, SI base units) and, when asked, its ridges.
nlohmann::ordered_json hardwareJson(const Hardware &hardware, bool withRidges);

} // namespace ridgepoint::detail
