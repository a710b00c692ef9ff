// Per-level columns of the table, CSV and Markdown reports (docs/FILES.md, "The points table"):
// one bytes column per memory level that occurs in the look-ahead points, never a sum, and the
// intensity of the level a point's row is judged on, named in its header.
#pragma once

#include "core/analysis/analysis.h"
#include "core/analysis/compare.h"
#include "core/model/point.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {

class LevelColumns
{
public:
    // Records the levels of one analysed point.
    void see(const PointAnalysis &analysis);
    // The levels seen, from the core outwards (L1, L2, ..., HBM).
    const std::vector<MemoryLevel> &levels() const { return m_levels; }
    // The level the intensity column is for: the main memory seen, else the first level seen.
    std::optional<MemoryLevel> intensityLevel() const;
    // The point's level `wanted`, the first of allLevels(analysis) at that level; null when it
    // has none. Allocates nothing.
    static const LevelAnalysis *find(const PointAnalysis &analysis, MemoryLevel wanted);
    // "HBM intensity" (or "intensity" when no level was seen).
    std::string intensityHeader() const;
    // One cell per column level: `format` of that level's value, "" when the point has none.
    std::vector<std::string> cells(const PointAnalysis &analysis,
        const std::function<std::string(const LevelAnalysis &)> &format) const;
    // The point's intensity for the intensity column: that of its main level, with "(L2)" after
    // it when that level is not the column's.
    std::string intensityCell(
        const PointAnalysis &analysis, const std::function<std::string(double)> &format) const;
    // "also L3 5 GB" for the point's levels that have no column (first seen past the look-ahead).
    std::string missing(const PointAnalysis &analysis,
        const std::function<std::string(const LevelAnalysis &)> &format) const;

private:
    std::vector<MemoryLevel> m_levels;
};

// Holds the first `lookAhead` points so their levels decide the columns, then hands every point
// on in order: `start` once with the columns, then `emit` per point.
class PointLookAhead
{
public:
    using Start = std::function<void(const LevelColumns &)>;
    using Emit = std::function<void(
        const KernelPoint &, const PointAnalysis &, const std::optional<Speedup> &)>;

    PointLookAhead(std::size_t lookAhead, Start start, Emit emit);
    void add(const KernelPoint &point, const PointAnalysis &analysis,
        const std::optional<Speedup> &speedup);
    void finish();
    const LevelColumns &columns() const { return m_columns; }

private:
    struct Held {
        KernelPoint point;
        PointAnalysis analysis;
        std::optional<Speedup> speedup;
    };
    void release();

    std::size_t m_lookAhead;
    Start m_start;
    Emit m_emit;
    LevelColumns m_columns;
    std::vector<Held> m_held;
    bool m_started = false;
};

} // namespace ridgepoint
