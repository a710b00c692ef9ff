// Internal to core: a calibration as the "calibration" object of a hardware file
// (docs/FILES.md), written by core/io/formats/hardware_json.cpp next to the spec ceilings and
// read back unchanged. Every figure in it has basis "calibrated".
#pragma once

#include "core/calibrate/calibration.h"
#include "core/io/json_schema.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace ridgepoint {

inline constexpr std::string_view kCalibratedBasis = "calibrated";

nlohmann::ordered_json calibrationJson(const Calibration &calibration);

// The machine's "calibration" member, when it has one; errors name the JSON path.
std::optional<Calibration> readCalibrationJson(
    const nlohmann::json &machine, const std::string &where, JsonSchema &in);

} // namespace ridgepoint
