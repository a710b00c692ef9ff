// The analysis for people and spreadsheets: aligned tables, CSV and Markdown, and the presets.
#include "core/report/report.h"

#include "core/model/units.h"
#include "core/report/json_detail.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace ridgepoint {
namespace {

std::size_t displayWidth(const std::string &text)
{
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(),
        [](char c) { return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U; }));
}

std::string percent(double fraction)
{
    return formatSignificant(fraction * 100.0, 3) + " %";
}

// The shortest text that reads back as the same double ("1e+09", "0.1", "3.3333333333333335").
std::string exactNumber(double value)
{
    std::array<char, 32> buffer {};
    const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return error == std::errc() ? std::string(buffer.data(), end) : std::string();
}

std::string exactNumber(const std::optional<double> &value)
{
    return value ? exactNumber(*value) : std::string();
}

// RFC 4180: quoted when it holds a delimiter, a quote or a line break; quotes doubled.
std::string csvField(const std::string &text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

std::string markdownCell(const std::string &text)
{
    std::string out;
    for (char c : text) {
        if (c == '|')
            out += "\\|";
        else if (c == '\r')
            continue;
        else if (c == '\n')
            out += ' ';
        else
            out += c;
    }
    return out;
}

std::string noteOf(const PointAnalysis &a)
{
    return a.consistent ? a.note : "INCONSISTENT: " + a.note;
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

std::string analysisTable(const Hardware &hardware, const std::vector<AnalyzedPoint> &points)
{
    std::string out = presetsTable({ hardware });
    out += "\n";
    std::vector<std::vector<std::string>> rows { { "kernel", "FLOPs", "level", "bytes", "intensity",
        "performance", "attainable", "util.", "bound", "limit", "T_min", "T_max", "note" } };
    for (const auto &[point, a] : points) {
        const auto &first = a.levels.front();
        const std::string note = a.consistent ? a.note : "INCONSISTENT: " + a.note;
        // A point known by intensity and rate has no counts and no times to show.
        const bool counted = !point.knownByIntensity();
        const auto shown = [counted](double value, Dimension dimension) {
            return counted ? formatQuantity(value, dimension) : std::string("-");
        };
        rows.push_back({ point.name, shown(point.flops, Dimension::Flops), first.memory,
            shown(first.bytes, Dimension::Bytes), formatSignificant(first.intensity, 4),
            a.performance ? formatQuantity(*a.performance, Dimension::FlopRate) : "-",
            formatQuantity(a.attainable, Dimension::FlopRate),
            a.utilization ? percent(*a.utilization) : "-", std::string(boundName(a.bound)),
            a.limitingCeiling, shown(a.tMin, Dimension::Time), shown(a.tMax, Dimension::Time),
            note });
        for (std::size_t i = 1; i < a.levels.size(); ++i) {
            const auto &level = a.levels[i];
            rows.push_back({ "", "", level.memory, shown(level.bytes, Dimension::Bytes),
                formatSignificant(level.intensity, 4), "",
                formatQuantity(level.attainable, Dimension::FlopRate), "", "", "", "", "", "" });
        }
    }
    out += alignedTable(rows,
        { false, true, false, true, true, true, true, true, false, false, true, true, false });
    return out;
}

std::string tableCsv(
    const std::vector<AnalyzedPoint> &points, const std::vector<std::optional<Speedup>> &speedups)
{
    std::vector<std::string> header { "kernel", "group", "precision", "flops [FLOP]", "memory",
        "bytes [B]", "intensity [FLOP/B]", "time [s]", "performance [FLOP/s]",
        "attainable [FLOP/s]", "utilization [1]", "bound", "limiting ceiling", "T_min [s]",
        "T_max [s]", "consistent", "note" };
    const bool withSpeedup = !speedups.empty();
    if (withSpeedup) {
        header.emplace_back("speed-up vs baseline [1]");
        header.emplace_back("speed-up formula");
    }
    auto line = [](const std::vector<std::string> &cells) {
        std::string out;
        for (std::size_t i = 0; i < cells.size(); ++i)
            out += (i > 0 ? "," : "") + csvField(cells[i]);
        return out + "\r\n";
    };
    std::string out = line(header);
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto &[point, a] = points[i];
        const auto &first = a.levels.front();
        // Empty cells for the counts and times a point known by intensity and rate lacks.
        const bool counted = !point.knownByIntensity();
        const auto count
            = [counted](double value) { return counted ? exactNumber(value) : std::string(); };
        std::vector<std::string> cells { point.name, point.group,
            point.precision ? std::string(precisionName(*point.precision)) : std::string(),
            count(point.flops), first.memory, count(first.bytes), exactNumber(first.intensity),
            exactNumber(point.seconds), exactNumber(a.performance), exactNumber(a.attainable),
            exactNumber(a.utilization), std::string(boundName(a.bound)), a.limitingCeiling,
            count(a.tMin), count(a.tMax), a.consistent ? "true" : "false", a.note };
        if (withSpeedup) {
            const auto &s = i < speedups.size() ? speedups[i] : std::nullopt;
            cells.push_back(s ? exactNumber(s->factor) : std::string());
            cells.push_back(s ? std::string(speedupFormula(s->basis)) : std::string());
        }
        out += line(cells);
    }
    return out;
}

std::string tableMarkdown(
    const std::vector<AnalyzedPoint> &points, const std::vector<std::optional<Speedup>> &speedups)
{
    std::vector<std::string> header { "Kernel", "Group", "FLOPs", "Memory", "Bytes",
        "Intensity [FLOP/B]", "Time", "Performance", "Attainable", "Utilization", "Bound", "Limit",
        "T_min", "Note" };
    std::vector<bool> right { false, false, true, false, true, true, true, true, true, true, false,
        false, true, false };
    const bool withSpeedup = !speedups.empty();
    if (withSpeedup) {
        header.emplace_back("Speed-up");
        right.push_back(true);
    }
    std::vector<std::vector<std::string>> rows { header };
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto &[point, a] = points[i];
        const auto &first = a.levels.front();
        const bool counted = !point.knownByIntensity();
        const auto shown = [counted](double value, Dimension dimension) {
            return counted ? formatQuantity(value, dimension) : std::string("–");
        };
        std::vector<std::string> cells { point.name, point.group,
            shown(point.flops, Dimension::Flops), first.memory,
            shown(first.bytes, Dimension::Bytes), formatSignificant(first.intensity, 4),
            point.seconds ? formatQuantity(*point.seconds, Dimension::Time) : "–",
            a.performance ? formatQuantity(*a.performance, Dimension::FlopRate) : "planned",
            formatQuantity(a.attainable, Dimension::FlopRate),
            a.utilization ? percent(*a.utilization) : "–", std::string(boundName(a.bound)),
            a.limitingCeiling, shown(a.tMin, Dimension::Time), noteOf(a) };
        if (withSpeedup) {
            const auto &s = i < speedups.size() ? speedups[i] : std::nullopt;
            cells.push_back(s ? "×" + formatSignificant(s->factor, 3) : "–");
        }
        for (auto &cell : cells)
            cell = markdownCell(cell);
        rows.push_back(std::move(cells));
    }
    std::vector<std::size_t> widths(header.size(), 3);
    for (const auto &row : rows)
        for (std::size_t c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], displayWidth(row[c]));
    auto pad = [&](const std::string &cell, std::size_t c) {
        const std::string fill(widths[c] - displayWidth(cell), ' ');
        return right[c] ? fill + cell : cell + fill;
    };
    std::string out;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        std::string line = "|";
        for (std::size_t c = 0; c < rows[r].size(); ++c)
            line += " " + pad(rows[r][c], c) + " |";
        out += line + "\n";
        if (r == 0) {
            std::string rule = "|";
            for (std::size_t c = 0; c < widths.size(); ++c)
                rule += " "
                    + (right[c] ? std::string(widths[c] - 1, '-') + ":"
                                : std::string(widths[c], '-'))
                    + " |";
            out += rule + "\n";
        }
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
