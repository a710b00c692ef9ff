// The doctor's ranked causes (core/analysis/doctor.h) written for people: the "notes" block that
// `analyze` prints under its tally, one entry per point faster than its roof.
#pragma once

#include "core/analysis/analysis.h"

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

    // Keeps the point's ranked causes when it has any (an impossible point).
    void add(const std::string &name, const PointAnalysis &analysis);
    // The block, starting with a blank line; empty when no point had causes.
    std::string text() const;

private:
    struct Entry {
        std::string name;
        std::string overshoot; // "×2.00 the HBM2 roof"
        std::vector<Diagnosis> diagnosis;
    };
    std::vector<Entry> m_entries;
    std::size_t m_more = 0; // impossible points past kMaxPoints
};

} // namespace ridgepoint
