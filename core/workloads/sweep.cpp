#include "core/workloads/sweep.h"

#include "core/model/units.h"

#include <charconv>
#include <cmath>

namespace ridgepoint {
namespace {

std::optional<double> number(std::string_view text)
{
    double value = 0.0;
    const char *end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || !std::isfinite(value))
        return std::nullopt;
    return value;
}

} // namespace

ridgepoint::Expected<SweepRange, std::string> parseSweep(std::string_view text)
{
    const std::string quoted = "\"" + std::string(text) + "\"";
    const auto equals = text.find('=');
    if (equals == std::string_view::npos || equals == 0)
        return ridgepoint::Unexpected("sweep " + quoted + " is not PARAM=A:B[:xSTEP|:+STEP]");
    SweepRange range;
    range.parameter = std::string(text.substr(0, equals));
    std::string_view rest = text.substr(equals + 1);
    std::vector<std::string_view> parts;
    while (true) {
        const auto colon = rest.find(':');
        parts.push_back(rest.substr(0, colon));
        if (colon == std::string_view::npos)
            break;
        rest = rest.substr(colon + 1);
    }
    if (parts.size() < 2 || parts.size() > 3)
        return ridgepoint::Unexpected("sweep " + quoted + " is not PARAM=A:B[:xSTEP|:+STEP]");
    const auto from = number(parts[0]);
    const auto to = number(parts[1]);
    if (!from || !to)
        return ridgepoint::Unexpected("sweep " + quoted + ": the bounds A and B must be numbers");
    if (!(*from > 0.0) || *to < *from)
        return ridgepoint::Unexpected("sweep " + quoted + ": needs 0 < A <= B");
    range.from = *from;
    range.to = *to;
    if (parts.size() == 3) {
        std::string_view step = parts[2];
        range.multiplicative = !step.empty() && (step.front() == 'x' || step.front() == '*');
        if (!step.empty() && (range.multiplicative || step.front() == '+'))
            step.remove_prefix(1);
        const auto value = number(step);
        if (!value)
            return ridgepoint::Unexpected("sweep " + quoted + ": the step must be xK, +K or K");
        if (range.multiplicative ? !(*value > 1.0) : !(*value > 0.0))
            return ridgepoint::Unexpected("sweep " + quoted
                + (range.multiplicative ? ": a multiplicative step must exceed 1"
                                        : ": an additive step must be positive"));
        range.step = *value;
    }
    return range;
}

ridgepoint::Expected<std::vector<double>, std::string> sweepValues(
    const SweepRange &range, std::size_t limit)
{
    std::vector<double> values;
    // Relative slack so 1:1024:x2 ends at 1024 despite rounding.
    const double end = range.to * (1.0 + 1e-12);
    // Each value from its index, not by accumulating steps, so rounding does not drift.
    for (std::size_t i = 0;; ++i) {
        const double v = range.multiplicative
            ? range.from * std::pow(range.step, static_cast<double>(i))
            : range.from + range.step * static_cast<double>(i);
        if (!(v <= end))
            break;
        if (values.size() == limit)
            return ridgepoint::Unexpected("the sweep of " + range.parameter + " has more than "
                + std::to_string(limit) + " values: use a larger step");
        values.push_back(v);
    }
    return values;
}

ridgepoint::Expected<SweepResult, std::string> runSweep(const std::string &parameter,
    const std::vector<double> &values,
    const std::function<ridgepoint::Expected<AnalyzedPoint, std::string>(double)> &model)
{
    SweepResult result;
    result.parameter = parameter;
    for (double value : values) {
        auto point = model(value);
        if (!point)
            return ridgepoint::Unexpected(
                parameter + " = " + formatNumber(value) + ": " + point.error());
        if (!result.samples.empty()) {
            const SweepSample &last = result.samples.back();
            if (last.point.analysis.bound != point->analysis.bound)
                result.crossings.push_back(
                    { last.value, value, last.point.analysis.bound, point->analysis.bound });
        }
        result.samples.push_back({ value, std::move(*point) });
    }
    return result;
}

} // namespace ridgepoint
