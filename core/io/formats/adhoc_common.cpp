#include "core/io/formats/adhoc_common.h"

#include "core/io/numbers.h"
#include "core/io/text.h"

#include <algorithm>

namespace ridgepoint {

std::vector<std::string> cellsLower(std::string_view line)
{
    std::vector<std::string> out;
    for (const std::string_view cell : splitCells(line)) {
        std::string lowered = asciiLower(cell);
        lowered.erase(std::remove(lowered.begin(), lowered.end(), '"'), lowered.end());
        out.push_back(std::move(lowered));
    }
    return out;
}

bool containsCell(const std::vector<std::string> &cells, std::string_view cell)
{
    return std::find(cells.begin(), cells.end(), cell) != cells.end();
}

std::optional<double> positiveCell(const CsvRow &row, std::size_t index, std::string_view column,
    std::string_view expected, const std::string &fileName, std::vector<Diagnostic> &diagnostics)
{
    const std::string_view cell = trim(row.text(index));
    const auto value = plainNumber(cell);
    if (!value || !positiveFinite(*value)) {
        diagnostics.push_back({ Severity::Error, fileName, row.line, row.column(index),
            "column \"" + std::string(column) + "\": \"" + std::string(cell)
                + "\" is not a positive number (expected " + std::string(expected) + ")" });
        return std::nullopt;
    }
    return value;
}

} // namespace ridgepoint
