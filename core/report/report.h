// Text and JSON output of analyses and machines (the command line and exports share them).
#pragma once

#include "core/analysis/analysis.h"
#include "core/analysis/compare.h"
#include "core/analysis/operator_change.h"
#include "core/model/hardware.h"
#include "core/model/point.h"
#include "core/model/trace_summary.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

// In report_stream.h.
struct ReportText;

namespace detail {
class NumberCache;
} // namespace detail

// {"hardware": {..., "ridges": [...]}, "points": [...]} with every number in SI base units.
std::string analysisJson(const Hardware &hardware, const std::vector<AnalyzedPoint> &points);

// Which part of a report a writer writes. A report made in pieces (analyze formatting a big
// file's rows on several threads) is its Start once, the Rows of each run of points with a
// writer of their own, and its End once; the pieces joined in order are the Whole report of the
// same points.
enum class ReportPart {
    Whole,
    Start, // what comes before the first row (CSV's header line, JSON's machine); no rows
    Rows, // the rows alone
    End, // what follows the last row (JSON's closing brackets); no rows
};

// The same JSON text written point by point, for outputs too large to hold (a million points
// make about 1.1 GB): the text goes to `sink` in pieces of about a megabyte, in order, and the
// pieces joined are byte for byte what analysisJson() returns for the same points.
class AnalysisJsonWriter
{
public:
    using Sink = std::function<void(std::string_view)>;

    // `totalSeconds`: the measured time each point's payoff is a share of (0: every payoff
    // null). `compact`: JSON Lines instead, the {"hardware": ...} object on the first line and
    // one point object a line, without layout (about half the bytes).
    // `part`: the whole document or one part of it (ReportPart); `pointsBefore`, for Rows and
    // End, says whether points of the same document were written before them (the separator
    // before the first point, the end of a document without points). `trace`: a profiler
    // trace's GPU time, written as "trace" between the machine and the points. `changes`: the
    // run against the baseline in `baselineFile` (changesJson), written as "baseline" after it.
    AnalysisJsonWriter(const Hardware &hardware, Sink sink, double totalSeconds = 0.0,
        bool compact = false, ReportPart part = ReportPart::Whole, bool pointsBefore = false,
        const TraceSummary *trace = nullptr, const OperatorChanges *changes = nullptr,
        const std::string &baselineFile = {});
    ~AnalysisJsonWriter();
    AnalysisJsonWriter(const AnalysisJsonWriter &) = delete;
    AnalysisJsonWriter &operator=(const AnalysisJsonWriter &) = delete;

    void add(const KernelPoint &point, const PointAnalysis &analysis);
    // Closes the document and hands the rest to the sink; add nothing after it.
    void finish();
    // The text goes into `text` instead of to the sink, in one piece at finish() (what `text`
    // held is replaced; its storage is reused). Before the first add().
    void writeInto(ReportText &text);

private:
    static constexpr std::size_t kFlushBytes = 1U << 20;
    void flush();

    Sink m_sink;
    std::string m_buffer; // its size is its capacity; m_used bytes are written
    std::size_t m_used = 0;
    ReportText *m_into = nullptr; // writeInto's text
    std::size_t m_points = 0; // points of the document so far (those before this writer: 1)
    std::unique_ptr<detail::NumberCache> m_numbers; // numbers written lately, by value
    double m_totalSeconds;
    bool m_compact;
    ReportPart m_part;
};
// An aligned table for people: the machine's ceilings and ridges, then one row per point.
std::string analysisTable(const Hardware &hardware, const std::vector<AnalyzedPoint> &points);

// The points table for spreadsheets and review documents, one row per point in the order given
// (its first byte level). `speedups`, when not empty (one per point), adds the speed-up against
// a baseline and the formula it came from.
// CSV (RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted, quotes
// doubled): a header naming each column's unit, numbers in SI base units with every digit
// needed to read back the same double, empty cells for unknown values.
std::string tableCsv(const std::vector<AnalyzedPoint> &points,
    const std::vector<std::optional<Speedup>> &speedups = {});
// Markdown: a pipe table with columns padded to one width, numbers right-aligned and in human
// units ("1.2 TFLOP/s"), '|' in names escaped.
std::string tableMarkdown(const std::vector<AnalyzedPoint> &points,
    const std::vector<std::optional<Speedup>> &speedups = {});

// {"presets": [...]}, each entry shaped like the "hardware" object above.
std::string presetsJson(const std::vector<Hardware> &machines);
std::string presetsTable(const std::vector<Hardware> &machines);
// How many ceilings rest on each basis: "spec 8, derived 3, measured 0" (", unstated N" only when
// some are).
std::string basisSummary(const Hardware &hardware);
// One machine in full (`ridgepoint presets NAME`): every ceiling with its figure, basis, source,
// address, formula or measurement, clock, scope and notes, and its alternate figure.
std::string presetDetail(const Hardware &hardware);

// Lays out rows of cells in columns separated by two spaces; `rightAligned[i]` per column.
std::string alignedTable(
    const std::vector<std::vector<std::string>> &rows, const std::vector<bool> &rightAligned);

} // namespace ridgepoint
