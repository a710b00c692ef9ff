// GPU-Roofline-Profiler peaks.csv: label,peak_flops,peak_bandwidth (FLOP/s, B/s). Format:
// docs/FORMATS.md §6.
#pragma once

#include "core/io/read_result.h"

#include <string>
#include <string_view>

namespace ridgepoint {

class Sniff;

// A first line naming peak_flops and peak_bandwidth.
bool looksLikeProfilerPeaks(const Sniff &sniff);

// One machine, a compute and a memory ceiling per row, named after the row's label, in file
// order (the first row's are the ones used).
HardwareReadResult readProfilerPeaks(std::string_view text, const std::string &fileName);

} // namespace ridgepoint
