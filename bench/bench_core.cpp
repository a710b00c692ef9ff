// Throughput of the core paths a big file goes through: unit parsing, the input check, CSV
// reading, analysis, the numbers of a report and the JSON report.
#include "core/analysis/analysis.h"
#include "core/io/formats/csv.h"
#include "core/io/input_check.h"
#include "core/model/shortest_number.h"
#include "core/model/units.h"
#include "core/presets/presets.h"
#include "core/report/report.h"

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <array>
#include <charconv>
#include <string>
#include <vector>

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

// The numbers a report writes for 10,000 analysed points: intensity, performance, attainable,
// utilization, T_min and T_max of each (16 and 17 significant digits, most of them).
const std::vector<double> &reportNumbers()
{
    static const std::vector<double> numbers = [] {
        const auto points = ridgepoint::readPointsCsv(syntheticCsv(10'000), "b").points;
        std::vector<ridgepoint::Diagnostic> problems;
        std::vector<double> values;
        for (const auto &[point, a] : ridgepoint::analyzePoints(points, h100(), {}, problems)) {
            for (const double value : { a.levels.front().intensity, a.performance.value_or(1.0),
                     a.attainable, a.utilization.value_or(1.0), a.tMin, a.tMax })
                values.push_back(value);
        }
        return values;
    }();
    return numbers;
}

// One shortest-digits writer over reportNumbers(): `write(out, value)` returns the end.
template<typename Write> void writeNumbers(benchmark::State &state, Write write)
{
    const std::vector<double> &numbers = reportNumbers();
    std::array<char, 64> text {};
    std::size_t bytes = 0;
    for (auto _ : state) {
        for (const double value : numbers)
            bytes += static_cast<std::size_t>(write(text.data(), value) - text.data());
        benchmark::DoNotOptimize(text.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * numbers.size()));
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}

// The CSV's text: the standard library's and Ridgepoint's (the same bytes, tst_shortestnumber).
void toCharsShortest(benchmark::State &state)
{
    writeNumbers(
        state, [](char *out, double value) { return std::to_chars(out, out + 64, value).ptr; });
}
BENCHMARK(toCharsShortest)->Unit(benchmark::kMicrosecond);

void writeShortest(benchmark::State &state)
{
    writeNumbers(
        state, [](char *out, double value) { return ridgepoint::writeShortest(out, value); });
}
BENCHMARK(writeShortest)->Unit(benchmark::kMicrosecond);

// The JSON's text: nlohmann's Grisu2 (what the JSON had before) and Ridgepoint's.
void nlohmannToChars(benchmark::State &state)
{
    writeNumbers(state,
        [](char *out, double value) { return nlohmann::detail::to_chars(out, out + 64, value); });
}
BENCHMARK(nlohmannToChars)->Unit(benchmark::kMicrosecond);

void writeJsonNumber(benchmark::State &state)
{
    writeNumbers(
        state, [](char *out, double value) { return ridgepoint::writeJsonNumber(out, value); });
}
BENCHMARK(writeJsonNumber)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
