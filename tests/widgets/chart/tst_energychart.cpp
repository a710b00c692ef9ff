// The energy roofline on the charts (docs/MODEL.md §14.1): the power-capped roof under the
// roofline, the energy twin chart (FLOP/J, the arch line, the points at their own FLOP/J) and the
// power-cap slider driven by key events on the real widget. On the machine of round
// numbers: π = 100 TFLOP/s, β = 1 TB/s, 1 pJ/FLOP, 10 pJ/B, P0 = 50 W, P_cap = 100 W; every
// expected value is worked out by hand beside its row.
#include "widgets/chart/energychart.h"
#include "widgets/chart/energyview.h"
#include "widgets/chart/powercaproof.h"
#include "widgets/chart/rooflayer.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/englishplurals.h"

#include "tests/support/testmachine.h"

#include <qcustomplot.h>

#include <QSlider>
#include <QTest>

#include <cmath>
#include <memory>

using namespace ridgepoint;

namespace {

Hardware roundMachine()
{
    return test::roundEnergyMachine();
}

KernelPoint kernel(const char *name, double flops, double bytes, std::optional<double> seconds)
{
    KernelPoint p;
    p.name = name;
    p.flops = flops;
    p.bytes = { { std::nullopt, bytes } };
    p.seconds = seconds;
    p.precision = Precision::FP32;
    p.group = "g";
    return p;
}

bool near(double actual, double expected, double relative = 1e-9)
{
    return std::fabs(actual - expected) <= relative * std::fabs(expected);
}

// The value of `graph` at the sample nearest `key` (which must be within 1e-9 of it).
std::optional<double> valueAt(const QCPGraph *graph, double key)
{
    for (const QCPGraphData &d : *graph->data()) {
        if (near(d.key, key))
            return d.value;
    }
    return std::nullopt;
}

} // namespace

class TestEnergyChart : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { installEnglishPlurals(); } // "1 point", as the program says it
    void cappedCurve_data();
    void cappedCurve();
    void cappedRoofOnTheRoofline();
    void noCappedRoofWithoutFigures();
    void archLine_data();
    void archLine();
    void pointsAtTheirFlopsPerJoule();
    void noEnergyChartSaysWhy();
    void sliderMovesTheCap();
};

void TestEnergyChart::cappedCurve_data()
{
    QTest::addColumn<double>("intensity");
    QTest::addColumn<double>("capped");
    // min(min(1e14, 1e12·I), 50 / (1e-12 + 1e-11 / I)).
    // I = 100: the point: 50 / 1.1e-12 = 45.45 TFLOP/s.
    QTest::newRow("I = 100") << 100.0 << 50.0 / 1.1e-12;
    // I = 1: the memory roof 1 TFLOP/s is under the cap's 50 / 1.1e-11 = 4.5 TFLOP/s.
    QTest::newRow("I = 1") << 1.0 << 1e12;
    // I = 40: the knee, where β·I = 40 TFLOP/s = 50 / (1e-12 + 2.5e-13): a sample of its own.
    QTest::newRow("I = 40, the knee") << 40.0 << 4e13;
    // I = 10000: 50 / (1e-12 + 1e-15) = 49.95 TFLOP/s.
    QTest::newRow("I = 10000") << 1e4 << 50.0 / 1.001e-12;
}

void TestEnergyChart::cappedCurve()
{
    QFETCH(double, intensity);
    QFETCH(double, capped);
    const auto roof = headlineEnergyRoof(roundMachine());
    QVERIFY(roof);
    const auto curve = chart::powerCapCurve(*roof, 0.01, 1e6);
    QCOMPARE(curve.size(), std::size_t { 8 * 40 + 1 + 1 }); // 8 decades, 40 a decade, the knee
    const auto at
        = std::ranges::find_if(curve, [&](const QPointF &p) { return near(p.x(), intensity); });
    QVERIFY2(at != curve.end(), "no sample at this intensity");
    QVERIFY2(near(at->y(), capped), qPrintable(QString::number(at->y(), 'g', 10)));
}

void TestEnergyChart::cappedRoofOnTheRoofline()
{
    RooflinePlot plot;
    plot.resize(900, 620);
    plot.document()->resetHardware(roundMachine());
    const chart::PowerCapRoof &cap = plot.roofLayer().powerCap();
    QVERIFY(cap.graph());
    QCOMPARE(cap.graph()->name(), QString("power cap 100 W"));
    const auto at100 = valueAt(cap.graph(), 100.0);
    QVERIFY(at100);
    QVERIFY(near(*at100, 50.0 / 1.1e-12));
    // The tooltip over the curve at I = 100 gives the formula's numbers.
    plot.resetToHardwareFrame();
    plot.replot();
    const QPointF pixel(plot.xAxis->coordToPixel(100.0), plot.yAxis->coordToPixel(*at100));
    const QString tip = cap.descriptionAt(pixel);
    QVERIFY2(tip.contains("(100 W − 50 W) / (1 pJ + 10 pJ / 100)"), qPrintable(tip));
    QVERIFY2(tip.contains("45.5 TFLOP/s"), qPrintable(tip));
    QVERIFY(cap.descriptionAt(pixel + QPointF(0, 40)).isEmpty());
}

void TestEnergyChart::noCappedRoofWithoutFigures()
{
    RooflinePlot plot;
    Hardware hw = roundMachine();
    hw.limits.energy->powerCapWatts.reset();
    plot.document()->resetHardware(hw);
    QVERIFY(!plot.roofLayer().powerCap().graph());
    hw.limits.energy.reset();
    plot.document()->resetHardware(hw);
    QVERIFY(!plot.roofLayer().powerCap().graph());
    const int graphs = plot.graphCount();
    plot.document()->resetHardware(roundMachine());
    QCOMPARE(plot.graphCount(), graphs + 1); // the capped roof is all it adds
}

void TestEnergyChart::archLine_data()
{
    QTest::addColumn<double>("intensity");
    QTest::addColumn<double>("flopsPerJoule");
    // 1 / (1e-12 + 1e-11 / I + 50 / min(1e14, 1e12·I)), sampled 40 times a decade over the
    // frame, a decade either side of the ridge at 100 FLOP/B: 10 to 1000 FLOP/B.
    QTest::newRow("I = 10") << 10.0 << 1.0 / 7e-12; // 1e-12 + 1e-12 + 5e-12: 143 GFLOP/J
    QTest::newRow("I = 100") << 100.0 << 1.0 / 1.6e-12; // 625 GFLOP/J
    // I = 10^2.5 = 316.2: 1e-12 + 3.162e-14 + 5e-13: 653 GFLOP/J.
    QTest::newRow("I = 316") << std::pow(10.0, 2.5)
                             << 1.0 / (1.5e-12 + 1e-11 / std::pow(10.0, 2.5));
    QTest::newRow("I = 1000") << 1000.0 << 1.0 / 1.51e-12; // 662 GFLOP/J
}

void TestEnergyChart::archLine()
{
    QFETCH(double, intensity);
    QFETCH(double, flopsPerJoule);
    Document document;
    document.resetHardware(roundMachine());
    QCustomPlot plot;
    const chart::EnergyChart drawn = chart::drawEnergyChart(plot, document, ChartTheme::light());
    QVERIFY(drawn.problem.isEmpty());
    QVERIFY(plot.graphCount() >= 2);
    const QCPGraph *arch = plot.graph(0);
    QVERIFY(arch->name().startsWith("arch line, fp32 over DRAM"));
    const auto value = valueAt(arch, intensity);
    QVERIFY(value);
    QVERIFY2(near(*value, flopsPerJoule), qPrintable(QString::number(*value, 'g', 10)));
    // The ceiling 1 / e_flop = 1 TFLOP/J.
    QCOMPARE(plot.graph(1)->data()->begin()->value, 1e12);
}

void TestEnergyChart::pointsAtTheirFlopsPerJoule()
{
    Document document;
    document.resetHardware(roundMachine());
    // The point: 1 TFLOP, 10 GB in 20 ms: 2.1 J, 1e12 / 2.1 = 476 GFLOP/J at I = 100.
    // An untimed point is not drawn, and counted.
    document.resetPoints({ kernel("k", 1e12, 1e10, 0.02), kernel("untimed", 1e12, 1e10, {}) });
    QCustomPlot plot;
    const chart::EnergyChart drawn = chart::drawEnergyChart(plot, document, ChartTheme::light());
    QCOMPARE(drawn.drawn, std::size_t { 1 });
    QCOMPARE(drawn.untimed, std::size_t { 1 });
    QCOMPARE(drawn.note, QString("Not drawn: 1 point without a measured time."));
    const QCPGraph *dots = plot.graph(2);
    QCOMPARE(dots->name(), QString("g"));
    QCOMPARE(dots->data()->size(), 1);
    QVERIFY(near(dots->data()->begin()->key, 100.0));
    QVERIFY(near(dots->data()->begin()->value, 1e12 / 2.1));
}

void TestEnergyChart::noEnergyChartSaysWhy()
{
    Document document;
    Hardware hw = roundMachine();
    hw.limits.energy->perByte.clear();
    document.resetHardware(hw);
    QCustomPlot plot;
    chart::EnergyChart drawn = chart::drawEnergyChart(plot, document, ChartTheme::light());
    QCOMPARE(drawn.problem,
        QString("Round numbers's energy figures lack the energy per DRAM byte, so there is no "
                "energy chart"));
    QCOMPARE(plot.graphCount(), 0);
    hw.limits.energy.reset();
    document.resetHardware(hw);
    drawn = chart::drawEnergyChart(plot, document, ChartTheme::light());
    QVERIFY(drawn.problem.startsWith("Round numbers has no energy figures"));
    // The window's view says the same instead of a chart, and has no slider.
    EnergyView view(&document);
    QCOMPARE(view.message(), drawn.problem);
    QVERIFY(view.capSlider()->isHidden());
}

void TestEnergyChart::sliderMovesTheCap()
{
    RooflinePlot plot;
    plot.resize(900, 620);
    plot.document()->resetHardware(roundMachine());
    EnergyView view(plot.document());
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSlider *slider = view.capSlider();
    QVERIFY(slider->isVisible());
    QCOMPARE(slider->value(), 100);
    QCOMPARE(slider->minimum(), 51); // above P0 = 50 W
    slider->setFocus();
    // Page up: +50 W, the cap 150 W. At I = 100 the roof becomes (150 − 50) / 1.1e-12 =
    // 90.9 TFLOP/s, still under the 100 TFLOP/s roofline.
    QTest::keyClick(slider, Qt::Key_PageUp);
    QCOMPARE(*plot.document()->hardware().limits.energy->powerCapWatts, 150.0);
    const chart::PowerCapRoof &cap = plot.roofLayer().powerCap();
    QVERIFY(cap.graph());
    QCOMPARE(cap.graph()->name(), QString("power cap 150 W"));
    QVERIFY(near(*valueAt(cap.graph(), 100.0), 100.0 / 1.1e-12));
    // Two steps down by the arrow (−5 W each): 140 W, 90 / 1.1e-12 = 81.8 TFLOP/s.
    QTest::keyClick(slider, Qt::Key_Left);
    QTest::keyClick(slider, Qt::Key_Left);
    QCOMPARE(*plot.document()->hardware().limits.energy->powerCapWatts, 140.0);
    QVERIFY(near(*valueAt(plot.roofLayer().powerCap().graph(), 100.0), 90.0 / 1.1e-12));
    // One undo step per key press: undo brings back 145 W.
    plot.document()->undoStack()->undo();
    QCOMPARE(*plot.document()->hardware().limits.energy->powerCapWatts, 145.0);
    QCOMPARE(slider->value(), 145);
}

QTEST_MAIN(TestEnergyChart)
#include "tst_energychart.moc"
