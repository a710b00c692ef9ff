#include "core/analysis/operator_change.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace ridgepoint {
namespace {

bool positive(double value)
{
    return std::isfinite(value) && value > 0.0;
}

std::optional<double> ratio(double baseline, double current)
{
    if (!positive(baseline) || !positive(current))
        return std::nullopt;
    return baseline / current;
}

double secondsOf(const KernelPoint &point)
{
    return point.seconds && std::isfinite(*point.seconds) ? *point.seconds : 0.0;
}

// The rank of a row's kind in the table: matched, only in this run, only in the baseline.
int kindRank(const OperatorChange &row)
{
    return row.matched() ? 0 : row.baselinePoints == 0 ? 1 : 2;
}

double largerTime(const OperatorChange &row)
{
    return std::max(row.baselineSeconds, row.currentSeconds);
}

} // namespace

std::string_view matchByText(MatchBy by)
{
    return by == MatchBy::Operator ? "operator" : "name";
}

std::optional<MatchBy> matchByFromText(std::string_view text)
{
    if (text == "operator")
        return MatchBy::Operator;
    if (text == "name")
        return MatchBy::Name;
    return std::nullopt;
}

std::optional<double> OperatorChange::speedup() const
{
    return matched() ? ratio(baselineSeconds, currentSeconds) : std::nullopt;
}

std::optional<double> OperatorChanges::matchedSpeedup() const
{
    return ratio(matchedBaselineSeconds, matchedCurrentSeconds);
}

std::optional<double> OperatorChanges::totalSpeedup() const
{
    return ratio(baselineSeconds, currentSeconds);
}

double OperatorChanges::matchedShare() const
{
    return positive(currentSeconds) ? matchedCurrentSeconds / currentSeconds : 0.0;
}

OperatorChanges compareOperators(
    const std::vector<KernelPoint> &baseline, const std::vector<KernelPoint> &current, MatchBy by)
{
    OperatorChanges out;
    out.by = by;
    std::unordered_map<std::string, std::size_t> rowOf;
    const auto rowFor = [&](const KernelPoint &point) -> OperatorChange & {
        const std::string &key = matchKey(point, by);
        const auto [at, added] = rowOf.try_emplace(key, out.rows.size());
        if (added)
            out.rows.push_back({ key, 0.0, 0.0, 0, 0 });
        return out.rows[at->second];
    };
    for (const KernelPoint &point : baseline) {
        OperatorChange &row = rowFor(point);
        row.baselineSeconds += secondsOf(point);
        ++row.baselinePoints;
        out.baselineSeconds += secondsOf(point);
    }
    for (const KernelPoint &point : current) {
        OperatorChange &row = rowFor(point);
        row.currentSeconds += secondsOf(point);
        ++row.currentPoints;
        out.currentSeconds += secondsOf(point);
    }
    for (const OperatorChange &row : out.rows) {
        if (row.matched()) {
            ++out.matched;
            out.matchedBaselineSeconds += row.baselineSeconds;
            out.matchedCurrentSeconds += row.currentSeconds;
        } else if (row.baselinePoints == 0) {
            ++out.onlyCurrent;
        } else {
            ++out.onlyBaseline;
        }
    }
    std::sort(out.rows.begin(), out.rows.end(), [](const auto &a, const auto &b) {
        // Matched rows by the baseline's time (what the change is measured against).
        const double ta = a.matched() ? a.baselineSeconds : largerTime(a);
        const double tb = b.matched() ? b.baselineSeconds : largerTime(b);
        return std::tuple(kindRank(a), -ta, std::string_view(a.key))
            < std::tuple(kindRank(b), -tb, std::string_view(b.key));
    });
    return out;
}

BaselineOperators::BaselineOperators(const std::vector<KernelPoint> &baseline, MatchBy by)
    : m_by(by)
{
    for (const KernelPoint &point : baseline) {
        const std::string &key = matchKey(point, by);
        const auto [at, added] = m_index.try_emplace(key, m_sums.size());
        if (added) {
            KernelPoint first = point;
            first.seconds = secondsOf(point);
            m_sums.push_back(std::move(first));
            continue;
        }
        KernelPoint &sum = m_sums[at->second];
        sum.flops += point.flops;
        *sum.seconds += secondsOf(point);
        for (const LevelBytes &bytes : point.bytes) {
            const auto same = std::find_if(sum.bytes.begin(), sum.bytes.end(),
                [&](const LevelBytes &b) { return b.level == bytes.level; });
            if (same != sum.bytes.end())
                same->bytes += bytes.bytes;
            else
                sum.bytes.push_back(bytes);
        }
    }
}

const KernelPoint *BaselineOperators::find(const KernelPoint &current) const
{
    const auto it = m_index.find(matchKey(current, m_by));
    return it == m_index.end() ? nullptr : &m_sums[it->second];
}

void BaselineOperators::setCurrent(const std::vector<KernelPoint> &current)
{
    m_currentSeconds.clear();
    for (const KernelPoint &point : current)
        m_currentSeconds[matchKey(point, m_by)] += secondsOf(point);
}

std::optional<double> BaselineOperators::speedupOf(const KernelPoint &current) const
{
    const KernelPoint *before = find(current);
    if (!before)
        return std::nullopt;
    const auto it = m_currentSeconds.find(matchKey(current, m_by));
    return ratio(
        secondsOf(*before), it == m_currentSeconds.end() ? secondsOf(current) : it->second);
}

} // namespace ridgepoint
