// The points table for people (aligned), spreadsheets (CSV) and review documents (Markdown),
// each written point by point; the whole-vector functions of report.h go through the same
// writers.
#include "core/report/change_report.h"
#include "core/report/diagnosis_report.h"
#include "core/report/level_columns.h"
#include "core/report/report.h"
#include "core/report/report_stream.h"
#include "core/report/trace_report.h"

#include "core/analysis/levels.h"
#include "core/analysis/payoff.h"

#include "core/model/byte_words.h"
#include "core/model/shortest_number.h"
#include "core/model/units.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <utility>

namespace ridgepoint {
namespace {

std::string percent(double fraction)
{
    return formatSignificant(fraction * 100.0, 3) + " %";
}

std::string percentOr(const std::optional<double> &fraction, const char *none)
{
    return fraction ? percent(*fraction) : std::string(none);
}

// The shortest text that reads back as the same double ("1e+09", "0.1", "3.3333333333333335"),
// std::to_chars's text, converted straight into the output's storage (no buffer to copy from);
// with `comma`, the delimiter after it in the same step (a CSV cell other than the last).
void appendExactNumber(std::string &out, double value, bool comma = false)
{
    const std::size_t used = out.size();
    out.resize_and_overwrite(
        used + kShortestRoom + 1, [used, value, comma](char *data, std::size_t) {
            char *end = writeShortest(data + used, value);
            *end = ',';
            return static_cast<std::size_t>(end + (comma ? 1 : 0) - data);
        });
}

// Whether one of the eight bytes at `bytes` is a comma, a quote, CR or LF.
bool csvSpecialIn(const char *bytes)
{
    const std::uint64_t word = bytewise::load(bytes);
    return bytewise::anyEqual(word, ',') || bytewise::anyEqual(word, '"')
        || bytewise::anyEqual(word, '\r') || bytewise::anyEqual(word, '\n');
}

bool csvSpecial(char c)
{
    return c == ',' || c == '"' || c == '\r' || c == '\n';
}

// RFC 4180: quoted when it holds a delimiter, a quote or a line break; quotes doubled. One pass,
// eight bytes at a time.
void appendCsvField(std::string &out, std::string_view text)
{
    const char *const data = text.data();
    const std::size_t size = text.size();
    bool quoted = false;
    std::size_t i = 0;
    for (; !quoted && i + 8 <= size; i += 8)
        quoted = csvSpecialIn(data + i);
    for (; !quoted && i < size; ++i)
        quoted = csvSpecial(data[i]);
    if (!quoted) {
        out += text;
        return;
    }
    out += '"';
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t quote = std::min(text.find('"', at), text.size());
        out.append(text, at, quote - at);
        if (quote < text.size())
            out += "\"\""; // a quote doubled
        at = quote + 1;
    }
    out += '"';
}

std::string markdownCell(const std::string &text)
{
    std::string out;
    for (char c : text) {
        if (c == '|')
            out += "\\|";
        else if (c == '\r')
            continue;
        else if (c == '\n')
            out += ' ';
        else
            out += c;
    }
    return out;
}

std::string noteOf(const PointAnalysis &a)
{
    return a.consistent ? a.note : "INCONSISTENT: " + a.note;
}

// Names longer than 60 characters (a C++ kernel's whole signature) are cut so the table stays
// readable; CSV, Markdown and JSON keep them whole. Past the look-ahead, names are cut only
// beyond 24 characters and numbers keep the room their longest form takes ("999.9 TFLOP/s"), so
// a later row rarely pushes its neighbours right. One bytes column per level seen.
std::vector<StreamColumn> tableColumns(std::size_t levels)
{
    const StreamColumn text { false, false, 0, 0 };
    const auto cut = [](std::size_t min) { return StreamColumn { false, true, min, 60 }; };
    const auto number = [](std::size_t min) { return StreamColumn { true, false, min, 0 }; };
    std::vector<StreamColumn> columns { cut(24), number(11) };
    columns.insert(columns.end(), levels, number(9));
    columns.insert(columns.end(),
        { number(13), number(13), number(13), number(7), number(7),
            StreamColumn { false, false, 7, 0 }, cut(12), number(8), number(8), text });
    return columns;
}

// The note with the levels that have no column appended.
std::string withMissing(const std::string &note, const std::string &missing)
{
    if (missing.empty())
        return note;
    return note.empty() ? missing : note + "; " + missing;
}

class TableWriter final : public ReportWriter
{
public:
    TableWriter(const Hardware &hardware, ReportSink sink, const ReportWriterOptions &options)
        : m_sink(std::move(sink))
        , m_summary(options.summary)
        , m_lookAhead(options.lookAhead)
        , m_totalSeconds(options.totalSeconds)
        , m_points(
              options.lookAhead, [this](const LevelColumns &columns) { start(columns); },
              [this](const KernelPoint &point, const PointAnalysis &a,
                  const std::optional<Speedup> &) { row(point, a); })
    {
        if (options.trace)
            m_sink(traceSummaryLine(*options.trace) + "\n\n");
        m_sink(presetsTable({ hardware }) + "\n");
        if (options.changes)
            m_changes = changesTable(*options.changes, options.baselineFile);
        if (options.otherMachines)
            m_notes.tryOtherMachines(hardware, *options.otherMachines, options.analysisOptions);
    }

    void add(const KernelPoint &point, const PointAnalysis &a,
        const std::optional<Speedup> &speedup) override
    {
        m_tally.add(a);
        m_leaders.add(point.name, payoff(point, a, m_totalSeconds));
        m_notes.add(point, a);
        m_points.add(point, a, speedup);
    }

    void finish() override
    {
        m_points.finish();
        m_table->finish();
        if (m_summary)
            m_sink("\n" + m_tally.line() + "\n" + m_leaders.line() + m_notes.text());
        if (!m_changes.empty())
            m_sink(m_changes);
    }

    std::size_t mostRowsHeld() const override { return m_table ? m_table->mostRowsHeld() : 0; }

private:
    void start(const LevelColumns &columns)
    {
        m_table.emplace(
            tableColumns(columns.levels().size()), TableStyle::Aligned, m_lookAhead, m_sink);
        std::vector<std::string> header { "kernel", "FLOPs" };
        for (const MemoryLevel level : columns.levels())
            header.push_back(std::string(memoryLevelName(level)) + " bytes");
        header.insert(header.end(),
            { columns.intensityHeader(), "performance", "attainable", "util.", "payoff", "bound",
                "limit", "T_min", "T_max", "note" });
        m_table->addRow(std::move(header));
    }

    void row(const KernelPoint &point, const PointAnalysis &a)
    {
        const LevelColumns &columns = m_points.columns();
        // A point known by intensity and rate has no counts and no times to show.
        const bool counted = !point.knownByIntensity();
        const auto shown = [counted](double value, Dimension dimension) {
            return counted ? formatQuantity(value, dimension) : std::string("-");
        };
        const auto bytes = [&](const LevelAnalysis &l) { return shown(l.bytes, Dimension::Bytes); };
        std::vector<std::string> cells { point.name, shown(point.flops, Dimension::Flops) };
        for (auto &cell : columns.cells(a, bytes))
            cells.push_back(cell.empty() ? std::string("-") : std::move(cell));
        cells.insert(cells.end(),
            { columns.intensityCell(a, [](double i) { return formatSignificant(i, 4); }),
                a.performance ? formatQuantity(*a.performance, Dimension::FlopRate) : "-",
                formatQuantity(a.attainable, Dimension::FlopRate),
                a.utilization ? percent(*a.utilization) : "-",
                percentOr(payoff(point, a, m_totalSeconds), "-"), std::string(boundName(a.bound)),
                a.limitingCeiling, shown(a.tMin, Dimension::Time), shown(a.tMax, Dimension::Time),
                withMissing(noteOf(a), columns.missing(a, bytes)) });
        m_table->addRow(std::move(cells));
    }

    ReportSink m_sink;
    bool m_summary;
    std::string m_changes; // the run against its baseline, after everything else
    std::size_t m_lookAhead;
    double m_totalSeconds;
    BoundTally m_tally;
    PayoffLeaders m_leaders; // the "what next" line
    DiagnosisNotes m_notes; // printed under the tally
    PointLookAhead m_points;
    std::optional<StreamedTable> m_table;
};

class CsvWriter final : public ReportWriter
{
public:
    CsvWriter(ReportSink sink, const ReportWriterOptions &options)
        : m_sink(std::move(sink))
        , m_withSpeedup(options.withSpeedup)
        , m_totalSeconds(options.totalSeconds)
        , m_levels(options.levels)
        , m_into(options.into)
        , m_out(options.into ? options.into->bytes : m_own)
        , m_points(
              options.lookAhead,
              [this](const LevelColumns &columns) {
                  if (m_part == ReportPart::Whole)
                      start(columns.levels());
              },
              [this](const KernelPoint &point, const PointAnalysis &a,
                  const std::optional<Speedup> &speedup) { row(point, a, speedup); })
        , m_part(options.part)
        , m_trace(options.trace)
    {
        m_out.clear();
        // Columns given: no look-ahead, the header (when written) at once.
        if (m_levels && (m_part == ReportPart::Whole || m_part == ReportPart::Start))
            start(*m_levels);
    }

    void add(const KernelPoint &point, const PointAnalysis &a,
        const std::optional<Speedup> &speedup) override
    {
        if (m_part == ReportPart::Start || m_part == ReportPart::End)
            return; // no rows in these parts
        if (m_levels)
            row(point, a, speedup);
        else
            m_points.add(point, a, speedup);
    }

    void finish() override
    {
        if (!m_levels && (m_part == ReportPart::Whole || m_part == ReportPart::Rows))
            m_points.finish();
        if (m_trace && m_part == ReportPart::Whole)
            unplacedRows();
        flush();
    }

private:
    // The levels with columns: those given, else those of the look-ahead.
    const std::vector<MemoryLevel> &levels() const
    {
        return m_levels ? *m_levels : m_points.columns().levels();
    }

    // The main level's memory, bytes and intensity first (as before levels had columns), then a
    // bytes and an intensity column per level.
    void start(const std::vector<MemoryLevel> &levels)
    {
        std::vector<std::string> header { "kernel", "group", "precision", "flops [FLOP]", "memory",
            "bytes [B]", "intensity [FLOP/B]", "time [s]", "performance [FLOP/s]",
            "attainable [FLOP/s]", "utilization [1]", "payoff [1]", "bound", "limiting ceiling",
            "T_min [s]", "T_max [s]", "consistent", "note" };
        if (m_withSpeedup) {
            header.emplace_back("speed-up vs baseline [1]");
            header.emplace_back("speed-up formula");
        }
        for (const MemoryLevel level : levels) {
            const std::string name(memoryLevelName(level));
            header.push_back(name + " bytes [B]");
            header.push_back(name + " intensity [FLOP/B]");
        }
        line(header);
    }

    // One row, appended straight to the output: no cell strings, each number written once into
    // the output (a level's bytes and intensity columns repeat the main level's text).
    void row(
        const KernelPoint &point, const PointAnalysis &a, const std::optional<Speedup> &speedup)
    {
        const LevelAnalysis &first = *mainLevel(a);
        // Empty cells for the counts and times a point known by intensity and rate lacks.
        const bool counted = !point.knownByIntensity();
        std::string &out = m_out;
        const auto field = [&out](std::string_view text) {
            appendCsvField(out, text);
            out += ',';
        };
        const auto number = [&out](const std::optional<double> &value) {
            if (value)
                appendExactNumber(out, *value, true);
            else
                out += ',';
        };
        const auto count
            = [&](double value) { number(counted ? std::optional(value) : std::nullopt); };
        field(point.name);
        field(point.group);
        field(point.precision ? precisionName(*point.precision) : std::string_view());
        count(point.flops);
        field(first.memory);
        const std::size_t firstBytes = out.size();
        count(first.bytes);
        const std::size_t firstIntensity = out.size();
        number(first.intensity);
        const std::size_t afterFirst = out.size();
        number(point.seconds);
        number(a.performance);
        number(a.attainable);
        number(a.utilization);
        number(payoff(point, a, m_totalSeconds));
        field(boundName(a.bound));
        field(a.limitingCeiling);
        count(a.tMin);
        count(a.tMax);
        field(a.consistent ? "true" : "false");
        appendCsvField(out, a.note);
        if (m_withSpeedup) {
            out += ',';
            if (speedup)
                appendExactNumber(out, speedup->factor);
            out += ',';
            appendCsvField(out, speedup ? speedupFormula(speedup->basis) : std::string_view());
        }
        for (const MemoryLevel column : levels()) {
            out += ',';
            const LevelAnalysis *level = LevelColumns::find(a, column);
            if (level == &first) {
                // The same numbers as the main level's columns: copied, not written again.
                out.append(out, firstBytes, firstIntensity - 1 - firstBytes);
                out += ',';
                out.append(out, firstIntensity, afterFirst - 1 - firstIntensity);
                continue;
            }
            if (level && counted)
                appendExactNumber(out, level->bytes);
            out += ',';
            if (level)
                appendExactNumber(out, level->intensity);
        }
        endLine();
    }

    // A profiler trace's kernels that could not be placed, after the points: the name, the
    // time, "not placed" as the bound and the reason with the launches as the note; the other
    // cells empty. The time column then adds up to the trace's GPU time.
    void unplacedRows()
    {
        const std::size_t columns
            = 18 + (m_withSpeedup ? 2 : 0) + 2 * levels().size(); // as start()'s header
        for (const UnplacedKernels &u : m_trace->unplaced) {
            std::vector<std::string> cells(columns);
            cells[0] = u.name;
            std::string seconds;
            appendExactNumber(seconds, u.seconds);
            cells[7] = std::move(seconds);
            cells[12] = "not placed";
            cells[17] = u.reason + " (" + std::to_string(u.launches)
                + (u.launches == 1 ? " launch)" : " launches)");
            line(cells);
        }
    }

    static constexpr std::size_t kFlushBytes = 1U << 16;

    void line(const std::vector<std::string> &cells)
    {
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (i > 0)
                m_out += ',';
            appendCsvField(m_out, cells[i]);
        }
        endLine();
    }

    void endLine()
    {
        m_out += "\r\n";
        if (m_out.size() >= kFlushBytes && m_into == nullptr)
            flush();
    }

    void flush()
    {
        if (m_into) {
            m_into->size = m_out.size(); // the text is where it goes
            return;
        }
        if (!m_out.empty())
            m_sink(m_out);
        m_out.clear();
    }

    ReportSink m_sink;
    bool m_withSpeedup;
    double m_totalSeconds;
    std::optional<std::vector<MemoryLevel>> m_levels;
    std::string m_own; // the text before it goes to the sink
    ReportText *m_into; // options.into, or none
    std::string &m_out; // m_own, or the bytes of options.into
    PointLookAhead m_points;
    ReportPart m_part;
    const TraceSummary *m_trace;
};

std::vector<StreamColumn> markdownColumns(bool withSpeedup, std::size_t levels)
{
    std::vector<StreamColumn> columns;
    for (const bool right : { false, false, true })
        columns.push_back({ right, false, 0, 0 });
    columns.insert(columns.end(), levels + 1, StreamColumn { true, false, 0, 0 });
    for (const bool right : { true, true, true, true, true, false, false, true, false })
        columns.push_back({ right, false, 0, 0 });
    if (withSpeedup)
        columns.push_back({ true, false, 0, 0 });
    return columns;
}

class MarkdownWriter final : public ReportWriter
{
public:
    MarkdownWriter(ReportSink sink, const ReportWriterOptions &options)
        : m_sink(std::move(sink))
        , m_withSpeedup(options.withSpeedup)
        , m_lookAhead(options.lookAhead)
        , m_totalSeconds(options.totalSeconds)
        , m_trace(options.trace)
        , m_points(
              options.lookAhead, [this](const LevelColumns &columns) { start(columns); },
              [this](const KernelPoint &point, const PointAnalysis &a,
                  const std::optional<Speedup> &speedup) { row(point, a, speedup); })
    {
        if (m_trace)
            m_sink(traceMarkdownIntro(*m_trace));
        if (options.changes)
            m_changes = changesMarkdown(*options.changes, options.baselineFile, markdownCell);
    }

    void add(const KernelPoint &point, const PointAnalysis &a,
        const std::optional<Speedup> &speedup) override
    {
        m_points.add(point, a, speedup);
    }

    void finish() override
    {
        m_points.finish();
        m_table->finish();
        if (m_trace)
            m_sink(traceMarkdownUnplaced(*m_trace, markdownCell));
        if (!m_changes.empty())
            m_sink(m_changes);
    }
    std::size_t mostRowsHeld() const override { return m_table ? m_table->mostRowsHeld() : 0; }

private:
    void start(const LevelColumns &columns)
    {
        m_table.emplace(markdownColumns(m_withSpeedup, columns.levels().size()), TableStyle::Pipe,
            m_lookAhead, m_sink);
        std::vector<std::string> header { "Kernel", "Group", "FLOPs" };
        for (const MemoryLevel level : columns.levels())
            header.push_back(std::string(memoryLevelName(level)) + " bytes");
        std::string intensity = columns.intensityHeader();
        intensity.front() = static_cast<char>(std::toupper(intensity.front()));
        header.insert(header.end(),
            { intensity + " [FLOP/B]", "Time", "Performance", "Attainable", "Utilization", "Payoff",
                "Bound", "Limit", "T_min", "Note" });
        if (m_withSpeedup)
            header.emplace_back("Speed-up");
        m_table->addRow(std::move(header));
    }

    void row(
        const KernelPoint &point, const PointAnalysis &a, const std::optional<Speedup> &speedup)
    {
        const LevelColumns &columns = m_points.columns();
        const bool counted = !point.knownByIntensity();
        const auto shown = [counted](double value, Dimension dimension) {
            return counted ? formatQuantity(value, dimension) : std::string("–");
        };
        const auto bytes = [&](const LevelAnalysis &l) { return shown(l.bytes, Dimension::Bytes); };
        std::vector<std::string> cells { point.name, point.group,
            shown(point.flops, Dimension::Flops) };
        for (auto &cell : columns.cells(a, bytes))
            cells.push_back(cell.empty() ? std::string("–") : std::move(cell));
        cells.insert(cells.end(),
            { columns.intensityCell(a, [](double i) { return formatSignificant(i, 4); }),
                point.seconds ? formatQuantity(*point.seconds, Dimension::Time) : "–",
                a.performance ? formatQuantity(*a.performance, Dimension::FlopRate) : "planned",
                formatQuantity(a.attainable, Dimension::FlopRate),
                a.utilization ? percent(*a.utilization) : "–",
                percentOr(payoff(point, a, m_totalSeconds), "–"), std::string(boundName(a.bound)),
                a.limitingCeiling, shown(a.tMin, Dimension::Time),
                withMissing(noteOf(a), columns.missing(a, bytes)) });
        if (m_withSpeedup)
            cells.push_back(speedup ? "×" + formatSignificant(speedup->factor, 3) : "–");
        for (auto &cell : cells)
            cell = markdownCell(cell);
        m_table->addRow(std::move(cells));
    }

    ReportSink m_sink;
    bool m_withSpeedup;
    std::size_t m_lookAhead;
    double m_totalSeconds;
    const TraceSummary *m_trace;
    std::string m_changes; // the run against its baseline, after the unplaced kernels
    PointLookAhead m_points;
    std::optional<StreamedTable> m_table;
};

class JsonWriter final : public ReportWriter
{
public:
    JsonWriter(const Hardware &hardware, ReportSink sink, const ReportWriterOptions &options)
        : m_writer(hardware, std::move(sink), options.totalSeconds, options.compact, options.part,
            options.rowsBefore, options.compact ? nullptr : options.trace,
            options.compact ? nullptr : options.changes, options.baselineFile)
    {
        if (options.into)
            m_writer.writeInto(*options.into);
    }
    void add(const KernelPoint &point, const PointAnalysis &analysis,
        const std::optional<Speedup> &) override
    {
        m_writer.add(point, analysis);
    }
    void finish() override { m_writer.finish(); }

private:
    AnalysisJsonWriter m_writer;
};

// The whole report of `points` in one string, through the writer of `format`.
std::string wholeReport(ReportFormat format, const Hardware *hardware,
    const std::vector<AnalyzedPoint> &points, const std::vector<std::optional<Speedup>> &speedups)
{
    std::string text;
    ReportWriterOptions options;
    options.lookAhead = kWholeTable;
    options.withSpeedup = !speedups.empty();
    options.totalSeconds = totalSeconds(points);
    const Hardware none;
    auto writer = makeReportWriter(
        format, hardware ? *hardware : none, [&](std::string_view piece) { text += piece; },
        options);
    for (std::size_t i = 0; i < points.size(); ++i)
        writer->add(
            points[i].point, points[i].analysis, i < speedups.size() ? speedups[i] : std::nullopt);
    writer->finish();
    return text;
}

} // namespace

std::unique_ptr<ReportWriter> makeReportWriter(ReportFormat format, const Hardware &hardware,
    ReportSink sink, const ReportWriterOptions &options)
{
    switch (format) {
    case ReportFormat::Table:
        return std::make_unique<TableWriter>(hardware, std::move(sink), options);
    case ReportFormat::Csv:
        return std::make_unique<CsvWriter>(std::move(sink), options);
    case ReportFormat::Markdown:
        return std::make_unique<MarkdownWriter>(std::move(sink), options);
    case ReportFormat::Json:
        break;
    }
    return std::make_unique<JsonWriter>(hardware, std::move(sink), options);
}

std::string analysisTable(const Hardware &hardware, const std::vector<AnalyzedPoint> &points)
{
    return wholeReport(ReportFormat::Table, &hardware, points, {});
}

std::string tableCsv(
    const std::vector<AnalyzedPoint> &points, const std::vector<std::optional<Speedup>> &speedups)
{
    return wholeReport(ReportFormat::Csv, nullptr, points, speedups);
}

std::string tableMarkdown(
    const std::vector<AnalyzedPoint> &points, const std::vector<std::optional<Speedup>> &speedups)
{
    return wholeReport(ReportFormat::Markdown, nullptr, points, speedups);
}

std::string changesCsv(const OperatorChanges &changes)
{
    std::string out = "operator and shapes,status,baseline time [s],time [s],speed-up [1],"
                      "baseline kernels,kernels\r\n";
    for (const OperatorChange &row : changes.rows) {
        appendCsvField(out, row.key);
        out += ',';
        appendCsvField(out, changeStatus(row));
        out += ',';
        appendExactNumber(out, row.baselineSeconds, true);
        appendExactNumber(out, row.currentSeconds, true);
        if (const auto speedup = row.speedup())
            appendExactNumber(out, *speedup);
        out.append(",")
            .append(std::to_string(row.baselinePoints))
            .append(",")
            .append(std::to_string(row.currentPoints))
            .append("\r\n");
    }
    return out;
}

} // namespace ridgepoint
