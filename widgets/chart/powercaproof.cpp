#include "widgets/chart/powercaproof.h"
#include "widgets/qtext.h"

#include "core/model/units.h"
#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/charttheme.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgepoint::chart {
namespace {

constexpr int kPerDecade = 40;
constexpr double kFrom = 1e-4; // FLOP/B: far left of any frame the chart resets to
constexpr double kTo = 1e7;

// The intensity where β·I = (P_cap − P0) / (e_flop + e_byte / I):
// I = ((P_cap − P0) / β − e_byte) / e_flop; nullopt when the cap never meets the memory roof.
std::optional<double> capMeetsMemory(const EnergyRoof &roof)
{
    if (!roof.capWatts)
        return std::nullopt;
    const double at = ((*roof.capWatts - roof.staticWatts) / roof.bandwidth - roof.byteJoules)
        / roof.flopJoules;
    return at > 0.0 && std::isfinite(at) ? std::optional(at) : std::nullopt;
}

} // namespace

std::vector<QPointF> powerCapCurve(const EnergyRoof &roof, double from, double to)
{
    std::vector<QPointF> out;
    if (!roof.capWatts || !(from > 0.0) || !(to > from))
        return out;
    const double decades = std::log10(to / from);
    const int steps = std::max(1, static_cast<int>(std::ceil(decades * kPerDecade)));
    std::vector<double> at;
    at.reserve(static_cast<std::size_t>(steps) + 2);
    for (int i = 0; i <= steps; ++i)
        at.push_back(from * std::pow(to / from, static_cast<double>(i) / steps));
    // The corner where the cap takes over from the memory roof, exactly.
    if (const auto knee = capMeetsMemory(roof); knee && *knee > from && *knee < to)
        at.push_back(*knee);
    std::ranges::sort(at);
    for (const double intensity : at)
        out.emplace_back(intensity, *roof.capped(intensity));
    return out;
}

PowerCapRoof::PowerCapRoof(QCustomPlot *plot)
    : m_plot(plot)
{ }

PowerCapRoof::~PowerCapRoof()
{
    clear();
}

void PowerCapRoof::clear()
{
    if (m_graph && m_plot->hasPlottable(m_graph))
        m_plot->removePlottable(m_graph);
    m_graph = nullptr;
    m_roof.reset();
}

void PowerCapRoof::rebuild(
    const Hardware &hardware, const ComputeCeiling *active, const ChartTheme &theme)
{
    clear();
    const MemoryCeiling *main = hardware.mainMemory();
    if (!active || !main)
        return;
    const auto roof = energyRoof(hardware, *active, *main);
    if (!roof || !roof->capWatts)
        return;
    m_roof = roof;
    m_precision = QString::fromUtf8(precisionName(active->precision).data());
    m_level = QString::fromUtf8(memoryLevelName(main->level).data());
    const std::vector<QPointF> curve = powerCapCurve(*roof, kFrom, kTo);
    QVector<double> x;
    QVector<double> y;
    x.reserve(static_cast<qsizetype>(curve.size()));
    y.reserve(static_cast<qsizetype>(curve.size()));
    for (const QPointF &p : curve) {
        x.push_back(p.x());
        y.push_back(p.y());
    }
    m_graph = m_plot->addGraph();
    m_graph->setLayer(kRoofLayer);
    m_graph->setSelectable(QCP::stNone);
    // Red-orange, dash-dot: apart from the roofs' solid lines, the spec figures' dashes and the
    // calibrated roofs' dots.
    QPen pen(lineColor(theme, QColor(0xc0, 0x30, 0x20)), 1.8 * theme.lineScale, Qt::DashDotLine);
    pen.setCosmetic(true);
    m_graph->setPen(pen);
    m_graph->setData(x, y, true);
    m_graph->setName(tr("power cap %1 W").arg(QString::number(*roof->capWatts, 'g', 4)));
}

QString PowerCapRoof::descriptionAt(const QPointF &position) const
{
    if (!m_graph || !m_roof)
        return {};
    const double intensity = m_graph->keyAxis()->pixelToCoord(position.x());
    if (!(intensity > 0.0) || !std::isfinite(intensity))
        return {};
    const double value = *m_roof->capped(intensity);
    const double pixel = m_graph->valueAxis()->coordToPixel(value);
    if (std::abs(pixel - position.y()) >= 5.0)
        return {};
    const EnergyRoof &r = *m_roof;
    const double byCap = (*r.capWatts - r.staticWatts) / (r.flopJoules + r.byteJoules / intensity);
    const auto rate = [](double v) { return q(formatQuantity(v, Dimension::FlopRate, 3)); };
    const auto joules = [](double v) { return QString::number(v * 1e12, 'g', 3) + " pJ"; };
    return tr("<b>Power-capped roof</b> (%1 over %2)<br>at I = %3 FLOP/B: %4<br>"
              "= min(roofline %5, (P_cap − P0) / (e_flop + e_byte / I))<br>"
              "(%6 W − %7 W) / (%8 + %9 / %3) = %10<br>"
              "Basis: the machine's energy model (docs/MODEL.md §14)")
        .arg(m_precision, m_level, QString::number(intensity, 'g', 3), rate(value),
            rate(r.attainable(intensity)), QString::number(*r.capWatts, 'g', 4),
            QString::number(r.staticWatts, 'g', 4), joules(r.flopJoules), joules(r.byteJoules))
        .arg(rate(byCap));
}

} // namespace ridgepoint::chart
