// A kernel moved to another machine (docs/MODEL.md §2.3): the roof there and the speed-up bound,
// checked against the arithmetic written beside each row.
#include "core/analysis/analysis.h"
#include "core/analysis/compare.h"

#include <QTest>

#include <optional>

using namespace ridgepoint;

class TestCompare : public QObject
{
    Q_OBJECT
private slots:
    void movedKernel_data();
    void movedKernel();
};

void TestCompare::movedKernel_data()
{
    // Both machines are one compute and one memory ceiling (makeSimpleMachine); the point has
    // 1e12 FLOP and 1e11 bytes, intensity 10 FLOP/B.
    QTest::addColumn<double>("peakHere");
    QTest::addColumn<double>("bandwidthHere");
    QTest::addColumn<double>("peakThere");
    QTest::addColumn<double>("bandwidthThere");
    QTest::addColumn<double>("seconds"); // < 0: planned, no time
    QTest::addColumn<double>("attainableThere");
    QTest::addColumn<double>("speedup"); // roof there ÷ roof here
    QTest::addColumn<double>("atTheRoof"); // roof there ÷ achieved here; < 0: none (planned)
    QTest::addColumn<bool>("measured");
    // Here min(1e13, 1e12 × 10) = 1e13, and 2 s → 5e11 FLOP/s achieved. There: min(1e14,
    // 2e12 × 10) = 2e13; roofs 2e13 / 1e13 = 2; at its roof there 2e13 / 5e11 = 40.
    QTest::newRow("timed, memory-bound there")
        << 1e13 << 1e12 << 1e14 << 2e12 << 2.0 << 2e13 << 2.0 << 40.0 << true;
    // Here min(2e13, 2e12 × 10) = 2e13, 0.1 s → 1e13 FLOP/s. There: min(5e12, 1e13 × 10) = 5e12;
    // roofs 5e12 / 2e13 = 0.25 (slower); at its roof there 5e12 / 1e13 = 0.5.
    QTest::newRow("timed, compute-bound there, slower")
        << 2e13 << 2e12 << 5e12 << 1e13 << 0.1 << 5e12 << 0.25 << 0.5 << true;
    // Planned: here min(1e13, 1e12 × 10) = 1e13; there min(1e14, 3e12 × 10) = 3e13; ratio 3.
    QTest::newRow("planned, roof over roof")
        << 1e13 << 1e12 << 1e14 << 3e12 << -1.0 << 3e13 << 3.0 << -1.0 << false;
    // Faster than its roof here (1e12 FLOP in 0.05 s = 2e13 over the 1e13 roof): the roofs'
    // ratio still holds, 3e13 / 1e13 = 3; at the roof there 3e13 / 2e13 = 1.5.
    QTest::newRow("impossible here")
        << 1e13 << 1e12 << 1e14 << 3e12 << 0.05 << 3e13 << 3.0 << 1.5 << true;
}

void TestCompare::movedKernel()
{
    QFETCH(double, peakHere);
    QFETCH(double, bandwidthHere);
    QFETCH(double, peakThere);
    QFETCH(double, bandwidthThere);
    QFETCH(double, seconds);
    QFETCH(double, attainableThere);
    QFETCH(double, speedup);
    QFETCH(double, atTheRoof);
    QFETCH(bool, measured);
    KernelPoint point;
    point.name = "k";
    point.flops = 1e12;
    point.bytes.push_back({ std::nullopt, 1e11 });
    if (seconds > 0)
        point.seconds = seconds;
    const auto here = analyzePoint(point, makeSimpleMachine(peakHere, bandwidthHere));
    const auto there = analyzePoint(point, makeSimpleMachine(peakThere, bandwidthThere));
    QVERIFY(here && there);
    const auto move = moveTo(*here, *there);
    QVERIFY(move.has_value());
    QVERIFY(qAbs(move->attainableThere / attainableThere - 1.0) < 1e-12);
    QVERIFY(qAbs(move->speedup / speedup - 1.0) < 1e-12);
    QCOMPARE(move->atTheRoof.has_value(), atTheRoof > 0.0);
    if (atTheRoof > 0.0)
        QVERIFY(qAbs(*move->atTheRoof / atTheRoof - 1.0) < 1e-12);
    QCOMPARE(move->basis, measured ? MoveBasis::Measured : MoveBasis::Attainable);
}

QTEST_APPLESS_MAIN(TestCompare)
#include "tst_compare.moc"
