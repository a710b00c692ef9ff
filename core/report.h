// Text and JSON output of analyses and machines (the command line and exports share them).
#pragma once

#include "core/analysis.h"
#include "core/compare.h"
#include "core/hardware.h"
#include "core/point.h"

#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {

// {"hardware": {..., "ridges": [...]}, "points": [...]} with every number in SI base units.
std::string analysisJson(const Hardware &hardware, const std::vector<AnalyzedPoint> &points);
// An aligned table for people: the machine's ceilings and ridges, then one row per point.
std::string analysisTable(const Hardware &hardware, const std::vector<AnalyzedPoint> &points);

// The points table for spreadsheets and review documents, one row per point in the order given
// (its first byte level). `speedups`, when not empty (one per point), adds the speed-up against
// a baseline and the formula it came from.
// CSV (RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted, quotes
// doubled): a header naming each column's unit, numbers in SI base units with every digit
// needed to read back the same double, empty cells for unknown values.
std::string tableCsv(const std::vector<AnalyzedPoint> &points,
    const std::vector<std::optional<Speedup>> &speedups = {});
// Markdown: a pipe table with columns padded to one width, numbers right-aligned and in human
// units ("1.2 TFLOP/s"), '|' in names escaped.
std::string tableMarkdown(const std::vector<AnalyzedPoint> &points,
    const std::vector<std::optional<Speedup>> &speedups = {});

// {"presets": [...]}, each entry shaped like the "hardware" object above.
std::string presetsJson(const std::vector<Hardware> &machines);
std::string presetsTable(const std::vector<Hardware> &machines);

// Lays out rows of cells in columns separated by two spaces; `rightAligned[i]` per column.
std::string alignedTable(
    const std::vector<std::vector<std::string>> &rows, const std::vector<bool> &rightAligned);

} // namespace ridgepoint
