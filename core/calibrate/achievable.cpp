#include "core/calibrate/achievable.h"

#include "core/calibrate/fit.h"
#include "core/calibrate/measured.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace ridgepoint {
namespace {

constexpr OperatorClass kRoofClasses[]
    = { OperatorClass::Gemm, OperatorClass::Attention, OperatorClass::Elementwise };

const KernelFit *classFit(const Calibration &calibration, OperatorClass kind)
{
    const auto it = std::ranges::find(calibration.classes, kind, &KernelFit::kind);
    return it == calibration.classes.end() ? nullptr : &*it;
}

std::optional<OperatorClass> fittedOperatorClass(
    const Calibration &calibration, std::string_view name)
{
    if (name.empty())
        return std::nullopt;
    for (const KernelFit &fit : calibration.operators) {
        if (fit.name == name)
            return fit.kind;
    }
    return std::nullopt;
}

// A roof the class's fraction makes of a visible ceiling, or nullopt.
std::optional<AchievableRoof> roofOf(
    const KernelFit &fit, bool memory, const Hardware &hardware, const Calibration &calibration)
{
    // Elementwise and norm kernels do a few FLOPs per byte, decades left of any ridge: no row's
    // time depends on their compute fraction, so it says nothing about the compute roof.
    if (!memory && fit.kind == OperatorClass::Elementwise)
        return std::nullopt;
    const std::string &name = memory ? calibration.memoryCeiling : calibration.computeCeiling;
    const double spec = memory ? calibration.bandwidth : calibration.peak;
    // A GEMM's compute roof is what its largest tile sustains (docs/MODEL.md §15.2).
    const double fraction
        = memory ? fit.memoryFraction : sustainedComputeFraction(fit, calibration);
    const bool visible = memory ? hardware.findMemory(name) && hardware.findMemory(name)->visible
                                : hardware.findCompute(name) && hardware.findCompute(name)->visible;
    if (!visible || !(spec > 0.0) || !(fraction > 0.0) || fraction >= kNoBandFraction)
        return std::nullopt;
    return AchievableRoof { fit.kind, memory, name, spec, fraction, fraction * spec,
        fit.error.rows };
}

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return std::ranges::equal(a, b, [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x))
            == std::tolower(static_cast<unsigned char>(y));
    });
}

} // namespace

std::optional<OperatorClass> pointClass(const Calibration &calibration, const KernelPoint &point)
{
    if (auto kind = fittedOperatorClass(calibration, point.group))
        return kind;
    const std::string_view name = point.name;
    if (auto kind = fittedOperatorClass(calibration, name.substr(0, name.find(' '))))
        return kind;
    // A word of the group naming a class: "prefill GEMM", "decode GEMV" (a GEMM of one row),
    // "attention", "elementwise".
    std::string_view rest = point.group;
    while (!rest.empty()) {
        const auto end = rest.find_first_of(" _-/");
        const std::string_view word = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view {} : rest.substr(end + 1);
        auto kind = operatorClassFromName(word);
        if (!kind && (equalsIgnoringCase(word, "gemv") || equalsIgnoringCase(word, "matmul")))
            kind = OperatorClass::Gemm;
        if (kind && *kind != OperatorClass::Collective)
            return kind;
    }
    return std::nullopt;
}

std::vector<OperatorClass> shownClasses(
    const Calibration &calibration, std::size_t count, const PointAt &pointAt)
{
    constexpr std::size_t kClasses = std::size(kRoofClasses);
    bool fitted[kClasses] = {};
    bool seen[kClasses] = {};
    std::size_t toSee = 0;
    for (std::size_t i = 0; i < kClasses; ++i) {
        fitted[i] = classFit(calibration, kRoofClasses[i]) != nullptr;
        toSee += fitted[i] ? 1 : 0;
    }
    bool any = false;
    for (std::size_t p = 0; p < count && toSee > 0; ++p) {
        const auto kind = pointClass(calibration, pointAt(p));
        if (!kind)
            continue;
        any = true;
        for (std::size_t i = 0; i < kClasses; ++i) {
            if (kRoofClasses[i] == *kind && !seen[i]) {
                seen[i] = true;
                toSee -= fitted[i] ? 1 : 0;
            }
        }
    }
    std::vector<OperatorClass> out;
    for (std::size_t i = 0; i < kClasses; ++i) {
        if (fitted[i] && (seen[i] || !any))
            out.push_back(kRoofClasses[i]);
    }
    return out;
}

std::vector<AchievableRoof> achievableRoofs(
    const Hardware &hardware, const std::vector<OperatorClass> &classes)
{
    std::vector<AchievableRoof> out;
    if (!hardware.calibration)
        return out;
    const Calibration &calibration = *hardware.calibration;
    for (const OperatorClass kind : classes) {
        const KernelFit *fit = classFit(calibration, kind);
        if (!fit)
            continue;
        for (const bool memory : { false, true }) {
            if (auto roof = roofOf(*fit, memory, hardware, calibration))
                out.push_back(std::move(*roof));
        }
    }
    return out;
}

std::optional<double> halfBandwidthBytes(const CollectiveFit &fit, const CollectiveRegime &regime)
{
    const double factor = busBytesFactor(fit.collective, fit.ranks);
    if (!regime.busBandwidth || !(*regime.busBandwidth > 0.0) || !(factor > 0.0))
        return std::nullopt;
    return regime.latencySeconds * *regime.busBandwidth / factor;
}

std::string operatorClassTitle(OperatorClass kind)
{
    switch (kind) {
    case OperatorClass::Gemm:
        return "GEMM";
    case OperatorClass::Attention:
        return "Attention";
    case OperatorClass::Elementwise:
        return "Elementwise/norm";
    case OperatorClass::Collective:
        return "Collective";
    }
    return "Operator";
}

std::string achievableLabel(const AchievableRoof &roof)
{
    const double percent = roof.fraction * 100.0;
    char number[32];
    std::snprintf(number, sizeof number, percent < 9.95 ? "%.1f" : "%.0f", percent);
    return operatorClassTitle(roof.kind) + " achievable, " + number + " % of " + roof.ceiling
        + ", calibrated on " + std::to_string(roof.rows) + (roof.rows == 1 ? " row" : " rows");
}

} // namespace ridgepoint
