// A profiler trace's GPU time in a report (docs/FORMATS.md §10.4): the line a table report
// starts with, and the "trace" object of the JSON report.
#pragma once

#include "core/model/trace_summary.h"

#include <cstddef>
#include <string>

namespace ridgepoint {

// Unplaced kernels the line names before "and N more".
inline constexpr std::size_t kUnplacedNamed = 5;

// "placed 35.2 % of 446.8 ms of GPU time (8568 kernels); not placed: ncclKernel_… 163.5 ms
// (collective (record_param_comms): link bytes not modelled yet), …, and 41 more", largest
// first; "…; every kernel placed" when none is left.
std::string traceSummaryLine(const TraceSummary &trace);

} // namespace ridgepoint
