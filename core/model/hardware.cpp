#include "core/model/hardware.h"

#include "core/model/chip_link.h"
#include "core/model/value_ranges.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <set>

namespace ridgepoint {
namespace {

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
        const auto low
            = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; };
        return low(x) == low(y);
    });
}

constexpr std::array<std::pair<Precision, std::string_view>, 10> kPrecisions { {
    { Precision::FP64, "fp64" },
    { Precision::FP32, "fp32" },
    { Precision::TF32, "tf32" },
    { Precision::BF16, "bf16" },
    { Precision::FP16, "fp16" },
    { Precision::FP8, "fp8" },
    { Precision::FP6, "fp6" },
    { Precision::FP4, "fp4" },
    { Precision::INT8, "int8" },
    { Precision::INT4, "int4" },
} };

constexpr std::array<std::pair<MemoryLevel, std::string_view>, 10> kLevels { {
    { MemoryLevel::L1, "L1" },
    { MemoryLevel::L2, "L2" },
    { MemoryLevel::L3, "L3" },
    { MemoryLevel::DRAM, "DRAM" },
    { MemoryLevel::HBM, "HBM" },
    { MemoryLevel::PCIe, "PCIe" },
    { MemoryLevel::NVLink, "NVLink" },
    { MemoryLevel::ICI, "ICI" },
    { MemoryLevel::DCN, "DCN" },
    { MemoryLevel::LDS, "LDS" },
} };

constexpr std::array<std::pair<Basis, std::string_view>, 4> kBases { {
    { Basis::Unstated, "unstated" },
    { Basis::Spec, "spec" },
    { Basis::Derived, "derived" },
    { Basis::Measured, "measured" },
} };

// Puts the figure `choice` asks for in front: swaps value and provenance with the alternate when
// the ceiling's own figure is not of that kind and the alternate is.
template<typename Ceiling> void pickFigure(Ceiling &ceiling, double &value, FigureChoice choice)
{
    if (!ceiling.alternate)
        return;
    const auto isMeasured = [](const Provenance &p) { return p.basis == Basis::Measured; };
    const bool wantMeasured = choice == FigureChoice::Measured;
    if (isMeasured(ceiling.provenance) == wantMeasured
        || isMeasured(ceiling.alternate->provenance) != wantMeasured)
        return;
    std::swap(value, ceiling.alternate->value);
    std::swap(ceiling.provenance, ceiling.alternate->provenance);
}

// A figure typed on the command line: basis unstated, its source saying so.
Provenance givenOnCommandLine()
{
    Provenance given;
    given.source = kGivenOnCommandLine;
    return given;
}

double effectiveFraction(const std::optional<double> &own, const std::optional<double> &machine)
{
    return own.value_or(machine.value_or(1.0));
}

} // namespace

std::string_view precisionName(Precision precision)
{
    for (const auto &[value, name] : kPrecisions) {
        if (value == precision)
            return name;
    }
    return "fp32";
}

std::string_view basisName(Basis basis)
{
    for (const auto &[value, name] : kBases) {
        if (value == basis)
            return name;
    }
    return "unstated";
}

std::optional<Basis> basisFromName(std::string_view name)
{
    for (const auto &[value, spelled] : kBases) {
        if (equalsIgnoringCase(spelled, name))
            return value;
    }
    return std::nullopt;
}

std::string_view figureChoiceName(FigureChoice choice)
{
    return choice == FigureChoice::Spec ? "spec" : "measured";
}

std::optional<FigureChoice> figureChoiceFromName(std::string_view name)
{
    if (equalsIgnoringCase(name, "measured"))
        return FigureChoice::Measured;
    if (equalsIgnoringCase(name, "spec"))
        return FigureChoice::Spec;
    return std::nullopt;
}

Hardware withFigures(const Hardware &hardware, FigureChoice choice)
{
    Hardware out = hardware;
    for (auto &ceiling : out.compute)
        pickFigure(ceiling, ceiling.peak, choice);
    for (auto &ceiling : out.memory)
        pickFigure(ceiling, ceiling.bandwidth, choice);
    return out;
}

std::optional<Precision> precisionFromName(std::string_view name)
{
    for (const auto &[value, spelled] : kPrecisions) {
        if (equalsIgnoringCase(spelled, name))
            return value;
    }
    return std::nullopt;
}

std::string_view memoryLevelName(MemoryLevel level)
{
    for (const auto &[value, name] : kLevels) {
        if (value == level)
            return name;
    }
    return "DRAM";
}

std::optional<MemoryLevel> memoryLevelFromName(std::string_view name)
{
    for (const auto &[value, spelled] : kLevels) {
        if (equalsIgnoringCase(spelled, name))
            return value;
    }
    return std::nullopt;
}

bool isMainMemory(MemoryLevel level)
{
    return level == MemoryLevel::DRAM || level == MemoryLevel::HBM;
}

bool isNetwork(MemoryLevel level)
{
    return level == MemoryLevel::PCIe || level == MemoryLevel::NVLink || level == MemoryLevel::ICI
        || level == MemoryLevel::DCN;
}

const ComputeCeiling *Hardware::findCompute(std::string_view wanted) const
{
    for (const auto &ceiling : compute) {
        if (equalsIgnoringCase(ceiling.name, wanted))
            return &ceiling;
    }
    return nullptr;
}

const MemoryCeiling *Hardware::findMemory(std::string_view wanted) const
{
    for (const auto &ceiling : memory) {
        if (equalsIgnoringCase(ceiling.name, wanted))
            return &ceiling;
    }
    return nullptr;
}

const ComputeCeiling *Hardware::defaultComputeCeiling() const
{
    // A 2:4-sparse figure is never the roof (docs/MODEL.md §4.1), not even as the only one or
    // when the file names it as the default: points would sit under twice the dense peak.
    if (!defaultCompute.empty()) {
        if (const auto *found = findCompute(defaultCompute); found && !found->sparse)
            return found;
    }
    const ComputeCeiling *best = nullptr;
    for (const auto &ceiling : compute) {
        if (ceiling.sparse)
            continue;
        if (!best || ceiling.peak > best->peak)
            best = &ceiling;
    }
    return best;
}

bool isMatrixUnit(const ComputeCeiling &ceiling)
{
    std::string unit = ceiling.unit;
    for (char &c : unit)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return unit.find("tensor") != std::string::npos || unit.find("matrix") != std::string::npos;
}

const ComputeCeiling *Hardware::computeFor(Precision precision) const
{
    const ComputeCeiling *best = nullptr;
    for (const auto &ceiling : compute) {
        if (ceiling.sparse || !ceiling.visible || ceiling.precision != precision)
            continue;
        if (!best || ceiling.peak > best->peak)
            best = &ceiling;
    }
    return best;
}

const MemoryCeiling *Hardware::memoryFor(MemoryLevel level) const
{
    for (const auto &ceiling : memory) {
        if (ceiling.level == level && ceiling.visible)
            return &ceiling;
    }
    return nullptr;
}

const MemoryCeiling *Hardware::mainMemory() const
{
    if (const auto *hbm = memoryFor(MemoryLevel::HBM))
        return hbm;
    if (const auto *dram = memoryFor(MemoryLevel::DRAM))
        return dram;
    return nullptr;
}

double ridgeIntensity(const ComputeCeiling &compute, const MemoryCeiling &memory)
{
    return compute.peak / memory.bandwidth;
}

namespace {

// "sustained " when a fraction scales the value that is out of range.
std::string sustainedWord(const Hardware &hardware, const std::optional<double> &own)
{
    return own || hardware.sustainedFraction ? "sustained " : "";
}

} // namespace

std::vector<std::string> validateHardware(const Hardware &hardware)
{
    std::vector<std::string> problems;
    if (hardware.name.empty())
        problems.emplace_back("the machine has no name");
    if (hardware.compute.empty())
        problems.emplace_back("no compute ceiling (expected at least one peak FLOP/s)");
    if (hardware.memory.empty())
        problems.emplace_back("no memory ceiling (expected at least one bandwidth in B/s)");
    const auto checkFraction
        = [&problems](const std::optional<double> &fraction, const std::string &what) {
              if (fraction && !(*fraction > 0.0 && *fraction <= 1.0))
                  problems.push_back(what + ": sustained fraction must be in (0, 1]");
          };
    checkFraction(hardware.sustainedFraction, "machine");
    std::set<std::string> names;
    for (const auto &ceiling : hardware.compute) {
        if (ceiling.name.empty())
            problems.emplace_back("a compute ceiling has no name");
        if (!(ceiling.peak > 0.0) || !std::isfinite(ceiling.peak))
            problems.push_back(
                "compute ceiling \"" + ceiling.name + "\": peak must be a positive finite FLOP/s");
        else if (auto out = valueProblem(sustainedPeak(hardware, ceiling), Quantity::Peak))
            problems.push_back("compute ceiling \"" + ceiling.name
                + "\": " + sustainedWord(hardware, ceiling.sustainedFraction) + "peak " + *out);
        checkFraction(ceiling.sustainedFraction, "compute ceiling \"" + ceiling.name + "\"");
        if (!names.insert(ceiling.name).second)
            problems.push_back("ceiling name \"" + ceiling.name + "\" is used twice");
    }
    for (const auto &ceiling : hardware.memory) {
        if (ceiling.name.empty())
            problems.emplace_back("a memory ceiling has no name");
        if (!(ceiling.bandwidth > 0.0) || !std::isfinite(ceiling.bandwidth))
            problems.push_back(
                "memory ceiling \"" + ceiling.name + "\": bandwidth must be a positive finite B/s");
        else if (auto out
            = valueProblem(sustainedBandwidth(hardware, ceiling), Quantity::Bandwidth))
            problems.push_back("memory ceiling \"" + ceiling.name + "\": "
                + sustainedWord(hardware, ceiling.sustainedFraction) + "bandwidth " + *out);
        checkFraction(ceiling.sustainedFraction, "memory ceiling \"" + ceiling.name + "\"");
        if (!names.insert(ceiling.name).second)
            problems.push_back("ceiling name \"" + ceiling.name + "\" is used twice");
    }
    if (!hardware.defaultCompute.empty() && !hardware.findCompute(hardware.defaultCompute))
        problems.push_back("default compute ceiling \"" + hardware.defaultCompute
            + "\" is not one of the machine's compute ceilings");
    for (auto &problem : validateLimits(hardware.limits))
        problems.push_back(std::move(problem));
    return problems;
}

// Sustained values: a ceiling's own fraction, else the machine's, else 1.
double sustainedPeak(const Hardware &hardware, const ComputeCeiling &ceiling)
{
    return ceiling.peak * effectiveFraction(ceiling.sustainedFraction, hardware.sustainedFraction);
}

double sustainedBandwidth(const Hardware &hardware, const MemoryCeiling &ceiling)
{
    return ceiling.bandwidth
        * effectiveFraction(ceiling.sustainedFraction, hardware.sustainedFraction);
}

Hardware makeSimpleMachine(double peak, double bandwidth)
{
    Hardware hw;
    hw.name = "Custom machine";
    hw.source = "given on the command line";
    const Provenance given = givenOnCommandLine();
    ComputeCeiling compute;
    compute.name = "Peak";
    compute.peak = peak;
    compute.provenance = given;
    MemoryCeiling memory;
    memory.name = "Memory";
    memory.bandwidth = bandwidth;
    memory.provenance = given;
    hw.compute.push_back(std::move(compute));
    hw.memory.push_back(std::move(memory));
    hw.defaultCompute = "Peak";
    return hw;
}

ridgepoint::Expected<Hardware, std::string> withOverrides(const Hardware &hardware,
    std::optional<double> peak, std::optional<double> bandwidth, std::string_view computeName)
{
    if (!peak && !bandwidth)
        return hardware;
    Hardware custom = hardware;
    if (peak) {
        const ComputeCeiling *chosen = computeName.empty() ? hardware.defaultComputeCeiling()
                                                           : hardware.findCompute(computeName);
        if (!chosen)
            return ridgepoint::Unexpected("no compute ceiling named \"" + std::string(computeName)
                + "\" on " + hardware.name);
        auto &ceiling = custom.compute[static_cast<std::size_t>(chosen - hardware.compute.data())];
        ceiling.peak = *peak;
        ceiling.provenance = givenOnCommandLine();
        ceiling.alternate.reset();
    }
    if (bandwidth) {
        const MemoryCeiling *main = hardware.mainMemory();
        if (!main)
            main = hardware.memory.empty() ? nullptr : &hardware.memory.front();
        if (!main)
            return ridgepoint::Unexpected(hardware.name + " has no memory ceiling to override");
        auto &ceiling = custom.memory[static_cast<std::size_t>(main - hardware.memory.data())];
        ceiling.bandwidth = *bandwidth;
        ceiling.provenance = givenOnCommandLine();
        ceiling.alternate.reset();
    }
    custom.name = "Custom (from " + hardware.name + ")";
    custom.aliases.clear();
    custom.source = "edited from " + hardware.name + "; " + hardware.source;
    return custom;
}

Hardware withSustainedPeaks(const Hardware &hardware)
{
    Hardware scaled = hardware;
    for (auto &ceiling : scaled.compute) {
        ceiling.peak = sustainedPeak(hardware, ceiling);
        ceiling.sustainedFraction.reset();
    }
    for (auto &ceiling : scaled.memory) {
        ceiling.bandwidth = sustainedBandwidth(hardware, ceiling);
        ceiling.sustainedFraction.reset();
    }
    scaled.sustainedFraction.reset();
    return scaled;
}

const MemoryCeiling *chipLink(const Hardware &hardware)
{
    for (MemoryLevel level : { MemoryLevel::NVLink, MemoryLevel::ICI, MemoryLevel::PCIe }) {
        if (const MemoryCeiling *link = hardware.memoryFor(level))
            return link;
    }
    return nullptr;
}

} // namespace ridgepoint
