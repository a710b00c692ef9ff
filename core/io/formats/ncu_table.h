// Internal to the Nsight Compute reader: the CSV layout of its pages (docs/FORMATS.md §1.2-1.6).
// The table after ncu's own messages, and its rows grouped into launches: the details page
// (one row per launch and metric), the raw page (one row per launch, units on the second row)
// and the per-kernel summary (one row per kernel, launch shape and metric).
#pragma once

#include "core/io/formats/csv.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint::ncu {

enum class HeaderKind { Launches, Summary };

struct Table {
    CsvTable csv;
    std::map<std::string, std::size_t> columns; // header name -> index
    int headerLine = 0;
    HeaderKind kind = HeaderKind::Launches;
    std::vector<Diagnostic> messages; // ==ERROR== and ==WARNING== lines, as warnings
};

// The table from its header on (found after ==PROF== lines and the application's own output),
// without ncu's messages; nullopt when the text has no ncu header or no rows.
std::optional<Table> tokenize(std::string_view text, const std::string &fileName);

// A metric value as written, with where it was, converted on use.
struct RawValue {
    std::string text;
    std::string unit;
    int line = 0;
    int column = 0;
};

using Metrics = std::map<std::string, RawValue>; // metric name -> value (first one wins)

struct Launch {
    std::string id; // the launch ID; empty in a per-kernel summary
    std::string kernel;
    std::string device;
    std::string cc;
    std::string block;
    std::string grid;
    int line = 0;
    Metrics metrics;
    std::map<std::string, Metrics> labelled; // Body Item Label -> ...
    // Per-kernel summary: the averages are `metrics`; the launches they cover and the spread.
    bool summary = false;
    std::optional<double> invocations;
    Metrics minimum;
    Metrics maximum;
};

// "launch 3 ("gemm")", or "kernel "gemm" (block ..., grid ...)" in a summary.
std::string launchWho(const Launch &launch);

// The launches of each page. Rule rows (advice text, no metric) are counted in `ruleRows`; a
// summary's Invocations cell that is not a whole number ≥ 1 is an error in `diagnostics` and
// leaves the kernel's invocations at 0.
std::vector<Launch> launchesOfDetails(const Table &table, int &ruleRows);
std::vector<Launch> launchesOfSummary(const Table &table, const std::string &fileName,
    std::vector<Diagnostic> &diagnostics, int &ruleRows);
std::vector<Launch> launchesOfRaw(const Table &table);

// The raw page's second row is its units row (empty under the identity columns).
bool isRawUnitsRow(const Table &table);

// Which columns hold metric values: Metric Value (details), Minimum/Maximum/Average (summary),
// or each metric column of the raw page.
std::vector<bool> valueColumns(const Table &table);

// sm__sass_thread_inst_executed_op_<letter><op>_pred_on.sum under `prefix` (sm__, smsp__).
std::string sassMetric(const std::string &prefix, char letter, const std::string &op);

} // namespace ridgepoint::ncu
