// The generic points CSV reader (docs/FILES.md): the header found among the first rows and
// checked, then each row read into a point as the scanner reaches it, kept in a vector or
// streamed to a sink.
#include "core/io/formats/csv.h"
#include "core/io/formats/csv_columns.h"
#include "core/io/formats/csv_row.h"
#include "core/io/formats/csv_scanner.h"
#include "core/io/formats/points_csv_pieces.h"
#include "core/io/formats/points_csv_tape.h"
#include "core/io/text.h"
#include "core/io/memory_hint.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

namespace ridgepoint {
namespace {

using namespace csv;

// How many rows the header may come after (tools print preamble lines before the table).
constexpr int kHeaderSearchRows = 50;

// Why a row's fields do not fit a header of `columns` columns: too few, or extra ones that are
// not empty. The column the message is about (0: the row) and the message.
std::optional<std::pair<int, std::string>> fieldCountProblem(
    const ScannedRow &row, std::size_t columns, const CsvScanner &scanner)
{
    const auto wrongFieldCount = [&] {
        return "expected " + std::to_string(columns) + " fields, found "
            + std::to_string(row.fields.size());
    };
    if (row.fields.size() < columns)
        return std::pair { 0, wrongFieldCount() };
    for (std::size_t i = columns; i < row.fields.size(); ++i) {
        if (!trim(row.fields[i].text).empty())
            return std::pair { scanner.column(row.fields[columns]), wrongFieldCount() };
    }
    return std::nullopt;
}

// Where the reader builds each point: start() gives a fresh point, then keep() or drop().
// Points are built in place, so a point costs no copy on its way into a vector.
class PointVector
{
public:
    explicit PointVector(std::vector<KernelPoint> &points)
        : m_points(points)
    { }
    KernelPoint &start() { return m_points.emplace_back(); }
    void keep(const ScannedRow &) { }
    void drop() { m_points.pop_back(); }

private:
    std::vector<KernelPoint> &m_points;
};

class PointStream
{
public:
    explicit PointStream(const PointSink &sink)
        : m_sink(sink)
    { }
    // Each point kept on `tape` too, read from a piece whose first line is `firstLine`.
    PointStream(const PointSink &sink, PointsCsvTape *tape, int firstLine)
        : m_sink(sink)
        , m_tape(tape)
        , m_firstLine(firstLine)
    { }
    // A fresh point that keeps the last one's string and vector buffers (when the sink did not
    // take them), so a sink that only looks at the points costs no allocation per row.
    KernelPoint &start()
    {
        m_point.clear();
        return m_point;
    }
    void keep(const ScannedRow &row)
    {
        if (m_tape)
            m_tape->record(m_point, row.line, m_firstLine);
        m_sink(std::move(m_point));
    }
    void drop() { }

private:
    const PointSink &m_sink;
    PointsCsvTape *m_tape = nullptr;
    int m_firstLine = 1;
    KernelPoint m_point;
};

// One read of a points CSV but for where its points go: the scanner, the header and the
// messages. Messages come in the order of a reader that tokenized the whole file first: the
// tokenizer's, then the header's, then the rows'; at most `maxDiagnostics` of them, then one
// line saying how many more. An error from the tokenizer (an unterminated quote, found only at
// the end) voids everything else.
class PointsCsvReader
{
public:
    PointsCsvReader(std::string_view text, const std::string &fileName, int maxDiagnostics)
        : m_fileName(fileName)
        , m_limit(static_cast<std::size_t>(std::max(0, maxDiagnostics)))
        , m_delimiter(detectDelimiter(withoutBom(text)))
        , m_scanner(withoutBom(text), m_delimiter, fileName, m_tokenizerDiagnostics, m_limit)
    { }

    // Finds and checks the header; false when the file does not get as far as its rows
    // (stopped() then gives its messages).
    bool header()
    {
        if (!findHeader())
            return false;
        // The median is the time when nothing else is.
        if (!has(Role::Time) && has(Role::TimeMedian))
            find(Role::TimeMedian)->role = Role::Time;
        if (!checkHeader())
            return false;
        std::vector<std::string> ignored;
        for (const Column &column : m_columns) {
            if (column.role == Role::Ignored && !column.header.empty())
                ignored.push_back(column.header);
        }
        if (!ignored.empty())
            report({ Severity::Warning, m_fileName, m_header.line, 0,
                "columns not used: " + joinedList(ignored, "\"") });
        return true;
    }

    const std::vector<Column> &columns() const { return m_columns; }
    char delimiter() const { return m_delimiter; }
    bool next(ScannedRow &row) { return m_scanner.next(row); }

    // Counts the row; false (an error) when its fields do not fit the header.
    bool fits(const ScannedRow &row)
    {
        ++m_result.rowsRead;
        if (auto problem = fieldCountProblem(row, m_columns.size(), m_scanner)) {
            skip(row, problem->first, std::move(problem->second));
            return false;
        }
        return true;
    }

    // After header(): no message so far (no unused column, no quoting problem).
    bool quiet() const
    {
        return m_reported == 0 && m_tokenizerDiagnostics.empty()
            && m_scanner.diagnosticsDropped() == 0;
    }
    const ScannedRow &headerRow() const { return m_header; }

    void rowError(const ScannedRow &row, RowError error)
    {
        skip(row, error.field ? m_scanner.column(*error.field) : 0, std::move(error.message));
    }

    // A point kept: rows of 0 FLOPs (pure data movement) are counted for one warning.
    void kept(const KernelPoint &point, int line)
    {
        if (!point.intensity && point.flops == 0.0 && m_zeroFlopRows++ == 0)
            m_firstZeroFlopLine = line;
    }

    // A file that does not get as far as its rows: its messages, no summary line.
    PointsReadResult stopped()
    {
        m_scanner.drain();
        if (m_scanner.failed())
            forgetOwnMessages();
        collect();
        return std::move(m_result);
    }

    PointsReadResult finish()
    {
        if (m_scanner.failed()) {
            // An unterminated quote: the rows read are not what the file meant.
            forgetOwnMessages();
            collect();
            return PointsReadResult { {}, std::move(m_result.diagnostics), 0, 0, std::nullopt };
        }
        if (m_zeroFlopRows > 0) {
            report({ Severity::Warning, m_fileName, m_firstZeroFlopLine, 0,
                std::to_string(m_zeroFlopRows) + (m_zeroFlopRows == 1 ? " row has" : " rows have")
                    + " 0 FLOPs (pure data movement): kept, but an intensity of 0 has no place "
                      "on a log-log roofline" });
        }
        if (const std::size_t suppressed = collect(); suppressed > 0) {
            m_result.diagnostics.push_back({ Severity::Error, m_fileName, 0, 0,
                "... and " + std::to_string(suppressed) + " more problems not shown" });
        }
        if (m_result.rowsRead == 0) {
            m_result.diagnostics.push_back({ Severity::Error, m_fileName, m_header.line, 0,
                "the header has no data rows after it" });
        }
        return std::move(m_result);
    }

private:
    void report(Diagnostic diagnostic)
    {
        if (m_diagnostics.size() < m_limit)
            m_diagnostics.push_back(std::move(diagnostic));
        ++m_reported;
    }

    void skip(const ScannedRow &row, int column, std::string message)
    {
        report({ Severity::Error, m_fileName, row.line, column, std::move(message) });
        ++m_result.rowsSkipped;
    }

    void forgetOwnMessages()
    {
        m_diagnostics.clear();
        m_reported = 0;
    }

    // The tokenizer's messages, then the reader's, at most `m_limit` in all; returns how many
    // were left out.
    std::size_t collect()
    {
        m_scanner.drain();
        m_result.diagnostics.clear();
        for (auto *list : { &m_tokenizerDiagnostics, &m_diagnostics }) {
            for (auto &d : *list) {
                if (m_result.diagnostics.size() < m_limit)
                    m_result.diagnostics.push_back(std::move(d));
            }
        }
        return m_tokenizerDiagnostics.size() + m_scanner.diagnosticsDropped() + m_reported
            - m_result.diagnostics.size();
    }

    std::vector<Column>::iterator find(Role role)
    {
        return std::find_if(
            m_columns.begin(), m_columns.end(), [role](const Column &c) { return c.role == role; });
    }
    bool has(Role role) { return find(role) != m_columns.end(); }

    // The header is the first row with a name and a flops, bytes or intensity column: preamble
    // lines that tools print before the table are skipped.
    bool findHeader()
    {
        int firstLine = 0;
        for (int r = 0; r < kHeaderSearchRows && m_scanner.next(m_header); ++r) {
            if (r == 0)
                firstLine = m_header.line;
            m_columns.clear();
            for (const auto &f : m_header.fields)
                m_columns.push_back(classify(f.text));
            // Without a name column, a row that names both counts is a header too (benchmark
            // sweeps such as thoasm/roofline-benchmark's); its points are named after their
            // lines.
            if ((has(Role::Name) && (has(Role::Flops) || has(Role::Bytes) || has(Role::Intensity)))
                || (has(Role::Flops) && has(Role::Bytes)))
                return true;
        }
        if (firstLine == 0)
            report({ Severity::Error, m_fileName, 0, 0,
                "the file is empty (expected a header such as name,flops,bytes,seconds)" });
        else
            report({ Severity::Error, m_fileName, firstLine, 1,
                "no header row found (expected a row naming the columns, e.g. "
                "name,flops,bytes,seconds)" });
        return false;
    }

    // One column per role, except bytes: one per level; a count or an intensity to place each
    // point by.
    bool checkHeader()
    {
        bool ok = true;
        for (std::size_t i = 0; i < m_columns.size(); ++i) {
            for (std::size_t j = 0; j < i && m_columns[i].role != Role::Ignored; ++j) {
                if (m_columns[j].role != m_columns[i].role
                    || m_columns[j].level != m_columns[i].level)
                    continue;
                report({ Severity::Error, m_fileName, m_header.line,
                    m_scanner.column(m_header.fields[i]),
                    "column \"" + m_columns[i].header + "\" repeats column \"" + m_columns[j].header
                        + "\" (both give " + std::string(roleName(m_columns[i].role)) + ")" });
                ok = false;
            }
        }
        if (!has(Role::Flops) && !(has(Role::Intensity) && has(Role::Rate))) {
            report({ Severity::Error, m_fileName, m_header.line, 0,
                "no flops column (expected \"flops\": the operations each kernel performs; or an "
                "intensity column such as \"ai\" with a performance column such as \"gflops\")" });
            ok = false;
        }
        if (!has(Role::Bytes) && !has(Role::Intensity)) {
            report({ Severity::Error, m_fileName, m_header.line, 0,
                "no bytes column (expected \"bytes\" or per-level \"bytes_<level>\" such as "
                "bytes_l2, bytes_hbm; or an intensity column such as \"ai\")" });
            ok = false;
        }
        return ok;
    }

    const std::string &m_fileName;
    std::size_t m_limit;
    char m_delimiter;
    std::vector<Diagnostic> m_tokenizerDiagnostics;
    CsvScanner m_scanner;
    std::vector<Diagnostic> m_diagnostics; // the reader's own, the first `m_limit` of them
    std::size_t m_reported = 0; // all the reader's own, kept or not
    PointsReadResult m_result;
    ScannedRow m_header;
    std::vector<Column> m_columns;
    int m_zeroFlopRows = 0;
    int m_firstZeroFlopLine = 0;
};

// The row loop of both readers: each row that fits its header read into a point in `store`.
// `rows` gives the rows and takes what becomes of them (next, fits, rowError, kept):
// PointsCsvReader over a whole file, PieceRows over a piece of one.
template<typename Rows, typename Store>
void readRows(Rows &rows, RowReader &cells, const std::string &fileName, Store &store)
{
    ScannedRow row;
    while (rows.next(row)) {
        if (!rows.fits(row))
            continue;
        KernelPoint &point = store.start();
        point.source.file = fileName;
        point.source.line = row.line;
        if (auto error = cells.read(row, point)) {
            store.drop();
            rows.rowError(row, std::move(*error));
            continue;
        }
        rows.kept(point, row.line);
        store.keep(row);
    }
}

// The generic points reader, building each usable point in `store`; when the tokenizer fails
// at the end, the points kept must be dropped by the caller.
template<typename Store>
PointsReadResult readPointsRows(
    std::string_view text, const std::string &fileName, int maxDiagnostics, Store &&store)
{
    PointsCsvReader reader(text, fileName, maxDiagnostics);
    if (!reader.header())
        return reader.stopped();
    RowReader cells(reader.columns(), reader.delimiter());
    readRows(reader, cells, fileName, store);
    return reader.finish();
}

// The rows of a piece of a file whose header was read before (readPointsCsvPiece): line
// numbers counted on from the piece's first line, the messages and counts kept in `out`.
class PieceRows
{
public:
    PieceRows(const PointsCsvLayout &layout, std::string_view piece, int firstLine,
        const std::string &fileName, int maxDiagnostics, PointsCsvPiece &out)
        : m_columns(layout.columns.size())
        , m_firstLine(firstLine)
        , m_fileName(fileName)
        , m_limit(static_cast<std::size_t>(std::max(0, maxDiagnostics)))
        , m_scanner(piece, layout.delimiter, fileName, m_scannerDiagnostics, 0)
        , m_out(out)
    { }

    bool next(ScannedRow &row)
    {
        if (!m_scanner.next(row))
            return false;
        row.line += m_firstLine - 1; // the scanner counts from the piece's first line
        return true;
    }
    bool fits(const ScannedRow &row)
    {
        ++m_out.rowsRead;
        if (auto problem = fieldCountProblem(row, m_columns, m_scanner)) {
            skip(row.line, problem->first, std::move(problem->second));
            return false;
        }
        return true;
    }
    void rowError(const ScannedRow &row, RowError error)
    {
        skip(row.line, error.field ? m_scanner.column(*error.field) : 0, std::move(error.message));
    }
    void kept(const KernelPoint &point, int line)
    {
        if (!point.intensity && point.flops == 0.0 && m_out.zeroFlopRows++ == 0)
            m_out.firstZeroFlopLine = line;
    }

private:
    void skip(int line, int column, std::string message)
    {
        if (m_out.diagnostics.size() < m_limit)
            m_out.diagnostics.push_back(
                { Severity::Error, m_fileName, line, column, std::move(message) });
        ++m_out.rowsSkipped;
    }

    std::size_t m_columns;
    int m_firstLine;
    const std::string &m_fileName;
    std::size_t m_limit;
    std::vector<Diagnostic> m_scannerDiagnostics; // about quotes only: none in such a text
    CsvScanner m_scanner;
    PointsCsvPiece &m_out;
};

// Lines in `text`, counting a last one without a line end.
std::size_t lineCount(std::string_view text)
{
    std::size_t lines = 1;
    std::size_t at = 0;
    while (at < text.size()) {
        const void *found = std::memchr(text.data() + at, '\n', text.size() - at);
        if (!found)
            break;
        at = static_cast<std::size_t>(static_cast<const char *>(found) - text.data()) + 1;
        ++lines;
    }
    return lines;
}

} // namespace

PointsReadResult readPointsCsv(
    std::string_view text, const std::string &fileName, int maxDiagnostics)
{
    std::vector<KernelPoint> points;
    // One point per line at most: reserving that (address space only, until rows fill it)
    // spares the copies of a growing vector, whose old and new blocks would coexist.
    points.reserve(lineCount(text));
    adviseHugePages(points.data(), points.capacity() * sizeof(KernelPoint));
    PointsReadResult result = readPointsRows(text, fileName, maxDiagnostics, PointVector(points));
    if (result.rowsRead > 0)
        result.points = std::move(points);
    return result;
}

PointsReadResult readPointsCsv(
    std::string_view text, const std::string &fileName, const PointSink &sink, int maxDiagnostics)
{
    // An unterminated quote, found only at the end, voids every row: look for it before the
    // first point leaves. Only a field opening with a quote can leave one open, so a text
    // without any quote (most big tables) needs no look.
    if (text.find('"') != std::string_view::npos) {
        const std::string_view body = withoutBom(text);
        std::vector<Diagnostic> diagnostics;
        CsvScanner scanner(body, detectDelimiter(body), fileName, diagnostics, 0);
        scanner.drain();
        if (scanner.failed()) {
            const PointSink none = [](KernelPoint &&) {};
            return readPointsRows(text, fileName, maxDiagnostics, PointStream(none));
        }
    }
    return readPointsRows(text, fileName, maxDiagnostics, PointStream(sink));
}

std::optional<PointsCsvLayout> pointsCsvLayout(std::string_view text, const std::string &fileName)
{
    PointsCsvReader reader(text, fileName, 1);
    if (!reader.header() || !reader.quiet())
        return std::nullopt;
    // The header row ends at the first line end after its last field (no quotes: no line end
    // inside a field).
    const ScannedRow &header = reader.headerRow();
    const std::string_view body = withoutBom(text);
    const std::size_t end = body.find('\n', header.fields.back().offset);
    PointsCsvLayout layout;
    layout.columns = reader.columns();
    layout.delimiter = reader.delimiter();
    layout.rowsBegin
        = (text.size() - body.size()) + (end == std::string_view::npos ? body.size() : end + 1);
    layout.rowsLine = header.line + 1;
    return layout;
}

PointsCsvPiece readPointsCsvPiece(const PointsCsvLayout &layout, std::string_view piece,
    int firstLine, const std::string &fileName, const PointSink &sink, int maxDiagnostics,
    PointsCsvTape *tape)
{
    PointsCsvPiece out;
    PieceRows rows(layout, piece, firstLine, fileName, maxDiagnostics, out);
    RowReader cells(layout.columns, layout.delimiter);
    PointStream store(sink, tape, firstLine);
    readRows(rows, cells, fileName, store);
    return out;
}

} // namespace ridgepoint
