// A small machine and points whose roofline numbers are easy to check by hand.
#pragma once

#include "core/model/hardware.h"
#include "core/model/point.h"

#include <vector>

namespace ridgepoint::test {

// π = 1 TFLOP/s, β = 100 GB/s: the ridge is at 10 FLOP/B.
inline Hardware machine()
{
    Hardware hw;
    hw.name = "Test machine";
    hw.aliases = { "TM" };
    hw.source = "tests";
    hw.compute.push_back({ "FP32 vector", Precision::FP32, "vector", 1e12, false, {}, true });
    hw.compute.push_back({ "FP64 vector", Precision::FP64, "vector", 5e11, false, {}, true });
    hw.memory.push_back({ "DRAM", MemoryLevel::DRAM, 1e11, {}, true });
    hw.memory.push_back({ "L2", MemoryLevel::L2, 1e12, {}, true });
    hw.defaultCompute = "FP32 vector";
    return hw;
}

// π = 100 TFLOP/s FP32, β = 1 TB/s DRAM (ridge 100 FLOP/B), with an energy model of round
// figures: 1 pJ/FLOP, 10 pJ/B, P0 = 50 W, a 100 W cap (docs/MODEL.md §14's worked examples).
inline Hardware roundEnergyMachine()
{
    Hardware hw;
    hw.name = "Round numbers";
    hw.compute.push_back({ "FP32", Precision::FP32, {}, 1e14, false, {}, true });
    hw.defaultCompute = "FP32";
    hw.memory.push_back({ "DRAM", MemoryLevel::DRAM, 1e12, {}, true });
    EnergyModel energy;
    energy.staticWatts = 50.0;
    energy.powerCapWatts = 100.0;
    energy.perFlop = { { Precision::FP32, 1e-12 } };
    energy.perByte = { { MemoryLevel::DRAM, 1e-11 } };
    hw.limits.energy = energy;
    return hw;
}

inline KernelPoint point(
    std::string name, std::string group, double flops, double bytes, double seconds)
{
    KernelPoint p;
    p.name = std::move(name);
    p.group = std::move(group);
    p.flops = flops;
    p.bytes = { { std::nullopt, bytes } };
    p.seconds = seconds;
    return p;
}

// 0: "stream" I = 1 FLOP/B, 50 GFLOP/s (half its 100 GFLOP/s roof), memory-bound.
// 1: "gemm"   I = 100 FLOP/B, 500 GFLOP/s (half its 1 TFLOP/s roof), compute-bound.
// 2: "stencil" I = 4 FLOP/B, 100 GFLOP/s, memory-bound.
inline std::vector<KernelPoint> points()
{
    return { point("stream", "memory", 1e9, 1e9, 0.02), point("gemm", "math", 1e12, 1e10, 2.0),
        point("stencil", "memory", 4e9, 1e9, 0.04) };
}

} // namespace ridgepoint::test
