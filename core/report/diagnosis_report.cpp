#include "core/report/diagnosis_report.h"

namespace ridgepoint {

void DiagnosisNotes::add(const std::string &name, const PointAnalysis &analysis)
{
    if (analysis.diagnosis.empty())
        return;
    if (m_entries.size() >= kMaxPoints) {
        ++m_more;
        return;
    }
    m_entries.push_back(
        { name, overshootText(analysis) + " the " + analysis.limitingCeiling + " roof",
            analysis.diagnosis });
}

std::string DiagnosisNotes::text() const
{
    if (m_entries.empty())
        return {};
    std::string out = "\nnotes: likely causes of the points faster than their roof, likeliest "
                      "first (docs/MODEL.md §2.1)\n";
    for (const Entry &entry : m_entries) {
        out += "  " + entry.name + " (" + entry.overshoot + "):\n";
        for (std::size_t i = 0; i < entry.diagnosis.size(); ++i) {
            const Diagnosis &d = entry.diagnosis[i];
            out += "    " + std::to_string(i + 1) + ". " + d.cause + ": " + d.evidence + "\n";
            out += "       check: " + d.fix + "\n";
        }
    }
    if (m_more > 0)
        out += "  ... and " + std::to_string(m_more) + " more such point(s)\n";
    return out;
}

} // namespace ridgepoint
