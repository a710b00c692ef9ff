// Every memory level a point has, with or without a ceiling on the machine (docs/MODEL.md §4.5):
// what the report writers, the JSON and the window show per level.
#pragma once

#include "core/analysis/analysis.h"

#include <optional>
#include <string_view>
#include <vector>

namespace ridgepoint {

// The analysed levels with a ceiling, then those without, each ordered from the core outwards
// (L1, LDS, L2, L3, DRAM, HBM, PCIe, NVLink, ICI, DCN).
std::vector<const LevelAnalysis *> allLevels(const PointAnalysis &analysis);

// The level a point's table row shows its intensity for: the main-memory level (DRAM or HBM)
// with a ceiling, else the first level with one, else the first level. Null only for a point
// with no levels at all.
const LevelAnalysis *mainLevel(const PointAnalysis &analysis);

// memory when β_l·I_l is below the compute peak, compute otherwise; nullopt without a ceiling.
std::optional<Bound> levelBound(const PointAnalysis &analysis, const LevelAnalysis &level);

// Rank of a level from the core outwards, for ordering columns and lists.
int levelRank(MemoryLevel level);

} // namespace ridgepoint
