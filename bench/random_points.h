// Random points for the chart and window benchmarks (bench_plot, bench_copy): one TFLOP each,
// intensities spread over 10^-2…10^3 FLOP/B and rates over 10^-3…1 of the H100's BF16/HBM3
// roof, six groups; seeded, so every run and every build draws the same points.
#pragma once

#include "core/model/point.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace ridgepoint::bench {

inline std::vector<KernelPoint> randomPoints(std::size_t count)
{
    std::mt19937_64 random(42);
    std::uniform_real_distribution<double> logIntensity(-2.0, 3.0);
    std::uniform_real_distribution<double> logShare(-3.0, 0.0); // of the roof
    std::uniform_int_distribution<int> group(0, 5);
    std::vector<KernelPoint> points(count);
    for (std::size_t i = 0; i < count; ++i) {
        KernelPoint &p = points[i];
        p.name = "kernel " + std::to_string(i);
        p.group = "group " + std::to_string(group(random));
        p.flops = 1e12;
        const double intensity = std::pow(10.0, logIntensity(random));
        p.bytes = { { std::nullopt, p.flops / intensity } };
        const double roof = std::min(989e12, 3.35e12 * intensity);
        p.seconds = p.flops / (roof * std::pow(10.0, logShare(random)));
    }
    return points;
}

inline double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace ridgepoint::bench
