// Intel Advisor CSV reports: the roofs report (--report=roofs: ceilings in bytes/s and FLOP/s)
// and the survey report (--report=survey: one row per loop or function). docs/FORMATS.md §3.
#pragma once

#include "core/io/read_result.h"

#include <string>
#include <string_view>

namespace ridgepoint {

class Sniff;

// "Function Call Sites and Loops" in the head: the survey's header.
bool looksLikeAdvisorSurvey(const Sniff &sniff);
// A Name,Bandwidth header within the first five lines.
bool looksLikeAdvisorRoofs(const Sniff &sniff);

// Rows "Name,Bandwidth,Type,Device" after a preamble line: memory roofs (Type "memory", or
// "Bandwidth" in the name) by level, compute roofs by precision (DP -> fp64, SP -> fp32, other
// scalar roofs fp64). "(single-threaded)" and "(single node)" variants are kept but hidden.
HardwareReadResult readAdvisorRoofs(std::string_view text, const std::string &fileName);

// The survey CSV: the header is the first record whose first cell is "ID" (after "sep=,", a
// two-line quoted banner and "MPI rank" lines); delimiter comma or tab. Uses Self GFLOP (or
// GFLOP), Self Memory GB / L1 GB (L1), Self L2/L3/DRAM GB, Self Elapsed Time, and GFLOPS / AI
// when counts are missing. Times carry an "s" suffix and sometimes a "<" prefix.
PointsReadResult readAdvisorSurvey(std::string_view text, const std::string &fileName);

} // namespace ridgepoint
