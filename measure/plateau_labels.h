// Naming the bandwidth plateaus of a sweep after the memory level that serves them, by the
// working-set sizes against the cache sizes the system reports (docs/MEASURE.md, "How the
// levels are named"). Pure: no Qt, no clock, no system call; the sweep and the sizes come in.
#pragma once

#include "measure/measure.h"

#include <string>
#include <vector>

namespace ridgepoint {

struct PlateauOptions {
    // Working sets between a capacity C and margin × C are boundary sets (partly in the level,
    // partly past it) and count for no level; DRAM starts at margin × the last-level cache.
    double margin = 2.0;
    double minStep = 1.12; // adjacent flat stretches closer than this ratio are one stretch
    int minPoints = 2; // points a level needs
};

struct LabelledPlateaus {
    std::vector<Plateau> levels; // L1, L2, L3, DRAM order (by size), each level at most once
    std::vector<std::string> warnings; // for people: a level missing, out of speed order, ...
};

// The levels of one curve (one kernel, one team size; any order; unusable points ignored).
// Each flat stretch of the curve is split at the cache boundaries, the boundary sets dropped;
// a level takes the part with the most sets in its size range (DRAM: the part with the largest
// sets). A level measuring faster than a smaller one keeps its name and gets a warning; no
// DRAM level when the sweep stops below margin × the last-level cache. With no cache sizes
// reported, the stretches are named in order (L1, L2, L3; the last DRAM when it reaches 64 MiB)
// with a warning.
LabelledPlateaus labelPlateaus(const std::vector<BandwidthSample> &sweep, const CacheSizes &caches,
    const PlateauOptions &options = {});

namespace detail {

// plateaus.cpp: the flat stretches of a curve, each its usable points (working set ascending);
// the slopes between them left out, neighbours closer than minStep joined.
std::vector<std::vector<BandwidthSample>> flatStretches(
    const std::vector<BandwidthSample> &curve, double minStep, int minPoints);

} // namespace detail

} // namespace ridgepoint
