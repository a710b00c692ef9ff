// likwid-perfctr -O (CSV) output: stacked TABLE blocks per region and group. Points from the
// FLOPS and MEM groups' metrics. docs/FORMATS.md §5.
#pragma once

#include "core/io/read_result.h"

#include <string>
#include <string_view>

namespace ridgepoint {

class Sniff;

// A STRUCT,Info or a TABLE, line.
bool looksLikeLikwid(const Sniff &sniff);

// One point per region (or one for the whole run without markers, whatever the number of
// groups): rate from "DP [MFLOP/s]" / "DP MFLOP/s" (or SP), time from "Runtime (RDTSC) [s]",
// bytes from "Memory data volume [GBytes]" (else bandwidth × time); with an "Operational
// intensity" and no volume, a point known by intensity and rate. A group that has both the rate
// and the memory metrics (MEM_DP) gives all of them; else the rate group and the memory group
// are combined. Several threads: the STAT table's Sum (Max for the runtime).
PointsReadResult readLikwidCsv(std::string_view text, const std::string &fileName);

} // namespace ridgepoint
