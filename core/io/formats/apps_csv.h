// mohamed/roofline apps.csv: "# name, intensity, [implementation name, performance
// (gflops/s)]..." and one row per application. Format: docs/FORMATS.md §6.
#pragma once

#include "core/io/read_result.h"

#include <string>
#include <string_view>

namespace ridgepoint {

class Sniff;

// The "# name, intensity" header, or (without it) every row a name, an intensity and pairs of
// implementation name and number, at least one row with a pair.
bool looksLikeAppsCsv(const Sniff &sniff);

// One point per implementation, known by the application's intensity (main memory) and the
// implementation's GFLOP/s; grouped by application.
PointsReadResult readAppsCsv(std::string_view text, const std::string &fileName);

} // namespace ridgepoint
