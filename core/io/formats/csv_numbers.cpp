#include "core/io/formats/csv_numbers.h"

#include "core/io/numbers.h"
#include "core/io/text.h"

namespace ridgepoint::csv {

ridgepoint::Expected<double, std::string> otherCellValue(
    std::string_view cell, double scale, Dimension dimension, char delimiter)
{
    cell = trim(cell);
    // In a comma-separated file a comma can only sit in a quoted cell; there it groups
    // thousands when the groups are valid ("1,234,567"). Anything else ("1,5") is refused
    // below, never guessed.
    if (delimiter == ',' && cell.find(',') != std::string_view::npos) {
        if (auto plain = withoutThousandsSeparators(cell)) {
            if (auto value = plainNumber(*plain))
                return *value * scale;
            return parseQuantity(trim(*plain), dimension);
        }
    }
    return parseQuantity(cell, dimension);
}

} // namespace ridgepoint::csv
