// Naming the flat stretches of a sweep by working-set size against the reported cache sizes
// (plateau_labels.h, docs/MEASURE.md "How the levels are named").
#include "measure/plateau_labels.h"

#include "measure/measure_detail.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace ridgepoint {
namespace {

using detail::kMiB;
using detail::medianOf;

constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

// The working sets [low, high] (inclusive) a level is named for.
struct Region {
    MemoryLevel level = MemoryLevel::DRAM;
    std::uint64_t low = 0;
    std::uint64_t high = kNoLimit;
};

std::uint64_t scaled(std::uint64_t bytes, double factor)
{
    return static_cast<std::uint64_t>(static_cast<double>(bytes) * factor);
}

// L1 (0, C1], L2 [m·C1, C2], L3 [m·C2, C3], DRAM [m·LLC, ∞): a level the system does not report
// has no region, and a level no larger than the one before it gets none either.
std::vector<Region> regionsOf(const CacheSizes &caches, double margin)
{
    std::vector<Region> regions;
    std::uint64_t previous = 0;
    const std::pair<MemoryLevel, std::uint64_t> levels[] = { { MemoryLevel::L1, caches.l1 },
        { MemoryLevel::L2, caches.l2 }, { MemoryLevel::L3, caches.l3 } };
    for (const auto &[level, capacity] : levels) {
        if (capacity == 0)
            continue;
        const std::uint64_t low = previous == 0 ? 1 : scaled(previous, margin);
        if (capacity >= low)
            regions.push_back({ level, low, capacity });
        previous = std::max(previous, capacity);
    }
    regions.push_back({ MemoryLevel::DRAM, scaled(caches.lastLevel(), margin), kNoLimit });
    return regions;
}

std::string gbps(double bytesPerSecond)
{
    char text[32];
    std::snprintf(text, sizeof(text), "%.3g GB/s", bytesPerSecond / 1e9);
    return text;
}

std::string levelName(MemoryLevel level)
{
    return std::string(memoryLevelName(level));
}

std::string rangeText(std::uint64_t first, std::uint64_t last)
{
    return formatBinarySize(first) + "–" + formatBinarySize(last);
}

Plateau plateauOf(MemoryLevel level, const std::vector<BandwidthSample> &points)
{
    Plateau p;
    p.level = level;
    std::vector<double> values;
    for (const auto &s : points) {
        values.push_back(s.best);
        p.maxBandwidth = std::max(p.maxBandwidth, s.best);
    }
    p.bandwidth = medianOf(values);
    p.firstWorkingSet = points.front().workingSet;
    p.lastWorkingSet = points.back().workingSet;
    p.points = static_cast<int>(points.size());
    return p;
}

// The part of each stretch inside `region` (boundary sets are in no region: dropped), those of
// at least minPoints sets; stretches come in working-set order, so do the parts.
std::vector<std::vector<BandwidthSample>> partsIn(
    const Region &region, const std::vector<std::vector<BandwidthSample>> &stretches, int minPoints)
{
    std::vector<std::vector<BandwidthSample>> parts;
    for (const auto &stretch : stretches) {
        std::vector<BandwidthSample> part;
        for (const auto &s : stretch) {
            if (s.workingSet >= region.low && s.workingSet <= region.high)
                part.push_back(s);
        }
        if (static_cast<int>(part.size()) >= std::max(minPoints, 1))
            parts.push_back(std::move(part));
    }
    return parts;
}

// A cache level: the part with the most sets (a tie: the larger sets, past the start-up cost of
// the smallest). DRAM: the part with the largest sets, where the curve has settled.
std::size_t chosenPart(MemoryLevel level, const std::vector<std::vector<BandwidthSample>> &parts)
{
    if (level == MemoryLevel::DRAM)
        return parts.size() - 1;
    std::size_t best = 0;
    for (std::size_t i = 1; i < parts.size(); ++i) {
        if (parts[i].size() >= parts[best].size())
            best = i;
    }
    return best;
}

// Names the stretches in order when the system reports no cache: L1, L2, L3, and DRAM for a
// last stretch reaching 64 MiB or more (past the caches of most processors).
LabelledPlateaus labelInOrder(const std::vector<std::vector<BandwidthSample>> &stretches)
{
    LabelledPlateaus out;
    out.warnings.push_back("the system reports no cache sizes: levels are named in order, "
                           "the last stretch DRAM when it reaches 64 MiB");
    const MemoryLevel caches[] = { MemoryLevel::L1, MemoryLevel::L2, MemoryLevel::L3 };
    std::size_t next = 0;
    for (std::size_t i = 0; i < stretches.size(); ++i) {
        const bool last = i + 1 == stretches.size();
        if (last && stretches[i].back().workingSet >= 64 * kMiB)
            out.levels.push_back(plateauOf(MemoryLevel::DRAM, stretches[i]));
        else if (next < std::size(caches))
            out.levels.push_back(plateauOf(caches[next++], stretches[i]));
    }
    return out;
}

// A level measuring faster than a smaller one: said, never renamed. Within 5 % the two are the
// same figure as far as this machine's noise goes (41.9 vs 41.6 GB/s is not worth a warning).
void warnOutOfOrder(LabelledPlateaus &out)
{
    constexpr double kNoise = 1.05;
    for (std::size_t i = 1; i < out.levels.size(); ++i) {
        const Plateau &upper = out.levels[i - 1];
        const Plateau &lower = out.levels[i];
        if (lower.bandwidth > upper.bandwidth * kNoise)
            out.warnings.push_back(levelName(lower.level) + " (" + gbps(lower.bandwidth)
                + ") measures faster than " + levelName(upper.level) + " (" + gbps(upper.bandwidth)
                + "): the names follow the working-set sizes, not the speeds; noise or other "
                  "work on the machine");
    }
}

} // namespace

std::uint64_t CacheSizes::lastLevel() const
{
    return std::max({ l1, l2, l3, l4 });
}

LabelledPlateaus labelPlateaus(const std::vector<BandwidthSample> &sweep, const CacheSizes &caches,
    const PlateauOptions &options)
{
    const auto stretches = detail::flatStretches(sweep, options.minStep, options.minPoints);
    if (stretches.empty())
        return { {}, { "no flat stretch in the curve" } };
    if (caches.lastLevel() == 0)
        return labelInOrder(stretches);
    std::uint64_t largest = 0;
    for (const auto &s : sweep) {
        if (s.best > 0.0)
            largest = std::max(largest, s.workingSet);
    }
    LabelledPlateaus out;
    for (const Region &region : regionsOf(caches, options.margin)) {
        const auto parts = partsIn(region, stretches, options.minPoints);
        const std::string name = levelName(region.level);
        if (region.level == MemoryLevel::DRAM && largest < region.low) {
            out.warnings.push_back("the sweep's largest working set (" + formatBinarySize(largest)
                + ") is below " + std::to_string(static_cast<int>(options.margin))
                + " × the last-level cache (" + formatBinarySize(region.low) + "): no DRAM level");
            continue;
        }
        if (parts.empty()) {
            if (largest >= region.low)
                out.warnings.push_back("no flat stretch for " + name + " (working sets "
                    + rangeText(region.low, std::min(region.high, largest)) + ")");
            continue;
        }
        out.levels.push_back(plateauOf(region.level, parts[chosenPart(region.level, parts)]));
        const double first = plateauOf(region.level, parts.front()).bandwidth;
        if (region.level == MemoryLevel::DRAM && parts.size() > 1
            && first > out.levels.back().bandwidth)
            out.warnings.push_back("bandwidth still falls past the last-level cache (" + gbps(first)
                + " from " + formatBinarySize(parts.front().front().workingSet) + "): DRAM is the "
                + gbps(out.levels.back().bandwidth)
                + " of the largest sets; the machine may cache more than the system reports");
    }
    warnOutOfOrder(out);
    return out;
}

} // namespace ridgepoint
