// Text and JSON output of analyses and machines (the command line and exports share them).
#pragma once

#include "core/analysis.h"
#include "core/hardware.h"
#include "core/point.h"

#include <string>
#include <vector>

namespace ridgepoint {

// {"hardware": {..., "ridges": [...]}, "points": [...]} with every number in SI base units.
std::string analysisJson(const Hardware &hardware, const std::vector<AnalyzedPoint> &points);
// An aligned table for people: the machine's ceilings and ridges, then one row per point.
std::string analysisTable(const Hardware &hardware, const std::vector<AnalyzedPoint> &points);

// {"presets": [...]}, each entry shaped like the "hardware" object above.
std::string presetsJson(const std::vector<Hardware> &machines);
std::string presetsTable(const std::vector<Hardware> &machines);

// Lays out rows of cells in columns separated by two spaces; `rightAligned[i]` per column.
std::string alignedTable(
    const std::vector<std::vector<std::string>> &rows, const std::vector<bool> &rightAligned);

} // namespace ridgepoint
