// Many points as a density (widgets/chart/densitylayer.h): the switch between density and dots,
// the longest kernels drawn as dots on top, the binning, the export and the session's mode.
#include "tests/support/testmachine.h"

#include "core/session/session.h"
#include "widgets/chart/densitylayer.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/export/chartexporter.h"

#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <vector>

using namespace ridgepoint;
using chart::PointsMode;

namespace {

// `count` points under the test machine's roofs (intensities 0.01–1000 FLOP/B, 0.1–100 % of the
// roof); point i runs 1 + i ms, so the longest are the last ones.
std::vector<KernelPoint> cloud(std::size_t count)
{
    std::mt19937_64 random(99);
    std::uniform_real_distribution<double> logIntensity(-2.0, 3.0);
    std::uniform_real_distribution<double> logShare(-3.0, 0.0);
    std::vector<KernelPoint> points;
    for (std::size_t i = 0; i < count; ++i) {
        const double intensity = std::pow(10.0, logIntensity(random));
        const double roof = std::min(1e12, 1e11 * intensity);
        const double seconds = 1e-3 * static_cast<double>(i + 1);
        const double flops = roof * std::pow(10.0, logShare(random)) * seconds;
        points.push_back(
            test::point("k" + std::to_string(i), "cloud", flops, flops / intensity, seconds));
    }
    return points;
}

} // namespace

class TestDensity : public QObject
{
    Q_OBJECT

private slots:
    void switchesMode_data();
    void switchesMode();
    void topDotsAreTheLongest_data();
    void topDotsAreTheLongest();
    void longestMatchesAWholeSort_data();
    void longestMatchesAWholeSort();
    void selectionIsDrawnAsDots();
    void binsInLogSpace_data();
    void binsInLogSpace();
    void exportDrawsTheDensity_data();
    void exportDrawsTheDensity();
    void sessionKeepsTheMode_data();
    void sessionKeepsTheMode();
    void modeKeys();
};

void TestDensity::switchesMode_data()
{
    QTest::addColumn<int>("points");
    QTest::addColumn<int>("mode");
    QTest::addColumn<int>("threshold");
    QTest::addColumn<bool>("density");
    // Auto: a density strictly above the threshold.
    QTest::newRow("auto below") << 300 << int(PointsMode::Auto) << 500 << false;
    QTest::newRow("auto at") << 500 << int(PointsMode::Auto) << 500 << false;
    QTest::newRow("auto above") << 501 << int(PointsMode::Auto) << 500 << true;
    QTest::newRow("auto default threshold") << 6000 << int(PointsMode::Auto) << 5000 << true;
    QTest::newRow("forced density") << 40 << int(PointsMode::Density) << 500 << true;
    QTest::newRow("forced dots") << 6000 << int(PointsMode::Dots) << 500 << false;
}

void TestDensity::switchesMode()
{
    QFETCH(int, points);
    QFETCH(int, mode);
    QFETCH(int, threshold);
    QFETCH(bool, density);
    Document document;
    document.resetHardware(test::machine());
    document.resetPoints(cloud(static_cast<std::size_t>(points)));
    RooflinePlot plot;
    plot.setDocument(&document);
    plot.resize(800, 500);
    chart::changeDisplay(plot,
        [&](chart::PlotDisplay &d) { d.densityThreshold = static_cast<std::size_t>(threshold); });
    chart::changeDisplay(
        plot, [&](chart::PlotDisplay &d) { d.points = static_cast<PointsMode>(mode); });
    plot.replot();
    QCOMPARE(plot.inspect().densityShown(), density);
    QCOMPARE(plot.inspect().densityLayer().active(), density);
    QCOMPARE(plot.inspect().densityLayer().colorScale() != nullptr, density);
    if (density) {
        // Every point is in the density: its counts add up to the points (one level each).
        const auto &counts = plot.inspect().densityLayer().grid().counts;
        QCOMPARE(std::accumulate(counts.begin(), counts.end(), std::size_t(0)),
            static_cast<std::size_t>(points));
    } else {
        QVERIFY(plot.inspect().densityDots().empty()); // every point is a dot: no mask
    }
}

void TestDensity::longestMatchesAWholeSort_data()
{
    QTest::addColumn<int>("points");
    QTest::addColumn<int>("top");
    QTest::addColumn<int>("distinct"); // how many different times: few make many ties
    QTest::addColumn<unsigned>("seed");
    QTest::newRow("none kept") << 100 << 0 << 50 << 1u;
    QTest::newRow("one of many") << 5000 << 1 << 5000 << 2u;
    QTest::newRow("ties everywhere") << 3000 << 40 << 3 << 3u;
    QTest::newRow("all of them") << 200 << 200 << 10 << 4u;
    QTest::newRow("more than there are") << 60 << 100 << 7 << 5u;
    QTest::newRow("100 of 20000") << 20000 << 100 << 1000 << 6u;
}

// The kept heap gives what sorting every timed point would: longer first, ties by index, the
// points without a time left out.
void TestDensity::longestMatchesAWholeSort()
{
    QFETCH(int, points);
    QFETCH(int, top);
    QFETCH(int, distinct);
    QFETCH(unsigned, seed);
    std::mt19937 random(seed);
    std::vector<std::optional<double>> seconds(static_cast<std::size_t>(points));
    std::vector<std::pair<double, std::size_t>> timed;
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        if (random() % 5 == 0)
            continue; // no time
        seconds[i] = 1e-6 * static_cast<double>(1 + random() % static_cast<unsigned>(distinct));
        timed.emplace_back(*seconds[i], i);
    }
    std::sort(timed.begin(), timed.end(), [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<std::size_t> expected;
    for (std::size_t i = 0; i < timed.size() && i < static_cast<std::size_t>(top); ++i)
        expected.push_back(timed[i].second);
    QCOMPARE(chart::longestPoints(seconds, static_cast<std::size_t>(top)), expected);
}

void TestDensity::topDotsAreTheLongest_data()
{
    QTest::addColumn<int>("points");
    QTest::addColumn<int>("top");
    QTest::newRow("50 of 6000") << 6000 << 50;
    QTest::newRow("5 of 800") << 800 << 5;
    QTest::newRow("more than there are") << 30 << 50;
}

void TestDensity::topDotsAreTheLongest()
{
    QFETCH(int, points);
    QFETCH(int, top);
    Document document;
    document.resetHardware(test::machine());
    document.resetPoints(cloud(static_cast<std::size_t>(points)));
    RooflinePlot plot;
    plot.setDocument(&document);
    plot.resize(800, 500);
    chart::changeDisplay(
        plot, [&](chart::PlotDisplay &d) { d.densityTopDots = static_cast<std::size_t>(top); });
    chart::changeDisplay(plot, [&](chart::PlotDisplay &d) { d.points = PointsMode::Density; });
    plot.replot();
    // Point i runs (i + 1) ms: the top N are the last N indices.
    const auto dots = plot.inspect().densityDots();
    const std::size_t n = static_cast<std::size_t>(std::min(points, top));
    QCOMPARE(dots.size(), n);
    for (std::size_t k = 0; k < n; ++k)
        QCOMPARE(dots[k], static_cast<std::size_t>(points) - n + k);
    // Drawn: at most one marker per dot (decimation may merge neighbours, never add).
    QVERIFY(!plot.inspect().drawnPointCoords().empty());
    QVERIFY(plot.inspect().drawnPointCoords().size() <= n);
    // And the dots are over the density: their layer is above the map's.
    QVERIFY(plot.inspect().densityLayer().map()->layer()->index() < plot.layer("main")->index());
}

void TestDensity::selectionIsDrawnAsDots()
{
    Document document;
    document.resetHardware(test::machine());
    document.resetPoints(cloud(1000));
    RooflinePlot plot;
    plot.setDocument(&document);
    chart::changeDisplay(plot, [&](chart::PlotDisplay &d) { d.densityTopDots = 3; });
    chart::changeDisplay(plot, [&](chart::PlotDisplay &d) { d.points = PointsMode::Density; });
    document.setSelection({ 0, 10 });
    const std::vector<std::size_t> expected { 0, 10, 997, 998, 999 };
    QCOMPARE(plot.inspect().densityDots(), expected);
}

void TestDensity::binsInLogSpace_data()
{
    QTest::addColumn<QList<QPointF>>("logPoints");
    QTest::addColumn<int>("i");
    QTest::addColumn<int>("j");
    QTest::addColumn<int>("count");
    const QList<QPointF> square { { 0, 0 }, { 4, 4 }, { 0.5, 0.5 }, { 0.9, 0.9 }, { 3.9, 0.1 } };
    // 4 × 4 cells over [0, 4]²: cells of one decade; (0.5, 0.5) and (0.9, 0.9) share (0, 0) with
    // (0, 0); (4, 4) is in the last cell (closed); (3.9, 0.1) in (3, 0).
    QTest::newRow("corner") << square << 0 << 0 << 3;
    QTest::newRow("last closed") << square << 3 << 3 << 1;
    QTest::newRow("right edge") << square << 3 << 0 << 1;
    QTest::newRow("empty") << square << 1 << 2 << 0;
}

void TestDensity::binsInLogSpace()
{
    QFETCH(QList<QPointF>, logPoints);
    QFETCH(int, i);
    QFETCH(int, j);
    QFETCH(int, count);
    std::vector<std::pair<float, float>> points;
    for (const QPointF &p : logPoints)
        points.emplace_back(static_cast<float>(p.x()), static_cast<float>(p.y()));
    const chart::DensityGrid grid = chart::binLogDensity(points, 4, 4);
    QCOMPARE(grid.x0, 0.0);
    QCOMPARE(grid.x1, 4.0);
    QCOMPARE(int(grid.at(i, j)), count);
    QCOMPARE(int(grid.max), 3);
}

void TestDensity::exportDrawsTheDensity_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::newRow("png") << "png";
    QTest::newRow("svg") << "svg";
}

void TestDensity::exportDrawsTheDensity()
{
    QFETCH(QString, suffix);
    // All 2000 points on one spot: one full cell, drawn in the gradient's brightest colour
    // (the densest cell is the top of the colour scale).
    std::vector<KernelPoint> points;
    for (int k = 0; k < 2000; ++k)
        points.push_back(test::point("p" + std::to_string(k), "g", 1e9, 1e9, 0.1));
    Document document;
    document.resetHardware(test::machine());
    document.resetPoints(std::move(points));
    RooflinePlot plot;
    plot.setDocument(&document);
    chart::changeDisplay(plot, [&](chart::PlotDisplay &d) { d.densityTopDots = 0; });
    chart::changeDisplay(plot, [&](chart::PlotDisplay &d) { d.points = PointsMode::Density; });
    QTemporaryDir dir;
    const QString file = dir.filePath("chart." + suffix);
    QCOMPARE(ChartExporter(plot).exportTo(file, 800, 500), QString());
    QVERIFY(plot.inspect().densityLayer().colorScale());
    QVERIFY(plot.inspect().densityLayer().colorScale()->realVisibility());
    if (suffix == "svg") {
        QFile svg(file);
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        QVERIFY(text.contains("points per cell")); // the colour scale's title
        return;
    }
    // The brightest stop of the gradient (#fde725) is in the picture: the cell and the top of
    // the colour bar. With dots instead, it is not.
    const auto yellowPixels = [](const QImage &image) {
        int n = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                n += std::abs(c.red() - 0xfd) + std::abs(c.green() - 0xe7)
                            + std::abs(c.blue() - 0x25)
                        < 30
                    ? 1
                    : 0;
            }
        }
        return n;
    };
    const int withDensity = yellowPixels(QImage(file));
    QVERIFY2(withDensity > 20, qPrintable(QString::number(withDensity)));
    chart::changeDisplay(plot, [&](chart::PlotDisplay &d) { d.points = PointsMode::Dots; });
    QCOMPARE(ChartExporter(plot).exportTo(file, 800, 500), QString());
    QCOMPARE(yellowPixels(QImage(file)), 0);
}

void TestDensity::sessionKeepsTheMode_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<bool>("valid");
    QTest::newRow("unset") << "" << true;
    QTest::newRow("auto") << "auto" << true;
    QTest::newRow("density") << "density" << true;
    QTest::newRow("dots") << "dots" << true;
    QTest::newRow("unknown") << "heatmap" << false;
}

void TestDensity::sessionKeepsTheMode()
{
    QFETCH(QString, mode);
    QFETCH(bool, valid);
    Session session;
    session.hardware = test::machine();
    session.pointsMode = mode.toStdString();
    const std::string text = writeSessionJson(session);
    QCOMPARE(text.find("\"pointsMode\"") != std::string::npos, !mode.isEmpty());
    const auto result = readSessionJson(text, "s.json");
    QCOMPARE(result.session.has_value(), valid);
    if (valid) {
        QCOMPARE(QString::fromStdString(result.session->pointsMode), mode);
        QCOMPARE(writeSessionJson(*result.session), text);
    } else {
        QVERIFY(!result.diagnostics.empty());
        QVERIFY(result.diagnostics.front().toString().find("pointsMode") != std::string::npos);
    }
}

void TestDensity::modeKeys()
{
    for (PointsMode mode : { PointsMode::Auto, PointsMode::Density, PointsMode::Dots })
        QCOMPARE(chart::pointsModeFromKey(chart::pointsModeKey(mode)), mode);
    QVERIFY(!chart::pointsModeFromKey("Density"));
}

QTEST_MAIN(TestDensity)
#include "tst_density.moc"
