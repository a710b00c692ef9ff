// The baseline's points by name (the first of each name), so the chart, the table and the
// exports pair a current point with its baseline in constant time.
#pragma once

#include "core/analysis/compare.h"
#include "core/session/session.h"

#include <optional>
#include <string>
#include <unordered_map>

namespace ridgepoint {

class BaselineIndex
{
public:
    void rebuild(const std::optional<Baseline> &baseline)
    {
        m_byName.clear();
        m_baseline = baseline ? &*baseline : nullptr;
        if (!m_baseline)
            return;
        m_byName.reserve(m_baseline->points.size());
        for (std::size_t i = 0; i < m_baseline->points.size(); ++i)
            m_byName.try_emplace(m_baseline->points[i].name, i);
    }

    bool empty() const { return m_baseline == nullptr; }
    // The baseline point named `name`, or nullptr.
    const KernelPoint *find(const std::string &name) const
    {
        const auto it = m_byName.find(name);
        return it == m_byName.end() ? nullptr : &m_baseline->points[it->second];
    }
    // The speed-up of `current` over its namesake in the baseline.
    std::optional<Speedup> speedupOf(const KernelPoint &current) const
    {
        const KernelPoint *before = find(current.name);
        return before ? speedup(*before, current) : std::nullopt;
    }

private:
    const Baseline *m_baseline = nullptr; // the Document's; rebuild() on baselineChanged
    std::unordered_map<std::string, std::size_t> m_byName;
};

} // namespace ridgepoint
