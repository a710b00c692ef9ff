// The doctor's ranked causes (core/analysis/doctor.h) written for people: the "notes" block that
// `analyze` prints under its tally, one entry per point faster than its roof, led by the other
// machine those points fit when there is one (core/analysis/machine_fit.h).
#pragma once

#include "core/analysis/analysis.h"
#include "core/analysis/machine_fit.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ridgepoint {

class DiagnosisNotes
{
public:
    // Points kept in full; past them only a count, so a file of a million impossible points
    // does not hold a million lists.
    static constexpr std::size_t kMaxPoints = 20;

    // The machine the points are analysed on and the others to try when several are faster
    // than its roofs; without this call no other machine is tried.
    void tryOtherMachines(const Hardware &current, const std::vector<Hardware> &candidates,
        const AnalysisOptions &options);
    // Keeps the point's ranked causes when it has any (an impossible point).
    void add(const KernelPoint &point, const PointAnalysis &analysis);
    // The block, starting with a blank line; empty when no point had causes.
    std::string text() const;

private:
    struct Entry {
        std::string name;
        std::string overshoot; // "×2.00 the HBM2 roof"
        std::vector<Diagnosis> diagnosis;
        std::size_t impossibleIndex = 0; // into m_impossible, when kept there
    };
    std::vector<Entry> m_entries;
    std::size_t m_more = 0; // impossible points past kMaxPoints
    // For the other-machine search: the first kMachineFitMaxPoints impossible points.
    Hardware m_current;
    const std::vector<Hardware> *m_candidates = nullptr;
    AnalysisOptions m_options;
    std::vector<KernelPoint> m_impossible;
};

} // namespace ridgepoint
