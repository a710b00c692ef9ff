// One placement problem for every text of the chart with a compared machine (issue 17, items
// 3, 4 and 6): the roofs' labels of both machines, the point labels, the markers and the legend
// never overlap, at 10, 40 and 200 points in exports of three sizes; over a density, a roof
// label leaves the occupied cells when its roof has a free stretch, and the legend takes a
// corner the density leaves empty.
#include "tests/support/testmachine.h"

#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/densitylayer.h"
#include "widgets/chart/labelplacement.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflayer.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/export/chartexporter.h"

#include <QImage>
#include <QTest>

#include <random>

using namespace ridgepoint;

namespace {

// The compared machine: π = 3 TFLOP/s and 250 GFLOP/s, β = 300 GB/s and 2 TB/s, so its roofs
// cross the test machine's (π = 1 TFLOP/s, β = 100 GB/s) and crowd the same corners.
Hardware comparedMachine()
{
    Hardware hw;
    hw.name = "Compared machine";
    hw.aliases = { "CM" };
    hw.source = "tests";
    hw.compute.push_back({ "FP32 matrix", Precision::FP32, "matrix", 3e12, false, {}, true });
    hw.compute.push_back({ "FP64 vector", Precision::FP64, "vector", 2.5e11, false, {}, true });
    hw.memory.push_back({ "HBM", MemoryLevel::DRAM, 3e11, {}, true });
    hw.memory.push_back({ "L2", MemoryLevel::L2, 2e12, {}, true });
    hw.defaultCompute = "FP32 matrix";
    return hw;
}

// `count` points spread over 0.1–300 FLOP/B at 5–90 % of the test machine's roof, with names.
std::vector<KernelPoint> spread(int count, unsigned seed = 5)
{
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<KernelPoint> points;
    for (int i = 0; i < count; ++i) {
        const double intensity = std::pow(10.0, -1.0 + 3.5 * unit(random));
        const double rate = std::min(1e12, 1e11 * intensity) * (0.05 + 0.85 * unit(random));
        const double bytes = 1e9;
        points.push_back(test::point("kernel_" + std::to_string(i), i % 2 ? "a" : "b",
            intensity * bytes, bytes, intensity * bytes / rate));
    }
    return points;
}

// A plot of `size` pixels whose axes count pixels, with a text item at `at` (pixels) on it.
QCPItemText *textOnPlot(QCustomPlot &plot, QSize size, QPointF at)
{
    plot.resize(size);
    plot.xAxis->setRange(0, size.width());
    plot.yAxis->setRange(0, size.height());
    plot.replot();
    auto *text = new QCPItemText(&plot);
    text->position->setType(QCPItemPosition::ptAbsolute);
    text->position->setCoords(at.x(), at.y());
    return text;
}

// A text item's top edge and left side as its own anchors place them (each lays the text out).
struct TextSides {
    QPointF topLeft;
    QPointF along; // top left -> top right
    QPointF across; // top left -> bottom left
    double length = 0.0;
    double height = 0.0;
};

TextSides sidesOf(const QCPItemText &text)
{
    TextSides sides;
    sides.topLeft = text.topLeft->pixelPosition();
    sides.along = text.topRight->pixelPosition() - sides.topLeft;
    sides.across = text.bottomLeft->pixelPosition() - sides.topLeft;
    sides.length = std::hypot(sides.along.x(), sides.along.y());
    sides.height = std::hypot(sides.across.x(), sides.across.y());
    return sides;
}

const RooflinePlot::LabelLayout *layoutOfWidth(const RooflinePlot &plot, int width)
{
    for (const auto &layout : plot.inspect().labelLayouts()) {
        if (layout.size.width() == width)
            return &layout;
    }
    return nullptr;
}

// The layout of a PNG export of `plot` at `size`; null when the export or its layout is missing.
const RooflinePlot::LabelLayout *exportedLayout(RooflinePlot &plot, QSize size)
{
    ExportOptions options;
    options.width = size.width();
    options.height = size.height();
    if (QImage::fromData(ChartExporter(plot).renderToBytes("png", options)).isNull())
        return nullptr;
    return layoutOfWidth(plot, size.width());
}

QString show(const QRectF &r)
{
    return QStringLiteral("(%1,%2 %3×%4)").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

// The first box of `a` over one of `b`, as text; empty when none.
QString overlap(const std::vector<QRectF> &a, const std::vector<QRectF> &b)
{
    for (const QRectF &x : a) {
        for (const QRectF &y : b) {
            if (x.intersects(y))
                return show(x) + " × " + show(y);
        }
    }
    return {};
}

// What the ridge's label lies over, "marker: ...", "point label: ..." or "roof label: ...";
// empty when it lies over none of them.
QString ridgeLabelOver(const RooflinePlot::LabelLayout &layout)
{
    if (QString over = overlap(layout.ridgeLabel, layout.markers); !over.isEmpty())
        return "marker: " + over;
    if (QString over = overlap(layout.ridgeLabel, layout.labels); !over.isEmpty())
        return "point label: " + over;
    for (const auto &roof : layout.roofLabels) {
        if (QString over = overlap(layout.ridgeLabel, roof); !over.isEmpty())
            return "roof label: " + over;
    }
    return {};
}

} // namespace

class TestCompareLabels : public QObject
{
    Q_OBJECT

private slots:
    void textBoxesFollowATurnedText();
    void textBoxesMatchTheItemsAnchors_data();
    void textBoxesMatchTheItemsAnchors();
    void occupiedCellsCountTheBox_data();
    void occupiedCellsCountTheBox();
    void nothingOverlapsWithAComparedMachine_data();
    void nothingOverlapsWithAComparedMachine();
    void ridgeLabelMovesOffTheMarkers_data();
    void ridgeLabelMovesOffTheMarkers();
    void ridgeLabelHasAHaloOverADensity();
    void svgHoldsEachLabelOnce();
    void roofLabelLeavesTheDensity();
    void comparedRoofsFollowTheData_data();
    void comparedRoofsFollowTheData();
    void legendTakesTheCornerWithoutDensity();
};

void TestCompareLabels::textBoxesFollowATurnedText()
{
    // A text 100 px long and 10 px high turned by 45°: its bounding box is about 78 px square
    // ((100 + 10) / √2), but the ten pieces along it (100 / 10) cover only a band around the
    // diagonal: the far corner of the bounding box is in none of them.
    QCustomPlot plot;
    auto *text = textOnPlot(plot, QSize(400, 400), QPointF(200, 200));
    text->setPadding(QMargins());
    text->setText(QStringLiteral("x"));
    QFont font = text->font();
    font.setPixelSize(10);
    text->setFont(font);
    text->setRotation(-45.0);
    const TextSides sides = sidesOf(*text);
    const auto boxes = chart::textBoxes(*text);
    QCOMPARE(
        static_cast<int>(boxes.size()), static_cast<int>(std::ceil(sides.length / sides.height)));
    text->setRotation(0.0);
    QCOMPARE(chart::textBoxes(*text).size(), std::size_t(1));
}

void TestCompareLabels::textBoxesMatchTheItemsAnchors_data()
{
    QTest::addColumn<double>("rotation");
    QTest::addColumn<int>("alignment");
    QTest::addColumn<QMargins>("padding");
    QTest::addColumn<QString>("text");
    const auto align = [](Qt::Alignment a) { return static_cast<int>(a); };
    QTest::newRow("level, top left")
        << 0.0 << align(Qt::AlignLeft | Qt::AlignTop) << QMargins(2, 0, 2, 1) << "ridge 10 FLOP/B";
    QTest::newRow("level, bottom right") << 0.0 << align(Qt::AlignRight | Qt::AlignBottom)
                                         << QMargins(8, 8, 4, 0) << "BF16 tensor  989 TFLOP/s";
    QTest::newRow("level, centred") << 0.0 << align(Qt::AlignCenter) << QMargins(3, 1, 3, 1) << "x";
    QTest::newRow("turned -37°, bottom left") << -37.0 << align(Qt::AlignLeft | Qt::AlignBottom)
                                              << QMargins(2, 0, 2, 1) << "HBM3  3.35 TB/s";
    QTest::newRow("turned 61°, top right")
        << 61.0 << align(Qt::AlignRight | Qt::AlignTop) << QMargins(5, 2, 1, 3) << "L2  10.1 TB/s";
}

void TestCompareLabels::textBoxesMatchTheItemsAnchors()
{
    // textBoxes() measures a text once and computes its corners itself; the item's own anchors
    // (each of which lays the text out) must give the same pieces: the row of
    // ceil(length / height) boxes between topLeft→topRight, bottomLeft→… as the test computes.
    QFETCH(double, rotation);
    QFETCH(int, alignment);
    QFETCH(QMargins, padding);
    QFETCH(QString, text);
    QCustomPlot plot;
    auto *item = textOnPlot(plot, QSize(500, 400), QPointF(211.3, 187.6));
    item->setPositionAlignment(Qt::Alignment(alignment));
    item->setPadding(padding);
    item->setText(text);
    item->setRotation(rotation);
    const TextSides sides = sidesOf(*item);
    const int pieces
        = rotation == 0.0 ? 1 : static_cast<int>(std::ceil(sides.length / sides.height));
    const auto boxes = chart::textBoxes(*item);
    QCOMPARE(static_cast<int>(boxes.size()), pieces);
    for (int i = 0; i < pieces; ++i) {
        const QPointF start = sides.topLeft + sides.along * (static_cast<double>(i) / pieces);
        const QPointF end = sides.topLeft + sides.along * (static_cast<double>(i + 1) / pieces);
        const QRectF expected
            = QPolygonF({ start, end, end + sides.across, start + sides.across }).boundingRect();
        const QRectF &got = boxes[static_cast<std::size_t>(i)];
        QVERIFY2(std::abs(got.left() - expected.left()) < 1e-9
                && std::abs(got.top() - expected.top()) < 1e-9
                && std::abs(got.right() - expected.right()) < 1e-9
                && std::abs(got.bottom() - expected.bottom()) < 1e-9,
            qPrintable(show(got) + " vs " + show(expected)));
    }
    // A measure kept across calls gives the same boxes at a new place.
    chart::TextMeasure measure;
    QCOMPARE(chart::textBoxes(*item, measure).size(), boxes.size());
    item->position->setCoords(93.0, 301.5);
    const auto moved = chart::textBoxes(*item, measure);
    const QPointF shift(93.0 - 211.3, 301.5 - 187.6);
    QCOMPARE(moved.size(), boxes.size());
    for (std::size_t i = 0; i < moved.size(); ++i) {
        QVERIFY(std::abs(moved[i].left() - (boxes[i].left() + shift.x())) < 1e-9);
        QVERIFY(std::abs(moved[i].top() - (boxes[i].top() + shift.y())) < 1e-9);
    }
}

void TestCompareLabels::occupiedCellsCountTheBox_data()
{
    QTest::addColumn<double>("lx0");
    QTest::addColumn<double>("lx1");
    QTest::addColumn<double>("ly0");
    QTest::addColumn<double>("ly1");
    QTest::addColumn<int>("cells");
    // A 4 × 4 grid over log10 x, y in [0, 4] (the extent of the points (0, 0) and (4, 4)):
    // cells one decade square. Occupied: (0, 0) by (0.5, 0.5) and (0, 0); (3, 2) by (3.5, 2.5);
    // (3, 3) by (4, 4), the last cell being closed.
    QTest::newRow("whole grid") << 0.0 << 4.0 << 0.0 << 4.0 << 3;
    QTest::newRow("first cell only") << 0.1 << 0.9 << 0.1 << 0.9 << 1;
    QTest::newRow("empty middle") << 1.1 << 2.9 << 1.1 << 2.9 << 0;
    QTest::newRow("reversed corners") << 3.9 << 3.1 << 2.9 << 2.1 << 1;
    QTest::newRow("last cell") << 3.1 << 3.9 << 3.1 << 3.9 << 1;
    QTest::newRow("outside the grid") << 5.0 << 6.0 << 0.0 << 4.0 << 0;
}

void TestCompareLabels::occupiedCellsCountTheBox()
{
    QFETCH(double, lx0);
    QFETCH(double, lx1);
    QFETCH(double, ly0);
    QFETCH(double, ly1);
    QFETCH(int, cells);
    const chart::DensityGrid grid = chart::binLogDensity(
        { { 0.5F, 0.5F }, { 3.5F, 2.5F }, { 0.0F, 0.0F }, { 4.0F, 4.0F } }, 4, 4);
    QCOMPARE(chart::occupiedCells(grid, lx0, lx1, ly0, ly1), cells);
}

void TestCompareLabels::nothingOverlapsWithAComparedMachine_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<QSize>("size");
    for (const int count : { 10, 40, 200 }) {
        for (const QSize size : { QSize(400, 250), QSize(800, 500), QSize(1920, 1080) }) {
            const QByteArray row = QByteArray::number(count) + " points, "
                + QByteArray::number(size.width()) + "x" + QByteArray::number(size.height());
            QTest::newRow(row.constData()) << count << size;
        }
    }
}

void TestCompareLabels::nothingOverlapsWithAComparedMachine()
{
    QFETCH(int, count);
    QFETCH(QSize, size);
    RooflinePlot plot;
    plot.resize(900, 600);
    plot.document()->resetHardware(test::machine());
    plot.document()->setCompareHardware(comparedMachine());
    plot.document()->resetPoints(spread(count));
    plot.fitToData();
    const RooflinePlot::LabelLayout *layout = exportedLayout(plot, size);
    QVERIFY(layout);
    QVERIFY(!layout->markers.empty());
    QVERIFY(!layout->roofLabels.empty());
    // The compared machine's labels are among them (all its roofs are in this frame).
    int compareShown = 0;
    for (const auto &roof : plot.roofLayer().compareRoofs())
        compareShown += roof->label()->visible() ? 1 : 0;
    if (size.width() >= 800)
        QVERIFY(compareShown > 0);
    for (std::size_t i = 0; i < layout->roofLabels.size(); ++i) {
        const auto &mine = layout->roofLabels[i];
        for (std::size_t j = i + 1; j < layout->roofLabels.size(); ++j) {
            const QString both = overlap(mine, layout->roofLabels[j]);
            QVERIFY2(both.isEmpty(), qPrintable("roof label over roof label: " + both));
        }
        QString over = overlap(mine, layout->markers);
        QVERIFY2(over.isEmpty(), qPrintable("roof label over marker: " + over));
        over = overlap(mine, layout->labels);
        QVERIFY2(over.isEmpty(), qPrintable("roof label over point label: " + over));
        if (!layout->legend.isNull()) {
            over = overlap(mine, { layout->legend });
            QVERIFY2(over.isEmpty(), qPrintable("roof label over legend: " + over));
        }
    }
    // The ridge's label (test machine: 1 TFLOP/s / 100 GB/s = 10 FLOP/B, in this frame) is
    // placed with the roofs' labels: over no marker, no other label and not the legend.
    QVERIFY(!layout->ridgeLabel.empty());
    QString ridgeOver = ridgeLabelOver(*layout);
    QVERIFY2(ridgeOver.isEmpty(), qPrintable("ridge label over " + ridgeOver));
    if (!layout->legend.isNull()) {
        ridgeOver = overlap(layout->ridgeLabel, { layout->legend });
        QVERIFY2(ridgeOver.isEmpty(), qPrintable("ridge label over legend: " + ridgeOver));
    }
    // One legend entry for the compared machine, not one per roof.
    int compareEntries = 0;
    for (int i = 0; i < plot.legend->itemCount(); ++i) {
        auto *entry = qobject_cast<QCPPlottableLegendItem *>(plot.legend->item(i));
        if (entry && entry->plottable()->name().contains("Compared machine"))
            ++compareEntries;
    }
    QVERIFY(compareEntries <= 1);
}

void TestCompareLabels::ridgeLabelMovesOffTheMarkers_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("400x250") << QSize(400, 250);
    QTest::newRow("800x500") << QSize(800, 500);
    QTest::newRow("1920x1080") << QSize(1920, 1080);
}

void TestCompareLabels::ridgeLabelMovesOffTheMarkers()
{
    // Points crowding the ridge's usual place, below and right of the knee (10 FLOP/B,
    // 1 TFLOP/s on the test machine): 12–40 FLOP/B at 0.35–0.9 TFLOP/s, under the flat roof. The
    // label leaves them (the test checks the premise: its usual place is over a marker) and
    // stays by the drop line (8 px plus its width either side of it): near the knee (within the
    // rows tried, 5 lines below, 2 above) or at the line's foot (within 3 lines over the axis).
    QFETCH(QSize, size);
    std::mt19937 random(11);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<KernelPoint> points;
    for (int i = 0; i < 60; ++i) {
        const double intensity = 12.0 * std::pow(40.0 / 12.0, unit(random));
        const double rate = 3.5e11 + 5.5e11 * unit(random);
        points.push_back(test::point(
            "k" + std::to_string(i), "a", intensity * 1e9, 1e9, intensity * 1e9 / rate));
    }
    RooflinePlot plot;
    plot.resize(900, 600);
    plot.document()->resetHardware(test::machine());
    plot.document()->resetPoints(std::move(points));
    plot.xAxis->setRange(0.1, 1000.0);
    plot.yAxis->setRange(1e10, 3e12);
    const RooflinePlot::LabelLayout *layout = exportedLayout(plot, size);
    QVERIFY(layout);
    QVERIFY(!layout->ridgeLabel.empty());
    const QString over = ridgeLabelOver(*layout);
    QVERIFY2(over.isEmpty(), qPrintable("ridge label over " + over));
    // Near the knee: the export's axes give its pixel (the layout is the export's).
    const QRectF box = layout->ridgeLabel.front();
    QVERIFY(layout->plotArea.adjusted(-2, -2, 2, 2).contains(box));
    const QRectF area = layout->plotArea.adjusted(-2, -2, 2, 2); // LabelField's bounds + 2
    const double kneeX = area.left() + area.width() * (std::log10(10.0) - std::log10(0.1)) / 4.0;
    const double kneeY = area.bottom() - area.height() * (12.0 - 10.0) / (std::log10(3e12) - 10.0);
    // The premise: at its usual place (text 8 px right of and below the knee; the box has 2 px
    // of padding left of the text) the label would cover a marker.
    const QRectF usual(kneeX + 6.0, kneeY + 8.0, box.width(), box.height());
    QVERIFY2(!overlap({ usual }, layout->markers).isEmpty(), qPrintable(show(usual)));
    const double line = box.height();
    const bool nearKnee = box.top() <= kneeY + 8.0 + 5.0 * line + 1.0
        && box.bottom() >= kneeY - 8.0 - 2.0 * line - 1.0;
    const bool atFoot = box.bottom() <= area.bottom() + 1.0
        && box.top() >= area.bottom() - 4.0 - 4.0 * line - 1.0;
    QVERIFY2(nearKnee || atFoot, qPrintable(show(box)));
    QVERIFY2(box.left() <= kneeX + 8.0 && box.right() >= kneeX - 8.0, qPrintable(show(box)));
}

void TestCompareLabels::ridgeLabelHasAHaloOverADensity()
{
    // Over a density the ridge's label gets the roofs' labels' background (a halo); without one
    // it has none.
    std::vector<KernelPoint> points;
    for (int i = 0; i < 3000; ++i) {
        const double intensity = std::pow(10.0, -1.0 + 3.0 * (i % 100) / 100.0);
        points.push_back(test::point("k", "a", intensity * 1e9, 1e9, intensity * 1e9 / 1e10));
    }
    RooflinePlot plot;
    plot.document()->resetHardware(test::machine());
    plot.document()->resetPoints(std::move(points));
    plot.resize(1000, 650);
    plot.setViewport(QRect(0, 0, 1000, 650));
    for (const auto mode : { chart::PointsMode::Density, chart::PointsMode::Dots }) {
        chart::changeDisplay(plot, [&](chart::PlotDisplay &d) { d.points = mode; });
        plot.replot();
        const RooflinePlot::LabelLayout *layout = layoutOfWidth(plot, 1000);
        QVERIFY(layout);
        QVERIFY(!layout->ridgeLabel.empty());
        QCPItemText *ridge = nullptr;
        for (int i = 0; i < plot.itemCount(); ++i) {
            auto *text = qobject_cast<QCPItemText *>(plot.item(i));
            if (text && text->text().startsWith("ridge "))
                ridge = text;
        }
        QVERIFY(ridge);
        QCOMPARE(ridge->brush().style() != Qt::NoBrush, plot.inspect().densityShown());
        QCOMPARE(plot.inspect().densityShown(), mode == chart::PointsMode::Density);
    }
}

void TestCompareLabels::svgHoldsEachLabelOnce()
{
    // An SVG is drawn in two passes (the second redraws the axes over a cover of the margins,
    // chartexporter.cpp) and only the first may draw the labels: each shown roof label, the
    // ridge's and each point label is in the file once.
    RooflinePlot plot;
    plot.resize(900, 600);
    plot.document()->resetHardware(test::machine());
    plot.document()->resetPoints(spread(10));
    plot.fitToData();
    ExportOptions options;
    options.width = 800;
    options.height = 500;
    const QString svg = QString::fromUtf8(ChartExporter(plot).renderToBytes("svg", options));
    QVERIFY(svg.contains("<svg"));
    QStringList texts;
    for (const auto &roof : plot.roofLayer().ownRoofs()) {
        if (roof->label()->visible())
            texts << roof->label()->text();
    }
    QVERIFY(!texts.isEmpty());
    texts << QStringLiteral("ridge 10 FLOP/B");
    const RooflinePlot::LabelLayout *layout = layoutOfWidth(plot, 800);
    QVERIFY(layout);
    QVERIFY(!layout->pointLabels.empty());
    for (const auto &label : layout->pointLabels)
        texts << label.first;
    for (const QString &text : texts) {
        const QString element = '>' + text.toHtmlEscaped() + "</text>";
        QVERIFY2(svg.count(element) == 1,
            qPrintable(QStringLiteral("%1: %2 times").arg(text).arg(svg.count(element))));
    }
}

void TestCompareLabels::roofLabelLeavesTheDensity()
{
    // 4000 points drawn as a density at 100–1000 FLOP/B and 255–900 GFLOP/s: above the compared
    // machine's 250 GFLOP/s roof and under the test machine's 1 TFLOP/s one. That roof's label
    // belongs at the plot's right edge; there the density covers it, while left of 100 FLOP/B
    // its line is free.
    std::mt19937 random(3);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<KernelPoint> points;
    for (int i = 0; i < 4000; ++i) {
        const double intensity = std::pow(10.0, 2.0 + unit(random));
        const double rate = 2.55e11 + 6.45e11 * unit(random);
        points.push_back(test::point("k", "a", intensity * 1e9, 1e9, intensity * 1e9 / rate));
    }
    RooflinePlot plot;
    chart::changeDisplay(
        plot, [&](chart::PlotDisplay &d) { d.points = chart::PointsMode::Density; });
    chart::changeDisplay(plot, [&](chart::PlotDisplay &d) { d.densityTopDots = 0; });
    plot.document()->resetHardware(test::machine());
    plot.document()->setCompareHardware(comparedMachine());
    // Every roof: the compared FP64 one at 250 GFLOP/s is not of these (FP32) points' precision.
    plot.document()->setRoofsShown(RoofsShown::All);
    plot.document()->resetPoints(std::move(points));
    plot.resize(1000, 650);
    plot.setViewport(QRect(0, 0, 1000, 650));
    plot.xAxis->setRange(0.01, 2000.0);
    plot.yAxis->setRange(1e9, 1e13);
    plot.replot();
    QVERIFY(plot.inspect().densityShown());
    const chart::RoofLine *low = nullptr;
    for (const auto &roof : plot.roofLayer().compareRoofs()) {
        if (roof->kind() == chart::RoofLine::Kind::Compute && roof->value() == 2.5e11)
            low = roof.get();
    }
    QVERIFY(low);
    QVERIFY(low->label()->visible());
    // At the right edge the label would cover occupied cells (the test's premise) ...
    const QRectF at = chart::textBoxes(*low->label()).front();
    const QRect area = plot.axisRect()->rect();
    const QRectF atEdge(area.right() - at.width(), at.top(), at.width(), at.height());
    QVERIFY(plot.inspect().densityLayer().occupiedIn(atEdge) > 0);
    // ... as placed it covers none.
    const auto boxes = chart::textBoxes(*low->label());
    int covered = 0;
    for (const QRectF &box : boxes)
        covered += plot.inspect().densityLayer().occupiedIn(box);
    QCOMPARE(covered, 0);
    // And it is drawn on a background (a halo) over the density.
    QVERIFY(low->label()->brush().style() != Qt::NoBrush);
}

void TestCompareLabels::legendTakesTheCornerWithoutDensity()
{
    // A density filling the view's top-left corner (points at 0.1–0.3 FLOP/B and 5–9 GFLOP/s,
    // on the test machine's 100 GB/s roof, which allows 10–30 GFLOP/s there), the view's top at
    // 12 GFLOP/s: the legend, whose first choice is top left, goes to a corner without
    // occupied cells.
    std::mt19937 random(9);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<KernelPoint> points;
    for (int i = 0; i < 6000; ++i) {
        const double intensity = 0.1 * std::pow(3.0, unit(random));
        const double rate = 5e9 + 4e9 * unit(random);
        points.push_back(test::point("k", "a", intensity * 1e9, 1e9, intensity * 1e9 / rate));
    }
    RooflinePlot plot;
    chart::changeDisplay(
        plot, [&](chart::PlotDisplay &d) { d.points = chart::PointsMode::Density; });
    chart::changeDisplay(plot, [&](chart::PlotDisplay &d) { d.densityTopDots = 0; });
    plot.document()->resetHardware(test::machine());
    plot.document()->resetPoints(std::move(points));
    plot.resize(1400, 800);
    plot.setViewport(QRect(0, 0, 1400, 800)); // a widget never shown gets no resize event
    plot.xAxis->setRange(0.1, 100.0);
    plot.yAxis->setRange(1e8, 1.2e10);
    plot.replot();
    QVERIFY(plot.inspect().densityShown());
    QVERIFY(plot.legend->visible());
    const QRectF legend = plot.legend->outerRect();
    const QRect area = plot.axisRect()->rect();
    QVERIFY2(area.contains(legend.toRect()), qPrintable(show(legend) + " in " + show(area)));
    // The top-left corner is taken by the density (the test's premise).
    QVERIFY(plot.inspect().densityLayer().occupiedIn(
                chart::cornerBox(Qt::AlignTop | Qt::AlignLeft, legend.size().toSize(), area))
        > 0);
    QCOMPARE(plot.inspect().densityLayer().occupiedIn(legend), 0);
}

// The compared machine draws the roofs of the points' precisions and no 2:4-sparse figure, as
// the machine's own roofs (roofselection.h); "Show all roofs" draws every one.
void TestCompareLabels::comparedRoofsFollowTheData_data()
{
    QTest::addColumn<bool>("all");
    QTest::addColumn<QList<double>>("peaks");
    QTest::newRow("the data's") << false << QList<double> { 3e12 };
    QTest::newRow("all") << true << QList<double> { 3e12, 2.5e11, 6e12 };
}

void TestCompareLabels::comparedRoofsFollowTheData()
{
    QFETCH(bool, all);
    QFETCH(QList<double>, peaks);
    Hardware compared = comparedMachine();
    compared.compute.push_back(
        { "FP32 matrix 2:4 sparse", Precision::FP32, "matrix", 6e12, true, {}, true });
    RooflinePlot plot;
    plot.document()->resetHardware(test::machine());
    plot.document()->setCompareHardware(compared);
    plot.document()->resetPoints(spread(10)); // no precision: the FP32 default
    if (all)
        plot.document()->setRoofsShown(RoofsShown::All);
    plot.resize(800, 500);
    plot.replot();
    QList<double> drawn;
    for (const auto &roof : plot.roofLayer().compareRoofs()) {
        if (roof->kind() == chart::RoofLine::Kind::Compute)
            drawn << roof->value();
    }
    QCOMPARE(drawn, peaks);
}

QTEST_MAIN(TestCompareLabels)
#include "tst_comparelabels.moc"
