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

enum class Role { Ignored, Name, Flops, Bytes, Time, Rate, Precision, Group };

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
    std::string unit;
    for (auto [open, close] : { std::pair { '[', ']' }, std::pair { '(', ')' } }) {
        const auto a = text.find(open);
        const auto b = text.find(close, a == std::string::npos ? 0 : a);
        if (a != std::string::npos && b != std::string::npos && b > a) {
            unit = lowerTrimmed(text.substr(a + 1, b - a - 1));
            text = lowerTrimmed(text.substr(0, a));
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
            auto scale = parseQuantity("1 " + unit, Dimension::Flops);
            column.role = scale ? Role::Flops : Role::Ignored;
            column.scale = scale.value_or(1.0);
        }
        return column;
    }
    if (text == "bytes" || text.starts_with("bytes_") || text.ends_with("_bytes")) {
        std::string level = text == "bytes" ? std::string()
            : text.starts_with("bytes_")    ? text.substr(6)
                                            : text.substr(0, text.size() - 6);
        if (!level.empty()) {
            column.level = memoryLevelFromName(level);
            if (!column.level)
                return column; // stays Ignored; reported with the other ignored columns
        }
        column.role = Role::Bytes;
        if (!unit.empty()) {
            auto scale = parseQuantity("1 " + unit, Dimension::Bytes);
            column.role = scale ? Role::Bytes : Role::Ignored;
            column.scale = scale.value_or(1.0);
        }
        return column;
    }
    static constexpr std::array<std::string_view, 8> kTimeWords { "seconds", "time", "runtime",
        "duration", "elapsed", "mean", "median", "t" };
    const auto isTimeWord = [](std::string_view word) {
        return std::find(kTimeWords.begin(), kTimeWords.end(), word) != kTimeWords.end();
    };
    if (isTimeWord(text)) {
        column.role = Role::Time;
        if (!unit.empty()) {
            auto scale = timeUnitScale(unit);
            column.role = scale ? Role::Time : Role::Ignored;
            column.scale = scale.value_or(1.0);
        }
        return column;
    }
    if (const auto underscore = text.rfind('_'); underscore != std::string::npos) {
        const std::string base = text.substr(0, underscore);
        if (auto scale = timeUnitScale(text.substr(underscore + 1)); scale && isTimeWord(base)) {
            column.role = Role::Time;
            column.scale = *scale;
            return column;
        }
    }
    struct RateName {
        std::string_view name;
        double scale;
    };
    static constexpr std::array<RateName, 10> kRates { { { "performance", 1.0 }, { "flop/s", 1.0 },
        { "flops_per_second", 1.0 }, { "achieved_flops", 1.0 }, { "mflops", 1e6 },
        { "gflops", 1e9 }, { "gflop/s", 1e9 }, { "achieved_gflops", 1e9 }, { "tflops", 1e12 },
        { "tflop/s", 1e12 } } };
    for (const auto &rate : kRates) {
        if (text == rate.name) {
            column.role = Role::Rate;
            column.scale = rate.scale;
            if (!unit.empty()) {
                auto scale = parseQuantity("1 " + unit, Dimension::FlopRate);
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
std::expected<double, std::string> cellValue(
    std::string_view cell, const Column &column, Dimension dimension)
{
    cell = trimmed(cell);
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

    // The header is the first row with a name and a flops (or rate) column: preamble lines
    // that tools print before the table are skipped.
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
        if (has(Role::Name) && (has(Role::Flops) || has(Role::Bytes))) {
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
    const auto find = [&](Role role) {
        return std::find_if(
            columns.begin(), columns.end(), [role](const Column &c) { return c.role == role; });
    };
    if (find(Role::Flops) == columns.end()) {
        report({ Severity::Error, fileName, header.line, 0,
            "no flops column (expected \"flops\": the operations each kernel performs)" });
        headerOk = false;
    }
    if (find(Role::Bytes) == columns.end()) {
        report({ Severity::Error, fileName, header.line, 0,
            "no bytes column (expected \"bytes\" or per-level \"bytes_<level>\" such as "
            "bytes_l2, bytes_hbm)" });
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
            const auto positive = [&](Dimension dimension) -> std::optional<double> {
                auto value = cellValue(cell, column, dimension);
                if (!value) {
                    bad(value.error());
                    return std::nullopt;
                }
                if (!(*value > 0.0)) {
                    bad("\"" + std::string(cell)
                        + "\" must be greater than zero (a log-log roofline cannot show it)");
                    return std::nullopt;
                }
                return *value;
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
                    bad("empty (expected the number of FLOPs)");
                } else if (auto v = positive(Dimension::Flops)) {
                    point.flops = *v;
                }
                break;
            case Role::Bytes:
                if (!cell.empty()) {
                    if (auto v = positive(Dimension::Bytes))
                        point.bytes.push_back({ column.level, *v });
                }
                break;
            case Role::Time:
                if (!cell.empty()) {
                    if (auto v = positive(Dimension::Time))
                        point.seconds = *v;
                }
                break;
            case Role::Rate:
                if (!cell.empty()) {
                    if (auto v = positive(Dimension::FlopRate))
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
        if (error.empty() && point.bytes.empty()) {
            error = "no bytes in any bytes column (expected at least one)";
            errorColumn = 0;
        }
        if (!error.empty()) {
            fail(errorColumn, error);
            continue;
        }
        result.points.push_back(std::move(point));
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
