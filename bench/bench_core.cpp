// Throughput of the core paths a big file goes through: unit parsing, the input check, CSV
// reading, analysis and the JSON report.
#include "core/analysis/analysis.h"
#include "core/io/formats/csv.h"
#include "core/io/input_check.h"
#include "core/presets/presets.h"
#include "core/report/report.h"
#include "core/model/units.h"

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

const ridgepoint::Hardware &h100()
{
    static const auto presets = ridgepoint::PresetDatabase::builtin();
    return **presets.find("H100");
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

// What every file goes through before a reader sees it (UTF-8, NUL bytes, line limits).
void checkTextInput(benchmark::State &state)
{
    const std::string text = syntheticCsv(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        auto check = ridgepoint::checkTextInput(text, "bench.csv");
        benchmark::DoNotOptimize(check);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(checkTextInput)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// Into a vector of points, as the window reads a file; freeing the points is timed as well.
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

// Point by point to a sink, as `ridgepoint analyze` reads a file: no vector of points.
void readPointsCsvToSink(benchmark::State &state)
{
    const std::string text = syntheticCsv(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        double flops = 0.0;
        auto result = ridgepoint::readPointsCsv(
            text, "bench.csv", [&](ridgepoint::KernelPoint &&point) { flops += point.flops; });
        benchmark::DoNotOptimize(flops);
        benchmark::DoNotOptimize(result.rowsRead);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(readPointsCsvToSink)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

void analyzePoints(benchmark::State &state)
{
    const auto points
        = ridgepoint::readPointsCsv(syntheticCsv(static_cast<int>(state.range(0))), "b").points;
    for (auto _ : state) {
        std::vector<ridgepoint::Diagnostic> problems;
        auto analysed = ridgepoint::analyzePoints(points, h100(), {}, problems);
        benchmark::DoNotOptimize(analysed.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(analyzePoints)->Arg(10'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// The JSON report of `ridgepoint analyze --json` (about 1.1 kB a point), as one string.
void analysisJson(benchmark::State &state)
{
    const auto points
        = ridgepoint::readPointsCsv(syntheticCsv(static_cast<int>(state.range(0))), "b").points;
    std::vector<ridgepoint::Diagnostic> problems;
    const auto analysed = ridgepoint::analyzePoints(points, h100(), {}, problems);
    std::size_t bytes = 0;
    for (auto _ : state) {
        const std::string text = ridgepoint::analysisJson(h100(), analysed);
        bytes += text.size();
        benchmark::DoNotOptimize(text.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}
BENCHMARK(analysisJson)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
