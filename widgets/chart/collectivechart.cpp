#include "widgets/chart/collectivechart.h"

#include "core/calibrate/achievable.h"
#include "core/calibrate/fit.h"
#include "core/model/chip_link.h"
#include "core/model/units.h"
#include "widgets/chart/charttheme.h"
#include "widgets/qtext.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace ridgepoint::chart {
namespace {

bool measures(const std::vector<MeasuredRow> &rows, const CollectiveFit &fit)
{
    return rows.empty() || std::ranges::any_of(rows, [&](const MeasuredRow &r) {
        return r.isCollective() && r.op == fit.collective && r.ranks == fit.ranks
            && (r.ranksPerNode == fit.ranksPerNode || r.ranksPerNode == 0);
    });
}

QString layoutName(const CollectiveFit &fit)
{
    return QString("%1 on %2 ranks (%3 per node)")
        .arg(q(fit.collective))
        .arg(fit.ranks)
        .arg(fit.ranksPerNode);
}

// Decades labelled as quantities ("64 kB", "100 GB/s"), as the roofline's axes are: never an
// exponent a reader has to turn into bytes.
class QuantityTicker : public QCPAxisTickerLog
{
public:
    explicit QuantityTicker(Dimension dimension)
        : m_dimension(dimension)
    {
        setLogBase(10);
    }

protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        return q(formatQuantity(tick, m_dimension, 3));
    }

private:
    Dimension m_dimension;
};

// One layout: its dots, its curve, its floor and its knee; the line saying so.
QString drawLayout(QCustomPlot &plot, const CollectiveFit &fit,
    const std::vector<MeasuredRow> &rows, const QColor &color, double top)
{
    const double b = busBytesFactor(fit.collective, fit.ranks);
    const double from = fit.regimes.front().fromBytes > 0.0 ? fit.regimes.front().fromBytes : 1.0;
    const double to = std::max(fit.regimes.back().toBytes, from * 2.0);
    QCPGraph *dots = plot.addGraph();
    for (const MeasuredRow &r : rows) {
        if (r.isCollective() && r.op == fit.collective && r.ranks == fit.ranks && r.seconds > 0.0)
            dots->addData(r.messageBytes, b * r.messageBytes / r.seconds);
    }
    dots->setLineStyle(QCPGraph::lsNone);
    dots->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, 4));
    dots->setName(layoutName(fit) + QObject::tr(", measured"));
    // The fit's curve: b·m / T(m), 200 sizes spaced evenly on a log scale.
    QCPGraph *curve = plot.addGraph();
    constexpr int kSteps = 200;
    for (int i = 0; i <= kSteps; ++i) {
        const double m = from * std::pow(to / from, static_cast<double>(i) / kSteps);
        curve->addData(m, b * m / collectiveSeconds(fit, m));
    }
    curve->setPen(QPen(color, 2.0));
    curve->setName(layoutName(fit) + QObject::tr(", calibrated"));
    const auto knee = kneeRegime(fit);
    if (!knee)
        return layoutName(fit) + QObject::tr(": no regime with a bus bandwidth");
    const CollectiveRegime &regime = fit.regimes[*knee];
    const double alpha = regime.latencySeconds;
    const double half = *halfBandwidthBytes(fit, regime);
    // The floor b·m / α, up to the link roof.
    QCPGraph *floor = plot.addGraph();
    floor->setData({ from, alpha * top / b }, { b * from / alpha, top }, true);
    floor->setPen(QPen(color, 1.2, Qt::DashLine));
    floor->setName(QObject::tr("latency floor b·m/α, α = %1")
                       .arg(q(formatQuantity(alpha, Dimension::Time, 3))));
    // m½: the regime's own line and its floor cross at half its bus bandwidth.
    auto *drop = new QCPItemLine(&plot);
    drop->start->setCoords(half, *regime.busBandwidth / 2.0);
    drop->end->setCoords(half, *regime.busBandwidth / 1000.0);
    drop->setPen(QPen(color, 1.0, Qt::DotLine));
    auto *label = new QCPItemText(&plot);
    label->position->setCoords(half, *regime.busBandwidth / 2.0);
    label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    label->setColor(color.darker(130));
    const QString text
        = QObject::tr("n½ = α·W/b = %1").arg(q(formatQuantity(half, Dimension::Bytes, 3)));
    label->setText(text);
    return layoutName(fit)
        + QObject::tr(": floor %1, W %2, %3")
              .arg(q(formatQuantity(alpha, Dimension::Time, 3)),
                  q(formatQuantity(*regime.busBandwidth, Dimension::ByteRate, 3)), text);
}

} // namespace

std::optional<std::size_t> kneeRegime(const CollectiveFit &fit)
{
    std::optional<std::size_t> first;
    for (std::size_t r = 0; r < fit.regimes.size(); ++r) {
        const auto half = halfBandwidthBytes(fit, fit.regimes[r]);
        if (!half)
            continue;
        if (!first)
            first = r;
        if (*half <= fit.regimes[r].toBytes)
            return r;
    }
    return first;
}

QStringList drawCollectiveChart(
    QCustomPlot &plot, const Hardware &hardware, const std::vector<MeasuredRow> &rows)
{
    plot.clearGraphs();
    plot.clearItems();
    QStringList drawn;
    if (!hardware.calibration)
        return drawn;
    const MemoryCeiling *link = chipLink(hardware);
    const double top = link ? link->bandwidth : 1e12;
    std::size_t index = 0;
    for (const CollectiveFit &fit : hardware.calibration->collectives) {
        if (fit.regimes.empty() || !measures(rows, fit))
            continue;
        drawn << drawLayout(plot, fit, rows, groupColor(index++), top);
    }
    plot.xAxis->setTicker(QSharedPointer<QuantityTicker>::create(Dimension::Bytes));
    plot.yAxis->setTicker(QSharedPointer<QuantityTicker>::create(Dimension::ByteRate));
    for (QCPAxis *axis : { plot.xAxis, plot.yAxis })
        axis->setScaleType(QCPAxis::stLogarithmic);
    plot.xAxis->setLabel(QObject::tr("message size"));
    plot.yAxis->setLabel(QObject::tr("bus bandwidth"));
    // Framed on the layouts (the roof is flat: it would stretch the sizes to its own ends).
    plot.rescaleAxes();
    const QCPRange sizes = plot.xAxis->range();
    plot.xAxis->setRange(sizes.lower / 2.0, sizes.upper * 2.0);
    plot.yAxis->setRange(plot.yAxis->range().lower / 2.0, top * 2.0);
    if (link) {
        // The link's roof: what the spec figure allows at any size.
        QCPGraph *roof = plot.addGraph();
        roof->setData(
            { sizes.lower / 2.0, sizes.upper * 2.0 }, { link->bandwidth, link->bandwidth }, true);
        roof->setPen(QPen(memoryColor(link->level), 2.0));
        roof->setName(
            QObject::tr("%1 link roof %2")
                .arg(q(link->name), q(formatQuantity(link->bandwidth, Dimension::ByteRate, 3))));
    }
    plot.legend->setVisible(true);
    plot.axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    return drawn;
}

} // namespace ridgepoint::chart
