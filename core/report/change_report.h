// A run against its baseline operator by operator (core/analysis/operator_change.h) in a report:
// the table's and Markdown's section after the points, the JSON report's "baseline" object and
// the CSV `analyze --baseline --format csv` writes (docs/FORMATS.md §10.6).
#pragma once

#include "core/analysis/operator_change.h"

#include <nlohmann/json.hpp>

#include <string>

namespace ridgepoint {

// The run's change in one sentence: "Against BASE (matched by operator and shapes): 12 operators
// in both runs (81.0 % of this run's time), 3 only here, 5 only in the baseline; matched 1.2 ms →
// 1.5 ms, speed-up ×0.80; every point 4.4 ms → 8.0 ms, ×0.55."
std::string changesSentence(const OperatorChanges &changes, const std::string &baselineFile);

// The sentence and an aligned table: operator (and shapes), baseline time, this run's time,
// speed-up, kernels in each run; the rows in OperatorChanges' order.
std::string changesTable(const OperatorChanges &changes, const std::string &baselineFile);

// The same as a Markdown section; `cell` escapes a cell's text.
std::string changesMarkdown(const OperatorChanges &changes, const std::string &baselineFile,
    std::string (*cell)(const std::string &));

// {"file", "match", "baseline_seconds", "current_seconds", "matched_baseline_seconds",
// "matched_current_seconds", "matched_share", "speedup", "matched_speedup", "operators": [{"key",
// "status", "baseline_seconds", "current_seconds", "baseline_points", "current_points",
// "speedup"}]}, numbers in SI base units, a speed-up null when there is none.
nlohmann::ordered_json changesJson(const OperatorChanges &changes, const std::string &baselineFile);

// RFC 4180 CSV, one row per operator (report_writers.cpp, beside the points' CSV).
std::string changesCsv(const OperatorChanges &changes);

// "matched", "only in this run", "only in the baseline".
const char *changeStatus(const OperatorChange &row);

} // namespace ridgepoint
