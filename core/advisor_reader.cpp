#include "core/advisor_reader.h"

#include <algorithm>
#include <map>

namespace ridgepoint {
namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char &c : out)
        c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return out;
}

bool contains(const std::string &text, std::string_view word)
{
    return text.find(word) != std::string::npos;
}

} // namespace

HardwareReadResult readAdvisorRoofs(std::string_view text, const std::string &fileName)
{
    HardwareReadResult result;
    CsvTable table = tokenizeCsv(text, fileName);
    result.diagnostics = table.diagnostics;
    std::size_t headerIndex = table.rows.size();
    std::map<std::string, std::size_t> columns;
    for (std::size_t r = 0; r < table.rows.size() && r < 10; ++r) {
        std::map<std::string, std::size_t> candidate;
        for (std::size_t i = 0; i < table.rows[r].fields.size(); ++i)
            candidate.emplace(lower(table.rows[r].fields[i].text), i);
        if (candidate.contains("name") && candidate.contains("bandwidth")) {
            headerIndex = r;
            columns = std::move(candidate);
            break;
        }
    }
    if (headerIndex == table.rows.size()) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "not an Intel Advisor roofs CSV (expected a header with \"Name\" and \"Bandwidth\" "
            "columns)" });
        return result;
    }
    const auto at = [&](const CsvRow &row, const char *name) -> std::string {
        auto it = columns.find(name);
        return it != columns.end() ? row.text(it->second) : std::string();
    };
    Hardware hardware;
    hardware.name = "Intel Advisor roofs";
    hardware.vendor = "Intel";
    hardware.source = fileName + ": advisor --report=roofs (bytes/s, FLOP/s)";
    for (std::size_t r = headerIndex + 1; r < table.rows.size(); ++r) {
        const CsvRow &row = table.rows[r];
        const std::string name = at(row, "name");
        const std::string lowered = lower(name);
        const std::string type = lower(at(row, "type"));
        if (hardware.kind.empty())
            hardware.kind = lower(at(row, "device"));
        auto number = parseReportNumber(at(row, "bandwidth"));
        const std::size_t column = columns["bandwidth"];
        if (!number || !*number || !(**number > 0.0)) {
            result.diagnostics.push_back({ Severity::Error, fileName, row.line, row.column(column),
                "roof \"" + name + "\": "
                    + (number ? std::string("expected a positive value in bytes/s or FLOP/s")
                              : number.error()) });
            continue;
        }
        const bool hidden
            = contains(lowered, "single-threaded") || contains(lowered, "single node");
        const bool memory = type == "memory" || contains(lowered, "bandwidth");
        if (memory) {
            std::optional<MemoryLevel> level;
            for (const auto &[word, value] : { std::pair { "l1", MemoryLevel::L1 },
                     std::pair { "l2", MemoryLevel::L2 }, std::pair { "l3", MemoryLevel::L3 },
                     std::pair { "dram", MemoryLevel::DRAM }, std::pair { "hbm", MemoryLevel::HBM },
                     std::pair { "mcdram", MemoryLevel::HBM } }) {
                if (lowered.starts_with(word))
                    level = value;
            }
            if (!level) {
                result.diagnostics.push_back({ Severity::Warning, fileName, row.line, 0,
                    "roof \"" + name + "\": no memory level Ridgepoint knows; left out" });
                continue;
            }
            hardware.memory.push_back({ name, *level, **number, std::nullopt, !hidden });
        } else {
            if (contains(lowered, "int")) {
                result.diagnostics.push_back({ Severity::Warning, fileName, row.line, 0,
                    "roof \"" + name
                        + "\": integer roofs are left out (the FLOP roofs are used)" });
                continue;
            }
            const Precision precision
                = lowered.starts_with("sp") ? Precision::FP32 : Precision::FP64;
            const std::string unit = contains(lowered, "vector") ? "vector" : "scalar";
            hardware.compute.push_back(
                { name, precision, unit, **number, false, std::nullopt, !hidden });
        }
    }
    if (hasErrors(result.diagnostics))
        return result;
    for (const auto &problem : validateHardware(hardware))
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0, problem });
    if (!hasErrors(result.diagnostics))
        result.machines.push_back(std::move(hardware));
    return result;
}

PointsReadResult readAdvisorSurvey(std::string_view text, const std::string &fileName)
{
    PointsReadResult result;
    const char delimiter = text.find("\"delimiter=\t\"") != std::string_view::npos
            || text.find("\"ID\"\t") != std::string_view::npos
        ? '\t'
        : ',';
    CsvTable table = tokenizeCsv(text, fileName, delimiter);
    result.diagnostics = table.diagnostics;
    std::size_t headerIndex = table.rows.size();
    for (std::size_t r = 0; r < table.rows.size() && r < 20; ++r) {
        const auto &fields = table.rows[r].fields;
        if (fields.size() > 1 && fields[0].text == "ID"
            && fields[1].text == "Function Call Sites and Loops") {
            headerIndex = r;
            break;
        }
    }
    if (headerIndex == table.rows.size()) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "not an Intel Advisor survey CSV (expected a header \"ID\",\"Function Call Sites and "
            "Loops\",...)" });
        return result;
    }
    const CsvRow &header = table.rows[headerIndex];
    std::map<std::string, std::size_t> columns;
    for (std::size_t i = 0; i < header.fields.size(); ++i)
        columns.emplace(header.fields[i].text, i);
    int withoutFlops = 0;
    for (std::size_t r = headerIndex + 1; r < table.rows.size(); ++r) {
        const CsvRow &row = table.rows[r];
        ++result.rowsRead;
        if (row.fields.size() < header.fields.size()) {
            // A truncated row: its last cells (and perhaps its name) are missing.
            result.diagnostics.push_back({ Severity::Error, fileName, row.line, 0,
                "expected " + std::to_string(header.fields.size()) + " fields, found "
                    + std::to_string(row.fields.size()) });
            ++result.rowsSkipped;
            continue;
        }
        std::string error;
        int errorColumn = 0;
        const auto get = [&](std::initializer_list<const char *> names,
                             double scale) -> std::optional<double> {
            for (const char *name : names) {
                auto it = columns.find(name);
                const CsvField *field = it == columns.end() ? nullptr : row.field(it->second);
                if (!field)
                    continue;
                std::string cell = field->text;
                // "0.6199s", "< 0.0001s"
                if (!cell.empty() && cell.front() == '<')
                    cell.erase(0, 1);
                if (!cell.empty() && cell.back() == 's')
                    cell.pop_back();
                auto number = parseReportNumber(cell);
                if (!number) {
                    if (error.empty()) {
                        error = "column \"" + std::string(name) + "\": " + number.error();
                        errorColumn = field->column;
                    }
                    return std::nullopt;
                }
                if (*number)
                    return **number * scale;
            }
            return std::nullopt;
        };
        KernelPoint point;
        // A row may stop before the name (a truncated file): it is reported with the others.
        point.name = row.text(1);
        point.source = { fileName, row.line };
        const auto flops = get({ "Self GFLOP", "GFLOP" }, 1e9);
        const auto rate = get({ "Self GFLOPS", "GFLOPS" }, 1e9);
        const auto intensity = get({ "Self AI", "AI" }, 1.0);
        const auto seconds = get({ "Self Elapsed Time" }, 1.0);
        if (auto l1 = get({ "Self Memory GB", "L1 GB" }, 1e9); l1 && *l1 > 0.0)
            point.bytes.push_back({ MemoryLevel::L1, *l1 });
        if (auto l2 = get({ "Self L2 GB" }, 1e9); l2 && *l2 > 0.0)
            point.bytes.push_back({ MemoryLevel::L2, *l2 });
        if (auto l3 = get({ "Self L3 GB" }, 1e9); l3 && *l3 > 0.0)
            point.bytes.push_back({ MemoryLevel::L3, *l3 });
        if (auto dram = get({ "Self DRAM GB" }, 1e9); dram && *dram > 0.0)
            point.bytes.push_back({ std::nullopt, *dram });
        if (!error.empty()) {
            result.diagnostics.push_back(
                { Severity::Error, fileName, row.line, errorColumn, error });
            ++result.rowsSkipped;
            continue;
        }
        if (!(flops && *flops > 0.0) && !(rate && *rate > 0.0)) {
            ++withoutFlops; // not executed, or collected without FLOP data
            continue;
        }
        if (flops)
            point.flops = *flops;
        if (seconds && *seconds > 0.0)
            point.seconds = seconds;
        if (rate && *rate > 0.0)
            point.measuredRate = rate;
        if (point.bytes.empty() && intensity && *intensity > 0.0) {
            if (point.flops > 0.0)
                point.bytes.push_back({ MemoryLevel::L1, point.flops / *intensity });
            else if (point.measuredRate)
                point.intensity = intensity;
        }
        if (point.bytes.empty() && !point.intensity) {
            result.diagnostics.push_back({ Severity::Error, fileName, row.line, 0,
                "\"" + point.name
                    + "\": FLOPs but no memory traffic (expected Self Memory GB, L1 GB or AI)" });
            ++result.rowsSkipped;
            continue;
        }
        if (auto problem = pointProblem(point)) {
            result.diagnostics.push_back({ Severity::Error, fileName, row.line,
                point.name.empty() ? row.column(0) : 0,
                (point.name.empty() ? std::string("row ") + row.text(0) : "\"" + point.name + "\"")
                    + ": " + *problem });
            ++result.rowsSkipped;
            continue;
        }
        result.points.push_back(std::move(point));
    }
    if (withoutFlops > 0) {
        result.diagnostics.push_back({ Severity::Warning, fileName, header.line, 0,
            std::to_string(withoutFlops)
                + " rows without FLOP data left out (not executed, or collected without "
                  "FLOP counts)" });
    }
    return result;
}

} // namespace ridgepoint
