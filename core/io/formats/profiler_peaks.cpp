#include "core/io/formats/profiler_peaks.h"

#include "core/io/formats/adhoc_common.h"
#include "core/io/sniff.h"
#include "core/io/text.h"

namespace ridgepoint {
namespace {

struct PeakColumns {
    std::optional<std::size_t> label;
    std::optional<std::size_t> flops;
    std::optional<std::size_t> bandwidth;
};

PeakColumns columnsOf(const CsvRow &header)
{
    PeakColumns columns;
    for (std::size_t i = 0; i < header.fields.size(); ++i) {
        const std::string name = asciiLower(trim(header.text(i)));
        if (name == "label")
            columns.label = i;
        else if (name == "peak_flops")
            columns.flops = i;
        else if (name == "peak_bandwidth")
            columns.bandwidth = i;
    }
    return columns;
}

// Each row's pair of ceilings, named after its label.
void addRows(const CsvTable &table, const PeakColumns &columns, Hardware &hardware,
    const std::string &fileName, HardwareReadResult &result)
{
    for (std::size_t r = 1; r < table.rows.size(); ++r) {
        const CsvRow &row = table.rows[r];
        const std::string name(trim(row.text(*columns.label)));
        if (name.empty()) {
            result.diagnostics.push_back({ Severity::Error, fileName, row.line,
                row.column(*columns.label), "empty label (expected a name such as measured)" });
            continue;
        }
        const auto peak = positiveCell(
            row, *columns.flops, "peak_flops", "FLOP/s", fileName, result.diagnostics);
        const auto bytes = positiveCell(
            row, *columns.bandwidth, "peak_bandwidth", "B/s", fileName, result.diagnostics);
        if (!peak || !bytes)
            continue;
        hardware.compute.push_back(
            { "FP32 (" + name + ")", Precision::FP32, "", *peak, false, std::nullopt, true });
        hardware.memory.push_back(
            { "DRAM (" + name + ")", MemoryLevel::DRAM, *bytes, std::nullopt, true });
    }
}

} // namespace

bool looksLikeProfilerPeaks(const Sniff &sniff)
{
    const auto &lines = sniff.contentLines();
    if (lines.empty())
        return false;
    const auto header = cellsLower(lines.front());
    return containsCell(header, "peak_flops") && containsCell(header, "peak_bandwidth");
}

HardwareReadResult readProfilerPeaks(std::string_view text, const std::string &fileName)
{
    HardwareReadResult result;
    CsvTable table = tokenizeCsv(text, fileName, ',');
    result.diagnostics = table.diagnostics;
    if (hasErrors(result.diagnostics))
        return result;
    if (table.rows.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "the file is empty (expected label,peak_flops,peak_bandwidth)" });
        return result;
    }
    const CsvRow &header = table.rows.front();
    const PeakColumns columns = columnsOf(header);
    if (!columns.label || !columns.flops || !columns.bandwidth) {
        result.diagnostics.push_back({ Severity::Error, fileName, header.line, 0,
            "expected the header label,peak_flops,peak_bandwidth" });
        return result;
    }
    Hardware hardware;
    hardware.name = "GPU-Roofline-Profiler peaks (" + baseName(fileName) + ")";
    hardware.source = fileName + ": GPU-Roofline-Profiler peaks.csv (FLOP/s, B/s)";
    hardware.notes = "The file gives no precision: its FLOP/s are taken as FP32 "
                     "(GPU-Roofline-Profiler's kernels are single precision). The first row's "
                     "roofs are the ones used.";
    addRows(table, columns, hardware, fileName, result);
    if (hasErrors(result.diagnostics))
        return result;
    if (hardware.compute.empty()) {
        result.diagnostics.push_back({ Severity::Error, fileName, header.line, 0,
            "no rows after the header (expected label,peak_flops,peak_bandwidth rows)" });
        return result;
    }
    // The first row's pair, not whichever row's FLOP/s is highest (a measured peak can be above
    // the theoretical one at boost clocks).
    hardware.defaultCompute = hardware.compute.front().name;
    keepValidMachine(std::move(hardware), fileName, result, header.line);
    return result;
}

} // namespace ridgepoint
