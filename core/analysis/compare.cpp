#include "core/analysis/compare.h"

#include <cmath>
#include <string>
#include <unordered_map>

namespace ridgepoint {
namespace {

bool usable(const std::optional<double> &value)
{
    return value && std::isfinite(*value) && *value > 0.0;
}

} // namespace

std::string_view speedupFormula(SpeedupBasis basis)
{
    switch (basis) {
    case SpeedupBasis::Time:
        return "baseline time ÷ current time";
    case SpeedupBasis::Rate:
        return "current FLOP/s ÷ baseline FLOP/s";
    case SpeedupBasis::Operator:
        break;
    }
    return "Σ baseline time ÷ Σ current time of the operator and shapes";
}

std::optional<Speedup> speedup(const KernelPoint &baseline, const KernelPoint &current)
{
    if (usable(baseline.seconds) && usable(current.seconds))
        return Speedup { *baseline.seconds / *current.seconds, SpeedupBasis::Time };
    const auto before = baseline.performance();
    const auto after = current.performance();
    if (usable(before) && usable(after))
        return Speedup { *after / *before, SpeedupBasis::Rate };
    return std::nullopt;
}

std::vector<std::optional<std::size_t>> matchByName(
    const std::vector<KernelPoint> &baseline, const std::vector<KernelPoint> &current)
{
    std::unordered_map<std::string_view, std::size_t> first;
    first.reserve(baseline.size());
    for (std::size_t i = 0; i < baseline.size(); ++i)
        first.try_emplace(baseline[i].name, i);
    std::vector<std::optional<std::size_t>> out(current.size());
    for (std::size_t i = 0; i < current.size(); ++i) {
        if (const auto it = first.find(current[i].name); it != first.end())
            out[i] = it->second;
    }
    return out;
}

std::string_view moveFormula(MoveBasis basis)
{
    return basis == MoveBasis::Measured
        ? "attainable there ÷ attainable here: the same share of its roof on both machines"
        : "attainable there ÷ attainable here";
}

std::optional<MachineMove> moveTo(const PointAnalysis &here, const PointAnalysis &there)
{
    const std::optional<double> other = there.attainable;
    const std::optional<double> own = here.attainable;
    if (!usable(other) || !usable(own))
        return std::nullopt;
    const double factor = *other / *own;
    if (!std::isfinite(factor) || !(factor > 0.0))
        return std::nullopt;
    MachineMove move { *other, factor, std::nullopt, MoveBasis::Attainable };
    if (usable(here.performance)) {
        move.basis = MoveBasis::Measured;
        if (const double best = *other / *here.performance; std::isfinite(best) && best > 0.0)
            move.atTheRoof = best;
    }
    return move;
}

} // namespace ridgepoint
