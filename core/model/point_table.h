// The points of a workspace kept compactly (docs/PERFORMANCE.md, "Issue 27: memory of
// `render`"): a `KernelPoint` holds three strings, two vectors and six optionals whatever its
// file gave (about 290 bytes and its heap blocks); a row here holds what nearly every point has
// (its FLOPs, one byte level, its time, precision and units) in 56 bytes, its name in one text
// shared by all rows, its group and file as indices into tables of the distinct ones, and the
// rest (more byte levels, a rate, intensities, the spread of repeated runs) in a side table only
// for the points that have it. A whole KernelPoint is made again when one is asked for; the
// loops over every point (the chart's names, groups and times) read the rows.
#pragma once

#include "core/model/point.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ridgepoint {

class PointTable
{
public:
    PointTable() = default;
    // The points in order (a reader's whole list).
    explicit PointTable(const std::vector<KernelPoint> &points);

    std::size_t size() const { return m_rows.size(); }
    bool empty() const { return m_rows.empty(); }
    void reserve(std::size_t points) { m_rows.reserve(points); }
    void clear();

    void push_back(const KernelPoint &point);
    void insert(std::size_t index, const KernelPoint &point);
    void erase(std::size_t index);
    // Replaces the point at `index` (a workload re-derived on another machine or mode).
    void set(std::size_t index, const KernelPoint &point);

    // The whole point, as it was put in.
    KernelPoint at(std::size_t index) const;
    // The same into `out`, reusing its strings' and vectors' storage: a loop over every point
    // then allocates nothing per point once the longest name has been seen.
    void fill(std::size_t index, KernelPoint &out) const;
    std::vector<KernelPoint> toVector() const;

    // What the loops over every point read, without making the point.
    std::string_view name(std::size_t index) const;
    std::string_view group(std::size_t index) const;
    std::string_view file(std::size_t index) const;
    int line(std::size_t index) const { return m_rows[index].line; }
    double flops(std::size_t index) const { return m_rows[index].flops; }
    std::optional<double> seconds(std::size_t index) const;
    std::optional<double> measuredRate(std::size_t index) const;
    // KernelPoint::performance() of the point (achievedRate).
    std::optional<double> performance(std::size_t index) const;

    // Bytes held, for the memory figures (rows, names, side table; not the allocator's slack).
    std::size_t bytesUsed() const;

private:
    // The members of a KernelPoint few points have; kept only for those that do.
    struct Extra {
        std::vector<LevelBytes> moreBytes; // bytes[1..]
        std::optional<double> measuredRate;
        std::optional<double> intensity;
        std::vector<LevelIntensity> levelIntensities;
        RepeatStatistics timeStatistics;
    };
    struct Row {
        double flops = 0.0;
        double bytes = 0.0; // bytes[0].bytes when the point has byte levels
        double seconds = 0.0; // when kHasSeconds
        std::uint64_t nameOffset = 0; // into m_names
        std::uint32_t nameLength = 0;
        std::uint32_t group = 0; // into m_groups
        std::uint32_t file = 0; // into m_files
        std::int32_t line = 0;
        std::uint32_t extra = kNoExtra; // into m_extras
        std::uint8_t flags = 0;
        std::uint8_t level = 0; // bytes[0].level, when kHasLevel
        std::uint8_t precision = 0; // when kHasPrecision
        ComputeUnit unit = ComputeUnit::Unknown;
    };
    static_assert(sizeof(double) == 8);
    static constexpr std::uint32_t kNoExtra = 0xffffffff;
    static constexpr std::uint8_t kHasBytes = 1;
    static constexpr std::uint8_t kHasLevel = 2;
    static constexpr std::uint8_t kHasSeconds = 4;
    static constexpr std::uint8_t kHasPrecision = 8;

    // The distinct strings of one kind (groups, files), each kept once.
    struct TextHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const
        {
            return std::hash<std::string_view> {}(text);
        }
    };
    struct StringTable {
        std::vector<std::string> strings;
        std::unordered_map<std::string, std::uint32_t, TextHash, std::equal_to<>> index;
        std::uint32_t add(std::string_view text);
        std::size_t bytesUsed() const;
    };

    Row makeRow(const KernelPoint &point);
    void forget(const Row &row);
    void compactIfWasteful();
    const Extra *extraOf(const Row &row) const;

    std::vector<Row> m_rows;
    std::string m_names; // every row's name, one after another
    std::size_t m_deadNameBytes = 0; // names of erased or replaced rows still in m_names
    std::size_t m_deadExtras = 0; // side-table entries of erased or replaced rows
    StringTable m_groups;
    StringTable m_files;
    std::vector<Extra> m_extras;
};

} // namespace ridgepoint
