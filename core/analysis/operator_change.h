// A run against its baseline, operator by operator (docs/MODEL.md §11.7). Two profiler traces of
// one model on two machines launch different kernels for the same work (an A100's
// "ampere_sgemm_…" is a V100's "volta_sgemm_…"), so their points are matched by what they
// compute, the operator and its input shapes (a trace point's group), and not by kernel name.
// Every point's time lands in exactly one row: matched, only in this run, or only in the
// baseline; none is dropped.
#pragma once

#include "core/model/point.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ridgepoint {

// What pairs a point with the baseline's: its name (points files), or its operator and shapes
// (profiler traces: the group "aten::mm(float[64, 32], float[32, 16])").
enum class MatchBy { Name, Operator };
std::string_view matchByText(MatchBy by); // "name", "operator"
std::optional<MatchBy> matchByFromText(std::string_view text);

// The text a point is matched by.
inline const std::string &matchKey(const KernelPoint &point, MatchBy by)
{
    return by == MatchBy::Operator ? point.group : point.name;
}

// One operator (with its shapes) in both runs, or in one of them. Times are the sums over every
// point of that key (several kernels of one operator add up).
struct OperatorChange {
    std::string key;
    double baselineSeconds = 0.0;
    double currentSeconds = 0.0;
    std::size_t baselinePoints = 0; // 0: only in this run
    std::size_t currentPoints = 0; // 0: only in the baseline

    bool matched() const { return baselinePoints > 0 && currentPoints > 0; }
    // Σ baseline time ÷ Σ current time; nullopt unless matched with both times positive.
    std::optional<double> speedup() const;
};

struct OperatorChanges {
    MatchBy by = MatchBy::Operator;
    // Matched rows first (largest baseline time first), then the rows only in this run, then
    // those only in the baseline (each largest first; ties by key).
    std::vector<OperatorChange> rows;
    double baselineSeconds = 0.0; // Σ over every baseline point with a time
    double currentSeconds = 0.0;
    double matchedBaselineSeconds = 0.0; // Σ over the matched rows
    double matchedCurrentSeconds = 0.0;
    std::size_t matched = 0;
    std::size_t onlyCurrent = 0;
    std::size_t onlyBaseline = 0;

    // Σ matched baseline time ÷ Σ matched current time: the change where both runs did the work.
    std::optional<double> matchedSpeedup() const;
    // Σ baseline time ÷ Σ current time over every point, matched or not.
    std::optional<double> totalSpeedup() const;
    // The share of this run's time whose operator the baseline also ran (0 without time).
    double matchedShare() const;
};

// Both runs' points keyed by `by` and summed. Points without a time count with none.
OperatorChanges compareOperators(
    const std::vector<KernelPoint> &baseline, const std::vector<KernelPoint> &current, MatchBy by);

// The baseline's points summed per key, for the chart's arrows and the table's speed-up column:
// one point per key holding the summed FLOPs, bytes per level and time (intensity ΣFLOP/Σbytes,
// performance ΣFLOP/Σtime), named after its first point.
class BaselineOperators
{
public:
    BaselineOperators() = default;
    BaselineOperators(const std::vector<KernelPoint> &baseline, MatchBy by);

    MatchBy by() const { return m_by; }
    // The baseline's point of `current`'s key, or nullptr when the baseline has none.
    const KernelPoint *find(const KernelPoint &current) const;
    // Sets the current run's time per key (its points summed), which the speed-ups divide by.
    void setCurrent(const std::vector<KernelPoint> &current);
    // Σ baseline time ÷ Σ current time of `current`'s key (with the time setCurrent gave;
    // `current`'s own time when setCurrent never saw its key); nullopt when either has none.
    std::optional<double> speedupOf(const KernelPoint &current) const;

private:
    MatchBy m_by = MatchBy::Name;
    std::vector<KernelPoint> m_sums;
    std::unordered_map<std::string, std::size_t> m_index;
    std::unordered_map<std::string, double> m_currentSeconds;
};

} // namespace ridgepoint
