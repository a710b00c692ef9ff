// Throughput of the core paths a big file goes through: unit parsing, CSV reading, analysis.
#include "core/analysis.h"
#include "core/csv.h"
#include "core/presets.h"
#include "core/units.h"

#include <benchmark/benchmark.h>

#include <string>

namespace {

std::string syntheticCsv(int rows)
{
    std::string text = "name,group,precision,flops,bytes,seconds\n";
    text.reserve(static_cast<std::size_t>(rows) * 60);
    for (int i = 0; i < rows; ++i) {
        const double flops = 1e6 * (1 + i % 1000);
        const double bytes = 1e5 * (1 + (i * 7) % 997);
        text += "kernel_" + std::to_string(i) + ",g" + std::to_string(i % 8) + ",bf16,"
            + std::to_string(flops) + "," + std::to_string(bytes) + ",0.001\n";
    }
    return text;
}

void parseQuantities(benchmark::State &state)
{
    using ridgepoint::Dimension;
    const std::pair<const char *, Dimension> inputs[] = { { "3.35 TB/s", Dimension::ByteRate },
        { "989 TFLOP/s", Dimension::FlopRate }, { "2 TiB/s", Dimension::ByteRate },
        { "1.97e14", Dimension::FlopRate }, { "65 TFLOPS", Dimension::FlopRate } };
    std::size_t i = 0;
    for (auto _ : state) {
        const auto &[text, dimension] = inputs[i++ % 5];
        auto value = ridgepoint::parseQuantity(text, dimension);
        benchmark::DoNotOptimize(value);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(parseQuantities);

void readPointsCsv(benchmark::State &state)
{
    const std::string text = syntheticCsv(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        auto result = ridgepoint::readPointsCsv(text, "bench.csv");
        benchmark::DoNotOptimize(result.points.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(readPointsCsv)->Arg(10'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

void analyzePoints(benchmark::State &state)
{
    const auto points
        = ridgepoint::readPointsCsv(syntheticCsv(static_cast<int>(state.range(0))), "b").points;
    const auto presets = ridgepoint::PresetDatabase::builtin();
    const ridgepoint::Hardware &h100 = **presets.find("H100");
    for (auto _ : state) {
        std::vector<ridgepoint::Diagnostic> problems;
        auto analysed = ridgepoint::analyzePoints(points, h100, {}, problems);
        benchmark::DoNotOptimize(analysed.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(analyzePoints)->Arg(10'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
