// What the small formats of roofline scripts share (docs/FORMATS.md §2, §6): their units, how
// many bad values are listed, and reading a CSV cell as a positive number.
#pragma once

#include "core/io/formats/csv.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

inline constexpr double kGiga = 1e9; // GFLOP/s and GB/s in these files are decimal
inline constexpr int kListedProblems = 50; // bad values listed one by one, then counted

// The cells of one line split at commas, trimmed, lower-cased and without quotes (for
// recognising a header).
std::vector<std::string> cellsLower(std::string_view line);

bool containsCell(const std::vector<std::string> &cells, std::string_view cell);

// A cell's positive number, or nullopt with an error naming the column: `column "peak GB/s":
// "0" is not a positive number (expected GB/s)`.
std::optional<double> positiveCell(const CsvRow &row, std::size_t index, std::string_view column,
    std::string_view expected, const std::string &fileName, std::vector<Diagnostic> &diagnostics);

} // namespace ridgepoint
