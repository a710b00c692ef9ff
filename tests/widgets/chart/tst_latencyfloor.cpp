// The latency floor on the chart (docs/MODEL.md §13): a tick at F/λ over every latency-bound
// point, one legend entry naming λ, the tooltip's F/λ; nothing on a machine without λ. On the
// real RooflinePlot, offscreen, with every expected coordinate worked out by hand.
#include "tests/support/testmachine.h"

#include "widgets/chart/latencyfloor.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"

#include <QTest>

#include <cmath>
#include <memory>

using namespace ridgepoint;

namespace {

// The test machine (π = 1 TFLOP/s, β = 100 GB/s DRAM, ridge 10 FLOP/B) with λ = 10 µs.
Hardware machineWithLatency()
{
    Hardware hw = test::machine();
    hw.limits.launchLatency = LatencyFigure { MemoryLevel::HBM, 1e-5, {} };
    return hw;
}

bool near(double actual, double expected)
{
    return std::fabs(actual - expected) <= 1e-9 * std::fabs(expected);
}

} // namespace

class TestLatencyFloor : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup() { plot.reset(); }
    void tickOverEachLatencyBoundPoint_data();
    void tickOverEachLatencyBoundPoint();
    void drawnOverTheDot();
    void tooltipSaysFOverLambda();
    void noFloorWithoutALaunchLatency();

private:
    std::unique_ptr<RooflinePlot> plot;
};

void TestLatencyFloor::init()
{
    plot = std::make_unique<RooflinePlot>();
    plot->resize(900, 620);
    plot->document()->resetHardware(machineWithLatency());
    plot->resetToHardwareFrame();
    plot->show();
    QVERIFY(QTest::qWaitForWindowExposed(plot.get()));
}

void TestLatencyFloor::tickOverEachLatencyBoundPoint_data()
{
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("seconds");
    QTest::addColumn<bool>("tick");
    QTest::addColumn<double>("x"); // F / B
    QTest::addColumn<double>("y"); // F / λ
    // 1 MFLOP, 1 kB: F/π = 1 µs, B/β = 10 ns, λ = 10 µs: latency; I = 1000, F/λ = 100 GFLOP/s.
    QTest::newRow("1 MFLOP, 1 kB") << 1e6 << 1e3 << 2e-5 << true << 1e3 << 1e11;
    // 100 kFLOP, 100 kB: B/β = 1 µs, F/π = 0.1 µs: latency; I = 1, F/λ = 10 GFLOP/s.
    QTest::newRow("100 kFLOP, 100 kB") << 1e5 << 1e5 << 1.5e-5 << true << 1.0 << 1e10;
    // 1 kFLOP, 2 MB: B/β = 20 µs > λ: memory-bound, no tick.
    QTest::newRow("2 MB: memory-bound") << 1e3 << 2e6 << 4e-5 << false << 0.0 << 0.0;
    // 50 MFLOP, 1 kB: F/π = 50 µs > λ: compute-bound, no tick.
    QTest::newRow("50 MFLOP: compute-bound") << 5e7 << 1e3 << 1e-4 << false << 0.0 << 0.0;
}

void TestLatencyFloor::tickOverEachLatencyBoundPoint()
{
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(double, seconds);
    QFETCH(bool, tick);
    QFETCH(double, x);
    QFETCH(double, y);
    // The point between two memory-bound ones, so its tick is found among the others' none.
    plot->document()->resetPoints({ test::point("a", "g", 1e9, 1e9, 0.02),
        test::point("k", "g", flops, bytes, seconds), test::point("b", "g", 4e9, 1e9, 0.04) });
    plot->replot();
    const auto &ticks = plot->inspect().latencyFloor().ticks();
    QCOMPARE(ticks.size(), tick ? std::size_t { 1 } : std::size_t { 0 });
    QCOMPARE(plot->inspect().latencyFloor().graph() != nullptr, tick);
    if (!tick)
        return;
    QVERIFY2(near(ticks.front().x(), x), qPrintable(QString::number(ticks.front().x())));
    QVERIFY2(near(ticks.front().y(), y), qPrintable(QString::number(ticks.front().y())));
    // One legend entry says what the ticks are, with the machine's λ.
    const QCPGraph *graph = plot->inspect().latencyFloor().graph();
    QVERIFY(plot->legend->hasItemWithPlottable(graph));
    QCOMPARE(graph->name(), QString("latency floor F/λ, λ = 10 us"));
}

void TestLatencyFloor::drawnOverTheDot()
{
    // 1 MFLOP, 1 kB in 20 µs: 50 GFLOP/s under its 100 GFLOP/s floor, a factor of 2 (about
    // 0.3 decade) straight above the dot.
    plot->document()->resetPoints({ test::point("tiny", "g", 1e6, 1e3, 2e-5) });
    plot->fitToData();
    plot->replot();
    QCOMPARE(plot->inspect().latencyFloor().ticks().size(), std::size_t { 1 });
    const QPointF dot = plot->pointPosition(0);
    const QPointF tick(plot->xAxis->coordToPixel(1e3), plot->yAxis->coordToPixel(1e11));
    QVERIFY(std::fabs(dot.x() - tick.x()) < 0.5);
    QVERIFY2(tick.y() < dot.y() - 10.0, "the tick is above the dot, clear of it");
    // What is painted there: the tick's colour at its ends, the background just above it.
    const QImage image = plot->toPixmap().toImage();
    const QColor ink = plot->display().theme.envelope;
    const auto inkAt = [&](double dx, double dy) {
        const QColor c = image.pixelColor(QPoint(qRound(tick.x() + dx), qRound(tick.y() + dy)));
        return std::abs(c.red() - ink.red()) + std::abs(c.green() - ink.green())
            + std::abs(c.blue() - ink.blue());
    };
    QVERIFY2(inkAt(-6.0, 0.0) < 60, "left of the dot's centre line, on the tick");
    QVERIFY2(inkAt(6.0, 0.0) < 60, "right of it, on the tick");
    QVERIFY2(inkAt(6.0, -6.0) > 200, "above the tick, the background");
    // A dotted stem joins the dot to its tick: (1000, 50 GFLOP/s) to (1000, 100 GFLOP/s), then a
    // gap.
    const QCPCurve *stems = plot->inspect().latencyFloor().stems();
    QVERIFY(stems);
    QCOMPARE(stems->dataCount(), 3);
    QCOMPARE(stems->data()->at(0)->key, 1e3);
    QVERIFY(near(stems->data()->at(0)->value, 5e10));
    QVERIFY(near(stems->data()->at(1)->value, 1e11));
    QVERIFY(std::isnan(stems->data()->at(2)->value));
    QVERIFY(!plot->legend->hasItemWithPlottable(stems));

    // Measured at 10 µs it is on its floor: the tick crosses the dot, no stem.
    plot->document()->resetPoints({ test::point("tiny", "g", 1e6, 1e3, 1e-5) });
    plot->replot();
    QCOMPARE(plot->inspect().latencyFloor().ticks().size(), std::size_t { 1 });
    QVERIFY(plot->inspect().latencyFloor().stems() == nullptr);
}

void TestLatencyFloor::tooltipSaysFOverLambda()
{
    plot->document()->resetPoints({ test::point("tiny", "g", 1e6, 1e3, 2e-5) });
    plot->replot();
    const QString text = plot->pointDescription(0);
    QVERIFY2(text.contains("attainable: 100 GFLOP/s = F/λ"), qPrintable(text));
    QVERIFY2(text.contains("launch latency λ = 10 us: at most F/λ"), qPrintable(text));
    QVERIFY2(!text.contains("min(π, β·I)"), qPrintable(text));
}

void TestLatencyFloor::noFloorWithoutALaunchLatency()
{
    plot->document()->resetPoints({ test::point("tiny", "g", 1e6, 1e3, 2e-5) });
    plot->replot();
    QCOMPARE(plot->inspect().latencyFloor().ticks().size(), std::size_t { 1 });
    // The same point on the machine without λ: F/π = 1 µs is the longest term (B/β = 10 ns),
    // so it is compute-bound; no tick and no legend entry.
    plot->document()->resetHardware(test::machine());
    plot->replot();
    QVERIFY(plot->inspect().latencyFloor().ticks().empty());
    QVERIFY(plot->inspect().latencyFloor().graph() == nullptr);
    const QString text = plot->pointDescription(0);
    QVERIFY2(text.contains("compute-bound"), qPrintable(text));
}

QTEST_MAIN(TestLatencyFloor)
#include "tst_latencyfloor.moc"
