// ERT's per-experiment text `sum` file (Run.NNN/FLOPS.NNN/MPI.NNNN/OpenMP.NNNN/sum): GFLOP/s and
// GB/s per level. Format: docs/FORMATS.md §2.
#pragma once

#include "core/io/read_result.h"

#include <string>
#include <string_view>

namespace ridgepoint {

class Sniff;

// A first line "<number> GFLOPs" (or "<number> FP64 GFLOPs").
bool looksLikeErtSum(const Sniff &sniff);

// One machine, with a warning that it is one experiment's result, not the maxima
// roofline.json holds.
HardwareReadResult readErtSum(std::string_view text, const std::string &fileName);

} // namespace ridgepoint
