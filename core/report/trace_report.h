// A profiler trace's GPU time in a report (docs/FORMATS.md §10.4): the line a table report
// starts with, the Markdown report's sentence and table of unplaced kernels, and the "trace"
// object of the JSON report (report_json.cpp). The CSV report's rows of unplaced kernels are
// written by its writer (report_writers.cpp).
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

// The share of GPU time placed, 0 when the trace has none.
double placedShare(const TraceSummary &trace);

// Markdown, before the points' table: "Placed **40.0 %** of 10 ms of GPU time (9 kernels); 6 ms
// in 7 kinds of kernels not placed (the table after the points)." and a blank line.
std::string traceMarkdownIntro(const TraceSummary &trace);

// Markdown, after the points' table: "Not placed, largest first:" and a table of every unplaced
// kernel (Kernel, Time, Share of GPU time, Launches, Reason); empty when every kernel is placed.
// `cell` escapes a cell's text.
std::string traceMarkdownUnplaced(
    const TraceSummary &trace, std::string (*cell)(const std::string &));

} // namespace ridgepoint
