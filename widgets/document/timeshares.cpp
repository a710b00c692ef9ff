#include "widgets/document/timeshares.h"

#include "core/analysis/payoff.h"
#include "core/model/units.h"
#include "widgets/document/document.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <utility>

namespace ridgepoint {

namespace {

// A kernel's name without its argument list ("daxpy(int, double, ...)" → "daxpy"), elided past
// 32 characters: three of them share the status bar.
QString shortName(std::string_view name)
{
    QString text = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    if (const qsizetype paren = text.indexOf(QLatin1Char('(')); paren > 0)
        text.truncate(paren);
    if (text.size() > 32)
        text = text.left(31) + QStringLiteral("…");
    return text;
}

} // namespace

std::optional<double> TimeShares::shownSeconds(const Document &document, std::size_t index)
{
    const PointTable &points = document.pointTable();
    const auto seconds
        = pointSeconds(points.seconds(index), points.measuredRate(index), points.flops(index));
    if (!seconds)
        return std::nullopt;
    const double shown = *seconds * document.whatIf(index).timeFactor;
    return std::isfinite(shown) && shown > 0.0 ? std::optional<double>(shown) : std::nullopt;
}

void TimeShares::rebuild(const Document &document)
{
    m_seconds.assign(document.pointCount(), std::nullopt);
    for (std::size_t i = 0; i < m_seconds.size(); ++i)
        m_seconds[i] = shownSeconds(document, i);
    sum();
}

void TimeShares::update(const Document &document, std::size_t first, std::size_t last)
{
    if (m_seconds.size() != document.pointCount()) {
        rebuild(document);
        return;
    }
    for (std::size_t i = first; i <= last && i < m_seconds.size(); ++i)
        m_seconds[i] = shownSeconds(document, i);
    sum();
}

void TimeShares::sum()
{
    double total = 0.0;
    for (const auto &seconds : m_seconds)
        total += seconds.value_or(0.0);
    m_total = std::isfinite(total) ? total : 0.0;
}

std::optional<double> TimeShares::share(std::size_t index) const
{
    if (index >= m_seconds.size() || !m_seconds[index] || !hasTimes())
        return std::nullopt;
    return std::min(*m_seconds[index] / m_total, 1.0);
}

std::optional<double> TimeShares::payoff(const Document &document, std::size_t index) const
{
    if (index >= m_seconds.size() || index >= document.pointCount())
        return std::nullopt;
    const PointPlacement &placed = document.placement(index);
    if (!placed.placed)
        return std::nullopt;
    return ridgepoint::payoff(m_seconds[index], placed.utilization(), m_total);
}

std::vector<std::size_t> TimeShares::top(const Document &document, std::size_t n) const
{
    // Only what can gain: a kernel on its roof pays nothing back, and one above its roof has
    // counts or peaks to fix first (its payoff is 0 by definition, MODEL.md §2.2).
    std::vector<std::pair<double, std::size_t>> ranked;
    for (std::size_t i = 0; i < m_seconds.size(); ++i) {
        const auto value = payoff(document, i);
        if (value && *value > 0.0 && document.placement(i).consistent)
            ranked.emplace_back(*value, i);
    }
    return largestFirst(std::move(ranked), n);
}

QString TimeShares::whatNext(const Document &document, const TimeShares &shares, std::size_t n)
{
    QStringList parts;
    for (std::size_t i : shares.top(document, n)) {
        const double percent = shares.payoff(document, i).value_or(0.0) * 100.0;
        parts << QStringLiteral("%1 %2 %").arg(shortName(document.pointTable().name(i)),
            QString::fromStdString(formatSignificant(percent, 2)));
    }
    if (parts.isEmpty())
        return {};
    return QCoreApplication::translate("ridgepoint::TimeShares", "What next: %1")
        .arg(parts.join(QStringLiteral(", ")));
}

} // namespace ridgepoint
