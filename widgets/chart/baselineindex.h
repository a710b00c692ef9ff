// The baseline's points by what pairs them with the current ones, so the chart, the table and
// the exports find a current point's baseline in constant time: by name (the first of each
// name), or for a profiler trace by operator and shapes, the baseline's kernels of each summed
// into one point (core/analysis/operator_change.h; docs/MODEL.md §11.7).
#pragma once

#include "core/analysis/compare.h"
#include "core/analysis/operator_change.h"
#include "core/session/session.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ridgepoint {

class BaselineIndex
{
public:
    // The index points into the baseline it is given, which must outlive it: a temporary is
    // refused (until 2026-11-30 `analyze --baseline` passed a Baseline where an optional was
    // taken, so a temporary copy was indexed and a CSV baseline crashed once it was gone).
    void rebuild(const std::optional<Baseline> &baseline)
    {
        rebuild(baseline ? &*baseline : nullptr);
    }
    void rebuild(const Baseline &baseline) { rebuild(&baseline); }
    void rebuild(std::optional<Baseline> &&) = delete;
    void rebuild(Baseline &&) = delete;
    void rebuild(const Baseline *baseline)
    {
        m_byName.clear();
        m_baseline = baseline;
        m_operators.reset();
        if (!m_baseline)
            return;
        if (m_baseline->match == MatchBy::Operator) {
            m_operators.emplace(m_baseline->points, MatchBy::Operator);
            return;
        }
        m_byName.reserve(m_baseline->points.size());
        for (std::size_t i = 0; i < m_baseline->points.size(); ++i)
            m_byName.try_emplace(m_baseline->points[i].name, i);
    }

    bool empty() const { return m_baseline == nullptr; }
    // Matched by operator and shapes: the speed-ups then need the current points (setCurrent).
    bool byOperator() const { return m_operators.has_value(); }
    // The current run's points, whose times per operator the speed-ups divide by (by operator
    // only; by name each point stands alone).
    void setCurrent(const std::vector<KernelPoint> &current)
    {
        if (m_operators)
            m_operators->setCurrent(current);
    }
    // The baseline point `current` is compared with (by operator: its operator's kernels
    // summed), or nullptr.
    const KernelPoint *find(const KernelPoint &current) const
    {
        if (m_operators)
            return m_operators->find(current);
        const auto it = m_byName.find(current.name);
        return it == m_byName.end() ? nullptr : &m_baseline->points[it->second];
    }
    // The speed-up of `current` over its baseline: by name, of the two points; by operator, of
    // the operator's time in both runs.
    std::optional<Speedup> speedupOf(const KernelPoint &current) const
    {
        if (m_operators) {
            const auto factor = m_operators->speedupOf(current);
            return factor ? std::optional(Speedup { *factor, SpeedupBasis::Operator })
                          : std::nullopt;
        }
        const KernelPoint *before = find(current);
        return before ? speedup(*before, current) : std::nullopt;
    }

private:
    const Baseline *m_baseline = nullptr; // the Document's; rebuild() on baselineChanged
    std::unordered_map<std::string, std::size_t> m_byName;
    std::optional<BaselineOperators> m_operators;
};

} // namespace ridgepoint
