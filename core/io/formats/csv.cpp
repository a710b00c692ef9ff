#include "core/io/formats/csv.h"

#include "core/model/memory_hint.h"
#include "core/model/units.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>

namespace ridgepoint {
namespace {

bool isContinuationByte(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0U) == 0x80U;
}

char detectDelimiter(std::string_view text)
{
    // Count candidates on the first line that is not a comment, outside quotes.
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.front() != '#'
            && line.find_first_not_of(" \t\r") != std::string_view::npos) {
            std::array<int, 3> counts {};
            bool quoted = false;
            for (char c : line) {
                if (c == '"')
                    quoted = !quoted;
                else if (!quoted && c == ',')
                    ++counts[0];
                else if (!quoted && c == ';')
                    ++counts[1];
                else if (!quoted && c == '\t')
                    ++counts[2];
            }
            if (counts[2] > 0 && counts[2] >= counts[0] && counts[2] >= counts[1])
                return '\t';
            if (counts[1] > counts[0])
                return ';';
            return ',';
        }
        start = end + 1;
    }
    return ',';
}

std::string lowerTrimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    std::string out;
    for (char c : text)
        out.push_back((c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c);
    return out;
}

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

enum class Role {
    Ignored,
    Name,
    Flops,
    Bytes,
    Time,
    Rate,
    Intensity,
    TimeMin,
    TimeMedian,
    TimeMax,
    TimeStddev,
    Precision,
    Group
};

struct Column {
    Role role = Role::Ignored;
    std::optional<MemoryLevel> level; // for Bytes
    double scale = 1.0; // header unit: time_ms -> 1e-3
    std::string header;
};

bool oneOf(const std::string &text, std::initializer_list<std::string_view> words)
{
    return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return text == w; });
}

std::optional<double> timeUnitScale(const std::string &unit)
{
    if (unit == "s" || unit == "sec" || unit == "seconds")
        return 1.0;
    if (unit == "ms" || unit == "msec")
        return 1e-3;
    if (unit == "us" || unit == "usec" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs")
        return 1e-6;
    if (unit == "ns" || unit == "nsec")
        return 1e-9;
    return std::nullopt;
}

// A precision cell: Ridgepoint's names, or the C type names benchmarks print ("double").
std::optional<Precision> precisionOfCell(std::string_view cell)
{
    const std::string text = lowerTrimmed(cell);
    if (text == "double")
        return Precision::FP64;
    if (text == "float" || text == "single")
        return Precision::FP32;
    if (text == "half")
        return Precision::FP16;
    return precisionFromName(cell);
}

// Reads a header cell: its role, level and unit scale. `unit` in brackets wins over a suffix.
Column classify(std::string_view rawHeader)
{
    Column column;
    column.header = std::string(trimmed(rawHeader));
    std::string text = lowerTrimmed(rawHeader);
    std::string unit; // lower case: for time units and the tests for a unit
    std::string unitAsWritten; // for FLOP, byte and rate units, where case matters (MB, Mb, mB)
    std::string original = column.header;
    for (auto [open, close] : { std::pair { '[', ']' }, std::pair { '(', ')' } }) {
        const auto a = text.find(open);
        const auto b = text.find(close, a == std::string::npos ? 0 : a);
        if (a != std::string::npos && b != std::string::npos && b > a) {
            // Lower-casing keeps byte offsets (ASCII only), so the positions hold in both.
            unit = lowerTrimmed(text.substr(a + 1, b - a - 1));
            unitAsWritten
                = std::string(trimmed(std::string_view(original).substr(a + 1, b - a - 1)));
            text = lowerTrimmed(text.substr(0, a));
            original.resize(a);
        }
    }
    std::replace(text.begin(), text.end(), ' ', '_');
    std::replace(text.begin(), text.end(), '-', '_');

    if (oneOf(text, { "name", "label", "kernel", "kernel_name", "function", "operation" })) {
        column.role = Role::Name;
        return column;
    }
    if (oneOf(text, { "precision", "dtype", "data_type" })) {
        column.role = Role::Precision;
        return column;
    }
    if (oneOf(text, { "group", "series", "category" })) {
        column.role = Role::Group;
        return column;
    }
    // "computations" and "operations": thoasm/roofline-benchmark's count of operations.
    if (oneOf(text,
            { "flops", "flop", "flop_count", "total_flops", "ops", "work", "computations",
                "operations" })) {
        column.role = Role::Flops;
        if (!unit.empty()) {
            auto scale = parseQuantity("1 " + unitAsWritten, Dimension::Flops);
            column.role = scale ? Role::Flops : Role::Ignored;
            column.scale = scale.value_or(1.0);
        }
        return column;
    }
    // Bytes: "bytes", per level ("bytes_l2", "hbm_bytes"), or main memory under another name
    // ("theoretical_bytes", "total_bytes", "bytes_moved", "data [Bytes]").
    static constexpr std::array<std::string_view, 10> kMainMemoryWords { "theoretical", "total",
        "moved", "data", "memory", "mem", "transferred", "accessed", "traffic", "io" };
    const auto isMainMemoryWord = [](std::string_view word) {
        return std::find(kMainMemoryWords.begin(), kMainMemoryWords.end(), word)
            != kMainMemoryWords.end();
    };
    const bool bytesWord = text == "bytes" || text == "byte" || text.starts_with("bytes_")
        || text.ends_with("_bytes") || ((text == "data" || text == "traffic") && !unit.empty());
    if (bytesWord) {
        std::string level = text == "bytes" || text == "byte" || text == "data" || text == "traffic"
            ? std::string()
            : text.starts_with("bytes_") ? text.substr(6)
                                         : text.substr(0, text.size() - 6);
        if (!level.empty() && !isMainMemoryWord(level)) {
            column.level = memoryLevelFromName(level);
            if (!column.level)
                return column; // stays Ignored; reported with the other ignored columns
        }
        column.role = Role::Bytes;
        if (!unit.empty()) {
            auto scale = parseQuantity("1 " + unitAsWritten, Dimension::Bytes);
            column.role = scale ? Role::Bytes : Role::Ignored;
            column.scale = scale.value_or(1.0);
        }
        return column;
    }
    if (oneOf(text,
            { "ai", "intensity", "arithmetic_intensity", "flop_per_byte", "flops_per_byte",
                "flop/byte", "flop/b", "flops/byte", "operational_intensity", "oi" })) {
        column.role = Role::Intensity;
        return column;
    }
    // Times: a word and a unit, as a suffix ("mean_ms") or in brackets ("time [us]"). The
    // mean (or plain time) is the point's time; median, min, max and the standard deviation
    // are the spread of repeated runs (the median stands in when there is no other time).
    static constexpr std::array<std::string_view, 11> kTimeWords { "seconds", "time", "runtime",
        "duration", "elapsed", "mean", "avg", "average", "t", "mean_time", "avg_time" };
    struct StatWord {
        std::string_view word;
        Role role;
    };
    static constexpr std::array<StatWord, 10> kStatWords { { { "median", Role::TimeMedian },
        { "median_time", Role::TimeMedian }, { "min", Role::TimeMin },
        { "min_time", Role::TimeMin }, { "max", Role::TimeMax }, { "max_time", Role::TimeMax },
        { "stddev", Role::TimeStddev }, { "std", Role::TimeStddev }, { "stdev", Role::TimeStddev },
        { "sd", Role::TimeStddev } } };
    const auto timeRole = [&](std::string_view word, bool hasUnit) -> std::optional<Role> {
        if (std::find(kTimeWords.begin(), kTimeWords.end(), word) != kTimeWords.end())
            return Role::Time;
        for (const auto &stat : kStatWords) {
            // min/max/std alone are too common to be taken for times without a time unit.
            if (stat.word == word && (hasUnit || stat.role == Role::TimeMedian))
                return stat.role;
        }
        return std::nullopt;
    };
    if (auto role = timeRole(text, !unit.empty())) {
        column.role = *role;
        if (!unit.empty()) {
            auto scale = timeUnitScale(unit);
            column.role = scale ? *role : Role::Ignored;
            column.scale = scale.value_or(1.0);
        }
        return column;
    }
    if (const auto underscore = text.rfind('_'); underscore != std::string::npos) {
        const std::string base = text.substr(0, underscore);
        if (auto scale = timeUnitScale(text.substr(underscore + 1))) {
            if (auto role = timeRole(base, true)) {
                column.role = *role;
                column.scale = *scale;
                return column;
            }
        }
    }
    struct RateName {
        std::string_view name;
        double scale;
    };
    static constexpr std::array<RateName, 16> kRates { { { "performance", 1.0 }, { "perf", 1.0 },
        { "flop/s", 1.0 }, { "flops_per_second", 1.0 }, { "achieved_flops", 1.0 },
        { "mflops", 1e6 }, { "mflop/s", 1e6 }, { "gflops", 1e9 }, { "gflop/s", 1e9 },
        { "gflop_s", 1e9 }, { "achieved_gflops", 1e9 }, { "gflops_per_second", 1e9 },
        { "tflops", 1e12 }, { "tflop/s", 1e12 }, { "achieved_tflops", 1e12 },
        { "tflop_s", 1e12 } } };
    // A bare unit as the header ("[GOP/s]", thoasm/roofline-benchmark): a rate when the unit is.
    if (text.empty() && !unit.empty()) {
        if (auto scale = parseQuantity("1 " + unitAsWritten, Dimension::FlopRate)) {
            column.role = Role::Rate;
            column.scale = *scale;
        }
        return column;
    }
    for (const auto &rate : kRates) {
        if (text == rate.name) {
            column.role = Role::Rate;
            column.scale = rate.scale;
            if (!unit.empty()) {
                auto scale = parseQuantity("1 " + unitAsWritten, Dimension::FlopRate);
                column.role = scale ? Role::Rate : Role::Ignored;
                column.scale = scale.value_or(1.0);
            }
            return column;
        }
    }
    return column;
}

std::string_view roleName(Role role)
{
    switch (role) {
    case Role::Name:
        return "name";
    case Role::Flops:
        return "flops";
    case Role::Bytes:
        return "bytes";
    case Role::Time:
        return "seconds";
    case Role::Rate:
        return "performance";
    case Role::Intensity:
        return "intensity";
    case Role::TimeMin:
        return "minimum time";
    case Role::TimeMedian:
        return "median time";
    case Role::TimeMax:
        return "maximum time";
    case Role::TimeStddev:
        return "time standard deviation";
    case Role::Precision:
        return "precision";
    case Role::Group:
        return "group";
    case Role::Ignored:
        break;
    }
    return "ignored";
}

// A cell: a bare number in the column's unit, or a unit string.
ridgepoint::Expected<double, std::string> cellValue(
    std::string_view cell, const Column &column, Dimension dimension, char delimiter)
{
    cell = trimmed(cell);
    // A plain number, the common case. from_chars stops at a comma, so a cell with one is
    // never taken here.
    const auto plainNumber = [&](std::string_view text) -> std::optional<double> {
        double value = 0.0;
        const char *begin = text.data();
        const char *end = text.data() + text.size();
        if (!text.empty() && text.front() == '+')
            ++begin;
        const auto [ptr, ec] = std::from_chars(begin, end, value);
        if (ec == std::errc() && ptr == end && std::isfinite(value))
            return value * column.scale;
        return std::nullopt;
    };
    if (auto value = plainNumber(cell))
        return *value;
    // In a comma-separated file a comma can only sit in a quoted cell; there it groups
    // thousands when the groups are valid ("1,234,567"). Anything else ("1,5") is refused
    // below, never guessed.
    if (delimiter == ',' && cell.find(',') != std::string_view::npos) {
        if (auto plain = withoutThousandsSeparators(cell)) {
            if (auto value = plainNumber(trimmed(*plain)))
                return *value;
            return parseQuantity(trimmed(*plain), dimension);
        }
    }
    return parseQuantity(cell, dimension);
}

// 1-based column (code points) of the byte at `offset` on the line starting at `lineStart`.
int columnOf(std::string_view text, std::size_t lineStart, std::size_t offset)
{
    int column = 1;
    for (std::size_t i = lineStart; i < offset; ++i)
        column += isContinuationByte(text[i]) ? 0 : 1;
    return column;
}

// A field as the scanner found it: `text` views the input (unquoted fields) or the row's
// scratch buffer (quoted fields, unescaped). Its column is worked out only when asked for
// (CsvScanner::column): the points reader needs it for messages alone.
struct ScannedField {
    std::string_view text;
    std::size_t offset = 0; // where the field starts in the input
    std::size_t lineStart = 0; // where that line starts
    int line = 0; // 1-based; 0 for the empty field after a delimiter that ends the input
};

struct ScannedRow {
    std::vector<ScannedField> fields;
    int line = 0;
    std::string scratch; // quoted fields' text; the row's views point into it (so no moves)
};

// The CSV state machine (quotes, "" escapes, CRLF, text after a closing quote), one row at a
// time. Unquoted fields are views into the input, so a row costs no allocation once the row's
// vectors have grown; the tokenizer and the points reader share it, so both read a file alike.
// The input must not start with a byte-order mark (the callers strip it).
class CsvScanner
{
public:
    // `maxDiagnostics` bounds the messages kept; failed() still tells whether there was an error.
    CsvScanner(std::string_view text, char delimiter, const std::string &fileName,
        std::vector<Diagnostic> &diagnostics,
        std::size_t maxDiagnostics = std::numeric_limits<std::size_t>::max())
        : m_text(text)
        , m_delimiter(delimiter)
        , m_fileName(fileName)
        , m_diagnostics(diagnostics)
        , m_maxDiagnostics(maxDiagnostics)
    { }

    // The next row that is neither blank nor a comment ('#' first); false at the end.
    bool next(ScannedRow &row)
    {
        while (nextAny(row)) {
            const std::string_view first = row.fields.front().text;
            const bool blank = row.fields.size() == 1 && first.empty();
            const bool comment = !first.empty() && first.front() == '#';
            if (!blank && !comment)
                return true;
        }
        return false;
    }

    // Reads to the end, for the messages about the rest of the input.
    void drain()
    {
        ScannedRow row;
        while (nextAny(row)) { }
    }

    // The field's 1-based column in code points; 0 for a field with no position. Counts from
    // the last field asked about when it is further along the same line, so asking for every
    // field of a row in order is linear in the line's length.
    int column(const ScannedField &field) const
    {
        if (field.line == 0)
            return 0;
        if (field.lineStart != m_columnLineStart || field.offset < m_columnOffset) {
            m_columnLineStart = field.lineStart;
            m_columnOffset = field.lineStart;
            m_column = 1;
        }
        m_column += columnOf(m_text, m_columnOffset, field.offset) - 1;
        m_columnOffset = field.offset;
        return m_column;
    }

    bool failed() const { return m_failed; }
    std::size_t diagnosticsDropped() const { return m_dropped; }

private:
    void diagnose(Severity severity, int line, int column, const char *message)
    {
        m_failed = m_failed || severity == Severity::Error;
        if (m_diagnostics.size() < m_maxDiagnostics)
            m_diagnostics.push_back({ severity, m_fileName, line, column, message });
        else
            ++m_dropped;
    }

    // The first delimiter or LF at or after `from`, or the end of the text. Eight bytes at a
    // time: the unquoted fields of a big file are most of its bytes.
    std::size_t fieldEnd(std::size_t from) const
    {
        const char *const data = m_text.data();
        const std::size_t size = m_text.size();
        std::size_t p = from;
        if constexpr (std::endian::native == std::endian::little) {
            constexpr std::uint64_t kOnes = 0x0101010101010101U;
            constexpr std::uint64_t kHighs = 0x8080808080808080U;
            const std::uint64_t delimiters = kOnes * static_cast<unsigned char>(m_delimiter);
            const std::uint64_t newlines = kOnes * static_cast<unsigned char>('\n');
            // A byte of x is zero where (x - 1) borrows into its high bit and x's own is clear;
            // the lowest flagged byte is always a real zero.
            const auto zeroBytes = [](std::uint64_t x) { return (x - kOnes) & ~x & kHighs; };
            for (; p + 8 <= size; p += 8) {
                std::uint64_t word = 0;
                std::memcpy(&word, data + p, 8);
                const std::uint64_t found
                    = zeroBytes(word ^ delimiters) | zeroBytes(word ^ newlines);
                if (found != 0)
                    return p + static_cast<std::size_t>(std::countr_zero(found)) / 8;
            }
        }
        while (p < size && data[p] != m_delimiter && data[p] != '\n')
            ++p;
        return p;
    }

    bool crlfAt(std::size_t i) const
    {
        return m_text[i] == '\r' && i + 1 < m_text.size() && m_text[i + 1] == '\n';
    }

    // One row, blank or comment included; false when no row starts before the end.
    bool nextAny(ScannedRow &row)
    {
        const std::size_t size = m_text.size();
        if (m_pos >= size)
            return false;
        row.fields.clear();
        row.scratch.clear();
        m_quotedFields.clear();
        while (true) {
            ScannedField field;
            if (m_pos >= size) {
                // A delimiter was the input's last byte: one more, empty field, with no position.
                row.fields.push_back(field);
                break;
            }
            field.line = m_line;
            field.lineStart = m_lineStart;
            field.offset = m_pos;
            if (m_text[m_pos] == '"') {
                const std::size_t begin = row.scratch.size();
                quotedField(row.scratch, field);
                m_quotedFields.push_back({ row.fields.size(), begin });
            } else {
                // An empty field before CRLF is placed at the LF, as the line end.
                if (crlfAt(m_pos))
                    field.offset = m_pos + 1;
                const std::size_t p = fieldEnd(m_pos);
                const char *const data = m_text.data();
                std::size_t end = p;
                if (p < size && data[p] == '\n' && end > m_pos && data[end - 1] == '\r')
                    --end; // CRLF: the CR is part of the line end
                field.text = m_text.substr(m_pos, end - m_pos);
                m_pos = p;
            }
            row.fields.push_back(field);
            if (m_pos >= size)
                break;
            if (m_text[m_pos] == '\n') {
                ++m_pos;
                ++m_line;
                m_lineStart = m_pos;
                break;
            }
            ++m_pos; // the delimiter
        }
        // The scratch buffer is complete only now: point the quoted fields into it.
        for (std::size_t i = 0; i < m_quotedFields.size(); ++i) {
            const auto [index, begin] = m_quotedFields[i];
            const std::size_t end
                = i + 1 < m_quotedFields.size() ? m_quotedFields[i + 1].second : row.scratch.size();
            row.fields[index].text = std::string_view(row.scratch).substr(begin, end - begin);
        }
        row.line = row.fields.front().line;
        return true;
    }

    // A field that opens with a quote, from the quote to its delimiter or line end: the quoted
    // text unescaped, then any text after the closing quote (kept, with a warning).
    void quotedField(std::string &out, const ScannedField &field)
    {
        const std::size_t size = m_text.size();
        ++m_pos;
        bool closed = false;
        while (m_pos < size) {
            const char c = m_text[m_pos];
            if (c == '"') {
                if (m_pos + 1 < size && m_text[m_pos + 1] == '"') {
                    out.push_back('"');
                    m_pos += 2;
                    continue;
                }
                ++m_pos;
                closed = true;
                break;
            }
            if (c == '\n') {
                ++m_line;
                m_lineStart = m_pos + 1;
            } else if (crlfAt(m_pos)) {
                ++m_pos; // keep LF only inside quoted fields
                continue;
            }
            out.push_back(c);
            ++m_pos;
        }
        if (!closed) {
            diagnose(Severity::Error, field.line, columnOf(m_text, field.lineStart, field.offset),
                "unterminated quoted field (expected a closing \")");
            return;
        }
        bool afterQuote = true; // blanks right after the closing quote are dropped
        while (m_pos < size) {
            const char c = m_text[m_pos];
            if (c == m_delimiter || c == '\n')
                break;
            if (crlfAt(m_pos)) {
                ++m_pos;
                continue;
            }
            if (afterQuote) {
                if (c == ' ' || c == '\t' || c == '\r') {
                    ++m_pos;
                    continue;
                }
                diagnose(Severity::Warning, m_line, columnOf(m_text, m_lineStart, m_pos),
                    "text after a closing quote is kept as part of the field");
                afterQuote = false;
            }
            out.push_back(c);
            ++m_pos;
        }
    }

    std::string_view m_text;
    char m_delimiter;
    const std::string &m_fileName;
    std::vector<Diagnostic> &m_diagnostics;
    std::size_t m_maxDiagnostics;
    std::size_t m_dropped = 0;
    bool m_failed = false;
    std::size_t m_pos = 0;
    int m_line = 1;
    std::size_t m_lineStart = 0;
    std::vector<std::pair<std::size_t, std::size_t>> m_quotedFields; // (field, scratch offset)
    mutable std::size_t m_columnLineStart = 0;
    mutable std::size_t m_columnOffset = 0;
    mutable int m_column = 1;
};

} // namespace

CsvTable tokenizeCsv(std::string_view text, const std::string &fileName, char delimiter)
{
    CsvTable table;
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    table.delimiter = delimiter ? delimiter : detectDelimiter(text);
    CsvScanner scanner(text, table.delimiter, fileName, table.diagnostics);
    ScannedRow scanned;
    while (scanner.next(scanned)) {
        CsvRow row;
        row.line = scanned.line;
        row.fields.reserve(scanned.fields.size());
        for (const ScannedField &field : scanned.fields)
            row.fields.push_back({ std::string(field.text), field.line, scanner.column(field) });
        table.rows.push_back(std::move(row));
    }
    return table;
}

void shiftLines(CsvTable &table, int lines)
{
    for (auto &row : table.rows) {
        row.line += lines;
        for (auto &field : row.fields)
            field.line += lines;
    }
    for (auto &d : table.diagnostics)
        d.line += d.line > 0 ? lines : 0;
}

namespace {

// Where the reader builds each point: start() gives a fresh point, then keep() or drop().
// Points are built in place, so a point costs no copy on its way into a vector.
class PointVector
{
public:
    explicit PointVector(std::vector<KernelPoint> &points)
        : m_points(points)
    { }
    KernelPoint &start() { return m_points.emplace_back(); }
    void keep() { }
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
    KernelPoint &start()
    {
        m_point = KernelPoint {};
        return m_point;
    }
    void keep() { m_sink(std::move(m_point)); }
    void drop() { }

private:
    const PointSink &m_sink;
    KernelPoint m_point;
};

// The generic points reader over the scanner, building each usable point in `store`. Messages
// come in the order of a reader that tokenized the whole file first: the tokenizer's, then the
// header's, then the rows'; an error from the tokenizer (an unterminated quote, found only at
// the end) voids everything else, so the points kept must then be dropped by the caller.
template<typename Store>
PointsReadResult readPointsRows(
    std::string_view text, const std::string &fileName, int maxDiagnostics, Store &&store)
{
    PointsReadResult result;
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    const char delimiter = detectDelimiter(text);
    const std::size_t limit = static_cast<std::size_t>(std::max(0, maxDiagnostics));
    std::vector<Diagnostic> tokenizerDiagnostics;
    CsvScanner scanner(text, delimiter, fileName, tokenizerDiagnostics, limit);
    std::vector<Diagnostic> diagnostics; // the reader's own, the first `limit` of them
    std::size_t reported = 0; // all the reader's own, kept or not
    const auto report = [&](Diagnostic diagnostic) {
        if (diagnostics.size() < limit)
            diagnostics.push_back(std::move(diagnostic));
        ++reported;
    };
    // The tokenizer's messages, then the reader's, at most `limit` in all; returns how many
    // were left out.
    const auto collect = [&] {
        scanner.drain();
        result.diagnostics.clear();
        for (auto *list : { &tokenizerDiagnostics, &diagnostics }) {
            for (auto &d : *list) {
                if (result.diagnostics.size() < limit)
                    result.diagnostics.push_back(std::move(d));
            }
        }
        return tokenizerDiagnostics.size() + scanner.diagnosticsDropped() + reported
            - result.diagnostics.size();
    };
    // A file that does not get as far as its rows: its messages, no summary line.
    const auto stop = [&] {
        scanner.drain();
        if (scanner.failed()) {
            diagnostics.clear();
            reported = 0;
        }
        collect();
        return std::move(result);
    };

    // The header is the first row with a name and a flops, bytes or intensity column:
    // preamble lines that tools print before the table are skipped.
    ScannedRow header;
    std::vector<Column> columns;
    int firstLine = 0;
    bool found = false;
    for (int r = 0; r < 50 && scanner.next(header); ++r) {
        if (r == 0)
            firstLine = header.line;
        std::vector<Column> candidate;
        candidate.reserve(header.fields.size());
        for (const auto &f : header.fields)
            candidate.push_back(classify(f.text));
        const auto has = [&](Role role) {
            return std::any_of(candidate.begin(), candidate.end(),
                [role](const Column &c) { return c.role == role; });
        };
        // Without a name column, a row that names both counts is a header too (benchmark
        // sweeps such as thoasm/roofline-benchmark's); its points are named after their lines.
        if ((has(Role::Name) && (has(Role::Flops) || has(Role::Bytes) || has(Role::Intensity)))
            || (has(Role::Flops) && has(Role::Bytes))) {
            columns = std::move(candidate);
            found = true;
            break;
        }
    }
    if (firstLine == 0) {
        report({ Severity::Error, fileName, 0, 0,
            "the file is empty (expected a header such as name,flops,bytes,seconds)" });
        return stop();
    }
    if (!found) {
        report({ Severity::Error, fileName, firstLine, 1,
            "no header row found (expected a row naming the columns, e.g. "
            "name,flops,bytes,seconds)" });
        return stop();
    }

    const auto find = [&](Role role) {
        return std::find_if(
            columns.begin(), columns.end(), [role](const Column &c) { return c.role == role; });
    };
    // The median is the time when nothing else is.
    if (find(Role::Time) == columns.end() && find(Role::TimeMedian) != columns.end())
        find(Role::TimeMedian)->role = Role::Time;

    // One column per role, except bytes: one per level.
    bool headerOk = true;
    std::vector<std::string> ignored;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (columns[i].role == Role::Ignored) {
            if (!columns[i].header.empty())
                ignored.push_back(columns[i].header);
            continue;
        }
        for (std::size_t j = 0; j < i; ++j) {
            if (columns[j].role == columns[i].role && columns[j].level == columns[i].level) {
                report({ Severity::Error, fileName, header.line, scanner.column(header.fields[i]),
                    "column \"" + columns[i].header + "\" repeats column \"" + columns[j].header
                        + "\" (both give " + std::string(roleName(columns[i].role)) + ")" });
                headerOk = false;
            }
        }
    }
    const bool hasIntensity = find(Role::Intensity) != columns.end();
    const bool hasName = find(Role::Name) != columns.end();
    const bool hasRate = find(Role::Rate) != columns.end();
    if (find(Role::Flops) == columns.end() && !(hasIntensity && hasRate)) {
        report({ Severity::Error, fileName, header.line, 0,
            "no flops column (expected \"flops\": the operations each kernel performs; or an "
            "intensity column such as \"ai\" with a performance column such as \"gflops\")" });
        headerOk = false;
    }
    if (find(Role::Bytes) == columns.end() && !hasIntensity) {
        report({ Severity::Error, fileName, header.line, 0,
            "no bytes column (expected \"bytes\" or per-level \"bytes_<level>\" such as "
            "bytes_l2, bytes_hbm; or an intensity column such as \"ai\")" });
        headerOk = false;
    }
    if (!headerOk)
        return stop();
    if (!ignored.empty()) {
        std::string list;
        for (const auto &name : ignored)
            list += (list.empty() ? "" : ", ") + ("\"" + name + "\"");
        report({ Severity::Warning, fileName, header.line, 0, "columns not used: " + list });
    }

    int zeroFlopRows = 0;
    int firstZeroFlopLine = 0;
    std::string lastPrecisionText;
    std::optional<Precision> lastPrecision;
    ScannedRow row;
    while (scanner.next(row)) {
        ++result.rowsRead;
        const auto fail = [&](int column, std::string message) {
            report({ Severity::Error, fileName, row.line, column, std::move(message) });
            ++result.rowsSkipped;
        };
        const auto wrongFieldCount = [&] {
            return "expected " + std::to_string(columns.size()) + " fields, found "
                + std::to_string(row.fields.size());
        };
        if (row.fields.size() < columns.size()) {
            fail(0, wrongFieldCount());
            continue;
        }
        bool extra = false;
        for (std::size_t i = columns.size(); i < row.fields.size(); ++i)
            extra = extra || !trimmed(row.fields[i].text).empty();
        if (extra) {
            fail(scanner.column(row.fields[columns.size()]), wrongFieldCount());
            continue;
        }

        KernelPoint &point = store.start();
        point.source.file = fileName;
        point.source.line = row.line;
        std::optional<double> intensity;
        const ScannedField *intensityField = nullptr;
        bool flopsGiven = false;
        std::string error;
        const ScannedField *errorField = nullptr; // where the error is; none: the whole row
        for (std::size_t i = 0; i < columns.size() && error.empty(); ++i) {
            const Column &column = columns[i];
            const ScannedField &field = row.fields[i];
            const std::string_view cell = trimmed(field.text);
            const auto bad = [&](const std::string &message) {
                error = "column \"" + column.header + "\": " + message;
                errorField = &field;
            };
            // Zero is allowed where it is a real measurement (no FLOPs, no spread).
            const auto number
                = [&](Dimension dimension, bool zeroAllowed) -> std::optional<double> {
                auto value = cellValue(cell, column, dimension, delimiter);
                if (!value) {
                    bad(value.error());
                    return std::nullopt;
                }
                if (zeroAllowed ? !(*value >= 0.0) : !(*value > 0.0)) {
                    bad("\"" + std::string(cell) + "\" must be "
                        + (zeroAllowed ? "zero or more" : "greater than zero")
                        + " (a log-log roofline cannot show it)");
                    return std::nullopt;
                }
                return *value;
            };
            const auto optionalTime = [&](std::optional<double> &target, bool zeroAllowed) {
                if (!cell.empty()) {
                    if (auto v = number(Dimension::Time, zeroAllowed))
                        target = *v;
                }
            };
            switch (column.role) {
            case Role::Ignored:
                break;
            case Role::Name:
                point.name = std::string(cell);
                if (point.name.empty())
                    bad("empty name (expected the kernel's name)");
                break;
            case Role::Flops:
                if (cell.empty()) {
                    if (!hasIntensity)
                        bad("empty (expected the number of FLOPs)");
                } else if (auto v = number(Dimension::Flops, true)) {
                    point.flops = *v;
                    flopsGiven = true;
                }
                break;
            case Role::Bytes:
                if (!cell.empty()) {
                    if (auto v = number(Dimension::Bytes, false))
                        point.bytes.push_back({ column.level, *v });
                }
                break;
            case Role::Intensity:
                if (!cell.empty()) {
                    if (auto v = number(Dimension::Intensity, false)) {
                        intensity = *v;
                        intensityField = &field;
                    }
                }
                break;
            case Role::Time:
                optionalTime(point.seconds, false);
                break;
            case Role::TimeMin:
                optionalTime(point.timeStatistics.min, false);
                break;
            case Role::TimeMedian:
                optionalTime(point.timeStatistics.median, false);
                break;
            case Role::TimeMax:
                optionalTime(point.timeStatistics.max, false);
                break;
            case Role::TimeStddev:
                optionalTime(point.timeStatistics.stddev, true);
                break;
            case Role::Rate:
                if (!cell.empty()) {
                    if (auto v = number(Dimension::FlopRate, true); v && *v > 0.0)
                        point.measuredRate = *v;
                }
                break;
            case Role::Precision:
                if (!cell.empty()) {
                    // Most files repeat a few precisions: the last one read is reused.
                    if (cell != lastPrecisionText) {
                        lastPrecisionText = cell;
                        lastPrecision = precisionOfCell(cell);
                    }
                    point.precision = lastPrecision;
                    if (!point.precision)
                        bad("unknown precision \"" + std::string(cell)
                            + "\" (expected fp64, fp32, tf32, bf16, fp16, fp8, int8 or int4)");
                }
                break;
            case Role::Group:
                point.group = std::string(cell);
                break;
            }
        }
        if (!hasName)
            point.name = "line " + std::to_string(row.line);
        if (error.empty() && point.bytes.empty() && intensity) {
            if (flopsGiven && point.flops > 0.0) {
                // Intensity with a FLOP count: the bytes follow.
                point.bytes.push_back({ std::nullopt, point.flops / *intensity });
            } else if (point.measuredRate) {
                point.intensity = intensity;
                point.flops = 0.0;
            } else {
                error = "an intensity needs a FLOP count or a performance in the same row";
                errorField = intensityField;
            }
        }
        if (error.empty() && point.bytes.empty() && !point.intensity) {
            error = "no bytes in any bytes column (expected at least one)";
            errorField = nullptr;
        }
        if (error.empty()) {
            if (auto problem = pointProblem(point)) {
                error = std::move(*problem);
                errorField = nullptr;
            }
        }
        if (!error.empty()) {
            store.drop();
            fail(errorField ? scanner.column(*errorField) : 0, std::move(error));
            continue;
        }
        if (!point.intensity && point.flops == 0.0) {
            if (zeroFlopRows++ == 0)
                firstZeroFlopLine = row.line;
        }
        store.keep();
    }
    if (scanner.failed()) {
        // An unterminated quote: the rows read are not what the file meant.
        diagnostics.clear();
        reported = 0;
        collect();
        return PointsReadResult { {}, std::move(result.diagnostics), 0, 0 };
    }
    if (zeroFlopRows > 0) {
        report({ Severity::Warning, fileName, firstZeroFlopLine, 0,
            std::to_string(zeroFlopRows) + (zeroFlopRows == 1 ? " row has" : " rows have")
                + " 0 FLOPs (pure data movement): kept, but an intensity of 0 has no place on a "
                  "log-log roofline" });
    }
    if (const std::size_t suppressed = collect(); suppressed > 0) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "... and " + std::to_string(suppressed) + " more problems not shown" });
    }
    if (result.rowsRead == 0) {
        result.diagnostics.push_back(
            { Severity::Error, fileName, header.line, 0, "the header has no data rows after it" });
    }
    return result;
}

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
        std::string_view body = text;
        if (body.starts_with("\xEF\xBB\xBF"))
            body.remove_prefix(3);
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

} // namespace ridgepoint
