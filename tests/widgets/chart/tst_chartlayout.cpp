// The chart's geometry on plain data, without a widget: decimation and the hit index
// (pointgrid.h), where labels and the legend go (labelplacement.h), the dots of a point, the
// ridge crossings of a sweep and shared roof labels (pointlayer.h, rooflayer.h), the axes'
// frames (chartaxes.h), the theme's contrast (charttheme.h), the drag arithmetic
// (chartinteraction.h) and the export table's columns (exporttable.h).
#include "tests/support/testmachine.h"

#include "core/analysis/analysis.h"
#include "widgets/chart/chartaxes.h"
#include "widgets/chart/chartinteraction.h"
#include "widgets/chart/charttheme.h"
#include "widgets/chart/labelplacement.h"
#include "widgets/chart/pointgrid.h"
#include "widgets/chart/pointlayer.h"
#include "widgets/chart/rooflayer.h"
#include "widgets/export/exporttable.h"
#include "widgets/models/pointstablemodel.h"

#include <QFontMetrics>
#include <QImage>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

using namespace ridgepoint;
using namespace ridgepoint::chart;

namespace {

constexpr double kCell = 6.0;

// 60 pixels a decade from log 0 at pixel 0, so a cell is a tenth of a decade: cell column
// floor(10·log10 x).
const LogToPixel kTenthsX(0.0, 0.0, 60.0);
// Upwards, as a y axis: performance 10^8 at the bottom (600), 60 pixels a decade.
const LogToPixel kTenthsY(8.0, 600.0, -60.0);

SeriesPoints fromLogs(const std::vector<std::pair<double, double>> &logs)
{
    SeriesPoints points;
    for (const auto &[lx, ly] : logs) {
        points.x.push_back(std::pow(10.0, lx));
        points.y.push_back(std::pow(10.0, ly));
    }
    points.takeLogs();
    return points;
}

// A cloud of `count` points in the 600×600 view of kTenthsX, kTenthsY (intensities 1 to 10^10,
// performance 10^8 to 10^18), denser in the middle.
SeriesPoints cloud(std::size_t count, unsigned seed)
{
    std::mt19937 random(seed);
    std::normal_distribution<double> lx(5.0, 2.0);
    std::normal_distribution<double> ly(13.0, 2.0);
    // Drawn again until inside [0.5, 9] × [9, 17] decades: the view's edges stay empty.
    const auto within = [&random](std::normal_distribution<double> &d, double low, double high) {
        double v = d(random);
        while (v < low || v > high)
            v = d(random);
        return v;
    };
    std::vector<std::pair<double, double>> logs;
    for (std::size_t i = 0; i < count; ++i)
        logs.emplace_back(within(lx, 0.5, 9.0), within(ly, 9.0, 17.0));
    return fromLogs(logs);
}

std::pair<int, int> cellOf(double px, double py)
{
    return { static_cast<int>(std::floor(px / kCell)), static_cast<int>(std::floor(py / kCell)) };
}

QRectF pixelBounds(const std::vector<QPointF> &pixels)
{
    QRectF bounds(pixels.front(), QSizeF(0.0, 0.0));
    for (const QPointF &p : pixels)
        bounds |= QRectF(p, QSizeF(0.0, 0.0));
    return bounds;
}

ComputeCeiling ceiling(std::string name, double peak, bool visible = true)
{
    ComputeCeiling c;
    c.name = std::move(name);
    c.precision = Precision::BF16;
    c.unit = "tensor";
    c.peak = peak;
    c.visible = visible;
    return c;
}

} // namespace

class TestChartLayout : public QObject
{
    Q_OBJECT

private slots:
    // pointgrid.h
    void logToPixelInverts();
    void decimationKeepsOnePointPerCell();
    void decimationKeepsTheExtremes();
    void decimationKeepsMarginsAndDropsTheRest();
    void decimationOfAReversedAxisIsSorted();
    void decimationOfNothing();
    void hitIndexFindsTheNearest();
    void hitIndexSkipsAndBreaksTies();

    // labelplacement.h
    void flatLabelsNeverOverlap();
    void flatLabelsKeepAWholeFirstWord_data();
    void flatLabelsKeepAWholeFirstWord();
    void slantedLabelsStayOnTheVisibleLine();
    void legendTriesTheCornersInOrder();

    // pointlayer.h, rooflayer.h
    void levelDotsFollowTheLevels();
    void levelDotsOfAPointKnownByIntensity();
    void ridgeCrossingsInterpolateInLogSpace();
    void ceilingsOfOnePeakShareALabel();

    // chartaxes.h, charttheme.h, chartinteraction.h
    void framesSnapToDecades();
    void readableColoursReachTheirContrast();
    void dragsScaleTheMoveAndTheRoof();

    // exporttable.h
    void tableColumnsFitOrGoInOrder();
};

void TestChartLayout::logToPixelInverts()
{
    const LogToPixel map(-2.0, 50.0, 123.5);
    QVERIFY(map.valid());
    for (const double lx : { -2.0, -0.3, 0.0, 1.7, 6.0 })
        QVERIFY(std::abs(map.inverse(map(lx)) - lx) < 1e-12);
    QCOMPARE(map(-2.0), 50.0);
    QVERIFY(!LogToPixel(0.0, 0.0, 0.0).valid());
    QVERIFY(!LogToPixel(std::log10(0.0), 0.0, 1.0).valid());
}

// Points jittered about cell centres (never near a cell's edge, so the expected cell is
// unambiguous): each occupied cell keeps exactly one, the first given, sorted by intensity.
void TestChartLayout::decimationKeepsOnePointPerCell()
{
    std::mt19937 random(7);
    std::uniform_int_distribution<int> cellIndex(0, 99);
    std::uniform_real_distribution<double> jitter(-2.0, 2.0);
    std::vector<std::pair<double, double>> logs;
    std::vector<QPointF> pixels;
    std::map<std::pair<int, int>, std::size_t> firstInCell;
    for (std::size_t i = 0; i < 4000; ++i) {
        const double px = cellIndex(random) * kCell + kCell / 2 + jitter(random);
        const double py = cellIndex(random) * kCell + kCell / 2 + jitter(random);
        logs.emplace_back(kTenthsX.inverse(px), kTenthsY.inverse(py));
        pixels.emplace_back(px, py);
        firstInCell.try_emplace(cellOf(px, py), i);
    }
    const SeriesPoints points = fromLogs(logs);
    std::vector<std::uint8_t> scratch;
    const QVector<QCPGraphData> kept
        = decimate(points, QRect(0, 0, 600, 600), kTenthsX, kTenthsY, kCell, 0.0, scratch);

    QCOMPARE(std::size_t(kept.size()), firstInCell.size());
    QVERIFY(std::is_sorted(kept.begin(), kept.end(),
        [](const QCPGraphData &a, const QCPGraphData &b) { return a.key < b.key; }));
    std::set<std::pair<int, int>> cells;
    for (const QCPGraphData &d : kept) {
        const auto cell = cellOf(kTenthsX(std::log10(d.key)), kTenthsY(std::log10(d.value)));
        QVERIFY2(cells.insert(cell).second, "two points kept in one cell");
        const std::size_t first = firstInCell.at(cell);
        QCOMPARE(d.key, points.x[qsizetype(first)]);
        QCOMPARE(d.value, points.y[qsizetype(first)]);
    }
}

// However dense the cloud, the outermost points' cells are occupied, so what is drawn reaches
// as far as the data in every direction (within a cell), and a lone outlier always shows.
void TestChartLayout::decimationKeepsTheExtremes()
{
    for (const unsigned seed : { 1U, 2U, 3U }) {
        SeriesPoints points = cloud(20000, seed);
        // An outlier alone near the bottom-right corner.
        points.x.push_back(std::pow(10.0, 9.95));
        points.y.push_back(std::pow(10.0, 8.05));
        points.takeLogs();
        std::vector<std::uint8_t> scratch;
        const QVector<QCPGraphData> kept
            = decimate(points, QRect(0, 0, 600, 600), kTenthsX, kTenthsY, kCell, 0.0, scratch);
        QVERIFY(kept.size() <= 100 * 100); // a cell's worth at most
        std::vector<QPointF> all, drawn;
        for (qsizetype k = 0; k < points.x.size(); ++k)
            all.emplace_back(
                kTenthsX(points.lx[std::size_t(k)]), kTenthsY(points.ly[std::size_t(k)]));
        for (const QCPGraphData &d : kept)
            drawn.emplace_back(kTenthsX(std::log10(d.key)), kTenthsY(std::log10(d.value)));
        const QRectF allBounds = pixelBounds(all);
        const QRectF drawnBounds = pixelBounds(drawn);
        QVERIFY(drawnBounds.left() - allBounds.left() < kCell);
        QVERIFY(allBounds.right() - drawnBounds.right() < kCell);
        QVERIFY(drawnBounds.top() - allBounds.top() < kCell);
        QVERIFY(allBounds.bottom() - drawnBounds.bottom() < kCell);
        QVERIFY(std::any_of(kept.begin(), kept.end(),
            [&](const QCPGraphData &d) { return d.key == points.x.back(); }));
    }
}

// Markers within the margin outside the plot still show (their cells reach past it); farther
// ones, and points with no place on log axes, are left out.
void TestChartLayout::decimationKeepsMarginsAndDropsTheRest()
{
    const QRect rect(0, 0, 600, 600);
    // Pixel x: -3 (in the margin), -20 (beyond), 300; pixel y 300.
    std::vector<std::pair<double, double>> logs
        = { { kTenthsX.inverse(-3.0), kTenthsY.inverse(300.0) },
              { kTenthsX.inverse(-20.0), kTenthsY.inverse(300.0) },
              { kTenthsX.inverse(300.0), kTenthsY.inverse(300.0) } };
    SeriesPoints points = fromLogs(logs);
    // Zero and negative coordinates: NaN and -inf logarithms.
    points.x << 0.0 << -1.0;
    points.y << 1e10 << 1e10;
    points.takeLogs();
    std::vector<std::uint8_t> scratch;
    const QVector<QCPGraphData> kept
        = decimate(points, rect, kTenthsX, kTenthsY, kCell, 4.0, scratch);
    QCOMPARE(kept.size(), qsizetype(2));
    QCOMPARE(kept[0].key, points.x[0]);
    QCOMPARE(kept[1].key, points.x[2]);
    const QVector<QCPGraphData> tight
        = decimate(points, rect, kTenthsX, kTenthsY, kCell, 0.0, scratch);
    QCOMPARE(tight.size(), qsizetype(1));
    QCOMPARE(tight[0].key, points.x[2]);
}

void TestChartLayout::decimationOfAReversedAxisIsSorted()
{
    const SeriesPoints points = cloud(3000, 9);
    const LogToPixel reversed(0.0, 600.0, -60.0); // intensity grows to the left
    std::vector<std::uint8_t> scratch;
    const QVector<QCPGraphData> kept
        = decimate(points, QRect(0, 0, 600, 600), reversed, kTenthsY, kCell, 0.0, scratch);
    QVERIFY(!kept.isEmpty());
    QVERIFY(std::is_sorted(kept.begin(), kept.end(),
        [](const QCPGraphData &a, const QCPGraphData &b) { return a.key < b.key; }));
}

void TestChartLayout::decimationOfNothing()
{
    const SeriesPoints points = cloud(100, 4);
    std::vector<std::uint8_t> scratch;
    QVERIFY(
        decimate(points, QRect(0, 0, 0, 600), kTenthsX, kTenthsY, kCell, 0.0, scratch).isEmpty());
    QVERIFY(decimate(points, QRect(0, 0, 600, 600), LogToPixel(), kTenthsY, kCell, 0.0, scratch)
                .isEmpty());
    QVERIFY(
        decimate(SeriesPoints {}, QRect(0, 0, 600, 600), kTenthsX, kTenthsY, kCell, 0.0, scratch)
            .isEmpty());
}

// The index answers what a scan of every dot would, for many positions and views.
void TestChartLayout::hitIndexFindsTheNearest()
{
    std::mt19937 random(11);
    std::uniform_real_distribution<double> lx(-2.0, 3.0);
    std::uniform_real_distribution<double> ly(9.0, 12.0);
    std::vector<HitIndex::Entry> dots;
    for (std::uint32_t i = 0; i < 3000; ++i) {
        const auto x = static_cast<float>(lx(random));
        const auto y = static_cast<float>(ly(random));
        dots.push_back({ x, y, i });
        if (i % 5 == 0) // a second level of the same point
            dots.push_back({ x + 0.3F, y, i });
    }
    HitIndex index;
    index.build(dots);
    QCOMPARE(index.size(), dots.size());
    std::uniform_real_distribution<double> pixel(-20.0, 620.0);
    for (const double zoom : { 1.0, 4.0, 40.0 }) {
        const LogToPixel toX(-2.0, 0.0, 120.0 * zoom);
        const LogToPixel toY(9.0, 600.0, -200.0 * zoom);
        for (int q = 0; q < 300; ++q) {
            const QPointF at(pixel(random), pixel(random));
            NearestPoint scan(at, 8.0);
            for (const auto &dot : dots)
                scan.consider(dot.point, toX(dot.lx), toY(dot.ly));
            NearestPoint found(at, 8.0);
            index.findNear(found, toX, toY, std::nullopt);
            QCOMPARE(found.best(), scan.best());
        }
    }
}

void TestChartLayout::hitIndexSkipsAndBreaksTies()
{
    // Two points on one spot (the lower index wins), a third a little away.
    const std::vector<HitIndex::Entry> dots
        = { { 1.0F, 10.0F, 7 }, { 1.0F, 10.0F, 3 }, { 1.01F, 10.0F, 5 } };
    HitIndex index;
    index.build(dots);
    const LogToPixel toX(0.0, 0.0, 100.0);
    const LogToPixel toY(9.0, 500.0, -100.0);
    const QPointF spot(toX(1.0), toY(10.0));
    NearestPoint nearest(spot, 8.0);
    index.findNear(nearest, toX, toY, std::nullopt);
    QCOMPARE(nearest.best(), 3);
    NearestPoint skipping(spot, 8.0);
    index.findNear(skipping, toX, toY, std::size_t { 3 });
    QCOMPARE(skipping.best(), 7);
    NearestPoint far(spot + QPointF(50.0, 0.0), 8.0);
    index.findNear(far, toX, toY, std::nullopt);
    QCOMPARE(far.best(), -1);
    // Exactly at the radius is not within it.
    NearestPoint edge(QPointF(0.0, 0.0), 5.0);
    edge.consider(1, 3.0, 4.0);
    QCOMPARE(edge.best(), -1);
    edge.consider(2, 3.0, 3.9);
    QCOMPARE(edge.best(), 2);
    HitIndex empty;
    empty.build({});
    QVERIFY(empty.empty());
    NearestPoint none(spot, 8.0);
    empty.findNear(none, toX, toY, std::nullopt);
    QCOMPARE(none.best(), -1);
}

// Flat roof labels crowded together at the right edge: each one's box (right-aligned at the
// plot's edge less its shift, over its line) overlaps no other.
void TestChartLayout::flatLabelsNeverOverlap()
{
    constexpr double kRight = 900.0;
    constexpr double kHeight = 15.0;
    for (const unsigned seed : { 1U, 2U, 3U, 4U }) {
        std::mt19937 random(seed);
        std::uniform_real_distribution<double> row(0.0, 120.0); // crowded: a few lines' height
        std::uniform_real_distribution<double> width(30.0, 220.0);
        FlatLabelStack stack;
        std::vector<QRectF> boxes;
        for (int i = 0; i < 12; ++i) {
            const double y = row(random);
            const double w = width(random);
            const double shift = stack.shiftFor(y, kHeight);
            QVERIFY(shift >= 0.0);
            const QRectF box(kRight - shift - w, y - kHeight, w, kHeight);
            for (const QRectF &other : boxes)
                QVERIFY2(!box.intersects(other),
                    qPrintable(QStringLiteral("label %1 overlaps (seed %2)").arg(i).arg(seed)));
            boxes.push_back(box);
            stack.add(y, shift, w);
        }
    }
}

void TestChartLayout::flatLabelsKeepAWholeFirstWord_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("fitting"); // the room is this text's width
    QTest::addColumn<int>("spare"); // plus these pixels
    QTest::addColumn<QString>("expected");
    const QString shared = QStringLiteral("BF16 tensor · FP16 tensor  989 TFLOP/s");
    QTest::newRow("whole") << shared << shared << 5 << shared;
    // The names after the first go first, then the first name's words after its first.
    QTest::newRow("first name") << shared << QStringLiteral("BF16 tensor…  989 TFLOP/s") << 0
                                << QStringLiteral("BF16 tensor…  989 TFLOP/s");
    QTest::newRow("first word") << shared << QStringLiteral("BF16 tensor…  989 TFLOP/s") << -1
                                << QStringLiteral("BF16…  989 TFLOP/s");
    QTest::newRow("no room for a word")
        << shared << QStringLiteral("BF16…  989 TFLOP/s") << -1 << QString();
    QTest::newRow("only the value") << shared << QStringLiteral("  989 TFLOP/s") << 0 << QString();
    const QString sparse = QStringLiteral("FP8 tensor 2:4 sparse  3.96 PFLOP/s");
    QTest::newRow("a word at a time") << sparse << QStringLiteral("FP8 tensor 2:4…  3.96 PFLOP/s")
                                      << 0 << QStringLiteral("FP8 tensor 2:4…  3.96 PFLOP/s");
    // A compared machine's name is held to its ceiling's first word by no-break spaces.
    const QString compared = QStringLiteral("A100\u00a080GB\u00a0BF16 tensor  312 TFLOP/s");
    QTest::newRow("compared machine")
        << compared << QStringLiteral("A100 80GB BF16…  312 TFLOP/s") << 0
        << QStringLiteral("A100\u00a080GB\u00a0BF16…  312 TFLOP/s");
    QTest::newRow("compared machine's name")
        << compared << QStringLiteral("A100 80GB BF16…  312 TFLOP/s") << -1
        << QStringLiteral("A100\u00a080GB…  312 TFLOP/s");
}

void TestChartLayout::flatLabelsKeepAWholeFirstWord()
{
    QFETCH(QString, text);
    QFETCH(QString, fitting);
    QFETCH(int, spare);
    QFETCH(QString, expected);
    QFont font;
    font.setPointSizeF(10.0);
    const QFontMetrics metrics(font);
    const int room = metrics.horizontalAdvance(fitting) + spare;
    const QString shown = fitFlatLabel(text, metrics, room);
    QCOMPARE(shown, expected);
    QVERIFY(metrics.horizontalAdvance(shown) <= room);
}

void TestChartLayout::slantedLabelsStayOnTheVisibleLine()
{
    const QCPRange x(0.01, 1e4);
    const QCPRange y(1e9, 1e15);
    // y = 10^12·x: visible from x = 0.01 (the left edge) to x = 1000 (the roof at 10^15).
    double previous = 0.0;
    for (int slot = 0; slot < 3; ++slot) {
        const auto at = slantedLabelAt(x, y, 1e12, 1e15, slot);
        QVERIFY(at);
        QVERIFY(*at > 0.01 && *at < 1000.0);
        QVERIFY(*at > previous); // staggered
        // In the lower-left fifth of the visible span (log terms).
        QVERIFY(std::log10(*at / 0.01) < 0.2 * std::log10(1000.0 / 0.01));
        previous = *at;
    }
    QCOMPARE(*slantedLabelAt(x, y, 1e12, 1e15, 3), *slantedLabelAt(x, y, 1e12, 1e15, 0));
    // Entering the view at its bottom: from there on (y = 10^9 at x = 1).
    const auto low = slantedLabelAt(x, y, 1e9, 1e15, 0);
    QVERIFY(low && *low >= 1.0);
    // Wholly under the view, or ending (at its roof) left of it: no label.
    QVERIFY(!slantedLabelAt(x, y, 1e3, 1e15, 0));
    QVERIFY(!slantedLabelAt(x, y, 1e12, 1e9, 0));
}

void TestChartLayout::legendTriesTheCornersInOrder()
{
    const QRect area(10, 20, 500, 300);
    const QSize size(100, 50);
    for (const Qt::Alignment corner : kLegendCorners) {
        const QRect box = cornerBox(corner, size, area);
        QCOMPARE(box.size(), size);
        QVERIFY(area.contains(box));
    }
    QCOMPARE(cornerBox(Qt::AlignTop | Qt::AlignLeft, size, area).topLeft(), area.topLeft());
    QCOMPARE(
        cornerBox(Qt::AlignBottom | Qt::AlignRight, size, area).bottomRight(), area.bottomRight());
    const auto nothing = [](const QRect &) { return false; };
    QVERIFY(freeCorner(size, area, nothing) == (Qt::AlignTop | Qt::AlignLeft));
    // Obstacles in the top left and the bottom right: the bottom left is next.
    const std::vector<QRect> obstacles = { QRect(30, 30, 5, 5), QRect(480, 300, 5, 5) };
    const auto covered = [&](const QRect &box) {
        return std::any_of(
            obstacles.begin(), obstacles.end(), [&](const QRect &o) { return box.intersects(o); });
    };
    QVERIFY(freeCorner(size, area, covered) == (Qt::AlignBottom | Qt::AlignLeft));
    const auto everything = [](const QRect &) { return true; };
    QVERIFY(!freeCorner(size, area, everything));
}

// One dot per level at its intensity, at its level's marker; a level the machine has no roof for
// is left out of the analysis but still drawn at F / B_l.
void TestChartLayout::levelDotsFollowTheLevels()
{
    const Hardware hw = test::machine(); // DRAM and L2, no L1
    KernelPoint p = test::point("tiled", "g", 1e9, 1e9, 0.1);
    p.bytes = { { MemoryLevel::DRAM, 1e9 }, { MemoryLevel::L2, 1e8 } };
    const auto a = analyzePoint(p, hw);
    QVERIFY(a);
    const auto dots = levelDots(p, nullptr, levelPlacements(*a));
    QCOMPARE(dots.size(), std::size_t { 2 });
    QVERIFY(dots[0] == LevelDot(1.0, MemoryLevel::DRAM));
    QVERIFY(dots[1] == LevelDot(10.0, MemoryLevel::L2));

    p.bytes.push_back({ MemoryLevel::L1, 1e7 });
    const auto withL1 = analyzePoint(p, hw);
    QVERIFY(withL1);
    QCOMPARE(withL1->levels.size(), std::size_t { 2 }); // L1 left out of the analysis
    const auto all = levelDots(p, nullptr, levelPlacements(*withL1));
    QCOMPARE(all.size(), std::size_t { 3 });
    QVERIFY(std::is_sorted(all.begin(), all.end(),
        [](const LevelDot &l, const LevelDot &r) { return l.first < r.first; }));
    QVERIFY(all.back() == LevelDot(100.0, MemoryLevel::L1));
    QVERIFY(levelShape(MemoryLevel::L1) == QCPScatterStyle::ssTriangle);
    QVERIFY(levelShape(std::nullopt) == QCPScatterStyle::ssCircle);
}

void TestChartLayout::levelDotsOfAPointKnownByIntensity()
{
    const Hardware hw = test::machine();
    KernelPoint p;
    p.name = "nersc";
    p.measuredRate = 5e10;
    p.intensity = 5.0;
    p.levelIntensities = { { MemoryLevel::L1, 50.0 }, { MemoryLevel::L2, 0.5 } };
    QVERIFY(p.knownByIntensity());
    const auto a = analyzePoint(p, hw);
    QVERIFY(a);
    // As moved: the intensities of the point given, sorted, with their own markers.
    KernelPoint moved = p;
    moved.intensity = 2.5;
    moved.levelIntensities = { { MemoryLevel::L1, 25.0 }, { MemoryLevel::L2, 0.25 } };
    const auto dots = levelDots(p, &moved, levelPlacements(*a));
    QCOMPARE(dots.size(), std::size_t { 3 });
    QVERIFY(dots[0] == LevelDot(0.25, MemoryLevel::L2));
    QVERIFY(dots[1] == LevelDot(2.5, std::nullopt));
    QVERIFY(dots[2] == LevelDot(25.0, MemoryLevel::L1));
}

void TestChartLayout::ridgeCrossingsInterpolateInLogSpace()
{
    // Memory-bound at b = 1 and 2, compute-bound at 4 and 8: one crossing between 2 and 4,
    // halfway in log terms (balances -0.5 and +0.5).
    const std::vector<SweepStep> steps = { { 1.0, 1.0, 1e9, -1.0 }, { 2.0, 2.0, 2e9, -0.5 },
        { 4.0, 8.0, 4e9, 0.5 }, { 8.0, 16.0, 4e9, 1.0 } };
    const auto crossings = ridgeCrossings(steps);
    QCOMPARE(crossings.size(), std::size_t { 1 });
    QVERIFY(std::abs(crossings[0].value - std::sqrt(8.0)) < 1e-12);
    QVERIFY(std::abs(crossings[0].at.x() - 4.0) < 1e-12); // √(2·8)
    QVERIFY(std::abs(crossings[0].at.y() / (std::sqrt(8.0) * 1e9) - 1.0) < 1e-12);
    // Back and forth: two crossings; never crossing: none; a balance of 0 is compute-bound.
    QCOMPARE(ridgeCrossings({ steps[0], steps[2], steps[1] }).size(), std::size_t { 2 });
    QVERIFY(ridgeCrossings({ steps[2], steps[3] }).empty());
    QVERIFY(ridgeCrossings({ { 1.0, 1.0, 1.0, 0.0 }, { 2.0, 2.0, 2.0, 0.5 } }).empty());
    QVERIFY(ridgeCrossings({ steps[0] }).empty());
}

void TestChartLayout::ceilingsOfOnePeakShareALabel()
{
    const std::vector<ComputeCeiling> compute = { ceiling("BF16 tensor", 989e12),
        ceiling("FP16 tensor", 990e12), ceiling("FP8 tensor", 1979e12),
        ceiling("INT8 tensor", 1979e12, false), ceiling("FP32", 67e12) };
    using Names = std::vector<std::size_t>;
    QVERIFY(sharedLabel(compute, 0) == Names({ 0, 1 }));
    QVERIFY(!sharedLabel(compute, 1)); // named on BF16's label
    QVERIFY(sharedLabel(compute, 2) == Names({ 2 })); // INT8 is hidden
    QVERIFY(sharedLabel(compute, 4) == Names({ 4 }));
    // The emphasised (preferred) ceiling carries its group's label, named first, even when
    // listed later; a hidden preferred one changes nothing.
    QVERIFY(sharedLabel(compute, 1, 1) == Names({ 1, 0 }));
    QVERIFY(!sharedLabel(compute, 0, 1));
    QVERIFY(sharedLabel(compute, 2, 1) == Names({ 2 }));
    QVERIFY(sharedLabel(compute, 2, 3) == Names({ 2 }));
}

void TestChartLayout::framesSnapToDecades()
{
    QCOMPARE(decadeFloor(999.9), 100.0);
    QCOMPARE(decadeFloor(1000.0), 1000.0);
    QCOMPARE(decadeCeil(1000.0), 1000.0);
    QCOMPARE(decadeCeil(1001.0), 10000.0);
    QVERIFY(ratePrefix(3e15) == std::make_pair(1e12, QStringLiteral("T")));
    QVERIFY(ratePrefix(2e16) == std::make_pair(1e15, QStringLiteral("P")));
    QVERIFY(ratePrefix(5000.0) == std::make_pair(1.0, QString()));

    // Ridges from 0.5 (FP64 on L2) to 10 FLOP/B (FP32 on DRAM).
    Hardware hw = test::machine();
    QCOMPARE(topPeak(hw), 1e12);
    QCOMPARE(topBandwidth(hw), 1e12);
    const AxisFrame frame = hardwareFrame(hw);
    const auto near = [](double a, double b) { return std::abs(a / b - 1.0) < 1e-12; };
    QVERIFY(near(frame.xLower, 1e-3));
    QVERIFY(near(frame.xUpper, 1e3));
    QVERIFY(near(frame.yLower, 1e8));
    QVERIFY(near(frame.yUpper, 1e13));
    for (auto &c : hw.compute)
        c.visible = false;
    QCOMPARE(topPeak(hw), 0.0);
    QVERIFY(hardwareFrame(hw) == (AxisFrame { 1e-2, 1e4, 1e9, 1e15 }));
}

void TestChartLayout::readableColoursReachTheirContrast()
{
    QCOMPARE(contrastRatio(Qt::white, Qt::black), 21.0);
    QCOMPARE(contrastRatio(Qt::gray, Qt::gray), 1.0);
    for (const auto kind :
        { ChartTheme::Kind::Light, ChartTheme::Kind::Dark, ChartTheme::Kind::Print }) {
        const ChartTheme theme = ChartTheme::of(kind);
        QCOMPARE(ChartTheme::of(theme.kind).key(), theme.key());
        for (std::size_t g = 0; g < 8; ++g) {
            const QColor text = theme.readable(groupColor(g));
            QVERIFY2(contrastRatio(text, theme.background) >= ChartTheme::kMinTextContrast,
                qPrintable(QStringLiteral("%1 on %2").arg(text.name(), theme.key())));
            QVERIFY(contrastRatio(lineColor(theme, memoryColor(MemoryLevel::HBM)), theme.background)
                >= (kind == ChartTheme::Kind::Dark ? ChartTheme::kMinLineContrast : 1.0));
        }
    }
    // The hue stays.
    const QColor blue = ChartTheme::dark().readable(QColor(0x10, 0x20, 0x80));
    QVERIFY(std::abs(blue.hslHue() - QColor(0x10, 0x20, 0x80).hslHue()) <= 2);
}

void TestChartLayout::dragsScaleTheMoveAndTheRoof()
{
    // Dragged right by ×2 and up by ×3: half the bytes, a third of the time.
    const WhatIf moved = draggedMove(WhatIf {}, 2.0, 3.0, true);
    QCOMPARE(moved.bytesFactor, 0.5);
    QCOMPARE(moved.timeFactor, 1.0 / 3.0);
    // A planned point has no time to scale; moves compose with where the drag began.
    QCOMPARE(draggedMove(WhatIf {}, 2.0, 3.0, false).timeFactor, 1.0);
    QCOMPARE(draggedMove(WhatIf { 0.5, 1.0 }, 2.0, 1.0, true).bytesFactor, 0.25);
    QCOMPARE(draggedRoof(true, 1e12, 2.0, 3.0), 3e12);
    QCOMPARE(draggedRoof(false, 1e11, 2.0, 3.0), 1.5e11);
    QVERIFY(!QuantGhosts::moved(QPointF(10.0, 1e12), QPointF(10.0, 1e12)));
    QVERIFY(!QuantGhosts::moved(QPointF(10.0, 1e12), QPointF(10.0 * (1 + 1e-12), 1e12)));
    QVERIFY(QuantGhosts::moved(QPointF(10.0, 1e12), QPointF(10.0, 1.01e12)));
}

// A table too wide for its room: the font shrinks, then the columns go in the stated order
// (attainable, bound, then utilization and performance once names are down to "…"), name and
// intensity stay, and what is left fits.
void TestChartLayout::tableColumnsFitOrGoInOrder()
{
    const std::vector<int> all = { PointsTableModel::Name, PointsTableModel::Intensity,
        PointsTableModel::Performance, PointsTableModel::Attainable, PointsTableModel::Bound,
        PointsTableModel::Utilization };
    const std::vector<QStringList> cells = {
        { "Kernel", "Intensity [FLOP/B]", "Performance", "Attainable", "Bound", "Utilization" },
        { "void flash_attention_forward_kernel<128, 64>(params)", "12.5", "704.8 TFLOP/s",
            "989 TFLOP/s", "compute (BF16 tensor)", "71.3 %" },
        { "gemm", "1365", "1.333 PFLOP/s", "989 TFLOP/s", "memory (HBM3)", "135 %" },
    };
    QImage device(10, 10, QImage::Format_RGB32);
    QFont base;
    base.setPointSizeF(10.0);
    const std::vector<int> order = { PointsTableModel::Attainable, PointsTableModel::Bound,
        PointsTableModel::Utilization, PointsTableModel::Performance };
    for (double room = 1400.0; room >= 150.0; room -= 25.0) {
        const ColumnFit fit = fitColumns(cells, all, base, room, &device);
        QCOMPARE(fit.kinds.size() + fit.dropped.size(), all.size());
        QCOMPARE(fit.kinds.at(0), int(PointsTableModel::Name));
        QCOMPARE(fit.kinds.at(1), int(PointsTableModel::Intensity));
        QVERIFY(std::equal(fit.dropped.begin(), fit.dropped.end(), order.begin()));
        QCOMPARE(fit.widths.size(), fit.kinds.size());
        QVERIFY2(tableWidth(fit.widths) <= room + 1e-9,
            qPrintable(QStringLiteral("%1 in %2").arg(tableWidth(fit.widths)).arg(room)));
        QVERIFY(fit.font.pointSizeF() >= 0.7 * base.pointSizeF() - 1e-9);
        QVERIFY(fit.font.pointSizeF() <= base.pointSizeF());
        if (room >= 1400.0) {
            QVERIFY(fit.dropped.empty());
            QCOMPARE(fit.font.pointSizeF(), base.pointSizeF());
        }
        if (room <= 150.0)
            QCOMPARE(fit.dropped.size(), order.size());
    }
}

QTEST_MAIN(TestChartLayout)
#include "tst_chartlayout.moc"
