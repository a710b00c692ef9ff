#include "core/io/formats/csv.h"
#include "core/io/formats/csv_scanner.h"
#include "core/io/text.h"

#include <algorithm>
#include <array>

namespace ridgepoint {
namespace csv {

char detectDelimiter(std::string_view text)
{
    // Count candidates on the first line that is not a comment, outside quotes.
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.front() != '#' && !trim(line).empty()) {
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

int codePointColumn(std::string_view text, std::size_t lineStart, std::size_t offset)
{
    int column = 1;
    for (std::size_t i = lineStart; i < offset; ++i)
        column += (static_cast<unsigned char>(text[i]) & 0xC0U) == 0x80U ? 0 : 1;
    return column;
}

} // namespace csv

CsvTable tokenizeCsv(std::string_view text, const std::string &fileName, char delimiter)
{
    CsvTable table;
    text = withoutBom(text);
    table.delimiter = delimiter ? delimiter : csv::detectDelimiter(text);
    csv::CsvScanner scanner(text, table.delimiter, fileName, table.diagnostics);
    csv::ScannedRow scanned;
    while (scanner.next(scanned)) {
        CsvRow row;
        row.line = scanned.line;
        row.fields.reserve(scanned.fields.size());
        for (const csv::ScannedField &field : scanned.fields)
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

} // namespace ridgepoint
