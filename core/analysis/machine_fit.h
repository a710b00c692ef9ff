// The doctor's machine-level guess (docs/MODEL.md §2.1, "Another machine"): when several points
// are faster than the chosen machine's roofs, the usual reason is that they were measured on
// another machine. Each other machine of the same kind is tried on those points; one that
// holds most of them under its roofs, and holds them most tightly, is named.
#pragma once

#include "core/analysis/analysis.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {

struct MachineFit {
    std::string machine; // the other machine's name
    std::string shortName; // its first alias ("H100"), else its name: what --hardware takes
    std::size_t impossible = 0; // the points looked at: faster than the chosen machine's roofs
    std::size_t fitted = 0; // how many of them are under the other machine's roofs
    double medianUtilization = 0.0; // theirs on the other machine, in (0, 1]
};

// The most points the search looks at (the first ones given); more add nothing to the guess.
inline constexpr std::size_t kMachineFitMaxPoints = 1000;
// The fewest: two points faster than a roof say more of the two than of the machine.
inline constexpr std::size_t kMachineFitMinPoints = 3;

// Among `candidates` (machines named like `current` and of another kind are skipped), those on
// which at least three quarters of the `impossible` points are possible; of these the one they
// use best (the highest median utilization, the upper middle for an even count: the tightest
// roofs that hold them), ties to the candidates' order. nullopt when none qualifies or fewer
// than kMachineFitMinPoints points are given. Each point is analysed on the candidate with its own
// precision (a compute ceiling named in `options` is used where the candidate has one). Points
// are held to the roofs alone, on `current` and on the candidates: a point under `current`'s
// launch latency but not faster than its roofs is left out (docs/MODEL.md §13).
std::optional<MachineFit> findMachineThatFits(const std::vector<KernelPoint> &impossible,
    const Hardware &current, const std::vector<Hardware> &candidates,
    const AnalysisOptions &options = {});

// The doctor's entry for one point faster than `current`'s roofs, when it fits `other` (the
// machine of `fit`); nullopt when it does not fit there.
std::optional<Diagnosis> otherMachineDiagnosis(const KernelPoint &point, const Hardware &current,
    const Hardware &other, const MachineFit &fit, const AnalysisOptions &options = {});

} // namespace ridgepoint
