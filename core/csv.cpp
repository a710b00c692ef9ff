#include "core/csv.h"

#include "core/units.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>

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
    if (oneOf(text, { "flops", "flop", "flop_count", "total_flops", "ops", "work" })) {
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
    // In a comma-separated file a comma can only sit in a quoted cell; there it groups
    // thousands when the groups are valid ("1,234,567"). Anything else ("1,5") is refused
    // below, never guessed.
    if (delimiter == ',' && cell.find(',') != std::string_view::npos) {
        if (auto plain = withoutThousandsSeparators(cell))
            return cellValue(*plain, column, dimension, '\0');
    }
    double value = 0.0;
    const char *begin = cell.data();
    const char *end = cell.data() + cell.size();
    if (!cell.empty() && cell.front() == '+')
        ++begin;
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec == std::errc() && ptr == end && std::isfinite(value))
        return value * column.scale;
    return parseQuantity(cell, dimension);
}

} // namespace

CsvTable tokenizeCsv(std::string_view text, const std::string &fileName, char delimiter)
{
    CsvTable table;
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    table.delimiter = delimiter ? delimiter : detectDelimiter(text);

    CsvRow row;
    CsvField field;
    bool quoted = false;
    bool fieldStarted = false;
    bool afterQuote = false;
    int line = 1;
    int column = 1;
    field.line = 1;
    field.column = 1;
    row.line = 1;
    const auto endField = [&] {
        row.fields.push_back(std::move(field));
        field = CsvField {};
        fieldStarted = false;
        afterQuote = false;
    };
    const auto endRow = [&] {
        endField();
        const bool blank = row.fields.size() == 1 && row.fields.front().text.empty();
        const bool comment = !row.fields.empty() && !row.fields.front().text.empty()
            && row.fields.front().text.front() == '#';
        if (!blank && !comment)
            table.rows.push_back(std::move(row));
        row = CsvRow {};
    };

    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (!fieldStarted && field.text.empty() && !quoted && !afterQuote) {
            field.line = line;
            field.column = column;
            if (row.fields.empty())
                row.line = line;
        }
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    field.text.push_back('"');
                    ++i;
                    ++column;
                } else {
                    quoted = false;
                    afterQuote = true;
                }
            } else {
                field.text.push_back(c);
                if (c == '\n') {
                    ++line;
                    column = 0;
                } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
                    field.text.pop_back(); // keep LF only inside quoted fields
                }
            }
        } else if (c == '"' && !fieldStarted) {
            quoted = true;
            fieldStarted = true;
        } else if (c == table.delimiter) {
            endField();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            // CRLF: the LF ends the row
        } else if (c == '\n') {
            endRow();
            ++line;
            column = 0;
        } else {
            if (afterQuote && c != ' ' && c != '\t' && c != '\r') {
                table.diagnostics.push_back({ Severity::Warning, fileName, line, column,
                    "text after a closing quote is kept as part of the "
                    "field" });
                afterQuote = false;
            }
            if (!afterQuote)
                field.text.push_back(c);
            fieldStarted = true;
        }
        if (!isContinuationByte(c))
            ++column;
    }
    if (quoted) {
        table.diagnostics.push_back({ Severity::Error, fileName, field.line, field.column,
            "unterminated quoted field (expected a closing \")" });
    }
    if (!field.text.empty() || !row.fields.empty() || fieldStarted)
        endRow();
    return table;
}

std::optional<std::string> withoutThousandsSeparators(std::string_view text)
{
    text = trimmed(text);
    std::string out;
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-'))
        out.push_back(text[i++]);
    const auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    std::size_t leading = 0;
    while (i < text.size() && isDigit(text[i])) {
        out.push_back(text[i++]);
        ++leading;
    }
    if (leading == 0 || leading > 3 || i >= text.size() || text[i] != ',')
        return std::nullopt;
    while (i < text.size() && text[i] == ',') {
        ++i;
        std::size_t digits = 0;
        while (i < text.size() && isDigit(text[i])) {
            out.push_back(text[i++]);
            ++digits;
        }
        if (digits != 3)
            return std::nullopt;
    }
    // The rest may be a fraction and an exponent, but no further comma.
    const std::string_view rest = text.substr(i);
    if (rest.find(',') != std::string_view::npos)
        return std::nullopt;
    if (!rest.empty() && rest.front() != '.' && rest.front() != 'e' && rest.front() != 'E'
        && rest.front() != ' ')
        return std::nullopt;
    out += rest;
    return out;
}

bool isMissingValue(std::string_view text)
{
    const std::string lower = lowerTrimmed(text);
    return lower.empty() || lower == "n/a" || lower == "na" || lower == "nan" || lower == "-nan"
        || lower == "no data" || lower == "-" || lower == "none" || lower == "null";
}

ridgepoint::Expected<std::optional<double>, std::string> parseReportNumber(std::string_view text)
{
    std::string_view cell = trimmed(text);
    if (isMissingValue(cell))
        return std::optional<double> {};
    std::string plain;
    if (cell.find(',') != std::string_view::npos) {
        auto grouped = withoutThousandsSeparators(cell);
        if (!grouped) {
            return ridgepoint::Unexpected("\"" + std::string(cell)
                + "\" is not a number: a comma that does not group thousands is ambiguous "
                  "(decimal comma?)");
        }
        plain = *grouped;
        cell = plain;
    }
    if (!cell.empty() && cell.front() == '+')
        cell.remove_prefix(1);
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
    if (ec != std::errc() || ptr != cell.data() + cell.size() || !std::isfinite(value))
        return ridgepoint::Unexpected("\"" + std::string(trimmed(text)) + "\" is not a number");
    return std::optional<double> { value };
}

std::optional<std::string> pointProblem(const KernelPoint &point)
{
    const auto positive = [](double v) { return std::isfinite(v) && v > 0.0; };
    if (point.name.empty())
        return "empty name (expected the kernel's name)";
    if (!std::isfinite(point.flops) || point.flops < 0.0)
        return "the FLOP count is "
            + std::string(std::isfinite(point.flops) ? "negative" : "not finite")
            + " (expected zero or more FLOPs)";
    for (const auto &level : point.bytes) {
        if (!positive(level.bytes))
            return "the bytes at "
                + (level.level ? std::string(memoryLevelName(*level.level))
                               : std::string("main memory"))
                + " are not a positive finite number (expected bytes greater than zero)";
    }
    if (point.seconds && !positive(*point.seconds))
        return std::string("the time is not a positive finite number of seconds");
    if (point.measuredRate && !positive(*point.measuredRate))
        return std::string("the performance is not a positive finite FLOP/s");
    if (point.intensity && !positive(*point.intensity))
        return std::string("the intensity is not a positive finite FLOP/B");
    const auto &s = point.timeStatistics;
    for (const auto *t : { &s.min, &s.median, &s.max }) {
        if (*t && !positive(**t))
            return std::string(
                "a repeat time (min, median or max) is not a positive finite number of seconds");
    }
    if (s.stddev && !(std::isfinite(*s.stddev) && *s.stddev >= 0.0))
        return std::string(
            "the time standard deviation is not a finite number of zero or more seconds");
    return std::nullopt;
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

PointsReadResult readPointsCsv(
    std::string_view text, const std::string &fileName, int maxDiagnostics)
{
    PointsReadResult result;
    CsvTable table = tokenizeCsv(text, fileName);
    int suppressed = 0;
    const auto report = [&](Diagnostic diagnostic) {
        if (static_cast<int>(result.diagnostics.size()) < maxDiagnostics)
            result.diagnostics.push_back(std::move(diagnostic));
        else
            ++suppressed;
    };
    for (auto &d : table.diagnostics)
        report(d);
    if (hasErrors(table.diagnostics))
        return result;
    if (table.rows.empty()) {
        report({ Severity::Error, fileName, 0, 0,
            "the file is empty (expected a header such as name,flops,bytes,seconds)" });
        return result;
    }

    // The header is the first row with a name and a flops, bytes or intensity column:
    // preamble lines that tools print before the table are skipped.
    std::size_t headerIndex = table.rows.size();
    std::vector<Column> columns;
    for (std::size_t r = 0; r < table.rows.size() && r < 50; ++r) {
        std::vector<Column> candidate;
        for (const auto &f : table.rows[r].fields)
            candidate.push_back(classify(f.text));
        const auto has = [&](Role role) {
            return std::any_of(candidate.begin(), candidate.end(),
                [role](const Column &c) { return c.role == role; });
        };
        if (has(Role::Name) && (has(Role::Flops) || has(Role::Bytes) || has(Role::Intensity))) {
            headerIndex = r;
            columns = std::move(candidate);
            break;
        }
    }
    if (headerIndex == table.rows.size()) {
        const CsvRow &first = table.rows.front();
        report({ Severity::Error, fileName, first.line, 1,
            "no header row found (expected a row naming the columns, e.g. "
            "name,flops,bytes,seconds)" });
        return result;
    }
    const CsvRow &header = table.rows[headerIndex];

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
                report({ Severity::Error, fileName, header.line, header.fields[i].column,
                    "column \"" + columns[i].header + "\" repeats column \"" + columns[j].header
                        + "\" (both give " + std::string(roleName(columns[i].role)) + ")" });
                headerOk = false;
            }
        }
    }
    const bool hasIntensity = find(Role::Intensity) != columns.end();
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
        return result;
    if (!ignored.empty()) {
        std::string list;
        for (const auto &name : ignored)
            list += (list.empty() ? "" : ", ") + ("\"" + name + "\"");
        report({ Severity::Warning, fileName, header.line, 0, "columns not used: " + list });
    }

    int zeroFlopRows = 0;
    int firstZeroFlopLine = 0;
    for (std::size_t r = headerIndex + 1; r < table.rows.size(); ++r) {
        const CsvRow &row = table.rows[r];
        ++result.rowsRead;
        const auto fail = [&](int column, const std::string &message) {
            report({ Severity::Error, fileName, row.line, column, message });
            ++result.rowsSkipped;
        };
        if (row.fields.size() < columns.size()) {
            fail(0,
                "expected " + std::to_string(columns.size()) + " fields, found "
                    + std::to_string(row.fields.size()));
            continue;
        }
        bool extra = false;
        for (std::size_t i = columns.size(); i < row.fields.size(); ++i)
            extra = extra || !trimmed(row.fields[i].text).empty();
        if (extra) {
            fail(row.fields[columns.size()].column,
                "expected " + std::to_string(columns.size()) + " fields, found "
                    + std::to_string(row.fields.size()));
            continue;
        }

        KernelPoint point;
        point.source = { fileName, row.line };
        std::optional<double> intensity;
        int intensityColumn = 0;
        bool flopsGiven = false;
        std::string error;
        int errorColumn = 0;
        for (std::size_t i = 0; i < columns.size() && error.empty(); ++i) {
            const Column &column = columns[i];
            const CsvField &field = row.fields[i];
            const std::string_view cell = trimmed(field.text);
            const auto bad = [&](const std::string &message) {
                error = "column \"" + column.header + "\": " + message;
                errorColumn = field.column;
            };
            // Zero is allowed where it is a real measurement (no FLOPs, no spread).
            const auto number
                = [&](Dimension dimension, bool zeroAllowed) -> std::optional<double> {
                auto value = cellValue(cell, column, dimension, table.delimiter);
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
                        intensityColumn = field.column;
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
                    point.precision = precisionFromName(cell);
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
        if (error.empty() && point.bytes.empty() && intensity) {
            if (flopsGiven && point.flops > 0.0) {
                // Intensity with a FLOP count: the bytes follow.
                point.bytes.push_back({ std::nullopt, point.flops / *intensity });
            } else if (point.measuredRate) {
                point.intensity = intensity;
                point.flops = 0.0;
            } else {
                error = "an intensity needs a FLOP count or a performance in the same row";
                errorColumn = intensityColumn;
            }
        }
        if (error.empty() && point.bytes.empty() && !point.intensity) {
            error = "no bytes in any bytes column (expected at least one)";
            errorColumn = 0;
        }
        if (error.empty()) {
            if (auto problem = pointProblem(point)) {
                error = *problem;
                errorColumn = 0;
            }
        }
        if (!error.empty()) {
            fail(errorColumn, error);
            continue;
        }
        if (!point.intensity && point.flops == 0.0) {
            if (zeroFlopRows++ == 0)
                firstZeroFlopLine = row.line;
        }
        result.points.push_back(std::move(point));
    }
    if (zeroFlopRows > 0) {
        report({ Severity::Warning, fileName, firstZeroFlopLine, 0,
            std::to_string(zeroFlopRows) + (zeroFlopRows == 1 ? " row has" : " rows have")
                + " 0 FLOPs (pure data movement): kept, but an intensity of 0 has no place on a "
                  "log-log roofline" });
    }
    if (suppressed > 0) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "... and " + std::to_string(suppressed) + " more problems not shown" });
    }
    if (result.rowsRead == 0) {
        result.diagnostics.push_back(
            { Severity::Error, fileName, header.line, 0, "the header has no data rows after it" });
    }
    return result;
}

} // namespace ridgepoint
