// The achievable roofs the chart draws under a calibrated machine's spec roofs (docs/MODEL.md
// §15.6): which classes are drawn for the points on screen, which roofs each draws, and the
// figures and words of each band, worked out here by hand from the test machine.
#include "core/calibrate/achievable.h"

#include "tests/support/testmachine.h"

#include <QTest>

using namespace ridgepoint;

Q_DECLARE_METATYPE(std::vector<ridgepoint::KernelPoint>)
Q_DECLARE_METATYPE(std::vector<ridgepoint::OperatorClass>)

namespace {

KernelFit fit(std::string name, OperatorClass kind, double c, double mu, std::size_t rows)
{
    KernelFit out;
    out.name = std::move(name);
    out.kind = kind;
    out.computeFraction = c;
    out.memoryFraction = mu;
    out.floorSeconds = 5e-6;
    out.error.rows = rows;
    return out;
}

// The test machine (FP32 vector 1 TFLOP/s, DRAM 100 GB/s) calibrated against both: GEMMs at
// 87 % of the compute roof and 60 % of the memory one, elementwise operators at 90 % of the
// compute roof (never drawn: no elementwise time depends on it) and 45 % of the memory one;
// no attention fit.
Hardware calibrated()
{
    Hardware hw = test::machine();
    Calibration cal;
    cal.computeCeiling = "FP32 vector";
    cal.peak = 1e12;
    cal.memoryCeiling = "DRAM";
    cal.bandwidth = 1e11;
    cal.operators = { fit("mlp_up_proj", OperatorClass::Gemm, 0.8, 0.5, 12),
        fit("add", OperatorClass::Elementwise, 1.0, 0.4, 9) };
    cal.classes = { fit("gemm", OperatorClass::Gemm, 0.87, 0.6, 48),
        fit("elementwise", OperatorClass::Elementwise, 0.9, 0.45, 30) };
    hw.calibration = cal;
    return hw;
}

KernelPoint named(std::string name, std::string group = {})
{
    return test::point(std::move(name), std::move(group), 1e9, 1e9, 0.02);
}

} // namespace

class TestAchievable : public QObject
{
    Q_OBJECT

private slots:
    void classesFollowThePoints_data();
    void classesFollowThePoints();
    void roofsAreFractionsOfTheFittedFigures_data();
    void roofsAreFractionsOfTheFittedFigures();
    void labelSaysWhatTheBandIs_data();
    void labelSaysWhatTheBandIs();
    void uncalibratedMachineHasNoBand();
    void bandwidthTakesOverAtAlphaTimesW_data();
    void bandwidthTakesOverAtAlphaTimesW();
};

void TestAchievable::classesFollowThePoints_data()
{
    using C = OperatorClass;
    QTest::addColumn<std::vector<KernelPoint>>("points");
    QTest::addColumn<std::vector<C>>("expected");
    // No point names a class: every class the calibration fits (attention has no fit).
    QTest::newRow("no points") << std::vector<KernelPoint> {}
                               << std::vector<C> { C::Gemm, C::Elementwise };
    QTest::newRow("unknown names") << std::vector<KernelPoint> { named("stream", "memory") }
                                   << std::vector<C> { C::Gemm, C::Elementwise };
    // A Vidur point: its name's first word is a fitted operator.
    QTest::newRow("gemm by name") << std::vector<KernelPoint> { named("mlp_up_proj 512 tok tp 2"),
        named("stream") } << std::vector<C> { C::Gemm };
    QTest::newRow("elementwise by group")
        << std::vector<KernelPoint> { named("x", "add") } << std::vector<C> { C::Elementwise };
    QTest::newRow("class named by group")
        << std::vector<KernelPoint> { named("k1", "GEMM") } << std::vector<C> { C::Gemm };
    // A word of the group: the example data set's "prefill GEMM" and "decode GEMV".
    QTest::newRow("class word in group") << std::vector<KernelPoint> { named("qkv", "prefill GEMM"),
        named("gemv", "decode GEMV") } << std::vector<C> { C::Gemm };
    QTest::newRow("matmul and elementwise words")
        << std::vector<KernelPoint> { named("a", "tiled_matmul"), named("b", "fused elementwise") }
        << std::vector<C> { C::Gemm, C::Elementwise };
    // A word that only contains a class name is not one.
    QTest::newRow("no whole word") << std::vector<KernelPoint> { named("a", "gemmlike") }
                                   << std::vector<C> { C::Gemm, C::Elementwise };
    // Attention points but no attention fit: nothing for them, and the other classes are not
    // drawn either (the points on screen have a class).
    QTest::newRow("attention without a fit")
        << std::vector<KernelPoint> { named("k1", "attention") } << std::vector<C> {};
    QTest::newRow("both, class order")
        << std::vector<KernelPoint> { named("add 1 tok tp 1"), named("mlp_up_proj 1 tok tp 1") }
        << std::vector<C> { C::Gemm, C::Elementwise };
    // A collective point has no roof fraction: like a point with no class.
    QTest::newRow("collective group") << std::vector<KernelPoint> { named("ar", "collective") }
                                      << std::vector<C> { C::Gemm, C::Elementwise };
}

void TestAchievable::classesFollowThePoints()
{
    QFETCH(std::vector<KernelPoint>, points);
    QFETCH(std::vector<OperatorClass>, expected);
    const Hardware hw = calibrated();
    QCOMPARE(shownClasses(*hw.calibration, points.size(),
                 [&](std::size_t i) -> const KernelPoint & { return points[i]; }),
        expected);
}

void TestAchievable::roofsAreFractionsOfTheFittedFigures_data()
{
    QTest::addColumn<bool>("hideDram");
    QTest::addColumn<int>("index");
    QTest::addColumn<int>("count");
    QTest::addColumn<bool>("memory");
    QTest::addColumn<double>("achievable");
    QTest::addColumn<int>("rows");
    // GEMM: 0.87 × 1 TFLOP/s = 870 GFLOP/s, 0.6 × 100 GB/s = 60 GB/s; elementwise: no compute
    // band, 0.45 × 100 GB/s = 45 GB/s.
    QTest::newRow("gemm compute") << false << 0 << 3 << false << 870e9 << 48;
    QTest::newRow("gemm memory") << false << 1 << 3 << true << 60e9 << 48;
    QTest::newRow("elementwise memory") << false << 2 << 3 << true << 45e9 << 30;
    // The DRAM roof hidden: no band under it.
    QTest::newRow("dram hidden") << true << 0 << 1 << false << 870e9 << 48;
    // A fraction of 0.995 or more draws nothing: the GEMM memory fraction made 0.996.
    QTest::newRow("fraction near 1") << false << 1 << 2 << true << 45e9 << 30;
}

void TestAchievable::roofsAreFractionsOfTheFittedFigures()
{
    QFETCH(bool, hideDram);
    QFETCH(int, index);
    QFETCH(int, count);
    QFETCH(bool, memory);
    QFETCH(double, achievable);
    QFETCH(int, rows);
    Hardware hw = calibrated();
    hw.memory[0].visible = !hideDram;
    if (QByteArray(QTest::currentDataTag()) == "fraction near 1")
        hw.calibration->classes[0].memoryFraction = 0.996;
    const auto roofs = achievableRoofs(hw, { OperatorClass::Gemm, OperatorClass::Elementwise });
    QCOMPARE(static_cast<int>(roofs.size()), count);
    const AchievableRoof &roof = roofs.at(static_cast<std::size_t>(index));
    QCOMPARE(roof.memory, memory);
    QCOMPARE(roof.ceiling, std::string(memory ? "DRAM" : "FP32 vector"));
    QCOMPARE(roof.spec, memory ? 1e11 : 1e12);
    QVERIFY(std::abs(roof.achievable - achievable) <= 1e-9 * achievable);
    QCOMPARE(roof.rows, static_cast<std::size_t>(rows));
}

void TestAchievable::labelSaysWhatTheBandIs_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("memory");
    QTest::addColumn<double>("fraction");
    QTest::addColumn<int>("rows");
    QTest::addColumn<QString>("expected");
    QTest::newRow("gemm") << 0 << false << 0.87 << 48
                          << "GEMM achievable, 87 % of BF16 tensor, calibrated on 48 rows";
    QTest::newRow("rounds") << 2 << true << 0.4549 << 30
                            << "Elementwise/norm achievable, 45 % of HBM3, calibrated on 30 rows";
    QTest::newRow("small, one decimal")
        << 1 << false << 0.0712 << 1
        << "Attention achievable, 7.1 % of BF16 tensor, calibrated on 1 row";
}

void TestAchievable::labelSaysWhatTheBandIs()
{
    QFETCH(int, kind);
    QFETCH(bool, memory);
    QFETCH(double, fraction);
    QFETCH(int, rows);
    QFETCH(QString, expected);
    AchievableRoof roof;
    roof.kind = static_cast<OperatorClass>(kind);
    roof.memory = memory;
    roof.ceiling = memory ? "HBM3" : "BF16 tensor";
    roof.fraction = fraction;
    roof.rows = static_cast<std::size_t>(rows);
    QCOMPARE(QString::fromStdString(achievableLabel(roof)), expected);
}

void TestAchievable::uncalibratedMachineHasNoBand()
{
    QVERIFY(achievableRoofs(test::machine(), { OperatorClass::Gemm }).empty());
}

void TestAchievable::bandwidthTakesOverAtAlphaTimesW_data()
{
    QTest::addColumn<QString>("collective");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<double>("bandwidth"); // 0: none
    QTest::addColumn<double>("expected"); // 0: none
    // α = 10 µs. all_reduce on 8 ranks: b = 2·7/8 = 1.75; at 100 GB/s, m½ = 1e-5·1e11 / 1.75
    // = 571 428.57 B (a 1 MiB all-reduce is past it, on its bandwidth).
    QTest::newRow("all_reduce 8") << "all_reduce" << 8 << 1e11 << 1e6 / 1.75;
    // all_reduce on 2 ranks: b = 1; 1e-5·5e10 = 500 000 B.
    QTest::newRow("all_reduce 2") << "all_reduce" << 2 << 5e10 << 5e5;
    // send_recv: b = 1; 1e-5·2e10 = 200 000 B.
    QTest::newRow("send_recv") << "send_recv" << 2 << 2e10 << 2e5;
    // all_gather on 4: b = 3/4; 1e-5·3e10 / 0.75 = 400 000 B.
    QTest::newRow("all_gather 4") << "all_gather" << 4 << 3e10 << 4e5;
    // A flat regime: no bandwidth, no crossing.
    QTest::newRow("flat") << "all_reduce" << 4 << 0.0 << 0.0;
}

void TestAchievable::bandwidthTakesOverAtAlphaTimesW()
{
    QFETCH(QString, collective);
    QFETCH(int, ranks);
    QFETCH(double, bandwidth);
    QFETCH(double, expected);
    CollectiveFit fit;
    fit.collective = collective.toStdString();
    fit.ranks = ranks;
    CollectiveRegime regime { 0.0, 1e9, 1e-5, std::nullopt };
    if (bandwidth > 0.0)
        regime.busBandwidth = bandwidth;
    const auto half = halfBandwidthBytes(fit, regime);
    QCOMPARE(half.has_value(), expected > 0.0);
    if (half)
        QVERIFY2(std::abs(*half - expected) <= 1e-9 * expected, qPrintable(QString::number(*half)));
}

QTEST_APPLESS_MAIN(TestAchievable)
#include "tst_achievable.moc"
