// Where a machine's figures come from, as text: the basis summary of `presets` and `analyze`, and
// the detail view of `presets NAME`.
#include "core/report/report.h"

#include "core/analysis/io_bounds.h"
#include "core/model/rate_text.h"
#include "core/model/units.h"

#include <array>

namespace ridgepoint {
namespace {

// "boost, 1410 MHz", "boost", "1410 MHz" or empty.
std::string clockText(const Provenance &p)
{
    std::string out = p.clock;
    if (p.clockMHz)
        out += (out.empty() ? "" : ", ") + formatSignificant(*p.clockMHz, 6) + " MHz";
    return out;
}

// The lines of one provenance, each "<indent>key: value", only for what it states.
std::string provenanceLines(const Provenance &p, const std::string &indent)
{
    std::string out;
    const auto line = [&out, &indent](const char *key, const std::string &value) {
        if (!value.empty())
            out += indent + key + ": " + value + "\n";
    };
    line("basis", std::string(basisName(p.basis)));
    line("source", p.source);
    line("url", p.url);
    line("accessed", p.accessed);
    line("formula", p.formula);
    line("tool", p.tool);
    line("date", p.date);
    line("host", p.host);
    line("clock", clockText(p));
    line("scope", p.scope);
    line("notes", p.notes);
    return out;
}

template<typename Ceiling>
std::string ceilingDetail(const std::string &head, const Ceiling &ceiling)
{
    std::string out = head + "\n" + provenanceLines(ceiling.provenance, "      ");
    if (ceiling.alternate) {
        out += "      alternate: " + figureText(ceiling, ceiling.alternate->value) + "\n";
        out += provenanceLines(ceiling.alternate->provenance, "        ");
    }
    return out;
}

// The limits beyond the two roofs (docs/MODEL.md §12-§14), each with its provenance, or why the
// chart draws no wall, floor or energy figure for this machine.
std::string limitsDetail(const MachineLimits &limits)
{
    std::string out = "  capacities (tiling walls):\n";
    if (limits.capacities.empty())
        out += "    none given: no I/O bound is drawn or reported for a matmul\n";
    for (const auto &c : limits.capacities) {
        out += "    " + (c.name.empty() ? std::string(memoryLevelName(c.level)) : c.name) + "  "
            + std::string(memoryLevelName(c.level)) + "  " + capacityText(c.bytes)
            + (c.per.empty() ? std::string() : " per " + c.per) + "\n"
            + provenanceLines(c.provenance, "      ");
    }
    if (limits.launchLatency)
        out += "  launch latency: " + formatQuantity(limits.launchLatency->seconds, Dimension::Time)
            + "\n" + provenanceLines(limits.launchLatency->provenance, "      ");
    else
        out += "  launch latency: none given: no latency floor\n";
    for (const auto &l : limits.levelLatencies)
        out += "  latency " + std::string(memoryLevelName(l.level)) + ": "
            + formatQuantity(l.seconds, Dimension::Time) + "\n"
            + provenanceLines(l.provenance, "      ");
    if (!limits.energy) {
        out += "  energy: none given: no energy figures\n";
        return out;
    }
    const EnergyModel &e = *limits.energy;
    out += "  energy:";
    if (e.staticWatts)
        out += " static " + formatSignificant(*e.staticWatts, 4) + " W";
    if (e.powerCapWatts)
        out += " cap " + formatSignificant(*e.powerCapWatts, 4) + " W";
    for (const auto &[precision, joules] : e.perFlop)
        out += " " + std::string(precisionName(precision)) + " " + formatNumber(joules)
            + (isIntegerPrecision(precision) ? " J/OP" : " J/FLOP");
    for (const auto &[level, joules] : e.perByte)
        out += " " + std::string(memoryLevelName(level)) + " " + formatNumber(joules) + " J/B";
    return out + "\n" + provenanceLines(e.provenance, "      ");
}

} // namespace

std::string basisSummary(const Hardware &hardware)
{
    std::array<int, 4>
        counts {}; // by Basis, in declaration order: unstated, spec, derived, measured
    // Alternates are counted apart: a machine whose source names a measured figure (MI300A's
    // FP32 from Chips and Cheese) shows it here even though the analysis uses the spec one.
    std::array<int, 4> alternates {};
    const auto count = [&counts, &alternates](const auto &ceiling) {
        ++counts[static_cast<std::size_t>(ceiling.provenance.basis)];
        if (ceiling.alternate)
            ++alternates[static_cast<std::size_t>(ceiling.alternate->provenance.basis)];
    };
    for (const auto &ceiling : hardware.compute)
        count(ceiling);
    for (const auto &ceiling : hardware.memory)
        count(ceiling);
    std::string out = "spec " + std::to_string(counts[1]) + ", derived " + std::to_string(counts[2])
        + ", measured " + std::to_string(counts[3]);
    if (counts[0] > 0)
        out += ", unstated " + std::to_string(counts[0]);
    std::string others;
    for (std::size_t b = 0; b < alternates.size(); ++b) {
        if (alternates[b] > 0)
            others += (others.empty() ? "" : ", ") + std::to_string(alternates[b]) + " "
                + std::string(basisName(static_cast<Basis>(b)));
    }
    if (!others.empty())
        out += "; alternates: " + others;
    return out;
}

std::string presetDetail(const Hardware &hardware)
{
    std::string out = hardware.name + "\n";
    const auto line = [&out](const char *key, const std::string &value) {
        if (!value.empty())
            out += std::string("  ") + key + ": " + value + "\n";
    };
    std::string aliases;
    for (const auto &alias : hardware.aliases)
        aliases += (aliases.empty() ? "" : ", ") + alias;
    line("aliases", aliases);
    line("vendor", hardware.vendor);
    line("kind", hardware.kind);
    line("source", hardware.source);
    line("notes", hardware.notes);
    line("basis", basisSummary(hardware));
    out += "  compute:\n";
    const ComputeCeiling *main = hardware.defaultComputeCeiling();
    for (const auto &c : hardware.compute) {
        const std::string head = std::string("  ") + (&c == main ? "* " : "  ") + c.name + "  "
            + std::string(precisionName(c.precision)) + (c.sparse ? " 2:4 sparse" : "") + "  "
            + figureText(c, c.peak);
        out += ceilingDetail(head, c);
    }
    out += "  memory:\n";
    for (const auto &m : hardware.memory) {
        const std::string head = "    " + m.name + "  " + std::string(memoryLevelName(m.level))
            + "  " + figureText(m, m.bandwidth);
        out += ceilingDetail(head, m);
    }
    return out + limitsDetail(hardware.limits);
}

} // namespace ridgepoint
