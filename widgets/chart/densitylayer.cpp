#include "widgets/chart/densitylayer.h"

#include "core/analysis/payoff.h"

#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/charttheme.h"
#include "widgets/chart/dotsize.h"
#include "widgets/document/document.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgepoint::chart {
namespace {

constexpr char kDensityLayer[] = "density";

// Dark blue over teal and green to yellow: ordered in lightness, so more points read as lighter
// in colour and in grey (the shape of matplotlib's viridis, stops chosen here by eye).
QCPColorGradient densityGradient()
{
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, QColor(0x44, 0x01, 0x54));
    gradient.setColorStopAt(0.25, QColor(0x3b, 0x52, 0x8b));
    gradient.setColorStopAt(0.5, QColor(0x21, 0x91, 0x8c));
    gradient.setColorStopAt(0.75, QColor(0x5e, 0xc9, 0x62));
    gradient.setColorStopAt(1.0, QColor(0xfd, 0xe7, 0x25));
    gradient.setColorInterpolation(QCPColorGradient::ciRGB);
    gradient.setNanHandling(QCPColorGradient::nhTransparent); // empty cells show the chart
    gradient.setLevelCount(256);
    return gradient;
}

int cellOf(double value, double lower, double upper, int cells)
{
    const double t = (value - lower) / (upper - lower) * cells;
    return std::clamp(static_cast<int>(t), 0, cells - 1);
}

} // namespace

const char *pointsModeKey(PointsMode mode)
{
    switch (mode) {
    case PointsMode::Density:
        return "density";
    case PointsMode::Dots:
        return "dots";
    case PointsMode::Auto:
        break;
    }
    return "auto";
}

std::optional<PointsMode> pointsModeFromKey(std::string_view key)
{
    for (PointsMode mode : { PointsMode::Auto, PointsMode::Density, PointsMode::Dots }) {
        if (key == pointsModeKey(mode))
            return mode;
    }
    return std::nullopt;
}

bool densityFor(PointsMode mode, std::size_t count, std::size_t threshold)
{
    switch (mode) {
    case PointsMode::Density:
        return true;
    case PointsMode::Dots:
        return false;
    case PointsMode::Auto:
        break;
    }
    return count > threshold;
}

std::vector<std::size_t> longestPoints(const Document &document, std::size_t n)
{
    return longestPoints(measuredSeconds(document), n);
}

std::vector<std::size_t> longestPoints(
    const std::vector<std::optional<double>> &seconds, std::size_t n)
{
    // LargestN holds n entries, not one per point: a million points drawn as a density keep
    // their 100 longest.
    LargestN longest(n);
    for (std::size_t i = 0; i < seconds.size(); ++i)
        if (seconds[i])
            longest.offer(*seconds[i], i);
    return longest.take();
}

std::size_t cellCount(const DensityGrid &grid)
{
    return static_cast<std::size_t>(grid.nx) * static_cast<std::size_t>(grid.ny);
}

DensityGrid binLogDensity(
    const std::vector<std::pair<float, float>> &logPoints, int nx, int ny, double cellDecades)
{
    DensityGrid grid;
    grid.nx = std::max(nx, 1);
    grid.ny = std::max(ny, 1);
    if (logPoints.empty()) {
        grid.counts.assign(cellCount(grid), 0);
        return grid;
    }
    float x0 = std::numeric_limits<float>::max(), x1 = std::numeric_limits<float>::lowest();
    float y0 = x0, y1 = x1;
    for (const auto &[x, y] : logPoints) {
        x0 = std::min(x0, x);
        x1 = std::max(x1, x);
        y0 = std::min(y0, y);
        y1 = std::max(y1, y);
    }
    const auto widen = [](double &lower, double &upper) {
        if (upper - lower < 1e-9) {
            lower -= 0.5;
            upper += 0.5;
        }
    };
    grid.x0 = x0, grid.x1 = x1, grid.y0 = y0, grid.y1 = y1;
    widen(grid.x0, grid.x1);
    widen(grid.y0, grid.y1);
    if (cellDecades > 0.0) {
        const auto cells = [cellDecades](double span, int most) {
            return std::clamp(static_cast<int>(std::ceil(span / cellDecades - 1e-9)), 1, most);
        };
        grid.nx = cells(grid.x1 - grid.x0, grid.nx);
        grid.ny = cells(grid.y1 - grid.y0, grid.ny);
    }
    grid.counts.assign(cellCount(grid), 0);
    for (const auto &[x, y] : logPoints) {
        const int i = cellOf(x, grid.x0, grid.x1, grid.nx);
        const int j = cellOf(y, grid.y0, grid.y1, grid.ny);
        const std::uint32_t count
            = ++grid.counts[static_cast<std::size_t>(j) * static_cast<std::size_t>(grid.nx)
                + static_cast<std::size_t>(i)];
        grid.max = std::max(grid.max, count);
    }
    return grid;
}

int occupiedCells(const DensityGrid &grid, double lx0, double lx1, double ly0, double ly1)
{
    if (grid.nx <= 0 || grid.ny <= 0 || grid.counts.empty() || !std::isfinite(lx0)
        || !std::isfinite(lx1) || !std::isfinite(ly0) || !std::isfinite(ly1))
        return 0;
    if (lx1 < lx0)
        std::swap(lx0, lx1);
    if (ly1 < ly0)
        std::swap(ly0, ly1);
    if (lx1 < grid.x0 || lx0 > grid.x1 || ly1 < grid.y0 || ly0 > grid.y1)
        return 0;
    const int i0 = cellOf(std::max(lx0, grid.x0), grid.x0, grid.x1, grid.nx);
    const int i1 = cellOf(std::min(lx1, grid.x1), grid.x0, grid.x1, grid.nx);
    const int j0 = cellOf(std::max(ly0, grid.y0), grid.y0, grid.y1, grid.ny);
    const int j1 = cellOf(std::min(ly1, grid.y1), grid.y0, grid.y1, grid.ny);
    int occupied = 0;
    for (int j = j0; j <= j1; ++j) {
        for (int i = i0; i <= i1; ++i)
            occupied += grid.at(i, j) > 0 ? 1 : 0;
    }
    return occupied;
}

int DensityLayer::occupiedIn(const QRectF &box) const
{
    if (!m_map || box.isEmpty())
        return 0;
    const QCPAxis *x = m_plot->xAxis;
    const QCPAxis *y = m_plot->yAxis;
    return occupiedCells(m_grid, std::log10(x->pixelToCoord(box.left())),
        std::log10(x->pixelToCoord(box.right())), std::log10(y->pixelToCoord(box.bottom())),
        std::log10(y->pixelToCoord(box.top())));
}

DensityLayer::DensityLayer(QCustomPlot *plot)
    : m_plot(plot)
{ }

DensityLayer::~DensityLayer()
{
    clear();
}

void DensityLayer::clear()
{
    if (m_map) {
        m_plot->removePlottable(m_map);
        m_map = nullptr;
    }
    if (m_scale) {
        m_plot->plotLayout()->remove(m_scale); // deletes it
        m_plot->plotLayout()->simplify();
        m_scale = nullptr;
    }
    if (m_margins) {
        m_plot->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, nullptr);
        delete m_margins;
        m_margins = nullptr;
    }
    m_grid = {};
    ++m_revision;
}

void DensityLayer::rebuild(const Document &document, const ChartTheme &theme)
{
    clear();
    std::vector<std::pair<float, float>> dots;
    dots.reserve(document.pointCount());
    for (std::size_t i = 0; i < document.pointCount(); ++i) {
        const PointPlacement &a = document.placement(i);
        if (!a.placed)
            continue;
        const double ly = std::log10(a.y);
        for (const auto &level : document.placements().boundedLevels(i)) {
            const double lx = std::log10(level.intensity);
            if (std::isfinite(lx) && std::isfinite(ly))
                dots.emplace_back(static_cast<float>(lx), static_cast<float>(ly));
        }
    }
    if (dots.empty())
        return;
    m_grid = binLogDensity(dots, kDensityBinsX, kDensityBinsY, kDensityCellDecades);
    ++m_revision;

    if (!m_plot->layer(kDensityLayer))
        m_plot->addLayer(kDensityLayer, m_plot->layer(kRoofLayer), QCustomPlot::limBelow);
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_map->setLayer(kDensityLayer);
    m_map->removeFromLegend();
    m_map->setSelectable(QCP::stNone);
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    // QCustomPlot places cell centres evenly in pixels between the range's ends, so on log axes
    // the cells are even in log space: the range runs from the first cell's centre to the last's.
    const double dx = (m_grid.x1 - m_grid.x0) / m_grid.nx;
    const double dy = (m_grid.y1 - m_grid.y0) / m_grid.ny;
    m_map->data()->setSize(m_grid.nx, m_grid.ny);
    m_map->data()->setRange(
        QCPRange(std::pow(10.0, m_grid.x0 + dx / 2.0), std::pow(10.0, m_grid.x1 - dx / 2.0)),
        QCPRange(std::pow(10.0, m_grid.y0 + dy / 2.0), std::pow(10.0, m_grid.y1 - dy / 2.0)));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int j = 0; j < m_grid.ny; ++j) {
        for (int i = 0; i < m_grid.nx; ++i) {
            const std::uint32_t count = m_grid.at(i, j);
            m_map->data()->setCell(i, j, count == 0 ? nan : static_cast<double>(count));
        }
    }
    m_map->setGradient(densityGradient());
    m_map->setDataScaleType(QCPAxis::stLogarithmic);
    // One point to the densest cell; a range of one count still needs a span on a log scale.
    m_map->setDataRange(QCPRange(1.0, std::max(2.0, static_cast<double>(m_grid.max))));

    m_scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(0, m_plot->plotLayout()->columnCount(), m_scale);
    m_plot->plotLayout()->setColumnStretchFactor(m_plot->plotLayout()->columnCount() - 1, 0.001);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    m_scale->setDataScaleType(QCPAxis::stLogarithmic);
    m_scale->setGradient(m_map->gradient());
    m_scale->setDataRange(m_map->dataRange());
    m_map->setColorScale(m_scale); // the scale takes the map's gradient and range
    QCPAxis *axis = m_scale->axis();
    // Counts read as counts: 1, 2, 5, 10, 20, ... up to the densest cell (a log ticker over one
    // decade labelled "10¹" twice and stray digits).
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    for (int exponent = 0; std::pow(10.0, exponent) <= m_map->dataRange().upper; ++exponent) {
        const double decade = std::pow(10.0, exponent);
        for (const double step : { 1.0, 2.0, 5.0 }) {
            if (decade * step <= m_map->dataRange().upper)
                ticker->addTick(decade * step, QString::number(decade * step, 'g', 12));
        }
    }
    axis->setTicker(ticker);
    axis->setLabel(QCoreApplication::translate("ridgepoint::RooflinePlot", "points per cell"));
    axis->setBasePen(QPen(theme.foreground));
    axis->setTickPen(QPen(theme.foreground));
    axis->setSubTickPen(QPen(theme.foreground));
    axis->setTickLabelColor(theme.foreground);
    axis->setLabelColor(theme.foreground);
    axis->setTickLabelFont(m_plot->font());
    axis->setLabelFont(m_plot->font());
    // The bar as tall as the plot.
    m_margins = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, m_margins);
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, m_margins);
}

} // namespace ridgepoint::chart
