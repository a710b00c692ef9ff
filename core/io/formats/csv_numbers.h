// Internal to the points CSV reader: a cell's number in its column's unit (docs/FILES.md,
// docs/FORMATS.md §7.2).
#pragma once

#include "core/model/expected.h"
#include "core/model/units.h"

#include <string>
#include <string_view>

namespace ridgepoint::csv {

// A cell that is not a bare number (those, nearly every cell, the reader takes with plainNumber
// and × the column's `scale`): a unit string ("2.5 GFLOP"), or in a comma-separated file a
// quoted "1,234,567" that groups thousands (× `scale`); any other comma is refused.
ridgepoint::Expected<double, std::string> otherCellValue(
    std::string_view cell, double scale, Dimension dimension, char delimiter);

} // namespace ridgepoint::csv
