// Internal to ridgepoint_measure: the RAPL energy counters of the Linux powercap interface
// (docs/MEASURE.md, "Energy"). /sys/class/powercap lists every zone flat: "intel-rapl:0" is a
// package ("package-0"), "intel-rapl:0:2" one of its parts ("core", "uncore", "dram"); AMD
// processors report theirs through the same driver. A run counts the packages and the DRAM
// zones (the DRAM's energy is not in a package's); the cores and uncore are parts of a package
// and "psys" (the whole platform) would count them twice.
#pragma once

#include "core/model/expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint::detail {

struct RaplZone {
    std::string name; // "package-0", "dram"
    std::string directory;
    std::uint64_t maxRange = 0; // µJ at which energy_uj wraps to 0; 0: not known
};

struct RaplCounters {
    std::vector<RaplZone> zones; // the packages, then the DRAM zones
    std::optional<double> powerLimitWatts; // the packages' long-term limits, summed
    std::string description; // "RAPL package-0 + dram (/sys/class/powercap)"
};

// The zones under `root` a run counts, or why there are none: no such folder, no package zone,
// or a counter that cannot be read (only root may read energy_uj since Linux 5.10).
Expected<RaplCounters, std::string> findRaplCounters(const std::string &root);

// Each zone's counter in µJ, in the order of counters.zones; nullopt when one cannot be read.
std::optional<std::vector<std::uint64_t>> readRaplEnergy(const RaplCounters &counters);

// The joules the zones used between two readings. A counter that wrapped (after < before) went
// round once: its range less `before`, plus `after`; with no known range that zone adds nothing
// and `valid` is set to false.
double raplJoulesBetween(const RaplCounters &counters, const std::vector<std::uint64_t> &before,
    const std::vector<std::uint64_t> &after, bool &valid);

} // namespace ridgepoint::detail
