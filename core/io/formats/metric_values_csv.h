// The long Metric Name / Metric Value CSV of Techercise/roofline-model-multiple-kernels
// (ncu-like, without a Metric Unit column): ID,Kernel Name,Host Name,Metric Name,Metric Value.
// Format: docs/FORMATS.md §6.
#pragma once

#include "core/io/read_result.h"

#include <string>
#include <string_view>

namespace ridgepoint {

class Sniff;

// A line naming Kernel Name, Host Name, Metric Name and Metric Value, and no Metric Unit. Tried
// before Nsight Compute's detectors: its "ID,Kernel Name" header would pass for ncu's.
bool looksLikeMetricValuesCsv(const Sniff &sniff);

// One point per ID, known by its AI (main memory) and its FLOPS (FLOP/s).
PointsReadResult readMetricValuesCsv(std::string_view text, const std::string &fileName);

} // namespace ridgepoint
