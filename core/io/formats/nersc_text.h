// NERSC hierarchical roofline text (cyanguwa/nersc-roofline data_hierarchical.txt): key lines
// memroofs / mem_roof_names / comproofs / comp_roof_names (the machine) and AI_<level> / FLOPS /
// labels (the kernels). Format: docs/FORMATS.md §6.
#pragma once

#include "core/io/format_registry.h"
#include "core/io/read_result.h"

#include <string>
#include <string_view>

namespace ridgepoint {

// A roof, intensity or FLOPS line, and most lines (comments aside) known keys.
bool looksLikeNerscText(const Sniff &sniff);

// Roofs only: a machine; kernels only: points; else both.
Gives nerscGives(std::string_view text);

// Ceilings: memroofs (GB/s) named by mem_roof_names, comproofs (GFLOP/s) named by
// comp_roof_names, as one machine.
HardwareReadResult readNerscCeilings(std::string_view text, const std::string &fileName);

// Points: one per label, known by its intensities (AI_HBM is main memory, AI_L2, AI_L1, ...)
// and its FLOPS (GFLOP/s); no FLOP or byte counts, so no times. The file gives no precision: the
// points are FP64, as its roofs are taken (one warning says so).
PointsReadResult readNerscPoints(std::string_view text, const std::string &fileName);

} // namespace ridgepoint
