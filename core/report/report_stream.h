// Reports written while the points are read (`analyze` on a file of any length): a writer holds
// at most a fixed look-ahead of table rows and a few running counters, never the file's points.
#pragma once

#include "core/analysis/analysis.h"
#include "core/analysis/compare.h"
#include "core/analysis/operator_change.h"
#include "core/model/hardware.h"
#include "core/model/point.h"
#include "core/report/report.h"

#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgepoint {

// Characters on screen: UTF-8 code points (continuation bytes are not counted).
std::size_t displayWidth(std::string_view text);
// `text` when it fits in `width` characters, else its first width - 1 characters and "…" (cut
// between code points, never inside one).
std::string truncatedToWidth(std::string_view text, std::size_t width);

using ReportSink = std::function<void(std::string_view)>;

struct StreamColumn {
    bool rightAligned = false;
    bool truncated = false; // cut with "…" past its width once the widths are fixed
    std::size_t minWidth = 0; // at least this wide when the look-ahead was not the whole table
    std::size_t maxWidth = 0; // a `truncated` column: never wider (0: no limit)
};

// Aligned: cells separated by two spaces, the last one not padded (alignedTable's layout).
// Pipe: a Markdown pipe table, a rule under the first row, every column at least 3 wide.
enum class TableStyle { Aligned, Pipe };

// A table written row by row. The first `lookAhead` rows are held to measure the columns; a
// table that ends within them is laid out exactly as alignedTable (or the pipe layout) does it.
// Past them the widths are fixed (each at least its column's minWidth) and every later row is
// written at once: a longer cell is cut with "…" in a `truncated` column, and otherwise written
// whole, pushing the rest of its row right. A truncated column's maxWidth holds in both cases.
class StreamedTable
{
public:
    StreamedTable(std::vector<StreamColumn> columns, TableStyle style, std::size_t lookAhead,
        ReportSink sink);
    void addRow(std::vector<std::string> cells);
    // Writes the rows still held and hands everything to the sink.
    void finish();
    // The most rows held at once, waiting for their widths: at most the look-ahead.
    std::size_t mostRowsHeld() const { return m_mostHeld; }
    bool widthsFixed() const { return m_fixed; }

private:
    static constexpr std::size_t kFlushBytes = 1U << 16;
    void fixWidths(bool wholeTable);
    void writeRow(const std::vector<std::string> &cells, bool first);
    void flush();

    std::vector<StreamColumn> m_columns;
    TableStyle m_style;
    std::size_t m_lookAhead;
    ReportSink m_sink;
    std::vector<std::vector<std::string>> m_held;
    std::vector<std::size_t> m_widths;
    std::size_t m_mostHeld = 0;
    bool m_fixed = false;
    bool m_wroteFirst = false;
    std::string m_out;
};

// Running totals of the placed points, in constant memory.
struct BoundTally {
    std::size_t points = 0;
    std::size_t memoryBound = 0;
    std::size_t computeBound = 0;
    std::size_t latencyBound = 0; // under the machine's launch latency (docs/MODEL.md §13)
    std::size_t inconsistent = 0;

    void add(const PointAnalysis &analysis);
    // "3 points: 2 memory-bound, 1 compute-bound" and ", 1 faster than the roofline allows".
    std::string line() const;
};

// The few points with the largest payoff seen so far (topPayoff's order: largest first, ties
// by arrival), in constant memory, for the table's "what next" line. A payoff of 0 (a point at
// or above its roof) is not named.
class PayoffLeaders
{
public:
    static constexpr std::size_t kShown = 3;
    void add(const std::string &name, const std::optional<double> &payoff);
    // "what next (payoff = time share × (1 − utilization)): a 12.5 %, b 3.1 %, c 0.2 %"; empty
    // when no point had a payoff.
    std::string line() const;

private:
    std::vector<std::pair<double, std::string>> m_leaders; // at most kShown, largest first
};

enum class ReportFormat { Table, Csv, Markdown, Json };

// A text a writer leaves in place instead of handing it to a sink: bytes[0, size). What lies
// beyond is room kept for the next text (a std::string zero-fills whatever it grows by, and
// clearing megabytes for every part of a big report showed in its profile).
struct ReportText {
    std::string bytes;
    std::size_t size = 0;
    std::string_view text() const { return { bytes.data(), size }; }
};

// One report in one format, written as the points come.
class ReportWriter
{
public:
    virtual ~ReportWriter() = default;
    virtual void add(const KernelPoint &point, const PointAnalysis &analysis,
        const std::optional<Speedup> &speedup = std::nullopt)
        = 0;
    // Ends the report and hands the rest to the sink; add nothing after it.
    virtual void finish() = 0;
    // Table rows held at once, waiting for their column widths (0 for CSV and JSON).
    virtual std::size_t mostRowsHeld() const { return 0; }
};

// Rows the table and Markdown writers measure before fixing their widths.
inline constexpr std::size_t kTableLookAhead = 1000;
inline constexpr std::size_t kWholeTable = std::numeric_limits<std::size_t>::max();

struct ReportWriterOptions {
    std::size_t lookAhead = kTableLookAhead;
    bool withSpeedup = false; // CSV and Markdown: the speed-up columns
    bool summary = false; // table: a BoundTally line after the rows
    // The measured time the payoff column shares out (docs/MODEL.md §2.2); 0: no payoff.
    double totalSeconds = 0.0;
    bool compact = false; // JSON: one object per line (JSON Lines) instead of one document
    // CSV and JSON: the part of the report written (ReportPart); the table and Markdown, whose
    // widths come from a look-ahead, always write the whole report.
    ReportPart part = ReportPart::Whole;
    // Rows and End: rows of the same report were written before (JSON: the separator before
    // the first row, and the end of a report without rows).
    bool rowsBefore = false;
    // CSV: the memory levels that get columns, instead of those of the look-ahead points
    // (needed by Start and Rows, whose writers do not see the first points).
    std::optional<std::vector<MemoryLevel>> levels;
    // CSV and JSON: the text goes here (what it held replaced, its storage reused) instead of
    // to the sink, in one piece at finish(): a part made on one thread and written on another
    // is then never copied on the way.
    ReportText *into = nullptr;
    // A profiler trace's GPU time: the table starts with its line (traceSummaryLine), the JSON
    // has it as "trace" (not in compact JSON Lines), Markdown a sentence before the points and
    // a table of the unplaced kernels after them, CSV a row per unplaced kernel after the points
    // (in a whole report only).
    const TraceSummary *trace = nullptr;
    // A run against its baseline operator by operator (change_report.h): the table's and
    // Markdown's section after the points, the JSON's "baseline" object (not in compact JSON
    // Lines). `baselineFile` names the baseline in them.
    const OperatorChanges *changes = nullptr;
    std::string baselineFile;
    // Table: the machines the doctor tries when points are faster than this machine's roofs
    // (core/analysis/machine_fit.h), with the options the points were analysed with; none: no
    // such guess.
    const std::vector<Hardware> *otherMachines = nullptr;
    AnalysisOptions analysisOptions;
};

// The writer of `format`: the text the pieces make is what analysisTable (after its machine),
// tableCsv, tableMarkdown and analysisJson give for the same points, as long as the table ends
// within the look-ahead.
std::unique_ptr<ReportWriter> makeReportWriter(ReportFormat format, const Hardware &hardware,
    ReportSink sink, const ReportWriterOptions &options = {});

} // namespace ridgepoint
