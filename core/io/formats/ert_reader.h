// Empirical Roofline Toolkit (ERT) roofline.json: measured ("empirical") and vendor ("spec")
// ceilings in GFLOP/s and GB/s. Format: docs/FORMATS.md §2.
#pragma once

#include "core/io/read_result.h"

#include <string>
#include <string_view>

namespace ridgepoint {

class Sniff;

// JSON with an "empirical" key.
bool looksLikeErtJson(const Sniff &sniff);

// One machine: the empirical ceilings first (they are the roofs used by default), then the spec
// ceilings named "... (spec)". "GFLOPs" without a precision is ERT's default, FP64.
HardwareReadResult readErtJson(std::string_view text, const std::string &fileName);

} // namespace ridgepoint
