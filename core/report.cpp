#include "core/report.h"

#include "core/json_detail.h"
#include "core/units.h"

#include <algorithm>

namespace ridgepoint {
namespace {

std::size_t displayWidth(const std::string &text)
{
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(),
        [](char c) { return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U; }));
}

nlohmann::ordered_json optionalNumber(const std::optional<double> &value)
{
    return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

std::string percent(double fraction)
{
    return formatSignificant(fraction * 100.0, 3) + " %";
}

} // namespace

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

std::string analysisJson(const Hardware &hardware, const std::vector<AnalyzedPoint> &points)
{
    nlohmann::ordered_json out;
    out["hardware"] = detail::hardwareJson(hardware, true);
    auto list = nlohmann::ordered_json::array();
    for (const auto &[point, a] : points) {
        nlohmann::ordered_json p;
        p["name"] = point.name;
        if (!point.group.empty())
            p["group"] = point.group;
        if (point.precision)
            p["precision"] = precisionName(*point.precision);
        p["flops"] = point.flops;
        p["seconds"] = optionalNumber(point.seconds);
        p["performance"] = optionalNumber(a.performance);
        auto levels = nlohmann::ordered_json::array();
        for (const auto &level : a.levels) {
            nlohmann::ordered_json l;
            l["memory"] = level.memory;
            l["level"] = memoryLevelName(level.level);
            l["bytes"] = level.bytes;
            l["intensity"] = level.intensity;
            l["attainable"] = level.attainable;
            l["t_mem"] = level.tMem;
            l["bandwidth"] = level.bandwidth;
            l["achieved_bandwidth"] = optionalNumber(level.achievedBandwidth);
            l["bandwidth_utilization"] = optionalNumber(level.bandwidthUtilization);
            levels.push_back(std::move(l));
        }
        p["levels"] = std::move(levels);
        p["compute_ceiling"] = a.computeCeiling;
        p["peak"] = a.peak;
        p["t_math"] = a.tMath;
        p["t_min"] = a.tMin;
        p["t_max"] = a.tMax;
        p["attainable"] = a.attainable;
        p["bound"] = boundName(a.bound);
        p["limiting_ceiling"] = a.limitingCeiling;
        p["utilization"] = optionalNumber(a.utilization);
        p["consistent"] = a.consistent;
        p["note"] = a.note;
        if (!point.source.file.empty())
            p["source"] = { { "file", point.source.file }, { "line", point.source.line } };
        list.push_back(std::move(p));
    }
    out["points"] = std::move(list);
    return detail::dumpJson(out, 2) + "\n";
}

std::string analysisTable(const Hardware &hardware, const std::vector<AnalyzedPoint> &points)
{
    std::string out = presetsTable({ hardware });
    out += "\n";
    std::vector<std::vector<std::string>> rows { { "kernel", "FLOPs", "level", "bytes", "intensity",
        "performance", "attainable", "util.", "bound", "limit", "T_min", "T_max", "note" } };
    for (const auto &[point, a] : points) {
        const auto &first = a.levels.front();
        const std::string note = a.consistent ? a.note : "INCONSISTENT: " + a.note;
        rows.push_back({ point.name, formatQuantity(point.flops, Dimension::Flops), first.memory,
            formatQuantity(first.bytes, Dimension::Bytes), formatSignificant(first.intensity, 4),
            a.performance ? formatQuantity(*a.performance, Dimension::FlopRate) : "-",
            formatQuantity(a.attainable, Dimension::FlopRate),
            a.utilization ? percent(*a.utilization) : "-", std::string(boundName(a.bound)),
            a.limitingCeiling, formatQuantity(a.tMin, Dimension::Time),
            formatQuantity(a.tMax, Dimension::Time), note });
        for (std::size_t i = 1; i < a.levels.size(); ++i) {
            const auto &level = a.levels[i];
            rows.push_back({ "", "", level.memory, formatQuantity(level.bytes, Dimension::Bytes),
                formatSignificant(level.intensity, 4), "",
                formatQuantity(level.attainable, Dimension::FlopRate), "", "", "", "", "", "" });
        }
    }
    out += alignedTable(rows,
        { false, true, false, true, true, true, true, true, false, false, true, true, false });
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
        std::vector<std::vector<std::string>> rows;
        const ComputeCeiling *main = machine.defaultComputeCeiling();
        const MemoryCeiling *memory = machine.mainMemory();
        for (const auto &c : machine.compute) {
            std::string ridge = memory
                ? formatSignificant(ridgeIntensity(c, *memory), 4) + " FLOP/B vs " + memory->name
                : std::string();
            rows.push_back({ std::string("  ") + (&c == main ? "* " : "  ") + c.name,
                std::string(precisionName(c.precision)) + (c.sparse ? " 2:4 sparse" : ""),
                formatQuantity(c.peak, Dimension::FlopRate), ridge });
        }
        for (const auto &m : machine.memory) {
            rows.push_back({ "    " + m.name, std::string(memoryLevelName(m.level)),
                formatQuantity(m.bandwidth, Dimension::ByteRate), "" });
        }
        out += alignedTable(rows, { false, false, true, false });
    }
    return out;
}

} // namespace ridgepoint
