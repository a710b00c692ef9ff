// Dot area by time share (docs/MODEL.md §4.10): when every drawn point has a measured time
// (core/analysis/payoff.h, pointSeconds), a dot's area follows its share of the total time,
// clamped to a readable range and rounded to a few size classes so that the point layer keeps
// a handful of scatter graphs. Plain arithmetic, so the tests drive it without a window.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace ridgepoint {

class Document;

namespace chart {

// The marker's diameter in pixels when dots do not follow time (the point layer's default).
inline constexpr double kFixedDotDiameter = 9.0;
// The range of diameters of dots that follow time, and how many classes lie between.
inline constexpr double kMinDotDiameter = 5.0;
inline constexpr double kMaxDotDiameter = 24.0;
inline constexpr int kDotSizeClasses = 6;

// The size class (0 the smallest .. kDotSizeClasses − 1) of a point whose time is `seconds`
// when the longest point takes `longest` seconds: the diameter with area ∝ time,
// d = kMaxDotDiameter · √(seconds / longest), clamped to [kMinDotDiameter, kMaxDotDiameter],
// then the nearest of the log-spaced class diameters. A non-positive or non-finite input gives 0.
int dotSizeClass(double seconds, double longest);
// The diameter of class `sizeClass`: kMinDotDiameter · (max / min)^(class / (classes − 1)).
double dotClassDiameter(int sizeClass);

// The size class of every point of `document` (-1 for a point not drawn: no analysis), or
// nullopt when a drawn point has no time (planned, or no FLOP count and no seconds) or there
// is no point with a positive time.
std::optional<std::vector<int>> dotSizeClasses(const Document &document);

// Each point's measured time (core/analysis/payoff.h pointSeconds of the measured point), nullopt
// for a point without an analysis or without a time: one walk of the points that a rebuild of
// the drawing shares between the size classes and the density's longest dots (longestPoints).
using MeasuredSeconds = std::vector<std::optional<double>>;
MeasuredSeconds measuredSeconds(const Document &document);
// dotSizeClasses() from `seconds` (measuredSeconds of the same document).
std::optional<std::vector<int>> dotSizeClasses(
    const Document &document, const MeasuredSeconds &seconds);

} // namespace chart

} // namespace ridgepoint
