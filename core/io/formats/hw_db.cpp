#include "core/io/formats/hw_db.h"

#include "core/io/formats/adhoc_common.h"
#include "core/io/numbers.h"
#include "core/io/sniff.h"
#include "core/io/text.h"

namespace ridgepoint {
namespace {

constexpr std::size_t kFields = 4;

// Where a row with the wrong number of fields goes wrong: the first extra field, or just after
// the row's end (where the missing ones would go); no column when a quoted field takes the row
// over another line.
Diagnostic wrongFieldCount(
    const CsvRow &row, const std::vector<TextLine> &lines, const std::string &fileName)
{
    int line = row.line;
    int column = 0;
    if (row.fields.size() > kFields) {
        line = row.fields[kFields].line;
        column = row.fields[kFields].column;
    } else if (!row.fields.empty()) {
        const CsvField &last = row.fields.back();
        const auto at = static_cast<std::size_t>(last.line - 1);
        if (last.line == row.line && last.text.find('\n') == std::string::npos && at < lines.size())
            column = endColumn(lines[at].text);
    }
    return { Severity::Error, fileName, line, column,
        "expected 4 fields (name, peak GFLOP/s, peak GB/s, price), found "
            + std::to_string(row.fields.size()) };
}

std::optional<Hardware> machineOfRow(
    const CsvRow &row, const std::string &fileName, std::vector<Diagnostic> &diagnostics)
{
    const auto peak = positiveCell(row, 1, "peak GFLOP/s", "GFLOP/s", fileName, diagnostics);
    const auto bandwidth = positiveCell(row, 2, "peak GB/s", "GB/s", fileName, diagnostics);
    if (!peak || !bandwidth)
        return std::nullopt;
    Hardware hardware;
    hardware.name = std::string(trim(row.text(0)));
    hardware.source = fileName + ":" + std::to_string(row.line)
        + ": mohamed/roofline hw_db.csv (GFLOP/s, GB/s)";
    hardware.notes = "The file gives no precision: the peak is taken as FP32.";
    const std::string_view price = trim(row.text(3));
    if (!price.empty())
        hardware.notes += " Price in the file: " + std::string(price) + ".";
    hardware.compute.push_back(
        { "FP32 peak", Precision::FP32, "", *peak * kGiga, false, std::nullopt, true });
    hardware.memory.push_back(
        { "DRAM peak", MemoryLevel::DRAM, *bandwidth * kGiga, std::nullopt, true });
    return hardware;
}

} // namespace

bool looksLikeHwDb(const Sniff &sniff)
{
    for (const std::string_view line : sniff.contentLines()) {
        if (line.front() == '#')
            continue;
        const auto cells = splitCells(line);
        const bool named = !cells[0].empty() && !plainNumber(cells[0]);
        return named && cells.size() == kFields && plainNumber(cells[1]) && plainNumber(cells[2]);
    }
    return false;
}

HardwareReadResult readHwDb(std::string_view text, const std::string &fileName)
{
    HardwareReadResult result;
    CsvTable table = tokenizeCsv(text, fileName, ',');
    result.diagnostics = table.diagnostics;
    if (hasErrors(result.diagnostics))
        return result;
    const std::vector<TextLine> lines = linesOf(withoutBom(text));
    for (const CsvRow &row : table.rows) {
        if (row.fields.size() != kFields) {
            result.diagnostics.push_back(wrongFieldCount(row, lines, fileName));
            continue;
        }
        auto hardware = machineOfRow(row, fileName, result.diagnostics);
        if (!hardware)
            continue;
        const auto problems = validateHardware(*hardware);
        for (const auto &problem : problems)
            result.diagnostics.push_back(
                { Severity::Error, fileName, row.line, row.column(0), problem });
        // One row's machine does not depend on another's: the usable rows are kept, and the
        // errors say which were left out (as rocprof-compute's roofline.csv, one GPU per row).
        if (problems.empty())
            result.machines.push_back(std::move(*hardware));
    }
    if (result.machines.empty() && !hasErrors(result.diagnostics))
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "no machines (expected rows of name, peak GFLOP/s, peak GB/s, price)" });
    return result;
}

} // namespace ridgepoint
