#include "widgets/rooflineplot.h"

#include "core/units.h"

#include <QFileInfo>
#include <QSvgGenerator>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>

namespace ridgepoint {
namespace {

// Log ticks labelled as plain numbers in a prefixed unit ("100" on a TFLOP/s axis).
class PrefixedLogTicker : public QCPAxisTickerLog
{
public:
    void setScale(double scale) { m_scale = scale; }

protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        return QString::fromStdString(formatSignificant(tick / m_scale, 3));
    }

private:
    double m_scale = 1.0;
};

double decadeFloor(double value)
{
    return std::pow(10.0, std::floor(std::log10(value) + 1e-9));
}

double decadeCeil(double value)
{
    return std::pow(10.0, std::ceil(std::log10(value) - 1e-9));
}

QColor memoryColor(MemoryLevel level)
{
    switch (level) {
    case MemoryLevel::L1:
        return QColor(0x6a, 0x3d, 0x9a);
    case MemoryLevel::L2:
        return QColor(0x1f, 0x78, 0xb4);
    case MemoryLevel::L3:
        return QColor(0x33, 0xa0, 0x8c);
    case MemoryLevel::DRAM:
    case MemoryLevel::HBM:
        return QColor(0xd9, 0x5f, 0x02);
    case MemoryLevel::PCIe:
    case MemoryLevel::NVLink:
    case MemoryLevel::ICI:
    case MemoryLevel::DCN:
        return QColor(0x66, 0x66, 0x66);
    }
    return Qt::gray;
}

QColor groupColor(std::size_t index)
{
    static const QColor kPalette[] = { QColor(0x1b, 0x9e, 0x77), QColor(0x75, 0x70, 0xb3),
        QColor(0xe7, 0x29, 0x8a), QColor(0x66, 0xa6, 0x1e), QColor(0xe6, 0xab, 0x02),
        QColor(0xa6, 0x76, 0x1d), QColor(0x1f, 0x78, 0xb4), QColor(0xe3, 0x1a, 0x1c) };
    return kPalette[index % (sizeof(kPalette) / sizeof(kPalette[0]))];
}

QCPScatterStyle::ScatterShape levelShape(MemoryLevel level)
{
    switch (level) {
    case MemoryLevel::L1:
        return QCPScatterStyle::ssTriangle;
    case MemoryLevel::L2:
        return QCPScatterStyle::ssSquare;
    case MemoryLevel::L3:
        return QCPScatterStyle::ssDiamond;
    case MemoryLevel::DRAM:
    case MemoryLevel::HBM:
        return QCPScatterStyle::ssCircle;
    default:
        return QCPScatterStyle::ssCross;
    }
}

QString q(const std::string &text)
{
    return QString::fromStdString(text);
}

// The unit prefix for an axis spanning [low, high]: the one that makes the top readable.
std::pair<double, QString> ratePrefix(double high)
{
    static const std::pair<double, const char *> kPrefixes[]
        = { { 1e18, "E" }, { 1e15, "P" }, { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };
    for (const auto &[scale, symbol] : kPrefixes) {
        if (high >= scale * 10.0)
            return { scale, symbol };
    }
    return { 1.0, "" };
}

constexpr auto kRoofLayer = "roofs";
constexpr auto kLabelLayer = "labels";

} // namespace

RooflinePlot::RooflinePlot(QWidget *parent)
    : QCustomPlot(parent)
    , m_xTicker(new PrefixedLogTicker)
    , m_yTicker(new PrefixedLogTicker)
{
    setMinimumSize(480, 360);
    setAntialiasedElements(QCP::aeAll);
    addLayer(kRoofLayer, layer("main"), QCustomPlot::limBelow);
    addLayer(kLabelLayer, layer("main"), QCustomPlot::limAbove);
    for (QCPAxis *axis : { xAxis, yAxis }) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->grid()->setSubGridVisible(true);
        axis->grid()->setPen(QPen(QColor(0xcc, 0xcc, 0xcc), 0, Qt::SolidLine));
        axis->grid()->setSubGridPen(QPen(QColor(0xee, 0xee, 0xee), 0, Qt::DotLine));
    }
    xAxis->setTicker(m_xTicker);
    yAxis->setTicker(m_yTicker);
    xAxis->setLabel(tr("Arithmetic intensity [FLOP/byte]"));
    yAxis->setLabel(tr("Performance [FLOP/s]"));
    legend->setVisible(true);
    legend->setBrush(QColor(255, 255, 255, 220));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setMouseTracking(true);
    connect(this, &QCustomPlot::beforeReplot, this, &RooflinePlot::placeLabels);
    connect(yAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
        [this](const QCPRange &range) {
            const auto [scale, prefix] = ratePrefix(range.upper);
            static_cast<PrefixedLogTicker *>(m_yTicker.data())->setScale(scale);
            yAxis->setLabel(tr("Performance [%1FLOP/s]").arg(prefix));
        });
}

void RooflinePlot::setHardware(const Hardware &hardware)
{
    m_hardware = hardware;
    m_points.clear();
    rebuild();
    resetToHardwareFrame();
}

void RooflinePlot::setPoints(std::vector<AnalyzedPoint> points)
{
    m_points = std::move(points);
    rebuild();
    replot(QCustomPlot::rpQueuedReplot);
}

void RooflinePlot::resetToHardwareFrame()
{
    double minRidge = 1e300;
    double maxRidge = 0.0;
    double maxPeak = 0.0;
    double minBandwidth = 1e300;
    for (const auto &ridge : ridges(m_hardware)) {
        minRidge = std::min(minRidge, ridge.intensity);
        maxRidge = std::max(maxRidge, ridge.intensity);
    }
    for (const auto &c : m_hardware.compute)
        maxPeak = std::max(maxPeak, c.peak);
    for (const auto &m : m_hardware.memory)
        minBandwidth = std::min(minBandwidth, m.bandwidth);
    if (maxRidge <= 0.0) {
        xAxis->setRange(1e-2, 1e4);
        yAxis->setRange(1e9, 1e15);
        replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const double xLow = std::min(decadeFloor(minRidge) / 100.0, 1e-2);
    const double xHigh = std::max(decadeCeil(maxRidge) * 10.0, 1e3);
    xAxis->setRange(xLow, xHigh);
    yAxis->setRange(decadeFloor(minBandwidth * xLow), decadeCeil(maxPeak * 1.5));
    replot(QCustomPlot::rpQueuedReplot);
}

void RooflinePlot::fitToData()
{
    if (m_points.empty()) {
        resetToHardwareFrame();
        return;
    }
    double xLow = 1e300, xHigh = 0.0, yLow = 1e300, yHigh = 0.0;
    for (const auto &[point, a] : m_points) {
        const double y = a.performance.value_or(a.attainable);
        for (const auto &level : a.levels) {
            xLow = std::min(xLow, level.intensity);
            xHigh = std::max(xHigh, level.intensity);
        }
        yLow = std::min(yLow, y);
        yHigh = std::max(yHigh, std::max(y, a.attainable));
    }
    if (xHigh <= 0.0)
        return;
    xAxis->setRange(decadeFloor(xLow / 2.0), decadeCeil(xHigh * 2.0));
    yAxis->setRange(decadeFloor(yLow / 2.0), decadeCeil(yHigh * 2.0));
    replot(QCustomPlot::rpQueuedReplot);
}

void RooflinePlot::rebuild()
{
    clearPlottables();
    clearItems();
    m_slantedLabels.clear();
    drawCeilings();
    drawPoints();
}

void RooflinePlot::drawCeilings()
{
    if (m_hardware.compute.empty() || m_hardware.memory.empty())
        return;
    const double xLow = 1e-6;
    const double xHigh = 1e8;
    double topPeak = 0.0;
    double topBandwidth = 0.0;
    for (const auto &c : m_hardware.compute) {
        if (c.visible)
            topPeak = std::max(topPeak, c.peak);
    }
    for (const auto &m : m_hardware.memory) {
        if (m.visible)
            topBandwidth = std::max(topBandwidth, m.bandwidth);
    }
    const ComputeCeiling *active = m_hardware.defaultComputeCeiling();
    const MemoryCeiling *main = m_hardware.mainMemory();

    const auto addLine = [this](double x0, double y0, double x1, double y1, const QPen &pen) {
        QCPGraph *graph = addGraph();
        graph->setLayer(kRoofLayer);
        graph->setData({ x0, x1 }, { y0, y1 }, true);
        graph->setPen(pen);
        graph->removeFromLegend();
        graph->setSelectable(QCP::stNone);
        return graph;
    };

    int memoryIndex = 0;
    for (const auto &m : m_hardware.memory) {
        if (!m.visible)
            continue;
        const double xEnd = topPeak / m.bandwidth;
        QPen pen(memoryColor(m.level), 1.4, isNetwork(m.level) ? Qt::DashDotLine : Qt::SolidLine);
        addLine(xLow, m.bandwidth * xLow, xEnd, topPeak, pen);
        auto *label = new QCPItemText(this);
        label->setLayer(kLabelLayer);
        label->setText(q(m.name + "  " + formatQuantity(m.bandwidth, Dimension::ByteRate, 3)));
        label->setColor(memoryColor(m.level));
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setClipToAxisRect(true);
        m_slantedLabels.push_back({ label, m.bandwidth });
        ++memoryIndex;
    }
    for (const auto &c : m_hardware.compute) {
        if (!c.visible)
            continue;
        const double xStart = c.peak / topBandwidth;
        QPen pen(c.sparse ? QColor(0xb0, 0x80, 0x80) : QColor(0x99, 0x1b, 0x1b), 1.4,
            c.sparse ? Qt::DotLine : Qt::SolidLine);
        addLine(xStart, c.peak, xHigh, c.peak, pen);
        auto *label = new QCPItemText(this);
        label->setLayer(kLabelLayer);
        label->setText(q(c.name + (c.sparse ? " (2:4 sparse)" : "") + "  "
            + formatQuantity(c.peak, Dimension::FlopRate, 3)));
        label->setColor(pen.color());
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        label->position->setTypeY(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(0.99, c.peak);
        label->setClipToAxisRect(true);
    }

    if (active && main) {
        // The envelope: the roofline of the active pair, drawn strongest.
        const double ridge = ridgeIntensity(*active, *main);
        QCPGraph *envelope = addLine(
            xLow, main->bandwidth * xLow, ridge, active->peak, QPen(QColor(0x20, 0x20, 0x20), 3.0));
        envelope->addData(xHigh, active->peak);
        envelope->setName(tr("Roofline (%1, %2)").arg(q(active->name), q(main->name)));

        auto *drop = new QCPItemLine(this);
        drop->setLayer(kRoofLayer);
        drop->start->setCoords(ridge, active->peak);
        drop->end->setTypeY(QCPItemPosition::ptAxisRectRatio);
        drop->end->setTypeX(QCPItemPosition::ptPlotCoords);
        drop->end->setCoords(ridge, 1.0);
        drop->setPen(QPen(QColor(0x20, 0x20, 0x20), 1.0, Qt::DashLine));

        QCPGraph *marker = addGraph();
        marker->setLayer(kRoofLayer);
        marker->setData({ ridge }, { active->peak }, true);
        marker->setLineStyle(QCPGraph::lsNone);
        marker->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDiamond, Qt::black, Qt::white, 11));
        marker->removeFromLegend();

        auto *ridgeLabel = new QCPItemText(this);
        ridgeLabel->setLayer(kLabelLayer);
        ridgeLabel->position->setCoords(ridge, active->peak);
        ridgeLabel->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
        ridgeLabel->setPadding(QMargins(4, 8, 4, 0));
        ridgeLabel->setText(tr("ridge %1 FLOP/B").arg(q(formatSignificant(ridge, 3))));
        ridgeLabel->setFont(QFont(font().family(), font().pointSize(), QFont::Bold));
    }
}

void RooflinePlot::drawPoints()
{
    std::map<std::string, std::size_t> groups;
    for (const auto &[point, analysis] : m_points)
        groups.emplace(point.group.empty() ? std::string("points") : point.group, groups.size());
    // One graph per (group, level, planned): a graph has one scatter style.
    std::map<std::tuple<std::size_t, int, bool>, QCPGraph *> graphs;
    QCPGraph *inconsistent = nullptr;

    for (const auto &[point, a] : m_points) {
        if (a.levels.empty())
            continue;
        const std::size_t group = groups.at(point.group.empty() ? "points" : point.group);
        const bool planned = !a.performance.has_value();
        const double y = a.performance.value_or(a.attainable);
        if (a.levels.size() > 1) {
            auto *curve = new QCPCurve(xAxis, yAxis);
            curve->removeFromLegend();
            curve->setPen(QPen(groupColor(group).lighter(130), 1.0));
            for (const auto &level : a.levels)
                curve->addData(level.intensity, y);
        }
        for (const auto &level : a.levels) {
            const auto key = std::make_tuple(group, static_cast<int>(level.level), planned);
            QCPGraph *&graph = graphs[key];
            if (!graph) {
                graph = addGraph();
                graph->setLineStyle(QCPGraph::lsNone);
                const QColor color = groupColor(group);
                graph->setScatterStyle(QCPScatterStyle(
                    levelShape(level.level), color, planned ? QColor(Qt::white) : color, 9));
                graph->setPen(QPen(color, 1.6));
                const bool first = std::none_of(graphs.begin(), graphs.end(), [&](const auto &g) {
                    return std::get<0>(g.first) == group && g.second && g.second != graph;
                });
                graph->setName(q(groups.size() > 1 || !point.group.empty()
                        ? (point.group.empty() ? "points" : point.group)
                        : "kernels"));
                if (!first)
                    graph->removeFromLegend();
            }
            graph->addData(level.intensity, y);
        }
        if (!a.consistent) {
            if (!inconsistent) {
                inconsistent = addGraph();
                inconsistent->setLineStyle(QCPGraph::lsNone);
                inconsistent->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle,
                    QPen(QColor(0xd0, 0x00, 0x00), 2.0), Qt::NoBrush, 18));
                inconsistent->setName(tr("faster than the roof allows"));
            }
            inconsistent->addData(a.levels.front().intensity, y);
        }
    }
}

void RooflinePlot::placeLabels()
{
    // A slanted roof's label sits on its line near the left edge, turned to its pixel slope.
    const double left = xAxis->range().lower;
    const double right = xAxis->range().upper;
    const double logSpan = std::log10(right / left);
    int index = 0;
    for (const auto &[item, bandwidth] : m_slantedLabels) {
        const double x = left * std::pow(10.0, logSpan * (0.04 + 0.07 * index));
        const double y = bandwidth * x;
        item->position->setCoords(x, y);
        const QPointF a(xAxis->coordToPixel(x), yAxis->coordToPixel(y));
        const QPointF b(xAxis->coordToPixel(x * 10.0), yAxis->coordToPixel(y * 10.0));
        item->setRotation(qRadiansToDegrees(std::atan2(b.y() - a.y(), b.x() - a.x())));
        ++index;
    }
}

QString RooflinePlot::exportTo(const QString &fileName, int width, int height)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    bool ok = false;
    if (suffix == "png") {
        ok = savePng(fileName, width, height);
    } else if (suffix == "pdf") {
        ok = savePdf(fileName, width, height);
    } else if (suffix == "svg") {
        QSvgGenerator generator;
        generator.setFileName(fileName);
        generator.setSize(QSize(width, height));
        generator.setViewBox(QRect(0, 0, width, height));
        generator.setTitle(tr("Roofline: %1").arg(q(m_hardware.name)));
        QCPPainter painter;
        ok = painter.begin(&generator);
        if (ok) {
            toPainter(&painter, width, height);
            ok = painter.end();
        }
    } else {
        return tr("%1: unknown image type \"%2\" (expected .png, .svg or .pdf)")
            .arg(fileName, suffix);
    }
    return ok ? QString() : tr("%1: could not be written").arg(fileName);
}

QString RooflinePlot::pointDescription(std::size_t index) const
{
    if (index >= m_points.size())
        return {};
    const auto &[point, a] = m_points[index];
    QString text = QStringLiteral("<b>%1</b>").arg(q(point.name).toHtmlEscaped());
    if (!point.group.empty())
        text += "<br>" + tr("group: %1").arg(q(point.group).toHtmlEscaped());
    text += "<br>" + tr("FLOPs: %1").arg(q(formatQuantity(point.flops, Dimension::Flops)));
    for (const auto &level : a.levels) {
        text += "<br>"
            + tr("%1: %2, intensity %3 FLOP/B, roof %4")
                  .arg(q(level.memory), q(formatQuantity(level.bytes, Dimension::Bytes)),
                      q(formatSignificant(level.intensity, 4)),
                      q(formatQuantity(level.attainable, Dimension::FlopRate)));
    }
    if (a.performance)
        text += "<br>"
            + tr("performance: %1").arg(q(formatQuantity(*a.performance, Dimension::FlopRate)));
    text += "<br>"
        + tr("attainable: %1 (%2-bound by %3)")
              .arg(q(formatQuantity(a.attainable, Dimension::FlopRate)),
                  q(std::string(boundName(a.bound))), q(a.limitingCeiling).toHtmlEscaped());
    if (a.utilization)
        text += "<br>"
            + tr("utilization: %1 %").arg(q(formatSignificant(*a.utilization * 100.0, 3)));
    text += "<br>"
        + tr("T_min %1, T_max %2")
              .arg(q(formatQuantity(a.tMin, Dimension::Time)),
                  q(formatQuantity(a.tMax, Dimension::Time)));
    if (!a.note.empty())
        text += "<br><i>" + q(a.note).toHtmlEscaped() + "</i>";
    if (!point.source.file.empty())
        text += "<br>" + tr("from %1:%2").arg(q(point.source.file)).arg(point.source.line);
    return text;
}

int RooflinePlot::pointAt(const QPointF &position) const
{
    int best = -1;
    double bestDistance = 10.0; // pixels
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const auto &a = m_points[i].analysis;
        const double y = a.performance.value_or(a.attainable);
        for (const auto &level : a.levels) {
            const QPointF p(xAxis->coordToPixel(level.intensity), yAxis->coordToPixel(y));
            const double d = std::hypot(p.x() - position.x(), p.y() - position.y());
            if (d < bestDistance) {
                bestDistance = d;
                best = static_cast<int>(i);
            }
        }
    }
    return best;
}

void RooflinePlot::mouseMoveEvent(QMouseEvent *event)
{
    QCustomPlot::mouseMoveEvent(event);
    const int index = pointAt(event->position());
    if (index >= 0)
        QToolTip::showText(event->globalPosition().toPoint(),
            pointDescription(static_cast<std::size_t>(index)), this);
    else
        QToolTip::hideText();
}

} // namespace ridgepoint
