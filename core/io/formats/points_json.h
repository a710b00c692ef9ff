// Ridgepoint's own points file: {"format": "ridgepoint-points", "version": 1, "points": [...]}
// (docs/FILES.md). Lossless for everything a KernelPoint holds.
#pragma once

#include "core/io/read_result.h"

#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

inline constexpr std::string_view kPointsFormat = "ridgepoint-points";
inline constexpr int kPointsVersion = 1;

class Sniff;

// JSON that says "format": "ridgepoint-points".
bool looksLikePointsJson(const Sniff &sniff);

// Numbers are SI base units, or unit strings ("2 TFLOP", "1 GiB", "3 ms"). Syntax errors give
// line and column; schema errors the JSON path; unknown keys are warnings; a newer version is
// refused. A point's source is where it came from originally when the file says so.
PointsReadResult readPointsJson(std::string_view text, const std::string &fileName);

// Pretty-printed JSON that readPointsJson reads back to the same points.
std::string writePointsJson(const std::vector<KernelPoint> &points);

} // namespace ridgepoint
