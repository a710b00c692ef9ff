// Internal to core/io: the limits part of a hardware file (docs/FILES.md, "Limits beyond the
// two roofs"): "capacities", "launch_latency", "latencies" and "energy", read into and written
// from Hardware::limits. Values outside their ranges are refused by validateLimits
// (core/model/hardware.h), which the machine's reader runs with the rest of its checks.
#pragma once

#include "core/io/json_schema.h"
#include "core/model/hardware.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace ridgepoint::hardware_limits {

// The machine keys this part reads.
inline constexpr std::string_view kKeys[]
    = { "capacities", "launch_latency", "latencies", "energy", "compute_units" };

// The limits of the machine object at `where`; errors and warnings name the JSON path.
MachineLimits read(const nlohmann::json &machine, const std::string &where, JsonSchema &in);

// Writes the limits into the machine object `out`, each key only when it says something.
void write(const MachineLimits &limits, nlohmann::ordered_json &out);

} // namespace ridgepoint::hardware_limits
