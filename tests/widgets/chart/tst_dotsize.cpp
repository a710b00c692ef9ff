// Dot area by time share (issue 17, item 3; docs/MODEL.md §4.10): the size class of a time
// share, the big dots drawn first, a hit on the edge of a big dot, the toggle and its default,
// and the session key "dotSize".
#include "tests/support/testmachine.h"

#include "core/session/session.h"
#include "widgets/chart/densitylayer.h"
#include "widgets/chart/dotsize.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"

#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace ridgepoint;

namespace {

// On the test machine (β = 100 GB/s, π = 1 TFLOP/s), far apart on the chart:
// 0 "big"   I = 10 FLOP/B, 1e10 FLOP in 1 s    (10 GFLOP/s, 1 % of its roof): the longest;
// 1 "small" I = 1 FLOP/B,  1e9 FLOP in 0.02 s  (50 GFLOP/s);
// 2 "mid"   I = 100 FLOP/B, 1e11 FLOP in 0.25 s (400 GFLOP/s).
// Classes (the arithmetic of sizeClassOfShare): big 5, small 0 (√0.02 · 24 = 3.4 px, clamped to
// 5 px), mid 3 (√0.25 · 24 = 12 px).
std::vector<KernelPoint> timedPoints()
{
    return { test::point("big", "a", 1e10, 1e9, 1.0), test::point("small", "a", 1e9, 1e9, 0.02),
        test::point("mid", "b", 1e11, 1e9, 0.25) };
}

} // namespace

class TestDotSize : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void sizeClassOfShare_data();
    void sizeClassOfShare();
    void classDiameters();
    void classesOfADocument();
    void bigDotsAreDrawnFirst();
    void hitOnTheEdgeOfABigDot_data();
    void hitOnTheEdgeOfABigDot();
    void toggleAndTimesUnknown();
    void sessionKeepsTheDotSize_data();
    void sessionKeepsTheDotSize();

private:
    RooflinePlot *m_plot = nullptr;
};

void TestDotSize::init()
{
    m_plot = new RooflinePlot;
    m_plot->resize(900, 600);
    m_plot->document()->resetHardware(test::machine());
}

void TestDotSize::cleanup()
{
    delete m_plot;
    m_plot = nullptr;
}

void TestDotSize::sizeClassOfShare_data()
{
    // d = 24 · √(t / longest) clamped to [5, 24]; class = round(5 · ln(d / 5) / ln(4.8)),
    // ln(4.8) = 1.5686.
    QTest::addColumn<double>("seconds");
    QTest::addColumn<double>("longest");
    QTest::addColumn<int>("expected");
    // d = 24: ln(4.8) / ln(4.8) · 5 = 5.
    QTest::newRow("the longest") << 2.0 << 2.0 << 5;
    // d = 24 · 0.7071 = 16.97: ln(3.394) = 1.2221, 1.2221 / 1.5686 · 5 = 3.90 → 4.
    QTest::newRow("half") << 1.0 << 2.0 << 4;
    // d = 12: ln(2.4) = 0.8755, 0.8755 / 1.5686 · 5 = 2.79 → 3.
    QTest::newRow("quarter") << 0.5 << 2.0 << 3;
    // d = 24 · 0.4 = 9.6: ln(1.92) = 0.6523, 0.6523 / 1.5686 · 5 = 2.08 → 2.
    QTest::newRow("0.16") << 0.16 << 1.0 << 2;
    // d = 24 · 0.3162 = 7.589: ln(1.5179) = 0.4173, 0.4173 / 1.5686 · 5 = 1.33 → 1.
    QTest::newRow("a tenth") << 0.1 << 1.0 << 1;
    // d = 24 · 0.2236 = 5.367: ln(1.0733) = 0.0708, · 5 / 1.5686 = 0.23 → 0.
    QTest::newRow("a twentieth") << 0.05 << 1.0 << 0;
    // d = 2.4, below 5: clamped to the smallest, still drawn.
    QTest::newRow("a hundredth") << 0.01 << 1.0 << 0;
    QTest::newRow("no time") << 0.0 << 1.0 << 0;
    // A time above the longest given (never from a document) is the largest class.
    QTest::newRow("above the longest") << 3.0 << 1.0 << 5;
    QTest::newRow("no longest") << 1.0 << 0.0 << 0;
    QTest::newRow("not finite") << std::nan("") << 1.0 << 0;
}

void TestDotSize::sizeClassOfShare()
{
    QFETCH(double, seconds);
    QFETCH(double, longest);
    QFETCH(int, expected);
    QCOMPARE(chart::dotSizeClass(seconds, longest), expected);
}

void TestDotSize::classDiameters()
{
    // 5 · 4.8^(k/5): 5, 6.84, 9.36, 12.81, 17.53, 24 px; the area grows by 4.8^(2/5) = 1.873
    // from one class to the next.
    const double expected[] = { 5.0, 6.842, 9.363, 12.81, 17.53, 24.0 };
    for (int k = 0; k < chart::kDotSizeClasses; ++k)
        QVERIFY2(std::abs(chart::dotClassDiameter(k) - expected[k]) < 0.01,
            qPrintable(QString::number(k)));
    // Out of range: clamped.
    QCOMPARE(chart::dotClassDiameter(-1), 5.0);
    QCOMPARE(chart::dotClassDiameter(9), 24.0);
}

void TestDotSize::classesOfADocument()
{
    m_plot->document()->resetPoints(timedPoints());
    const auto classes = chart::dotSizeClasses(*m_plot->document());
    QVERIFY(classes);
    QCOMPARE(*classes, (std::vector<int> { 5, 0, 3 }));
    QCOMPARE(m_plot->inspect().dotSizeClasses(), (std::vector<int> { 5, 0, 3 }));
}

void TestDotSize::bigDotsAreDrawnFirst()
{
    // Three dots per class in two groups, so that classes and groups interleave in the batches:
    // the graphs must come largest class first whatever the group.
    std::vector<KernelPoint> points = timedPoints();
    points.push_back(test::point("tiny b", "b", 2e9, 1e9, 0.03)); // class 0, group b
    points.push_back(test::point("long b", "b", 3e10, 1e9, 0.9)); // class 5, group b
    m_plot->document()->resetPoints(points);
    m_plot->fitToData();
    m_plot->replot();
    const std::vector<int> classes = m_plot->inspect().dotSizeClasses();
    QCOMPARE(classes, (std::vector<int> { 5, 0, 3, 0, 5 }));
    std::vector<int> order; // the class of each point graph, in drawing order
    for (int g = 0; g < m_plot->graphCount(); ++g) {
        const QCPGraph *graph = m_plot->graph(g);
        if (graph->lineStyle() != QCPGraph::lsNone || graph->data()->isEmpty())
            continue;
        const QCPGraphData first = *graph->data()->constBegin();
        for (std::size_t i = 0; i < points.size(); ++i) {
            const auto at = m_plot->pointCoords(i);
            if (at && std::abs(at->x() / first.key - 1.0) < 1e-9
                && std::abs(at->y() / first.value - 1.0) < 1e-9)
                order.push_back(classes[i]);
        }
    }
    QCOMPARE(order.size(), std::size_t(5)); // one graph per (class, group, shape) here
    QVERIFY2(std::is_sorted(order.rbegin(), order.rend()),
        qPrintable(QString::number(order.front()) + " … " + QString::number(order.back())));
    QCOMPARE(order.front(), 5);
    QCOMPARE(order.back(), 0);
}

void TestDotSize::hitOnTheEdgeOfABigDot_data()
{
    // The big dot (class 5) is 24 px across: its drawn edge (12 px + the 1.4 px pen) is beyond
    // the 8 px pick radius of a fixed 9 px dot.
    QTest::addColumn<bool>("byTime");
    QTest::addColumn<QPointF>("offset");
    QTest::addColumn<int>("expected");
    QTest::newRow("time, centre") << true << QPointF(0, 0) << 0;
    QTest::newRow("time, right edge") << true << QPointF(12.5, 0) << 0;
    QTest::newRow("time, lower left edge") << true << QPointF(-9, 9) << 0; // 12.7 px away
    QTest::newRow("time, outside") << true << QPointF(16, 0) << -1;
    QTest::newRow("fixed, centre") << false << QPointF(0, 0) << 0;
    QTest::newRow("fixed, 12.5 px") << false << QPointF(12.5, 0) << -1;
}

void TestDotSize::hitOnTheEdgeOfABigDot()
{
    QFETCH(bool, byTime);
    QFETCH(QPointF, offset);
    QFETCH(int, expected);
    chart::changeDisplay(*m_plot, [&](chart::PlotDisplay &d) { d.dotSizeByTime = byTime; });
    m_plot->document()->resetPoints(timedPoints());
    m_plot->fitToData();
    m_plot->replot();
    QCOMPARE(m_plot->inspect().dotSizesShown(), byTime);
    const QPointF centre = m_plot->pointPosition(0);
    QCOMPARE(m_plot->pointAt(centre + offset), expected);
    // The small dot keeps its own pick radius.
    QCOMPARE(m_plot->pointAt(m_plot->pointPosition(1) + QPointF(5, 0)), 1);
    QCOMPARE(m_plot->pointAt(m_plot->pointPosition(1) + QPointF(9, 0)), -1);
}

void TestDotSize::toggleAndTimesUnknown()
{
    m_plot->document()->resetPoints(timedPoints());
    QVERIFY(m_plot->display().dotSizeByTime); // on by default
    QVERIFY(m_plot->dotTimesKnown());
    QVERIFY(m_plot->inspect().dotSizesShown());
    chart::changeDisplay(*m_plot, [&](chart::PlotDisplay &d) { d.dotSizeByTime = false; });
    QVERIFY(!m_plot->inspect().dotSizesShown());
    QVERIFY(m_plot->inspect().dotSizeClasses().empty());
    chart::changeDisplay(*m_plot, [&](chart::PlotDisplay &d) { d.dotSizeByTime = true; });
    QCOMPARE(m_plot->inspect().dotSizeClasses().size(), std::size_t(3));
    // A planned point (no time, no rate): sizes are unknown, every dot is fixed.
    QSignalSpy known(m_plot, &RooflinePlot::dotTimesKnownChanged);
    std::vector<KernelPoint> points = timedPoints();
    points[1].seconds.reset();
    m_plot->document()->resetPoints(points);
    QVERIFY(!m_plot->dotTimesKnown());
    QVERIFY(!m_plot->inspect().dotSizesShown());
    QVERIFY(m_plot->inspect().dotSizeClasses().empty());
    QCOMPARE(known.count(), 1);
    QCOMPARE(known.front().front().toBool(), false);
    // Under a density the dots are the longest kernels at the fixed size.
    m_plot->document()->resetPoints(timedPoints());
    QVERIFY(m_plot->inspect().dotSizesShown());
    chart::changeDisplay(
        *m_plot, [&](chart::PlotDisplay &d) { d.points = chart::PointsMode::Density; });
    QVERIFY(m_plot->dotTimesKnown());
    QVERIFY(!m_plot->inspect().dotSizesShown());
}

void TestDotSize::sessionKeepsTheDotSize_data()
{
    QTest::addColumn<QString>("size");
    QTest::addColumn<bool>("valid");
    QTest::newRow("unset") << "" << true;
    QTest::newRow("time") << "time" << true;
    QTest::newRow("fixed") << "fixed" << true;
    QTest::newRow("unknown") << "large" << false;
}

void TestDotSize::sessionKeepsTheDotSize()
{
    QFETCH(QString, size);
    QFETCH(bool, valid);
    Session session;
    session.hardware = test::machine();
    session.dotSize = size.toStdString();
    const std::string text = writeSessionJson(session);
    QCOMPARE(text.find("\"dotSize\"") != std::string::npos, !size.isEmpty());
    const auto result = readSessionJson(text, "s.json");
    QCOMPARE(result.session.has_value(), valid);
    if (valid) {
        QCOMPARE(QString::fromStdString(result.session->dotSize), size);
        QCOMPARE(writeSessionJson(*result.session), text);
    } else {
        QVERIFY(!result.diagnostics.empty());
        QVERIFY(result.diagnostics.front().toString().find("dotSize") != std::string::npos);
    }
}

QTEST_MAIN(TestDotSize)
#include "tst_dotsize.moc"
