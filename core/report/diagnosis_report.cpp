#include "core/report/diagnosis_report.h"

#include <algorithm>
#include <cmath>

namespace ridgepoint {

void DiagnosisNotes::tryOtherMachines(const Hardware &current,
    const std::vector<Hardware> &candidates, const AnalysisOptions &options)
{
    m_current = current;
    m_candidates = &candidates;
    m_options = options;
}

void DiagnosisNotes::add(const KernelPoint &point, const PointAnalysis &analysis)
{
    if (analysis.diagnosis.empty())
        return;
    const std::size_t kept = m_impossible.size();
    if (m_candidates && kept < kMachineFitMaxPoints)
        m_impossible.push_back(point);
    if (m_entries.size() >= kMaxPoints) {
        ++m_more;
        return;
    }
    m_entries.push_back(
        { point.name, overshootText(analysis) + " the " + analysis.limitingCeiling + " roof",
            analysis.diagnosis, kept });
}

std::string DiagnosisNotes::text() const
{
    if (m_entries.empty())
        return {};
    std::optional<MachineFit> fit;
    const Hardware *other = nullptr;
    if (m_candidates) {
        fit = findMachineThatFits(m_impossible, m_current, *m_candidates, m_options);
        if (fit) {
            const auto found = std::ranges::find(*m_candidates, fit->machine, &Hardware::name);
            other = &*found;
        }
    }
    std::string out = "\nnotes: likely causes of the points faster than their roof, likeliest "
                      "first (docs/MODEL.md §2.1)\n";
    if (fit)
        out += "  " + std::to_string(fit->fitted) + " of the " + std::to_string(fit->impossible)
            + " points faster than " + m_current.name + "'s roofs fit " + fit->machine
            + "'s (median utilization "
            + std::to_string(static_cast<int>(std::lround(fit->medianUtilization * 100.0)))
            + " %): were they measured there? (--hardware '" + fit->shortName + "')\n";
    for (const Entry &entry : m_entries) {
        std::vector<Diagnosis> causes = entry.diagnosis;
        if (other && entry.impossibleIndex < m_impossible.size()) {
            if (auto there = otherMachineDiagnosis(
                    m_impossible[entry.impossibleIndex], m_current, *other, *fit, m_options))
                causes.insert(causes.begin(), std::move(*there));
        }
        out += "  " + entry.name + " (" + entry.overshoot + "):\n";
        for (std::size_t i = 0; i < causes.size(); ++i) {
            const Diagnosis &d = causes[i];
            out += "    " + std::to_string(i + 1) + ". " + d.cause + ": " + d.evidence + "\n";
            out += "       check: " + d.fix + "\n";
        }
    }
    if (m_more > 0)
        out += "  ... and " + std::to_string(m_more) + " more such point(s)\n";
    return out;
}

} // namespace ridgepoint
