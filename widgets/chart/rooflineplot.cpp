#include "widgets/chart/rooflineplot.h"

#include "core/model/units.h"
#include "widgets/chart/chartdecorations.h"

#include <QApplication>
#include <QFileInfo>
#include <QPalette>
#include <QStyle>
#include <QTimer>
#include <QToolTip>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <map>

namespace ridgepoint {
namespace {

using chart::RoofLine;

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

constexpr double kFarLeft = 1e-9;
constexpr double kFarRight = 1e12;
constexpr double kPickRadius = 8.0; // pixels
constexpr int kMaxLabelWidth = 170; // pixels for a point's name on the chart
constexpr std::size_t kMaxPointLabels = 24;
constexpr std::size_t kMaxAllPointLabels = 400; // "label all points": beyond this, clutter
constexpr std::size_t kMaxQuantGhosts = 2000; // items are costly; beyond this, clutter anyway

// Pixel position along a log axis as an affine function of log10 of the coordinate, so binning
// a million points costs a multiply-add each (their logarithms are taken once per data change).
struct LogToPixel {
    double log0 = 0.0;
    double pixel0 = 0.0;
    double slope = 0.0; // pixels per decade

    LogToPixel(const QCPAxis *axis, double lower, double upper)
    {
        log0 = std::log10(lower);
        pixel0 = axis->coordToPixel(lower);
        slope = (axis->coordToPixel(upper) - pixel0) / (std::log10(upper) - log0);
    }
    double operator()(double logValue) const { return pixel0 + (logValue - log0) * slope; }
    bool valid() const { return std::isfinite(log0) && std::isfinite(slope) && slope != 0.0; }
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
    case MemoryLevel::LDS: // the scratchpad beside L1
        return QColor(0x6a, 0x3d, 0x9a);
    case MemoryLevel::L2:
        return QColor(0x1f, 0x78, 0xb4);
    case MemoryLevel::L3:
        return QColor(0x1b, 0x8a, 0x7a);
    case MemoryLevel::DRAM:
    case MemoryLevel::HBM:
        return QColor(0xc8, 0x5a, 0x0a);
    case MemoryLevel::PCIe:
    case MemoryLevel::NVLink:
    case MemoryLevel::ICI:
    case MemoryLevel::DCN:
        return QColor(0x70, 0x70, 0x70);
    }
    return Qt::gray;
}

QColor groupColor(std::size_t index)
{
    static const QColor kPalette[] = { QColor(0x1b, 0x9e, 0x77), QColor(0x75, 0x70, 0xb3),
        QColor(0xe7, 0x29, 0x8a), QColor(0x66, 0xa6, 0x1e), QColor(0xd9, 0x8c, 0x00),
        QColor(0xa6, 0x76, 0x1d), QColor(0x1f, 0x78, 0xb4), QColor(0x5e, 0x3c, 0x99) };
    return kPalette[index % std::size(kPalette)];
}

const QColor kComputeColor(0x9b, 0x1c, 0x1c);
const QColor kCompareColor(0x00, 0x7c, 0x91);
const QColor kImpossibleColor(0xd0, 0x00, 0x00);
const QColor kSelectionColor(0x10, 0x60, 0xd0);

QCPScatterStyle::ScatterShape levelShape(std::optional<MemoryLevel> level)
{
    if (!level)
        return QCPScatterStyle::ssCircle;
    switch (*level) {
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
        return QCPScatterStyle::ssCrossCircle;
    }
}

// A scatter style drawn once into a pixmap: QCustomPlot blits it at each point (rounded to
// whole pixels), several times faster than stroking an antialiased shape per point.
QCPScatterStyle markerStamp(const QCPScatterStyle &shape)
{
    const double extent = shape.size() + 2.0 * shape.pen().widthF() + 2.0;
    const int side = static_cast<int>(std::ceil(extent)) | 1; // odd: the point sits on a pixel
    QPixmap pixmap(side, side);
    pixmap.fill(Qt::transparent);
    QCPPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    shape.applyTo(&painter, shape.pen());
    shape.drawShape(&painter, side / 2.0, side / 2.0);
    painter.end();
    return QCPScatterStyle(pixmap);
}

QString q(const std::string &text)
{
    return QString::fromStdString(text);
}

QString rate(double value)
{
    return q(formatQuantity(value, Dimension::FlopRate));
}

// The unit prefix for an axis whose top is `high`: the one that makes the top readable.
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

} // namespace

ChartTheme ChartTheme::light()
{
    ChartTheme t;
    t.kind = Kind::Light;
    t.background = Qt::white;
    t.foreground = QColor(0x30, 0x30, 0x30);
    t.grid = QColor(0xd4, 0xd4, 0xd4);
    t.subGrid = QColor(0xee, 0xee, 0xee);
    t.envelope = QColor(0x1a, 0x1a, 0x1a);
    t.legendBackground = QColor(255, 255, 255, 225);
    return t;
}

ChartTheme ChartTheme::dark()
{
    ChartTheme t;
    t.kind = Kind::Dark;
    t.background = QColor(0x1e, 0x21, 0x26);
    t.foreground = QColor(0xd8, 0xdc, 0xe2);
    t.grid = QColor(0x3a, 0x3f, 0x47);
    t.subGrid = QColor(0x2a, 0x2e, 0x34);
    t.envelope = QColor(0xf2, 0xf2, 0xf2);
    t.legendBackground = QColor(0x2a, 0x2e, 0x34, 230);
    return t;
}

ChartTheme ChartTheme::print()
{
    ChartTheme t;
    t.kind = Kind::Print;
    t.background = Qt::white;
    t.foreground = Qt::black;
    t.grid = QColor(0xc8, 0xc8, 0xc8);
    t.subGrid = QColor(0xe8, 0xe8, 0xe8);
    t.envelope = Qt::black;
    t.legendBackground = Qt::white;
    t.lineScale = 1.8;
    t.fontScale = 1.35;
    t.shading = false;
    return t;
}

QPalette ChartTheme::windowPalette() const
{
    if (kind != Kind::Dark)
        return QApplication::style()->standardPalette();
    // The chart's own colours carried to docks, tables and menus.
    const QColor window(0x25, 0x29, 0x2f);
    const QColor base(0x1e, 0x21, 0x26);
    const QColor text = foreground;
    const QColor disabled(0x7a, 0x80, 0x88);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x2a, 0x2e, 0x34));
    p.setColor(QPalette::ToolTipBase, QColor(0x2a, 0x2e, 0x34));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x30, 0x35, 0x3c));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x3d, 0x43, 0x4b));
    p.setColor(QPalette::Midlight, QColor(0x35, 0x3a, 0x41));
    p.setColor(QPalette::Mid, QColor(0x2a, 0x2e, 0x34));
    p.setColor(QPalette::Dark, QColor(0x16, 0x18, 0x1c));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xc8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xff));
    for (const auto role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x3a, 0x3f, 0x47));
    return p;
}

ChartTheme ChartTheme::of(Kind kind)
{
    switch (kind) {
    case Kind::Dark:
        return dark();
    case Kind::Print:
        return print();
    case Kind::Light:
        break;
    }
    return light();
}

double contrastRatio(const QColor &a, const QColor &b)
{
    // Relative luminance of sRGB (WCAG 2.x).
    const auto luminance = [](const QColor &c) {
        const auto channel = [](double v) {
            return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF())
            + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor ChartTheme::readable(const QColor &color, double ratio) const
{
    // Lighter on a dark background, darker on a light one, in small steps of HSL lightness so
    // the hue stays recognisable (the legend's line shows the roof's own colour).
    const bool darkBackground = background.lightnessF() < 0.5;
    QColor c = color.toHsl();
    for (int step = 0; step < 100 && contrastRatio(c, background) < ratio; ++step) {
        const float lightness
            = std::clamp(c.lightnessF() + (darkBackground ? 0.02F : -0.02F), 0.0F, 1.0F);
        // Greys have no hue (-1).
        c.setHslF(std::max(0.0F, c.hslHueF()), c.hslSaturationF(), lightness, c.alphaF());
    }
    return c.toRgb();
}

const char *ChartTheme::key() const
{
    switch (kind) {
    case Kind::Dark:
        return "dark";
    case Kind::Print:
        return "print";
    case Kind::Light:
        break;
    }
    return "light";
}

RooflinePlot::RooflinePlot(QWidget *parent)
    : QCustomPlot(parent)
    , m_ownDocument(new Document(this))
    , m_xTicker(new PrefixedLogTicker)
    , m_yTicker(new PrefixedLogTicker)
{
    setMinimumSize(480, 360);
    setAntialiasedElements(QCP::aeAll);
    setNotAntialiasedElements(QCP::aeAxes | QCP::aeGrid);
    addLayer(chart::kShadingLayer, layer("grid"), QCustomPlot::limBelow);
    addLayer(chart::kRoofLayer, layer("main"), QCustomPlot::limBelow);
    addLayer(chart::kGhostLayer, layer("main"), QCustomPlot::limBelow);
    addLayer(chart::kLabelLayer, layer("main"), QCustomPlot::limAbove);
    for (QCPAxis *axis : { xAxis, yAxis }) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->grid()->setSubGridVisible(true);
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
    xAxis->setTicker(m_xTicker);
    yAxis->setTicker(m_yTicker);
    xAxis->setLabel(tr("Arithmetic intensity [FLOP/byte]"));
    yAxis->setLabel(tr("Performance [FLOP/s]"));
    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    selectionRect()->setPen(QPen(kSelectionColor, 1.0, Qt::DashLine));
    selectionRect()->setBrush(QColor(0x10, 0x60, 0xd0, 30));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    connect(yAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
        [this](const QCPRange &range) {
            const auto [scale, prefix] = ratePrefix(range.upper);
            static_cast<PrefixedLogTicker *>(m_yTicker.data())->setScale(scale);
            yAxis->setLabel(tr("Performance [%1FLOP/s]").arg(prefix));
        });
    m_quantGhostTimer = new QTimer(this);
    m_quantGhostTimer->setSingleShot(true);
    m_quantGhostTimer->setInterval(kQuantGhostMs);
    connect(m_quantGhostTimer, &QTimer::timeout, this, [this] {
        clearQuantGhosts();
        requestReplot();
    });
    applyTheme();
    setDocument(m_ownDocument);
}

RooflinePlot::~RooflinePlot()
{
    emit aboutToBeDestroyed();
    for (const auto &connection : m_connections)
        disconnect(connection);
    // Decorations remove their items from the plot: do it while the plot is still whole.
    m_quantGhosts.clear();
    clearDrawing(m_isolatedDrawing);
    clearDrawing(m_decorations);
    clearDrawing(m_drawing);
    m_ridge.reset();
    m_compareRoofs.clear();
    m_roofs.clear();
}

void RooflinePlot::setDocument(Document *document)
{
    if (!document || document == m_document)
        return;
    for (const auto &connection : m_connections)
        disconnect(connection);
    m_connections.clear();
    m_document = document;
    connectDocument();
    rebuildRoofs();
    rebuildPoints();
    resetToHardwareFrame();
}

void RooflinePlot::connectDocument()
{
    m_connections.push_back(connect(m_document, &Document::hardwareChanged, this, [this] {
        clearQuantGhosts();
        rebuildRoofs();
        requestReplot();
    }));
    // Added or removed workloads may change the compute ceiling the roofline is drawn with.
    const auto everything = [this] {
        m_isolated.reset();
        m_drag.reset();
        rebuildRoofs();
        rebuildPoints();
        requestReplot();
    };
    m_connections.push_back(connect(m_document, &Document::pointsReset, this, [this, everything] {
        clearQuantGhosts(); // their indices mean other points now
        everything();
    }));
    m_connections.push_back(
        connect(m_document, &Document::quantModeChanged, this, [this, everything] {
            const auto before = m_workloadPositions;
            everything();
            showQuantGhosts(before);
        }));
    m_connections.push_back(connect(
        m_document, &Document::pointsChanged, this, [this](qsizetype first, qsizetype last) {
            // One step of a drag: only the dragged point is redrawn.
            if (m_isolated && first == last && static_cast<std::size_t>(first) == *m_isolated) {
                updateIsolatedPoint();
                requestReplot();
                return;
            }
            rebuildPoints();
            requestReplot();
        }));
    // A selection change redraws only the rings and labels, not the (maybe million) points.
    m_connections.push_back(connect(m_document, &Document::selectionChanged, this, [this] {
        if (m_isolated)
            updateIsolatedPoint();
        rebuildDecorations();
        requestReplot();
    }));
    m_connections.push_back(connect(m_document, &Document::compareHardwareChanged, this, [this] {
        rebuildRoofs();
        rebuildPoints();
        requestReplot();
    }));
    m_connections.push_back(connect(m_document, &QObject::destroyed, this, [this] {
        m_document = nullptr;
        setDocument(m_ownDocument);
    }));
}

void RooflinePlot::setHardware(const Hardware &hardware)
{
    m_document->resetHardware(hardware);
    resetToHardwareFrame();
}

void RooflinePlot::setAnalysisOptions(const AnalysisOptions &options)
{
    m_document->setAnalysisOptions(options);
    rebuildRoofs();
}

void RooflinePlot::setPoints(std::vector<AnalyzedPoint> points)
{
    std::vector<KernelPoint> plain;
    plain.reserve(points.size());
    for (auto &analysed : points)
        plain.push_back(std::move(analysed.point));
    m_document->resetPoints(std::move(plain));
}

void RooflinePlot::requestReplot()
{
    replot(QCustomPlot::rpQueuedReplot);
}

void RooflinePlot::resetToHardwareFrame()
{
    const Hardware &hw = m_document->hardware();
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
    if (maxRidge <= 0.0) {
        xAxis->setRange(1e-2, 1e4);
        yAxis->setRange(1e9, 1e15);
    } else {
        const double xLow = std::min(decadeFloor(minRidge) / 100.0, 1e-2);
        const double xHigh = std::max(decadeCeil(maxRidge) * 10.0, 1e3);
        xAxis->setRange(xLow, xHigh);
        yAxis->setRange(decadeFloor(minBandwidth * xLow), decadeCeil(maxPeak * 1.5));
    }
    requestReplot();
}

void RooflinePlot::fitToData()
{
    double xLow = 1e300, xHigh = 0.0, yLow = 1e300, yHigh = 0.0;
    for (std::size_t i = 0; i < m_document->pointCount(); ++i) {
        const auto &a = m_document->analysis(i);
        if (!a)
            continue;
        const double y = a->performance.value_or(a->attainable);
        for (const auto &level : a->levels) {
            xLow = std::min(xLow, level.intensity);
            xHigh = std::max(xHigh, level.intensity);
        }
        yLow = std::min(yLow, y);
        yHigh = std::max(yHigh, std::max(y, a->attainable));
    }
    if (xHigh <= 0.0) {
        resetToHardwareFrame();
        return;
    }
    xAxis->setRange(decadeFloor(xLow / 2.0), decadeCeil(xHigh * 2.0));
    yAxis->setRange(decadeFloor(yLow / 2.0), decadeCeil(yHigh * 2.0));
    requestReplot();
}

void RooflinePlot::zoomBy(double factor)
{
    if (factor <= 0.0)
        return;
    const QRect rect = axisRect()->rect();
    xAxis->scaleRange(1.0 / factor, xAxis->pixelToCoord(rect.center().x()));
    yAxis->scaleRange(1.0 / factor, yAxis->pixelToCoord(rect.center().y()));
    requestReplot();
}

void RooflinePlot::setAllPointLabels(bool on)
{
    if (m_allLabels == on)
        return;
    m_allLabels = on;
    rebuildDecorations();
    requestReplot();
}

void RooflinePlot::setTheme(const ChartTheme &theme)
{
    m_theme = theme;
    applyTheme();
    rebuildRoofs();
    rebuildPoints();
    requestReplot();
}

void RooflinePlot::setFontScale(double scale)
{
    if (!(scale > 0.0) || scale == m_fontScale)
        return;
    m_fontScale = scale;
    setTheme(m_theme);
}

void RooflinePlot::applyTheme()
{
    const ChartTheme &t = m_theme;
    setBackground(t.background);
    axisRect()->setBackground(t.background);
    // The application's font, not this widget's (which already carries the previous scale).
    QFont base = QApplication::font(this);
    const double scale = t.fontScale * m_fontScale;
    if (scale != 1.0)
        base.setPointSizeF(base.pointSizeF() * scale);
    setFont(base);
    for (QCPAxis *axis : { xAxis, yAxis }) {
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
    styleLegend();
    legend->setTextColor(t.foreground);
    legend->setFont(base);
}

void RooflinePlot::setRegionShading(bool on)
{
    if (m_shading == on)
        return;
    m_shading = on;
    rebuildRoofs();
    rebuildPoints(); // keeps the legend's order: roofs first
    requestReplot();
}

void RooflinePlot::rebuildRoofs()
{
    m_roofs.clear();
    m_compareRoofs.clear();
    m_ridge.reset();
    for (QCPAbstractPlottable *plottable : m_roofPlottables)
        removePlottable(plottable);
    m_roofPlottables.clear();

    const Hardware &hw = m_document->hardware();
    double topPeak = 0.0;
    double topBandwidth = 0.0;
    for (const auto &c : hw.compute) {
        if (c.visible)
            topPeak = std::max(topPeak, c.peak);
    }
    for (const auto &m : hw.memory) {
        if (m.visible)
            topBandwidth = std::max(topBandwidth, m.bandwidth);
    }
    if (topPeak <= 0.0 || topBandwidth <= 0.0)
        return;
    const ComputeCeiling *active = m_document->activeComputeCeiling();
    const MemoryCeiling *main = hw.mainMemory();
    const QFontMetrics metrics(font());
    const auto elide = [&metrics](const std::string &name) {
        return metrics.elidedText(q(name), Qt::ElideRight, 200);
    };
    // Roofs keep their hue; on the dark theme they are lightened until they stand out.
    const auto lineColor = [this](const QColor &color) {
        return m_theme.kind == ChartTheme::Kind::Dark
            ? m_theme.readable(color, ChartTheme::kMinLineContrast)
            : color;
    };

    for (std::size_t i = 0; i < hw.memory.size(); ++i) {
        const MemoryCeiling &m = hw.memory[i];
        if (!m.visible)
            continue;
        const QColor color = memoryColor(m.level);
        const QPen pen(lineColor(color), 1.3 * m_theme.lineScale,
            isNetwork(m.level) ? Qt::DashDotLine : Qt::SolidLine);
        m_roofs.push_back(std::make_unique<RoofLine>(this, RoofLine::Kind::Memory,
            static_cast<int>(i), m.bandwidth, topPeak, pen,
            elide(m.name) + "  " + q(formatQuantity(m.bandwidth, Dimension::ByteRate, 3)),
            m_theme.readable(color.darker(115))));
    }
    for (std::size_t i = 0; i < hw.compute.size(); ++i) {
        const ComputeCeiling &c = hw.compute[i];
        if (!c.visible)
            continue;
        // Ceilings with the same peak (BF16 and FP16 tensor) share one label.
        QStringList names;
        bool labelled = false;
        for (std::size_t j = 0; j < hw.compute.size(); ++j) {
            const ComputeCeiling &other = hw.compute[j];
            if (!other.visible || std::abs(other.peak - c.peak) > 0.005 * c.peak)
                continue;
            if (j < i) {
                labelled = true;
                break;
            }
            names << elide(other.name);
        }
        QColor color = &c == active ? kComputeColor : kComputeColor.lighter(165);
        if (c.sparse)
            color = QColor(0xb0, 0x88, 0x88);
        const QPen pen(lineColor(color), (&c == active ? 1.6 : 1.2) * m_theme.lineScale,
            c.sparse ? Qt::DotLine : Qt::SolidLine);
        m_roofs.push_back(std::make_unique<RoofLine>(this, RoofLine::Kind::Compute,
            static_cast<int>(i), c.peak, topBandwidth, pen,
            labelled ? QString()
                     : names.join(" · ") + "  " + q(formatQuantity(c.peak, Dimension::FlopRate, 3)),
            m_theme.readable(color.darker(115))));
    }

    if (active && main) {
        const double ridge = ridgeIntensity(*active, *main);
        if (m_shading && m_theme.shading) {
            // Under the roofline: memory-bound left of the ridge, compute-bound right of it.
            QCPGraph *memoryRegion = addGraph();
            memoryRegion->setLayer(chart::kShadingLayer);
            memoryRegion->setData(
                { kFarLeft, ridge }, { main->bandwidth * kFarLeft, active->peak }, true);
            memoryRegion->setPen(Qt::NoPen);
            memoryRegion->setBrush(QColor(0xc8, 0x5a, 0x0a, 28));
            memoryRegion->setName(tr("memory-bound region"));
            QCPGraph *computeRegion = addGraph();
            computeRegion->setLayer(chart::kShadingLayer);
            computeRegion->setData({ ridge, kFarRight }, { active->peak, active->peak }, true);
            computeRegion->setPen(Qt::NoPen);
            computeRegion->setBrush(QColor(0x9b, 0x1c, 0x1c, 22));
            computeRegion->setName(tr("compute-bound region"));
            m_roofPlottables.push_back(memoryRegion);
            m_roofPlottables.push_back(computeRegion);
        }
        // The envelope, the actual roofline, drawn strongest.
        QCPGraph *envelope = addGraph();
        envelope->setLayer(chart::kRoofLayer);
        envelope->setData({ kFarLeft, ridge, kFarRight },
            { main->bandwidth * kFarLeft, active->peak, active->peak }, true);
        envelope->setPen(QPen(m_theme.envelope, 2.6 * m_theme.lineScale));
        envelope->setName(tr("Roofline: %1, %2").arg(q(active->name), q(main->name)));
        envelope->setSelectable(QCP::stNone);
        m_roofPlottables.push_back(envelope);
        m_ridge = std::make_unique<chart::RidgeMarker>(this, ridge, active->peak, m_theme.envelope);
    }

    if (const Hardware *other = m_document->compareHardware()) {
        // Every roof of the other machine, dashed in one colour, named after the machine.
        const QString shortName = q(other->aliases.empty() ? other->name : other->aliases.front());
        double otherPeak = 0.0;
        double otherBandwidth = 0.0;
        for (const auto &c : other->compute) {
            if (c.visible)
                otherPeak = std::max(otherPeak, c.peak);
        }
        for (const auto &m : other->memory) {
            if (m.visible)
                otherBandwidth = std::max(otherBandwidth, m.bandwidth);
        }
        const QPen pen(lineColor(kCompareColor), 1.5 * m_theme.lineScale, Qt::DashLine);
        const QColor labelColor = m_theme.readable(kCompareColor.darker(115));
        if (otherPeak > 0.0 && otherBandwidth > 0.0) {
            for (const auto &m : other->memory) {
                if (!m.visible)
                    continue;
                m_compareRoofs.push_back(std::make_unique<RoofLine>(this, RoofLine::Kind::Memory,
                    -1, m.bandwidth, otherPeak, pen,
                    shortName + " " + elide(m.name) + "  "
                        + q(formatQuantity(m.bandwidth, Dimension::ByteRate, 3)),
                    labelColor));
            }
            for (std::size_t i = 0; i < other->compute.size(); ++i) {
                const ComputeCeiling &c = other->compute[i];
                if (!c.visible)
                    continue;
                // Ceilings with the same peak share the first one's label.
                bool labelled = false;
                for (std::size_t j = 0; j < i; ++j)
                    labelled = labelled
                        || (other->compute[j].visible
                            && std::abs(other->compute[j].peak - c.peak) <= 0.005 * c.peak);
                m_compareRoofs.push_back(std::make_unique<RoofLine>(this, RoofLine::Kind::Compute,
                    -1, c.peak, otherBandwidth, pen,
                    labelled ? QString()
                             : shortName + " " + elide(c.name) + "  "
                            + q(formatQuantity(c.peak, Dimension::FlopRate, 3)),
                    labelColor));
            }
            QCPGraph *entry = addGraph(); // the legend's entry for the dashed roofs
            entry->setPen(pen);
            entry->setName(tr("Compare: %1 (dashed)").arg(q(other->name)));
            m_roofPlottables.push_back(entry);
        }
    }
}

// The scatter data of many points gathered first and handed to QCustomPlot at once: adding
// points one by one to a graph keeps its data sorted on every insert.
struct RooflinePlot::PointBatch {
    struct Series {
        QCPScatterStyle style;
        QVector<double> x, y;
    };
    std::map<std::tuple<std::size_t, int, bool>, Series> scatter; // (group, shape, planned)
    QVector<double> impossibleX, impossibleY;
    QVector<double> selectedX, selectedY;
    std::map<int, std::optional<MemoryLevel>> levelsSeen; // by shape
};

std::size_t RooflinePlot::groupIndex(const KernelPoint &point)
{
    static const std::string kDefault("kernels");
    const std::string &name = point.group.empty() ? kDefault : point.group;
    if (const auto it = m_groups.find(name); it != m_groups.end())
        return it->second;
    return m_groups.emplace(name, m_groups.size()).first->second;
}

void RooflinePlot::collectPoint(
    std::size_t i, PointBatch &batch, PointDrawing &drawing, bool decorations)
{
    const Document &doc = *m_document;
    const auto &a = doc.analysis(i);
    if (!a || a->levels.empty())
        return;
    const KernelPoint &p = doc.measuredPoint(i);
    const std::size_t group = groupIndex(p);
    const bool planned = !a->performance.has_value();
    const double y = a->performance.value_or(a->attainable);
    const QColor color = groupColor(group);
    // One dot per byte level: (intensity, level as written in the point).
    std::vector<std::pair<double, std::optional<MemoryLevel>>> dots;
    const Hardware &hw = doc.hardware();
    if (p.knownByIntensity()) {
        // Known by intensities and rate (a NERSC text file): each level at its own intensity,
        // as moved, with its own marker, including levels the machine has no ceiling for (left
        // out of the analysis, as for byte counts below).
        const KernelPoint &moved = doc.point(i);
        if (moved.intensity)
            dots.emplace_back(*moved.intensity, std::nullopt);
        for (const auto &level : moved.levelIntensities)
            dots.emplace_back(level.intensity, level.level);
        std::sort(dots.begin(), dots.end(),
            [](const auto &l, const auto &r) { return l.first < r.first; });
    }
    for (std::size_t l = 0; l < a->levels.size() && !p.knownByIntensity(); ++l)
        dots.emplace_back(a->levels[l].intensity,
            l < p.bytes.size() ? p.bytes[l].level : std::optional<MemoryLevel>());
    const auto unbounded = [&hw](const LevelBytes &b) {
        return !(b.level ? hw.memoryFor(*b.level) : hw.mainMemory());
    };
    if (std::any_of(p.bytes.begin(), p.bytes.end(), unbounded)) {
        // Levels the machine has no ceiling for (L1 and L2 on most GPU presets) are left out of
        // the analysis (the tooltip says so) but still drawn at F / B_l on the hierarchical
        // line, so the picture shows where the traffic is.
        dots.clear();
        std::size_t analysed = 0;
        for (const auto &b : p.bytes) {
            if (unbounded(b)) {
                if (b.bytes > 0.0 && p.flops > 0.0)
                    dots.emplace_back(p.flops / b.bytes, b.level);
            } else if (analysed < a->levels.size()) {
                dots.emplace_back(a->levels[analysed++].intensity, b.level);
            }
        }
        std::sort(dots.begin(), dots.end(),
            [](const auto &l, const auto &r) { return l.first < r.first; });
    }
    if (dots.size() > 1) {
        // Hierarchical roofline: one dot per level, joined by a thin line.
        auto *curve = new QCPCurve(xAxis, yAxis);
        curve->removeFromLegend();
        curve->setSelectable(QCP::stNone);
        curve->setPen(QPen(color.lighter(140), 1.0 * m_theme.lineScale));
        for (const auto &dot : dots)
            curve->addData(dot.first, y);
        drawing.plottables.push_back(curve);
    }
    for (const auto &[intensity, level] : dots) {
        const auto shape = levelShape(level);
        batch.levelsSeen.emplace(static_cast<int>(shape), level);
        auto [it, fresh]
            = batch.scatter.try_emplace(std::make_tuple(group, static_cast<int>(shape), planned));
        if (fresh)
            it->second.style
                = QCPScatterStyle(shape, QPen(color.darker(115), 1.4 * m_theme.lineScale),
                    planned ? QBrush(m_theme.background) : QBrush(color), 9);
        it->second.x.push_back(intensity);
        it->second.y.push_back(y);
    }
    if (!a->consistent) {
        batch.impossibleX.push_back(a->levels.front().intensity);
        batch.impossibleY.push_back(y);
    }
    if (!doc.whatIf(i).isIdentity()) {
        const auto measured = doc.measuredAnalysis(i);
        if (measured && !measured->levels.empty()) {
            const QPointF from(measured->levels.front().intensity,
                measured->performance.value_or(measured->attainable));
            drawing.ghosts.push_back(std::make_unique<chart::WhatIfGhost>(
                this, from, QPointF(a->levels.front().intensity, y), color));
        }
    }
    if (decorations)
        collectDecorations(i, batch, drawing);
}

void RooflinePlot::collectDecorations(std::size_t i, PointBatch &batch, PointDrawing &drawing)
{
    const Document &doc = *m_document;
    const bool selected = doc.isSelected(i);
    const bool moved = !doc.whatIf(i).isIdentity();
    if (!selected && !moved && !m_allLabels)
        return;
    const auto &a = doc.analysis(i);
    if (!a || a->levels.empty())
        return;
    const double y = a->performance.value_or(a->attainable);
    if (selected) {
        for (const auto &level : a->levels) {
            batch.selectedX.push_back(level.intensity);
            batch.selectedY.push_back(y);
        }
    }
    const std::size_t maxLabels = m_allLabels ? kMaxAllPointLabels : kMaxPointLabels;
    if (drawing.labels.size() < maxLabels) {
        drawing.labels.push_back(
            std::make_unique<chart::PointLabel>(this, QPointF(a->levels.back().intensity, y),
                q(doc.measuredPoint(i).name), kMaxLabelWidth, m_theme.foreground));
    }
}

void RooflinePlot::rebuildDecorations()
{
    clearDrawing(m_decorations);
    PointBatch batch;
    for (std::size_t i = 0; i < m_document->pointCount(); ++i) {
        if (!(m_isolated && *m_isolated == i))
            collectDecorations(i, batch, m_decorations);
    }
    flushBatch(batch, m_decorations, false);
}

void RooflinePlot::flushBatch(PointBatch &batch, PointDrawing &drawing, bool inLegend)
{
    // Every point graph keeps its full data beside it and draws a per-view subset (decimate()).
    // The batch's coordinates move into the series: a copy would be 16 MB more at a million.
    const auto newGraph
        = [this, &drawing](const QCPScatterStyle &style, QVector<double> &x, QVector<double> &y) {
              QCPGraph *graph = addGraph();
              graph->setLineStyle(QCPGraph::lsNone);
              graph->setSelectable(QCP::stNone);
              graph->removeFromLegend();
              // The decimated data has at most one point per cell already; QCustomPlot's own
              // sampling could only drop visible markers.
              graph->setAdaptiveSampling(false);
              drawing.plottables.push_back(graph);
              DecimatedSeries series;
              series.graph = graph;
              series.shape = style;
              series.stamp = markerStamp(style);
              graph->setScatterStyle(series.stamp);
              series.x = std::move(x);
              series.y = std::move(y);
              series.lx.resize(static_cast<std::size_t>(series.x.size()));
              series.ly.resize(static_cast<std::size_t>(series.y.size()));
              for (qsizetype k = 0; k < series.x.size(); ++k) {
                  series.lx[k] = std::log10(series.x[k]);
                  series.ly[k] = std::log10(series.y[k]);
              }
              series.margin = style.size() / 2.0 + style.pen().widthF() + 1.0;
              drawing.series.push_back(std::move(series));
              return graph;
          };
    // Room for every series first: a reallocation would copy each one's data (its move may
    // throw, so the vector copies), 20 MB at a million points.
    drawing.series.reserve(drawing.series.size() + batch.scatter.size() + 2);
    for (auto &[key, series] : batch.scatter)
        newGraph(series.style, series.x, series.y);
    if (!batch.impossibleX.isEmpty()) {
        QCPGraph *impossible
            = newGraph(QCPScatterStyle(QCPScatterStyle::ssCircle,
                           QPen(kImpossibleColor, 2.0 * m_theme.lineScale), Qt::NoBrush, 19),
                batch.impossibleX, batch.impossibleY);
        if (inLegend) {
            impossible->setName(tr("impossible: above its roof"));
            impossible->addToLegend();
        }
    }
    if (!batch.selectedX.isEmpty()) {
        QCPGraph *selected
            = newGraph(QCPScatterStyle(QCPScatterStyle::ssCircle,
                           QPen(kSelectionColor, 2.2 * m_theme.lineScale), Qt::NoBrush, 15),
                batch.selectedX, batch.selectedY);
        selected->setLayer(chart::kLabelLayer);
    }
}

void RooflinePlot::useVectorMarkers(bool on)
{
    for (auto *drawing : { &m_drawing, &m_isolatedDrawing, &m_decorations }) {
        for (auto &series : drawing->series)
            series.graph->setScatterStyle(on ? series.shape : series.stamp);
    }
}

RooflinePlot::ViewKey RooflinePlot::currentView() const
{
    const QCPRange x = xAxis->range();
    const QCPRange y = yAxis->range();
    return { x.lower, x.upper, y.lower, y.upper, axisRect()->rect() };
}

void RooflinePlot::updateLayout()
{
    relayout();
    placeLegend();
}

void RooflinePlot::relayout()
{
    QCustomPlot::updateLayout();
    // Here the axis rect has its final size for this replot or export, and nothing is drawn yet.
    const ViewKey view = currentView();
    for (auto *drawing : { &m_drawing, &m_isolatedDrawing, &m_decorations }) {
        for (auto &series : drawing->series) {
            if (series.view != view)
                decimate(series, view);
        }
    }
    // Labels too: an export lays the plot out at its own size without a replot (a headless
    // render never replots at all), and flat labels are spaced in pixels.
    placeLabels();
}

std::vector<QRectF> RooflinePlot::legendObstacles() const
{
    std::vector<QRectF> rects;
    for (int i = 0; i < itemCount(); ++i) {
        QCPAbstractItem *it = item(i);
        if (!it->realVisibility())
            continue;
        if (auto *text = qobject_cast<QCPItemText *>(it)) {
            if (text->text().isEmpty())
                continue;
            QPolygonF corners;
            for (const QCPItemAnchor *anchor :
                { text->topLeft, text->topRight, text->bottomRight, text->bottomLeft })
                corners << anchor->pixelPosition();
            rects.push_back(corners.boundingRect());
        } else if (auto *tracer = qobject_cast<QCPItemTracer *>(it)) {
            const QPointF at = tracer->position->pixelPosition();
            const double r = tracer->size() / 2.0;
            rects.emplace_back(at.x() - r, at.y() - r, 2 * r, 2 * r);
        }
    }
    return rects;
}

bool RooflinePlot::legendCovers(const QRectF &box, const std::vector<QRectF> &obstacles) const
{
    for (const QRectF &r : obstacles) {
        if (box.intersects(r))
            return true;
    }
    // The points as drawn (thinned): a marker that reaches into the box.
    for (const auto *drawing : { &m_drawing, &m_isolatedDrawing }) {
        for (const auto &series : drawing->series) {
            if (!series.graph || !series.graph->realVisibility())
                continue;
            const double m = series.margin;
            const QRectF grown = box.adjusted(-m, -m, m, m);
            for (const QCPGraphData &d : *series.graph->data()) {
                if (grown.contains(xAxis->coordToPixel(d.key), yAxis->coordToPixel(d.value)))
                    return true;
            }
        }
    }
    return false;
}

int RooflinePlot::legendStripColumns() const
{
    // As many entries to a row as the widest one allows across the plot's width.
    int widest = 1;
    for (int i = 0; i < legend->itemCount(); ++i)
        widest = std::max(widest, legend->item(i)->minimumOuterSizeHint().width());
    const QMargins margins = legend->margins();
    const int room = viewport().width() - margins.left() - margins.right();
    return std::max(1, (room + legend->columnSpacing()) / (widest + legend->columnSpacing()));
}

void RooflinePlot::styleLegend()
{
    // A box over the plot; under it, plain entries on the picture's background.
    legend->setBrush(m_legendOutside ? QBrush(Qt::NoBrush) : QBrush(m_theme.legendBackground));
    legend->setBorderPen(m_legendOutside ? QPen(Qt::NoPen) : QPen(m_theme.grid));
}

void RooflinePlot::setLegendOutside(bool outside)
{
    if (outside == m_legendOutside)
        return;
    QCPLayoutInset *inset = axisRect()->insetLayout();
    if (outside) {
        inset->take(legend);
        inset->simplify();
        // A strip under the chart: entries side by side, as many to a row as the width takes.
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, false);
        legend->setWrap(legendStripColumns());
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        const int row = plotLayout()->rowCount();
        plotLayout()->addElement(row, 0, legend);
        plotLayout()->setRowStretchFactor(row, 0.001);
    } else {
        plotLayout()->take(legend);
        plotLayout()->simplify();
        legend->setWrap(0);
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
        inset->addElement(legend, Qt::AlignTop | Qt::AlignLeft);
    }
    m_legendOutside = outside;
    styleLegend();
}

void RooflinePlot::placeLegend()
{
    if (!legend || m_legendFixed)
        return;
    if (m_legendSqueezedOut) {
        legend->setVisible(true);
        m_legendSqueezedOut = false;
    }
    if (!legend->visible())
        return;
    // The legend's size in a corner (one entry a row), measured without moving it there.
    QSize size;
    if (m_legendOutside) {
        legend->setWrap(0);
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
        size = legend->minimumOuterSizeHint();
        legend->setWrap(legendStripColumns());
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    } else {
        size = legend->minimumOuterSizeHint();
    }
    const QRect plotArea = axisRect()->rect();
    const std::vector<QRectF> obstacles = legendObstacles();
    // Top left first (where the roofline rises from), then the corners under the roofs.
    for (const Qt::Alignment corner :
        { Qt::AlignTop | Qt::AlignLeft, Qt::AlignBottom | Qt::AlignRight,
            Qt::AlignBottom | Qt::AlignLeft, Qt::AlignTop | Qt::AlignRight }) {
        QRect box(QPoint(), size);
        if (corner & Qt::AlignLeft)
            box.moveLeft(plotArea.left());
        else
            box.moveRight(plotArea.right());
        if (corner & Qt::AlignTop)
            box.moveTop(plotArea.top());
        else
            box.moveBottom(plotArea.bottom());
        if (legendCovers(box, obstacles))
            continue;
        if (m_legendOutside) {
            // The plot grows by the legend's strip; what was free stays nearly where it was.
            setLegendOutside(false);
            relayout();
        }
        QCPLayoutInset *inset = axisRect()->insetLayout();
        for (int i = 0; i < inset->elementCount(); ++i) {
            if (inset->elementAt(i) == legend)
                inset->setInsetAlignment(i, corner);
        }
        inset->update(QCPLayoutElement::upLayout);
        return;
    }
    // No corner is free: the legend goes under the chart, and the chart is laid out again for
    // the height it gave up.
    if (!m_legendOutside) {
        setLegendOutside(true);
        relayout();
    }
    // Unless the strip leaves the plot too low to read (a small export with a table): then
    // the legend is left out of this layout, and the plot keeps the whole height.
    if (axisRect()->rect().height() < kMinPlotHeight) {
        setLegendOutside(false);
        legend->setVisible(false);
        m_legendSqueezedOut = true;
        relayout();
    }
}

void RooflinePlot::decimate(DecimatedSeries &series, const ViewKey &view)
{
    series.view = view;
    QVector<QCPGraphData> kept;
    const QRect r = view.rect;
    const LogToPixel toX(xAxis, view.xLower, view.xUpper);
    const LogToPixel toY(yAxis, view.yLower, view.yUpper);
    if (r.width() <= 0 || r.height() <= 0 || !toX.valid() || !toY.valid()) {
        series.graph->data()->set(kept, true);
        return;
    }
    // Cells aligned on the axis rect's corner; markers within `margin` outside it still show.
    const double cell = kDecimationCell;
    const int pad = static_cast<int>(std::ceil(series.margin / cell));
    const int columns = static_cast<int>(std::ceil(r.width() / cell)) + 2 * pad;
    const int rows = static_cast<int>(std::ceil(r.height() / cell)) + 2 * pad;
    const double left = r.left() - pad * cell;
    const double top = r.top() - pad * cell;
    m_occupied.assign(static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows), 0);
    // Cell column and row as one multiply-add of the logarithm each.
    const double ax = (toX.pixel0 - toX.log0 * toX.slope - left) / cell;
    const double bx = toX.slope / cell;
    const double ay = (toY.pixel0 - toY.log0 * toY.slope - top) / cell;
    const double by = toY.slope / cell;
    // Kept points bucketed by column: QCustomPlot wants them sorted by key, and a column's
    // points only need sorting among themselves.
    std::vector<std::uint32_t> columnOf;
    std::vector<std::uint32_t> keptIndex;
    std::vector<std::uint32_t> perColumn(static_cast<std::size_t>(columns) + 1, 0);
    const auto count = static_cast<std::size_t>(series.x.size());
    for (std::size_t k = 0; k < count; ++k) {
        const double cx = ax + bx * series.lx[k];
        const double cy = ay + by * series.ly[k];
        // Written so NaN (a non-positive coordinate) fails too; truncation is floor here.
        if (!(cx >= 0.0 && cx < columns && cy >= 0.0 && cy < rows))
            continue;
        const auto column = static_cast<std::uint32_t>(cx);
        const std::size_t at = column + static_cast<std::size_t>(cy) * columns;
        if (m_occupied[at])
            continue;
        m_occupied[at] = 1;
        columnOf.push_back(column);
        keptIndex.push_back(static_cast<std::uint32_t>(k));
        ++perColumn[column + 1];
    }
    for (std::size_t c = 1; c < perColumn.size(); ++c)
        perColumn[c] += perColumn[c - 1];
    kept.resize(static_cast<qsizetype>(keptIndex.size()));
    std::vector<std::uint32_t> fill(perColumn.begin(), perColumn.end() - 1);
    for (std::size_t j = 0; j < keptIndex.size(); ++j) {
        const std::uint32_t k = keptIndex[j];
        kept[fill[columnOf[j]]++] = QCPGraphData(series.x[k], series.y[k]);
    }
    const auto byKey = [](const QCPGraphData &a, const QCPGraphData &b) { return a.key < b.key; };
    if (bx > 0.0) {
        for (std::size_t c = 0; c + 1 < perColumn.size(); ++c)
            std::sort(kept.begin() + perColumn[c], kept.begin() + perColumn[c + 1], byKey);
    } else { // a reversed axis: columns run against the key
        std::sort(kept.begin(), kept.end(), byKey);
    }
    series.graph->data()->set(kept, true);
}

std::vector<QPointF> RooflinePlot::drawnPointCoords() const
{
    std::vector<QPointF> out;
    for (const auto *drawing : { &m_drawing, &m_isolatedDrawing, &m_decorations }) {
        for (const auto &series : drawing->series) {
            for (const auto &d : *series.graph->data())
                out.emplace_back(d.key, d.value);
        }
    }
    return out;
}

void RooflinePlot::rebuildHitIndex()
{
    HitIndex &index = m_hitIndex;
    index = {};
    m_workloadPositions.clear();
    const Document &doc = *m_document;
    std::vector<HitIndex::Entry> dots;
    dots.reserve(doc.pointCount());
    double lxLow = 1e300, lxHigh = -1e300, lyLow = 1e300, lyHigh = -1e300;
    for (std::size_t i = 0; i < doc.pointCount(); ++i) {
        const auto &a = doc.analysis(i);
        if (!a || a->levels.empty())
            continue;
        const double y = a->performance.value_or(a->attainable);
        if (doc.workload(i))
            m_workloadPositions.emplace_back(i, QPointF(a->levels.front().intensity, y));
        const double ly = std::log10(y);
        for (const auto &level : a->levels) {
            const double lx = std::log10(level.intensity);
            if (!std::isfinite(lx) || !std::isfinite(ly))
                continue;
            const HitIndex::Entry dot { static_cast<float>(lx), static_cast<float>(ly),
                static_cast<std::uint32_t>(i) };
            dots.push_back(dot);
            // The bounds of the stored (rounded) values, so that none falls outside them.
            lxLow = std::min<double>(lxLow, dot.lx);
            lxHigh = std::max<double>(lxHigh, dot.lx);
            lyLow = std::min<double>(lyLow, dot.ly);
            lyHigh = std::max<double>(lyHigh, dot.ly);
        }
    }
    if (dots.empty())
        return;
    // About four dots per bucket on a uniform cloud.
    const int side
        = std::clamp(static_cast<int>(std::sqrt(static_cast<double>(dots.size()) / 4.0)), 1, 1024);
    index.columns = side;
    index.rows = side;
    index.lx0 = lxLow;
    index.ly0 = lyLow;
    index.lxStep = std::max((lxHigh - lxLow) / side, 1e-12);
    index.lyStep = std::max((lyHigh - lyLow) / side, 1e-12);
    const auto bucket = [&index](const HitIndex::Entry &e) {
        const int c
            = std::min(static_cast<int>((e.lx - index.lx0) / index.lxStep), index.columns - 1);
        const int r = std::min(static_cast<int>((e.ly - index.ly0) / index.lyStep), index.rows - 1);
        return static_cast<std::size_t>(r) * index.columns + static_cast<std::size_t>(c);
    };
    index.start.assign(static_cast<std::size_t>(side) * side + 1, 0);
    for (const auto &e : dots)
        ++index.start[bucket(e) + 1];
    for (std::size_t b = 1; b < index.start.size(); ++b)
        index.start[b] += index.start[b - 1];
    index.entries.resize(dots.size());
    std::vector<std::uint32_t> fill(index.start.begin(), index.start.end() - 1);
    for (const auto &e : dots)
        index.entries[fill[bucket(e)]++] = e;
}

void RooflinePlot::clearQuantGhosts()
{
    m_quantGhosts.clear();
    if (m_quantGhostTimer)
        m_quantGhostTimer->stop();
}

void RooflinePlot::showQuantGhosts(const std::vector<std::pair<std::size_t, QPointF>> &before)
{
    clearQuantGhosts();
    const Document &doc = *m_document;
    for (const auto &[i, from] : before) {
        if (m_quantGhosts.size() >= kMaxQuantGhosts)
            break;
        if (i >= doc.pointCount() || !doc.workload(i))
            continue;
        const auto to = pointCoords(i);
        if (!to)
            continue;
        const double dx = std::abs(std::log(to->x() / from.x()));
        const double dy = std::abs(std::log(to->y() / from.y()));
        if (!(dx > 1e-9 || dy > 1e-9))
            continue;
        m_quantGhosts.push_back(std::make_unique<chart::WhatIfGhost>(
            this, from, *to, groupColor(groupIndex(doc.measuredPoint(i))), 80));
    }
    if (!m_quantGhosts.empty())
        m_quantGhostTimer->start();
}

std::vector<std::pair<QPointF, QPointF>> RooflinePlot::quantGhosts() const
{
    std::vector<std::pair<QPointF, QPointF>> out;
    for (const auto &ghost : m_quantGhosts)
        out.emplace_back(ghost->from(), ghost->to());
    return out;
}

void RooflinePlot::clearDrawing(PointDrawing &drawing)
{
    drawing.ghosts.clear();
    drawing.labels.clear();
    drawing.crossings.clear();
    for (QCPAbstractPlottable *plottable : drawing.plottables)
        removePlottable(plottable);
    drawing.plottables.clear();
    drawing.series.clear();
}

void RooflinePlot::rebuildPoints()
{
    clearDrawing(m_isolatedDrawing);
    clearDrawing(m_decorations);
    clearDrawing(m_drawing);
    m_groups.clear();

    const Document &doc = *m_document;
    for (std::size_t i = 0; i < doc.pointCount(); ++i)
        groupIndex(doc.measuredPoint(i));
    PointBatch batch;
    std::map<int, std::vector<std::pair<double, std::size_t>>> sweeps; // id -> (value, point)
    for (std::size_t i = 0; i < doc.pointCount(); ++i) {
        if (const Workload *w = doc.workload(i); w && w->sweep)
            sweeps[w->sweep->id].emplace_back(w->sweep->value, i);
        if (m_isolated && *m_isolated == i)
            continue;
        collectPoint(i, batch, m_drawing, false);
    }
    flushBatch(batch, m_drawing, true);
    rebuildDecorations();
    rebuildHitIndex();
    for (auto &[id, members] : sweeps)
        drawSweep(members);
    if (m_isolated)
        updateIsolatedPoint();

    // Legend: one entry per group (its colour), and per memory level when levels differ.
    const auto legendEntry = [this](const QCPScatterStyle &style, const QString &name) {
        QCPGraph *entry = addGraph();
        entry->setLineStyle(QCPGraph::lsNone);
        entry->setSelectable(QCP::stNone);
        entry->setScatterStyle(style);
        entry->setName(name);
        m_drawing.plottables.push_back(entry);
    };
    std::vector<std::pair<std::size_t, std::string>> ordered;
    for (const auto &[name, index] : m_groups)
        ordered.emplace_back(index, name);
    std::sort(ordered.begin(), ordered.end());
    for (const auto &[index, name] : ordered)
        legendEntry(
            QCPScatterStyle(QCPScatterStyle::ssCircle, groupColor(index), groupColor(index), 8),
            q(name));
    if (batch.levelsSeen.size() > 1) {
        for (const auto &[shape, level] : batch.levelsSeen) {
            legendEntry(QCPScatterStyle(static_cast<QCPScatterStyle::ScatterShape>(shape),
                            m_theme.foreground, m_theme.background, 8),
                level ? q(std::string(memoryLevelName(*level))) : tr("main memory"));
        }
    }
}

void RooflinePlot::drawSweep(std::vector<std::pair<double, std::size_t>> members)
{
    std::sort(members.begin(), members.end());
    const Document &doc = *m_document;
    struct Sample {
        double value;
        double x;
        double y;
        double balance; // log(T_math / T_mem): ≥ 0 when compute-bound
    };
    std::vector<Sample> samples;
    std::string parameter;
    QColor color;
    for (const auto &[value, i] : members) {
        const auto &a = doc.analysis(i);
        if (!a || a->levels.empty())
            continue;
        double tMem = 0.0;
        for (const auto &level : a->levels)
            tMem = std::max(tMem, level.tMem);
        samples.push_back({ value, a->levels.front().intensity,
            a->performance.value_or(a->attainable), std::log(a->tMath / tMem) });
        parameter = doc.workload(i)->sweep->parameter;
        color = groupColor(m_groups.at(
            doc.measuredPoint(i).group.empty() ? "kernels" : doc.measuredPoint(i).group));
    }
    if (samples.size() < 2)
        return;
    auto *curve = new QCPCurve(xAxis, yAxis);
    curve->removeFromLegend();
    curve->setSelectable(QCP::stNone);
    curve->setLayer(chart::kGhostLayer);
    curve->setPen(QPen(color, 1.6 * m_theme.lineScale));
    for (const auto &s : samples)
        curve->addData(s.x, s.y);
    m_drawing.plottables.push_back(curve);
    for (std::size_t k = 1; k < samples.size(); ++k) {
        const Sample &s0 = samples[k - 1];
        const Sample &s1 = samples[k];
        if ((s0.balance >= 0.0) == (s1.balance >= 0.0))
            continue;
        // The bound flips where T_math = T_mem; interpolated in log space between the samples.
        const double t = s0.balance / (s0.balance - s1.balance);
        const auto between = [t](double a, double b) { return a * std::pow(b / a, t); };
        const double value = between(s0.value, s1.value);
        const QString text = tr("%1 ≈ %2").arg(q(parameter), q(formatSignificant(value, 3)));
        m_drawing.crossings.push_back(std::make_unique<chart::SweepCrossingMarker>(
            this, QPointF(between(s0.x, s1.x), between(s0.y, s1.y)), text, color));
    }
}

void RooflinePlot::updateIsolatedPoint()
{
    clearDrawing(m_isolatedDrawing);
    if (!m_isolated || *m_isolated >= m_document->pointCount())
        return;
    PointBatch batch;
    collectPoint(*m_isolated, batch, m_isolatedDrawing, true);
    flushBatch(batch, m_isolatedDrawing, false);
}

void RooflinePlot::isolatePoint(std::optional<std::size_t> index)
{
    if (m_isolated == index)
        return;
    m_isolated = index;
    rebuildPoints();
    requestReplot();
}

std::vector<RooflinePlot::SweepCrossing> RooflinePlot::sweepCrossings() const
{
    std::vector<SweepCrossing> out;
    for (const auto &c : m_drawing.crossings)
        out.push_back({ c->at(), c->text() });
    return out;
}

void RooflinePlot::placeLabels()
{
    const QCPRange xr = xAxis->range();
    const QCPRange yr = yAxis->range();
    // Slanted labels: on the visible part of their line, near its lower-left end.
    int slot = 0;
    double topPeak = 0.0;
    for (const auto &c : m_document->hardware().compute) {
        if (c.visible)
            topPeak = std::max(topPeak, c.peak);
    }
    const auto placeSlanted = [&](chart::RoofLine &roof, double top) {
        const double start = std::max(xr.lower, yr.lower / roof.value());
        const double end = std::min({ xr.upper, yr.upper / roof.value(), top / roof.value() });
        roof.label()->setVisible(start < end);
        if (start < end)
            roof.placeLabel(start * std::pow(end / start, 0.06 + 0.05 * (slot % 3)), 0.0);
        ++slot;
    };
    // Flat labels at the right edge; labels whose lines are too close stand side by side.
    struct Placed {
        double y;
        double right;
    };
    std::vector<Placed> placed;
    const auto placeFlat = [&](chart::RoofLine &roof) {
        if (roof.text().isEmpty())
            return;
        const QFontMetrics metrics(roof.label()->font());
        const double y = yAxis->coordToPixel(roof.value());
        const double height = metrics.height() + 2.0;
        double shift = 0.0;
        for (const auto &p : placed) {
            if (std::abs(p.y - y) < height)
                shift = std::max(shift, p.right + 18.0);
        }
        // Where labels stand side by side in a small plot, the last ones lose the start of
        // their names ("…BF16 tensor 2:4 sparse  1.98 PFLOP/s": the value stays) rather than run
        // past the plot's left edge; one with no room for more than its value is left out.
        const int room = static_cast<int>(axisRect()->rect().width() - 8.0 - shift - 10.0);
        QString shown = roof.text();
        if (metrics.horizontalAdvance(shown) > room) {
            const int value = metrics.horizontalAdvance(shown.mid(shown.lastIndexOf("  ")));
            shown = room > value + metrics.horizontalAdvance(QStringLiteral("…xxxx"))
                ? metrics.elidedText(shown, Qt::ElideLeft, room)
                : QString();
        }
        roof.label()->setText(shown);
        roof.label()->setVisible(!shown.isEmpty());
        if (shown.isEmpty())
            return;
        roof.placeLabel(0.0, shift);
        placed.push_back({ y, shift + metrics.horizontalAdvance(shown) + 10.0 });
    };
    std::vector<chart::RoofLine *> flat;
    for (auto &roof : m_roofs) {
        if (roof->kind() == RoofLine::Kind::Memory)
            placeSlanted(*roof, topPeak);
        else
            flat.push_back(roof.get());
    }
    for (auto &roof : m_compareRoofs) {
        if (roof->kind() == RoofLine::Kind::Memory) {
            const Hardware *other = m_document->compareHardware();
            double otherPeak = 0.0;
            for (const auto &c : other ? other->compute : std::vector<ComputeCeiling> {}) {
                if (c.visible)
                    otherPeak = std::max(otherPeak, c.peak);
            }
            placeSlanted(*roof, otherPeak > 0.0 ? otherPeak : topPeak);
        } else {
            flat.push_back(roof.get());
        }
    }
    // The active roof's label first, at the right edge, so crowding never hides the roof the
    // points are measured against; then the others from the top down.
    // (Ceilings of one peak share the first one's label.)
    const ComputeCeiling *active = m_document->activeComputeCeiling();
    const auto isActive = [&](const chart::RoofLine *roof) {
        return active && std::abs(roof->value() - active->peak) <= 0.005 * active->peak
            && std::find_if(m_roofs.begin(), m_roofs.end(),
                   [roof](const auto &own) { return own.get() == roof; })
            != m_roofs.end();
    };
    std::sort(flat.begin(), flat.end(), [&](auto *a, auto *b) {
        if (isActive(a) != isActive(b))
            return isActive(a);
        return a->value() > b->value();
    });
    for (auto *roof : flat)
        placeFlat(*roof);
}

QString RooflinePlot::reachTheRoof(const KernelPoint &point, const PointAnalysis &a) const
{
    QStringList lines;
    if (a.performance && a.consistent && *a.performance < 0.99 * a.attainable) {
        lines << tr("to reach its roof: +%1 (×%2)")
                     .arg(rate(a.attainable - *a.performance),
                         q(formatSignificant(a.attainable / *a.performance, 3)));
    }
    if (a.bound == Bound::Memory) {
        const auto binding = std::find_if(a.levels.begin(), a.levels.end(),
            [&](const LevelAnalysis &l) { return l.memory == a.limitingCeiling; });
        if (binding != a.levels.end()) {
            const double needed = a.peak / binding->bandwidth; // the ridge of this pair
            const double target = point.flops / needed;
            lines << tr("to reach the compute roof: intensity ≥ %1 FLOP/B on %2, i.e. remove "
                        "%3 of its %4")
                         .arg(q(formatSignificant(needed, 3)), q(binding->memory).toHtmlEscaped(),
                             q(formatQuantity(binding->bytes - target, Dimension::Bytes, 3)),
                             q(formatQuantity(binding->bytes, Dimension::Bytes, 3)));
        }
    } else {
        lines << tr("on the compute roof: only a faster ceiling (lower precision, tensor "
                    "units) or fewer FLOPs make it faster");
    }
    return lines.join("<br>");
}

QString RooflinePlot::pointDescription(std::size_t index) const
{
    if (index >= m_document->pointCount())
        return {};
    const KernelPoint point = m_document->point(index);
    const auto &result = m_document->analysis(index);
    QString text = QStringLiteral("<b>%1</b>").arg(q(point.name).toHtmlEscaped());
    if (!point.group.empty())
        text += "<br>" + tr("group: %1").arg(q(point.group).toHtmlEscaped());
    const WhatIf &move = m_document->whatIf(index);
    if (!move.isIdentity())
        text += "<br><i>"
            + tr("what-if: bytes ×%1, time ×%2 (drag back or undo to restore)")
                  .arg(q(formatSignificant(move.bytesFactor, 3)),
                      q(formatSignificant(move.timeFactor, 3)))
            + "</i>";
    text += "<br>" + tr("FLOPs: %1").arg(q(formatQuantity(point.flops, Dimension::Flops)));
    if (m_document->quantMode() != QuantMode::None && !m_document->workload(index))
        text += "<br><i>"
            + tr("quantization %1 does not move this point: a measured kernel keeps its measured "
                 "FLOPs, bytes and time")
                  .arg(q(std::string(quantModeName(m_document->quantMode()))))
            + "</i>";
    if (!result) {
        text += "<br><i>" + q(result.error()).toHtmlEscaped() + "</i>";
        return text;
    }
    const PointAnalysis &a = *result;
    for (const auto &level : a.levels) {
        text += "<br>"
            + tr("%1: %2, intensity %3 FLOP/B, roof %4")
                  .arg(q(level.memory).toHtmlEscaped(),
                      q(formatQuantity(level.bytes, Dimension::Bytes)),
                      q(formatSignificant(level.intensity, 4)), rate(level.attainable));
    }
    if (a.performance)
        text += "<br>" + tr("performance: %1").arg(rate(*a.performance));
    text += "<br>"
        + tr("attainable: %1 = min(π, β·I) (%2-bound by %3)")
              .arg(rate(a.attainable), q(std::string(boundName(a.bound))),
                  q(a.limitingCeiling).toHtmlEscaped());
    if (a.utilization)
        text += "<br>"
            + tr("utilization: %1 % of attainable")
                  .arg(q(formatSignificant(*a.utilization * 100.0, 3)));
    text += "<br>"
        + tr("T_min %1, T_max %2")
              .arg(q(formatQuantity(a.tMin, Dimension::Time)),
                  q(formatQuantity(a.tMax, Dimension::Time)));
    if (!a.consistent)
        text += "<br><b style='color:#c00000'>" + tr("impossible: faster than its roof allows")
            + "</b>";
    if (!a.note.empty())
        text += "<br><i>" + q(a.note).toHtmlEscaped() + "</i>";
    if (const QString reach = reachTheRoof(point, a); !reach.isEmpty())
        text += "<br>" + reach;
    if (const Hardware *other = m_document->compareHardware()) {
        const auto there = m_document->compareAnalysis(index);
        if (there) {
            const double here = a.performance.value_or(a.attainable);
            text += "<br>"
                + tr("on %1: attainable %2 (%3-bound by %4); speed-up bound ×%5 over %6")
                      .arg(q(other->name).toHtmlEscaped(), rate(there->attainable),
                          q(std::string(boundName(there->bound))),
                          q(there->limitingCeiling).toHtmlEscaped(),
                          q(formatSignificant(there->attainable / here, 3)),
                          a.performance ? tr("the measurement") : tr("the attainable here"));
        } else {
            text += "<br>" + tr("on %1: %2").arg(q(other->name), q(there.error()).toHtmlEscaped());
        }
    }
    if (!point.source.file.empty())
        text += "<br>" + tr("from %1:%2").arg(q(point.source.file)).arg(point.source.line);
    return text;
}

std::optional<QPointF> RooflinePlot::pointCoords(std::size_t index, std::size_t level) const
{
    if (index >= m_document->pointCount())
        return std::nullopt;
    const auto &a = m_document->analysis(index);
    if (!a || level >= a->levels.size())
        return std::nullopt;
    return QPointF(a->levels[level].intensity, a->performance.value_or(a->attainable));
}

QPointF RooflinePlot::pointPosition(std::size_t index, std::size_t level) const
{
    const auto coords = pointCoords(index, level);
    if (!coords)
        return { -1.0, -1.0 };
    return { xAxis->coordToPixel(coords->x()), yAxis->coordToPixel(coords->y()) };
}

int RooflinePlot::pointAt(const QPointF &position) const
{
    int best = -1;
    double bestDistance = kPickRadius;
    const auto consider = [&](std::size_t i, double px, double py) {
        const double d = std::hypot(px - position.x(), py - position.y());
        if (d < bestDistance || (d == bestDistance && best >= 0 && static_cast<int>(i) < best)) {
            bestDistance = d;
            best = static_cast<int>(i);
        }
    };
    // The dragged point from the Document: its entry in the index is where the drag began.
    if (m_isolated && *m_isolated < m_document->pointCount()) {
        if (const auto &a = m_document->analysis(*m_isolated)) {
            const double y = yAxis->coordToPixel(a->performance.value_or(a->attainable));
            for (const auto &level : a->levels)
                consider(*m_isolated, xAxis->coordToPixel(level.intensity), y);
        }
    }
    const HitIndex &index = m_hitIndex;
    if (index.entries.empty())
        return best;
    const QCPRange xr = xAxis->range();
    const QCPRange yr = yAxis->range();
    const LogToPixel toX(xAxis, xr.lower, xr.upper);
    const LogToPixel toY(yAxis, yr.lower, yr.upper);
    if (!toX.valid() || !toY.valid())
        return best;
    // The pick circle's bounding box in log10 coordinates, then the buckets it touches.
    const auto span = [](const LogToPixel &map, double pixel, double radius) {
        const double a = map.log0 + (pixel - radius - map.pixel0) / map.slope;
        const double b = map.log0 + (pixel + radius - map.pixel0) / map.slope;
        return std::pair(std::min(a, b), std::max(a, b));
    };
    const auto [lxLow, lxHigh] = span(toX, position.x(), kPickRadius);
    const auto [lyLow, lyHigh] = span(toY, position.y(), kPickRadius);
    const auto cells = [](double low, double high, double origin, double step, int count) {
        const double first = std::floor((low - origin) / step);
        const double last = std::floor((high - origin) / step);
        return std::pair(static_cast<int>(std::clamp(first, 0.0, count - 1.0)),
            static_cast<int>(std::clamp(last, 0.0, count - 1.0)));
    };
    const auto [c0, c1] = cells(lxLow, lxHigh, index.lx0, index.lxStep, index.columns);
    const auto [r0, r1] = cells(lyLow, lyHigh, index.ly0, index.lyStep, index.rows);
    for (int r = r0; r <= r1; ++r) {
        for (int c = c0; c <= c1; ++c) {
            const std::size_t b = static_cast<std::size_t>(r) * index.columns + c;
            for (std::uint32_t e = index.start[b]; e < index.start[b + 1]; ++e) {
                const HitIndex::Entry &entry = index.entries[e];
                if (m_isolated && entry.point == *m_isolated)
                    continue;
                consider(entry.point, toX(entry.lx), toY(entry.ly));
            }
        }
    }
    return best;
}

std::optional<RooflinePlot::CeilingHit> RooflinePlot::ceilingAt(const QPointF &position) const
{
    if (!axisRect()->rect().contains(position.toPoint()))
        return std::nullopt;
    const chart::RoofLine *best = nullptr;
    double bestDistance = 5.0;
    for (const auto &roof : m_roofs) {
        const double d = roof->distanceTo(position);
        if (d < bestDistance) {
            bestDistance = d;
            best = roof.get();
        }
    }
    if (!best)
        return std::nullopt;
    return CeilingHit { best->kind() == RoofLine::Kind::Compute, best->index() };
}

QPointF RooflinePlot::ceilingPosition(const CeilingHit &ceiling, double x) const
{
    const Hardware &hw = m_document->hardware();
    const auto i = static_cast<std::size_t>(ceiling.index);
    const double y = ceiling.compute ? hw.compute.at(i).peak : hw.memory.at(i).bandwidth * x;
    return { xAxis->coordToPixel(x), yAxis->coordToPixel(y) };
}

std::vector<std::pair<QPointF, QPointF>> RooflinePlot::ghosts() const
{
    std::vector<std::pair<QPointF, QPointF>> out;
    for (const auto *drawing : { &m_drawing, &m_isolatedDrawing, &m_decorations }) {
        for (const auto &ghost : drawing->ghosts)
            out.emplace_back(ghost->from(), ghost->to());
    }
    return out;
}

QStringList RooflinePlot::pointLabels() const
{
    QStringList out;
    for (const auto *drawing : { &m_drawing, &m_isolatedDrawing, &m_decorations }) {
        for (const auto &label : drawing->labels)
            out << label->text();
    }
    return out;
}

QPointF RooflinePlot::coordsAt(const QPointF &position) const
{
    return { xAxis->pixelToCoord(position.x()), yAxis->pixelToCoord(position.y()) };
}

void RooflinePlot::mousePressEvent(QMouseEvent *event)
{
    m_pressPosition = event->position().toPoint();
    if (event->button() == Qt::LeftButton && !(event->modifiers() & Qt::ShiftModifier)) {
        const int index = pointAt(event->position());
        if (index >= 0) {
            const auto i = static_cast<std::size_t>(index);
            if (event->modifiers() & Qt::ControlModifier) {
                auto selection = m_document->selection();
                if (m_document->isSelected(i))
                    std::erase(selection, i);
                else
                    selection.push_back(i);
                m_document->setSelection(std::move(selection));
                event->accept();
                return;
            }
            if (!m_document->isSelected(i))
                m_document->setSelection({ i });
            // Isolated (drawn on its own) at the first move: a click that only selects does
            // not redraw every point.
            m_drag = Drag { Drag::Kind::Point, i, coordsAt(event->position()),
                m_document->whatIf(i), 0.0, false };
            setFocus(Qt::MouseFocusReason);
            setCursor(Qt::ClosedHandCursor);
            event->accept();
            return;
        }
        if (const auto hit = ceilingAt(event->position())) {
            const Hardware &hw = m_document->hardware();
            const auto i = static_cast<std::size_t>(hit->index);
            m_drag = Drag { hit->compute ? Drag::Kind::Compute : Drag::Kind::Memory, i,
                coordsAt(event->position()), {},
                hit->compute ? hw.compute[i].peak : hw.memory[i].bandwidth, false };
            setFocus(Qt::MouseFocusReason);
            event->accept();
            return;
        }
    }
    // Shift-drag draws a rectangle to zoom into; a plain drag pans.
    setSelectionRectMode(event->modifiers() & Qt::ShiftModifier ? QCP::srmZoom : QCP::srmNone);
    QCustomPlot::mousePressEvent(event);
}

void RooflinePlot::dragTo(const QPointF &position, EditPhase phase)
{
    const QPointF now = coordsAt(position);
    if (!(now.x() > 0.0 && now.y() > 0.0) || !std::isfinite(now.x()) || !std::isfinite(now.y()))
        return;
    const double rx = now.x() / m_drag->startCoords.x();
    const double ry = now.y() / m_drag->startCoords.y();
    if (m_drag->kind == Drag::Kind::Point) {
        // FLOPs fixed: intensity × rx means bytes ÷ rx; performance × ry means time ÷ ry.
        WhatIf move = m_drag->startMove;
        move.bytesFactor /= rx;
        if (m_document->measuredPoint(m_drag->index).performance())
            move.timeFactor /= ry;
        m_document->setWhatIf(m_drag->index, move, phase);
        return;
    }
    Hardware hw = m_document->hardware();
    QString text;
    if (m_drag->kind == Drag::Kind::Compute) {
        auto &c = hw.compute[m_drag->index];
        c.peak = m_drag->startValue * ry;
        text
            = tr("Drag %1 to %2").arg(q(c.name), q(formatQuantity(c.peak, Dimension::FlopRate, 3)));
    } else {
        // The slanted roof y = β·x through the cursor, parallel to where it was grabbed.
        auto &m = hw.memory[m_drag->index];
        m.bandwidth = m_drag->startValue * ry / rx;
        text = tr("Drag %1 to %2")
                   .arg(q(m.name), q(formatQuantity(m.bandwidth, Dimension::ByteRate, 3)));
    }
    m_document->editHardware(std::move(hw), text, phase);
}

void RooflinePlot::mouseMoveEvent(QMouseEvent *event)
{
    if (m_drag) {
        if (m_drag->kind == Drag::Kind::Point)
            isolatePoint(m_drag->index);
        dragTo(event->position(), EditPhase::Preview);
        m_drag->moved = true;
        if (m_drag->kind == Drag::Kind::Point)
            QToolTip::showText(
                event->globalPosition().toPoint(), pointDescription(m_drag->index), this);
        event->accept();
        return;
    }
    QCustomPlot::mouseMoveEvent(event);
    const QPointF c = coordsAt(event->position());
    if (axisRect()->rect().contains(event->position().toPoint()))
        emit cursorMoved(c.x(), c.y());
    else
        emit cursorMoved(std::nan(""), std::nan(""));
    if (event->buttons() != Qt::NoButton)
        return;
    const int index = pointAt(event->position());
    if (index >= 0) {
        setCursor(Qt::OpenHandCursor);
        QToolTip::showText(event->globalPosition().toPoint(),
            pointDescription(static_cast<std::size_t>(index)), this);
        return;
    }
    QToolTip::hideText();
    if (const auto hit = ceilingAt(event->position()))
        setCursor(hit->compute ? Qt::SizeVerCursor : Qt::SizeFDiagCursor);
    else
        unsetCursor();
}

void RooflinePlot::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_drag) {
        if (m_drag->moved)
            dragTo(event->position(), EditPhase::Final);
        m_drag.reset();
        isolatePoint(std::nullopt);
        unsetCursor();
        event->accept();
        return;
    }
    const bool click = (event->position().toPoint() - m_pressPosition).manhattanLength() < 3;
    QCustomPlot::mouseReleaseEvent(event);
    if (click && event->button() == Qt::LeftButton && !(event->modifiers() & Qt::ControlModifier))
        m_document->setSelection({});
}

void RooflinePlot::keyPressEvent(QKeyEvent *event)
{
    if (m_drag && event->key() == Qt::Key_Escape) {
        m_document->cancelPreview();
        m_drag.reset();
        isolatePoint(std::nullopt);
        unsetCursor();
        event->accept();
        return;
    }
    QCustomPlot::keyPressEvent(event);
}

void RooflinePlot::leaveEvent(QEvent *event)
{
    emit cursorMoved(std::nan(""), std::nan(""));
    QCustomPlot::leaveEvent(event);
}

} // namespace ridgepoint
