#include "widgets/chart/chartaxes.h"

#include "core/analysis/analysis.h"
#include "core/model/units.h"
#include "widgets/chart/charttheme.h"
#include "widgets/document/document.h"

#include <algorithm>
#include <cmath>

namespace ridgepoint::chart {

QString QuantityLogTicker::tickLabel(double tick, Style style)
{
    if (style == Style::Rate)
        return QString::fromStdString(formatQuantity(tick, Dimension::FlopRate, 3));
    if (style == Style::Efficiency) // "10 GFLOP" + "/J"
        return QString::fromStdString(formatQuantity(tick, Dimension::Flops, 3)) + "/J";
    // Three significant digits as a plain decimal, trailing zeros dropped: 0.001, 0.25, 10000.
    if (!std::isfinite(tick) || tick <= 0.0)
        return QStringLiteral("0 FLOP/B");
    const int decimals = std::clamp(2 - static_cast<int>(std::floor(std::log10(tick))), 0, 15);
    QString text = QString::number(tick, 'f', decimals);
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text + QStringLiteral(" FLOP/B");
}

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

double decadeFloor(double value)
{
    return std::pow(10.0, std::floor(std::log10(value) + 1e-9));
}

double decadeCeil(double value)
{
    return std::pow(10.0, std::ceil(std::log10(value) - 1e-9));
}

double topPeak(const Hardware &hardware)
{
    double top = 0.0;
    for (const auto &c : hardware.compute) {
        if (c.visible)
            top = std::max(top, c.peak);
    }
    return top;
}

double topBandwidth(const Hardware &hardware)
{
    double top = 0.0;
    for (const auto &m : hardware.memory) {
        if (m.visible)
            top = std::max(top, m.bandwidth);
    }
    return top;
}

AxisFrame hardwareFrame(const Hardware &hw)
{
    double minRidge = 1e300;
    double maxRidge = 0.0;
    double maxPeak = 0.0;
    double minBandwidth = 1e300;
    for (const auto &c : hw.compute) {
        if (!c.visible)
            continue;
        maxPeak = std::max(maxPeak, c.peak);
        for (const auto &m : hw.memory) {
            if (!m.visible)
                continue;
            minRidge = std::min(minRidge, ridgeIntensity(c, m));
            maxRidge = std::max(maxRidge, ridgeIntensity(c, m));
            minBandwidth = std::min(minBandwidth, m.bandwidth);
        }
    }
    if (maxRidge <= 0.0)
        return { 1e-2, 1e4, 1e9, 1e15 };
    const double xLow = std::min(decadeFloor(minRidge) / 100.0, 1e-2);
    const double xHigh = std::max(decadeCeil(maxRidge) * 10.0, 1e3);
    return { xLow, xHigh, decadeFloor(minBandwidth * xLow), decadeCeil(maxPeak * 1.5) };
}

std::optional<AxisFrame> dataFrame(const Document &document, const ComputeCeiling *emphasised)
{
    double xLow = 1e300, xHigh = 0.0, yLow = 1e300, yHigh = 0.0;
    const auto enclose = [&](double x, double y) {
        if (!(x > 0.0) || !(y > 0.0) || !std::isfinite(x) || !std::isfinite(y))
            return;
        xLow = std::min(xLow, x);
        xHigh = std::max(xHigh, x);
        yLow = std::min(yLow, y);
        yHigh = std::max(yHigh, y);
    };
    for (std::size_t i = 0; i < document.pointCount(); ++i) {
        const PointPlacement &a = document.placement(i);
        if (!a.placed)
            continue;
        const double y = a.y;
        for (const auto &level : document.placements().boundedLevels(i)) {
            enclose(level.intensity, y); // the level's marker
            enclose(level.intensity, level.attainable); // the roof above it
        }
    }
    if (xHigh <= 0.0)
        return std::nullopt;
    const MemoryCeiling *main = document.hardware().mainMemory();
    if (emphasised && main && emphasised->peak > 0.0 && main->bandwidth > 0.0) {
        // The knee of the roofline, when it is near the points (within a decade).
        const double ridge = ridgeIntensity(*emphasised, *main);
        if (ridge >= xLow / 10.0 && ridge <= xHigh * 10.0)
            enclose(ridge, emphasised->peak);
    }
    return AxisFrame { decadeFloor(xLow / 2.0), decadeCeil(xHigh * 2.0), decadeFloor(yLow / 2.0),
        decadeCeil(yHigh * 2.0) };
}

bool dataInView(const Document &document, const AxisFrame &view)
{
    const auto inside = [](double v, double low, double high) { return v >= low && v <= high; };
    for (std::size_t i = 0; i < document.pointCount(); ++i) {
        const PointPlacement &a = document.placement(i);
        if (!a.placed)
            continue;
        if (!inside(a.y, view.yLower, view.yUpper))
            return false;
        for (const auto &level : document.placements().boundedLevels(i)) {
            if (!inside(level.intensity, view.xLower, view.xUpper))
                return false;
        }
    }
    return true;
}

void styleAxes(QCustomPlot *plot, const ChartTheme &t, const QFont &base)
{
    for (QCPAxis *axis : { plot->xAxis, plot->yAxis }) {
        axis->grid()->setPen(QPen(t.grid, 0, Qt::SolidLine));
        axis->grid()->setSubGridPen(QPen(t.subGrid, 0, Qt::SolidLine));
        const QPen axisPen(t.foreground, t.lineScale);
        axis->setBasePen(axisPen);
        axis->setTickPen(axisPen);
        axis->setSubTickPen(
            QPen(t.foreground.lighter(t.kind == ChartTheme::Kind::Dark ? 70 : 160)));
        axis->setTickLabelColor(t.foreground);
        axis->setLabelColor(t.foreground);
        axis->setTickLabelFont(base);
        QFont labelFont = base;
        labelFont.setPointSizeF(labelFont.pointSizeF() + 1.0);
        axis->setLabelFont(labelFont);
    }
}

} // namespace ridgepoint::chart
