// Each point's share of the measured time and its payoff (docs/MODEL.md §2.2), kept per point so
// the table, the status bar, the tooltip and the chart's dot sizes read them without walking
// every point again. The shown point's time is the measured one × its what-if time factor.
#pragma once

#include <QString>

#include <cstddef>
#include <optional>
#include <vector>

namespace ridgepoint {

class Document;

class TimeShares
{
public:
    // Every point again (after a reset), or points first..last (after a move or re-analysis).
    void rebuild(const Document &document);
    void update(const Document &document, std::size_t first, std::size_t last);

    // True when at least one point has a time (a positive total).
    bool hasTimes() const { return m_total > 0.0; }
    double totalSeconds() const { return m_total; }
    // seconds / total, nullopt for a point without a time.
    std::optional<double> share(std::size_t index) const;
    // share × (1 − min(utilization, 1)), nullopt without a time or a utilization.
    std::optional<double> payoff(const Document &document, std::size_t index) const;
    // The n points of largest payoff, largest first (ties by index).
    std::vector<std::size_t> top(const Document &document, std::size_t n) const;

    // "What next: stencil27 21 %, daxpy 4 %, copy 1 %" (names without their argument lists),
    // empty when no point has a payoff.
    static QString whatNext(const Document &document, const TimeShares &shares, std::size_t n = 3);
    // The time of point `index` as shown (its what-if applied), nullopt for a planned point.
    static std::optional<double> shownSeconds(const Document &document, std::size_t index);

private:
    void sum();

    std::vector<std::optional<double>> m_seconds;
    double m_total = 0.0;
};

} // namespace ridgepoint
