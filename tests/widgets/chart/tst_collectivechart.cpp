// A collective on its link roof (docs/MODEL.md §15.8): the measured dots at b·m/T, the calibrated
// curve, the latency floor b·m/α up to the link roof and m½ = α·W/b, each worked out here by hand
// for an all-reduce on 2 ranks (b = 1) under a 100 GB/s NVLink.
#include "widgets/chart/collectivechart.h"

#include <qcustomplot.h>

#include <QTest>

#include <cmath>

using namespace ridgepoint;

namespace {

CollectiveFit allReduce(std::vector<CollectiveRegime> regimes)
{
    CollectiveFit fit;
    fit.collective = "all_reduce";
    fit.ranks = 2;
    fit.ranksPerNode = 2;
    fit.regimes = std::move(regimes);
    return fit;
}

// Small messages: α = 10 µs, W = 50 GB/s (m½ = 500 kB, inside its sizes up to 1 MB); large
// ones: α = 20 µs, W = 80 GB/s.
Hardware machine()
{
    Hardware hw;
    hw.name = "link test";
    hw.memory.push_back({ "HBM", MemoryLevel::HBM, 1e12, {}, true });
    hw.memory.push_back({ "NVLink", MemoryLevel::NVLink, 1e11, {}, true });
    Calibration cal;
    cal.collectives = { allReduce({ { 1e3, 1e6, 1e-5, 5e10 }, { 2e6, 1e8, 2e-5, 8e10 } }) };
    hw.calibration = cal;
    return hw;
}

MeasuredRow row(double bytes, double seconds)
{
    MeasuredRow r;
    r.op = "all_reduce";
    r.kind = OperatorClass::Collective;
    r.ranks = 2;
    r.ranksPerNode = 2;
    r.messageBytes = bytes;
    r.seconds = seconds;
    return r;
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::abs(b);
}

} // namespace

class TestCollectiveChart : public QObject
{
    Q_OBJECT

private slots:
    void kneeIsTheRegimeWhoseHalfLiesInside_data();
    void kneeIsTheRegimeWhoseHalfLiesInside();
    void drawsDotsCurveFloorAndKnee();
    void nothingWithoutACollectiveFit();
    void roofIsTheLinkBetweenChips_data();
    void roofIsTheLinkBetweenChips();
};

void TestCollectiveChart::kneeIsTheRegimeWhoseHalfLiesInside_data()
{
    QTest::addColumn<double>("firstBandwidth"); // 0: none
    QTest::addColumn<int>("expected"); // -1: none
    // 10 µs · 50 GB/s = 500 kB ≤ 1 MB: the first regime.
    QTest::newRow("inside the first") << 5e10 << 0;
    // 10 µs · 500 GB/s = 5 MB > 1 MB; the second's 20 µs · 80 GB/s = 1.6 MB ≤ 100 MB.
    QTest::newRow("past the first") << 5e11 << 1;
    // A flat first regime has no m½; the second's lies inside it.
    QTest::newRow("flat first") << 0.0 << 1;
}

void TestCollectiveChart::kneeIsTheRegimeWhoseHalfLiesInside()
{
    QFETCH(double, firstBandwidth);
    QFETCH(int, expected);
    CollectiveRegime first { 1e3, 1e6, 1e-5, std::nullopt };
    if (firstBandwidth > 0.0)
        first.busBandwidth = firstBandwidth;
    const auto knee = chart::kneeRegime(allReduce({ first, { 2e6, 1e8, 2e-5, 8e10 } }));
    QCOMPARE(knee ? static_cast<int>(*knee) : -1, expected);
}

void TestCollectiveChart::drawsDotsCurveFloorAndKnee()
{
    QCustomPlot plot;
    plot.resize(800, 500);
    // 10 kB in 10.2 µs: 10⁴ / 1.02e-5 = 980.39 MB/s of bus bandwidth.
    const QStringList drawn
        = chart::drawCollectiveChart(plot, machine(), { row(1e4, 1.02e-5), row(1e7, 1.5e-4) });
    QCOMPARE(drawn.size(), 1);
    QVERIFY2(
        drawn[0].startsWith("all_reduce on 2 ranks (2 per node): floor 10 "), qPrintable(drawn[0]));
    QVERIFY2(drawn[0].endsWith("W 50 GB/s, n½ = α·W/b = 500 kB"), qPrintable(drawn[0]));
    // Graphs: the dots, the curve, the floor, then the link roof.
    QCOMPARE(plot.graphCount(), 4);
    const auto *dots = plot.graph(0)->data().data();
    QCOMPARE(dots->size(), 2);
    QVERIFY(near(dots->at(0)->key, 1e4));
    QVERIFY(near(dots->at(0)->value, 1e4 / 1.02e-5));
    QVERIFY(near(dots->at(1)->value, 1e7 / 1.5e-4));
    // The curve from 1 kB: 10³ / (10 µs + 10³ / 50 GB/s) = 10³ / 1.002e-5; its last point, 100 MB
    // in the second regime: 1e8 / (20 µs + 1e8 / 80 GB/s) = 1e8 / 1.27e-3.
    const auto *curve = plot.graph(1)->data().data();
    QVERIFY(near(curve->at(0)->key, 1e3));
    QVERIFY(near(curve->at(0)->value, 1e3 / 1.002e-5));
    QVERIFY(near(curve->at(curve->size() - 1)->value, 1e8 / 1.27e-3));
    // The floor b·m/α: 10³ / 10 µs = 100 MB/s at 1 kB, up to the 100 GB/s roof at 10 µs · 100 GB/s
    // = 1 MB.
    const auto *floor = plot.graph(2)->data().data();
    QVERIFY(near(floor->at(0)->value, 1e8));
    QVERIFY(near(floor->at(1)->key, 1e6));
    QVERIFY(near(floor->at(1)->value, 1e11));
    QVERIFY(near(plot.graph(3)->data()->at(0)->value, 1e11));
}

void TestCollectiveChart::nothingWithoutACollectiveFit()
{
    QCustomPlot plot;
    Hardware hw = machine();
    hw.calibration->collectives.clear();
    QVERIFY(chart::drawCollectiveChart(plot, hw, {}).isEmpty());
    hw.calibration.reset();
    QVERIFY(chart::drawCollectiveChart(plot, hw, {}).isEmpty());
}

// The flat roof is the link a collective inside a node meets (core/model/chip_link.h): NVLink,
// else ICI (the AMD presets' Infinity Fabric), else PCIe; the MI300X's Infinity Fabric is 896 GB/s
// both ways, 448 GB/s one way, where its PCIe is 64.
void TestCollectiveChart::roofIsTheLinkBetweenChips_data()
{
    QTest::addColumn<bool>("nvlink");
    QTest::addColumn<bool>("ici");
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("roof");
    QTest::newRow("NVLink first") << true << true << "NVLink" << 1e11;
    QTest::newRow("Infinity Fabric, not PCIe") << false << true << "Infinity Fabric" << 448e9;
    QTest::newRow("PCIe alone") << false << false << "PCIe" << 64e9;
}

void TestCollectiveChart::roofIsTheLinkBetweenChips()
{
    QFETCH(bool, nvlink);
    QFETCH(bool, ici);
    QFETCH(QString, name);
    QFETCH(double, roof);
    Hardware hw = machine();
    hw.memory.resize(1); // HBM alone
    hw.memory.push_back({ "PCIe", MemoryLevel::PCIe, 64e9, {}, true });
    if (ici)
        hw.memory.push_back({ "Infinity Fabric", MemoryLevel::ICI, 448e9, {}, true });
    if (nvlink)
        hw.memory.push_back({ "NVLink", MemoryLevel::NVLink, 1e11, {}, true });
    QCustomPlot plot;
    plot.resize(800, 500);
    QCOMPARE(chart::drawCollectiveChart(plot, hw, { row(1e4, 1.02e-5) }).size(), 1);
    QCOMPARE(plot.graphCount(), 4);
    QVERIFY(near(plot.graph(3)->data()->at(0)->value, roof));
    QVERIFY2(plot.graph(3)->name().startsWith(name), qPrintable(plot.graph(3)->name()));
}

QTEST_MAIN(TestCollectiveChart)
#include "tst_collectivechart.moc"
