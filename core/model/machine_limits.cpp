// The limits beyond the two roofs (core/model/hardware.h, docs/MODEL.md §12-§14): the checks
// that keep a machine file's capacities, latencies and energies inside what a chip can have.
#include "core/model/hardware.h"

#include "core/model/units.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ridgepoint {
namespace {

// One accepted range: a value outside is a typo or a unit slip (a capacity in bits, a latency
// in microseconds written as seconds), refused with the range in the message.
struct Range {
    double low;
    double high;
    const char *text; // the range as the message words it
};

// 256 B is less than any register file, 16 GiB more than any on-chip memory made.
constexpr Range kCapacity { 256.0, 16.0 * 1024.0 * 1024.0 * 1024.0, "[256 B, 16 GiB]" };
// A launch takes at least a nanosecond and less than a second.
constexpr Range kLaunchLatency { 1e-9, 1.0, "[1 ns, 1 s]" };
// A load round trip: from a register-file-like 0.1 ns to a millisecond across a network.
constexpr Range kLevelLatency { 1e-10, 1e-3, "[0.1 ns, 1 ms]" };
constexpr Range kComputeUnits { 1.0, 1e6, "[1, 1000000]" };
constexpr Range kWatts { 1e-2, 1e6, "[0.01 W, 1 MW]" };
// 0.1 fJ is below any published FLOP or byte energy, 1 µJ far above.
constexpr Range kJoules { 1e-16, 1e-6, "[1e-16, 1e-06] J" };

// "capacity of L2 \"L2\": 0 is outside the accepted range [256 B, 16 GiB]", or nothing.
void check(double value, const Range &range, const std::string &what, const char *unit,
    std::vector<std::string> &problems)
{
    if (std::isfinite(value) && value >= range.low && value <= range.high)
        return;
    const std::string shown = std::isfinite(value) ? formatNumber(value) + " " + unit
                                                   : std::string("a value that is not finite");
    problems.push_back(what + ": " + shown + " is outside the accepted range " + range.text);
}

std::string levelText(MemoryLevel level)
{
    return std::string(memoryLevelName(level));
}

void checkCapacities(const std::vector<MemoryCapacity> &capacities, std::vector<std::string> &out)
{
    std::set<MemoryLevel> seen;
    for (const auto &capacity : capacities) {
        const std::string what = "capacity of " + levelText(capacity.level)
            + (capacity.name.empty() ? std::string() : " \"" + capacity.name + "\"");
        if (!isOnChip(capacity.level))
            out.push_back(what
                + ": only on-chip levels (L1, LDS, L2, L3) have a capacity that "
                  "bounds tiling");
        check(capacity.bytes, kCapacity, what, "B", out);
        if (!seen.insert(capacity.level).second)
            out.push_back(what + ": the level is given twice (expected one capacity per level)");
    }
}

void checkLatencies(const MachineLimits &limits, std::vector<std::string> &out)
{
    if (limits.launchLatency)
        check(limits.launchLatency->seconds, kLaunchLatency, "launch latency", "s", out);
    std::set<MemoryLevel> seen;
    for (const auto &latency : limits.levelLatencies) {
        const std::string what = "latency of " + levelText(latency.level);
        check(latency.seconds, kLevelLatency, what, "s", out);
        if (!seen.insert(latency.level).second)
            out.push_back(what + ": the level is given twice (expected one latency per level)");
    }
}

void checkEnergy(const EnergyModel &energy, std::vector<std::string> &out)
{
    if (energy.staticWatts)
        check(*energy.staticWatts, kWatts, "energy: static power", "W", out);
    if (energy.powerCapWatts) {
        check(*energy.powerCapWatts, kWatts, "energy: power cap", "W", out);
        if (energy.staticWatts && !(*energy.powerCapWatts > *energy.staticWatts))
            out.push_back("energy: the power cap " + formatNumber(*energy.powerCapWatts)
                + " W is not above the static power " + formatNumber(*energy.staticWatts)
                + " W (expected a cap that leaves power for work)");
    }
    std::set<Precision> precisions;
    for (const auto &[precision, joules] : energy.perFlop) {
        const std::string what = "energy per " + std::string(precisionName(precision)) + " FLOP";
        check(joules, kJoules, what, "J", out);
        if (!precisions.insert(precision).second)
            out.push_back(what + ": the precision is given twice");
    }
    std::set<MemoryLevel> levels;
    for (const auto &[level, joules] : energy.perByte) {
        const std::string what = "energy per " + levelText(level) + " byte";
        check(joules, kJoules, what, "J", out);
        if (!levels.insert(level).second)
            out.push_back(what + ": the level is given twice");
    }
}

} // namespace

bool isOnChip(MemoryLevel level)
{
    return level == MemoryLevel::L1 || level == MemoryLevel::LDS || level == MemoryLevel::L2
        || level == MemoryLevel::L3;
}

std::optional<double> EnergyModel::flopEnergy(Precision precision) const
{
    const auto it = std::find_if(perFlop.begin(), perFlop.end(),
        [precision](const auto &entry) { return entry.first == precision; });
    return it == perFlop.end() ? std::nullopt : std::optional<double>(it->second);
}

std::optional<double> EnergyModel::byteEnergy(MemoryLevel level) const
{
    const auto it = std::find_if(perByte.begin(), perByte.end(),
        [level](const auto &entry) { return entry.first == level; });
    return it == perByte.end() ? std::nullopt : std::optional<double>(it->second);
}

bool MachineLimits::empty() const
{
    return capacities.empty() && !launchLatency && levelLatencies.empty() && !energy
        && !computeUnits;
}

std::vector<std::string> validateLimits(const MachineLimits &limits)
{
    std::vector<std::string> problems;
    checkCapacities(limits.capacities, problems);
    checkLatencies(limits, problems);
    if (limits.energy)
        checkEnergy(*limits.energy, problems);
    if (limits.computeUnits) {
        // One unit to a million: more than any chip made, fewer than a typo in the thousands.
        check(static_cast<double>(limits.computeUnits->count), kComputeUnits, "compute units",
            "units", problems);
        const std::string &kind = limits.computeUnits->kind;
        if (kind != "sm" && kind != "cu" && kind != "core")
            problems.push_back(
                "compute units: unknown kind \"" + kind + "\" (expected sm, cu or core)");
    }
    return problems;
}

} // namespace ridgepoint
