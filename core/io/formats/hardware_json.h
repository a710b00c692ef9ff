// Hardware files: Ridgepoint's JSON schema for one machine (docs/FILES.md).
#pragma once

#include "core/io/read_result.h"
#include "core/model/diagnostic.h"
#include "core/model/hardware.h"

#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

inline constexpr std::string_view kHardwareFormat = "ridgepoint-hardware";
inline constexpr int kHardwareVersion = 2;

class Sniff;

// JSON: the format tried after the other JSON formats (points JSON, ERT roofline.json), so any
// JSON they do not take.
bool looksLikeHardwareJson(const Sniff &sniff);

// Reads a hardware file: one machine object, or {"presets": [...]} / {"hardware": [...]} with
// several. Peaks and bandwidths are numbers in SI base units or unit strings ("3.35 TB/s").
// Syntax errors carry line and column; schema errors name the JSON path; unknown keys are
// warnings (they are usually typos).
HardwareReadResult readHardwareJson(const std::string &text, const std::string &fileName);

// One machine as a pretty-printed hardware file that readHardwareJson reads back unchanged.
std::string writeHardwareJson(const Hardware &hardware);

} // namespace ridgepoint
