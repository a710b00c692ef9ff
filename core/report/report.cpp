// Aligned tables and the presets (the points tables are in report_writers.cpp).
#include "core/report/report.h"

#include "core/io/json_detail.h"
#include "core/model/rate_text.h"
#include "core/model/units.h"
#include "core/report/report_stream.h"

#include <algorithm>

namespace ridgepoint {

std::string alignedTable(
    const std::vector<std::vector<std::string>> &rows, const std::vector<bool> &rightAligned)
{
    std::vector<std::size_t> widths;
    for (const auto &row : rows) {
        widths.resize(std::max(widths.size(), row.size()), 0);
        for (std::size_t i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], displayWidth(row[i]));
    }
    std::string out;
    for (const auto &row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            const std::size_t pad = widths[i] - displayWidth(row[i]);
            const bool right = i < rightAligned.size() && rightAligned[i];
            if (i > 0)
                line += "  ";
            if (right)
                line += std::string(pad, ' ') + row[i];
            else
                line += row[i] + (i + 1 < row.size() ? std::string(pad, ' ') : std::string());
        }
        out += line + "\n";
    }
    return out;
}

std::string presetsJson(const std::vector<Hardware> &machines)
{
    nlohmann::ordered_json out;
    auto list = nlohmann::ordered_json::array();
    for (const auto &machine : machines)
        list.push_back(detail::hardwareJson(machine, true));
    out["presets"] = std::move(list);
    return detail::dumpJson(out, 2) + "\n";
}

std::string presetsTable(const std::vector<Hardware> &machines)
{
    std::string out;
    for (const auto &machine : machines) {
        out += machine.name;
        if (!machine.aliases.empty())
            out += " (" + machine.aliases.front() + ")";
        out += "\n";
        if (!machine.source.empty())
            out += "  source: " + machine.source + "\n";
        out += "  basis: " + basisSummary(machine) + "\n";
        std::vector<std::vector<std::string>> rows;
        const ComputeCeiling *main = machine.defaultComputeCeiling();
        const MemoryCeiling *memory = machine.mainMemory();
        for (const auto &c : machine.compute) {
            // An integer ceiling's ridge counts operations per byte, as its peak does.
            const char *perByte = isIntegerPrecision(c.precision) ? " OP/B vs " : " FLOP/B vs ";
            std::string ridge = memory
                ? formatSignificant(ridgeIntensity(c, *memory), 4) + perByte + memory->name
                : std::string();
            rows.push_back({ std::string("  ") + (&c == main ? "* " : "  ") + c.name,
                std::string(precisionName(c.precision)) + (c.sparse ? " 2:4 sparse" : ""),
                computeRateText(c.peak, c.precision), std::string(basisName(c.provenance.basis)),
                ridge });
        }
        for (const auto &m : machine.memory) {
            rows.push_back({ "    " + m.name, std::string(memoryLevelName(m.level)),
                formatQuantity(m.bandwidth, Dimension::ByteRate),
                std::string(basisName(m.provenance.basis)),
                isNetwork(m.level) ? "each way" : "" }); // docs/PRESETS.md, "Links"
        }
        out += alignedTable(rows, { false, false, true, false, false });
    }
    return out;
}

} // namespace ridgepoint
