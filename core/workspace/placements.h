// The analysed points kept compactly (docs/PERFORMANCE.md, "Issue 27: memory of `render`"): what
// the chart draws and the table sorts on, 48 bytes a point and 32 a level, in place of a whole
// `PointAnalysis` (its levels, note, diagnosis and energy: over 500 bytes) per point. The whole
// analysis of one point is made again when it is asked for (Workspace::analysis).
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/expected.h"
#include "core/model/hardware.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ridgepoint {

using PointResult = ridgepoint::Expected<PointAnalysis, std::string>;

// One level of an analysed point: LevelAnalysis's intensity, roof and bytes, without its name
// and times.
struct LevelPlacement {
    double intensity = 0.0; // I_l
    double attainable = 0.0; // min(π, β_l·I_l); 0 for a level without a ceiling
    double bytes = 0.0; // B_l (0 for a point known by intensity)
    MemoryLevel level = MemoryLevel::DRAM;
    bool bounded = true; // false: the machine has no ceiling for it (PointAnalysis::unbounded)
};

// One analysed point, or one that cannot be placed (placed false; its reason is in the whole
// analysis). Its levels are in the workspace's level table: PointAnalysis::levels, then
// PointAnalysis::unbounded, in their order.
struct PointPlacement {
    static constexpr std::uint32_t kNone = 0xffffffff;
    static constexpr std::uint16_t kUnnamed = 0xffff; // limitingCeiling past the names kept

    double y = 0.0; // where the dot is drawn: the achieved FLOP/s, else the attainable
    double attainable = 0.0; // F / T_min
    std::uint32_t firstLevel = 0; // in the level table
    std::uint32_t boundedLevels = 0; // PointAnalysis::levels.size()
    std::uint32_t unboundedLevels = 0; // PointAnalysis::unbounded.size()
    std::uint32_t mainLevel = kNone; // levels.h's mainLevel(), as an index into the levels
    // The compute ceiling, as an index into the workspace machine's compute ceilings (found by
    // name, as the chart finds it: a sharded matmul is analysed on a machine of its own).
    std::uint32_t computeCeiling = kNone;
    Bound bound = Bound::Memory;
    // PointAnalysis::limitingCeiling, as an index into the workspace's ceiling names
    // (Placements::limitingCeiling): the table's Bound cells read it without a whole analysis.
    std::uint16_t limitingCeiling = 0;
    bool placed = false;
    bool measured = false; // the point has an achieved performance (y), not only a plan
    bool consistent = true;
    bool diagnosed = false; // the doctor has something to say (PointAnalysis::diagnosis)

    std::optional<double> performance() const { return measured ? std::optional(y) : std::nullopt; }
    // performance / attainable, as analyzePoint computes it.
    std::optional<double> utilization() const
    {
        return measured ? std::optional(y / attainable) : std::nullopt;
    }
    std::size_t levelCount() const { return std::size_t { boundedLevels } + unboundedLevels; }
};

// The levels of `analysis` as Placements keeps them: its levels, then its unbounded ones.
std::vector<LevelPlacement> levelPlacements(const PointAnalysis &analysis);

// The compact form of every point of a workspace, by index.
class Placements
{
public:
    std::size_t size() const { return m_points.size(); }
    const PointPlacement &operator[](std::size_t index) const { return m_points[index]; }
    // Every level of point `index`: those with a ceiling first (PointAnalysis::levels).
    std::span<const LevelPlacement> levels(std::size_t index) const;
    // The levels with a ceiling: what the roofline places the point by.
    std::span<const LevelPlacement> boundedLevels(std::size_t index) const
    {
        return levels(index).first(m_points[index].boundedLevels);
    }
    // levels.h's mainLevel(): null only for a point with no levels (or not placed).
    const LevelPlacement *mainLevel(std::size_t index) const;
    // PointAnalysis::limitingCeiling of point `index` ("" for a point not placed); null when
    // the table of names is full (PointPlacement::kUnnamed) and the whole analysis must say.
    const std::string *limitingCeiling(std::size_t index) const
    {
        const std::uint16_t name = m_points[index].limitingCeiling;
        return name == PointPlacement::kUnnamed ? nullptr : &m_ceilingNames[name];
    }

    // Empties the table for `count` points, all unplaced until set().
    void reset(std::size_t count);
    // Point `index` as `result` makes it; `hardware` names the compute ceilings' indices.
    void set(std::size_t index, const PointResult &result, const Hardware &hardware);
    void insert(std::size_t index); // an unplaced point before `index`
    void erase(std::size_t index);

private:
    // Levels no point refers to any more (a point removed, or re-analysed into more levels)
    // are dropped once they outnumber the live ones.
    void compactLevels();
    // The index of `name` in m_ceilingNames, added when new (a machine has a few dozen names;
    // reset() empties the table), or kUnnamed once 65535 names are kept.
    std::uint16_t ceilingName(const std::string &name);

    std::vector<PointPlacement> m_points;
    std::vector<std::string> m_ceilingNames { std::string() };
    std::vector<LevelPlacement> m_levels;
    std::size_t m_liveLevels = 0;
};

} // namespace ridgepoint
