// The doctor's other-machine guess (core/analysis/machine_fit.h, docs/MODEL.md §2.1): machines
// and points built so that the utilizations are easy to check by hand.
#include "core/analysis/machine_fit.h"
#include "core/report/diagnosis_report.h"

#include <QRegularExpression>
#include <QTest>

using namespace ridgepoint;

namespace {

// π TFLOP/s of FP32, β GB/s of HBM.
Hardware machine(
    const std::string &name, double teraflops, double gigabytes, const std::string &kind = "gpu")
{
    Hardware hw;
    hw.name = name;
    hw.kind = kind;
    ComputeCeiling c;
    c.name = "FP32";
    c.precision = Precision::FP32;
    c.peak = teraflops * 1e12;
    hw.compute.push_back(c);
    MemoryCeiling m;
    m.name = "HBM";
    m.level = MemoryLevel::HBM;
    m.bandwidth = gigabytes * 1e9;
    hw.memory.push_back(m);
    hw.defaultCompute = "FP32";
    return hw;
}

// F FLOP and B bytes in one second: performance F FLOP/s at intensity F/B.
KernelPoint point(const std::string &name, double flops, double bytes)
{
    KernelPoint p;
    p.name = name;
    p.flops = flops;
    p.bytes = { { std::nullopt, bytes } };
    p.seconds = 1.0;
    p.precision = Precision::FP32;
    return p;
}

// On "Slow" (1 TFLOP/s, 100 GB/s, ridge 10 FLOP/B) every one of these is impossible:
//   0 "memory"   I = 1 FLOP/B,   150 GFLOP/s: Slow's roof 100 G (×1.5); Fast's 200 G: 75 %;
//                                              Faster's 1 T: 15 %
//   1 "compute"  I = 100 FLOP/B, 1.5 TFLOP/s: Slow's roof 1 T (×1.5);   Fast's 2 T: 75 %;
//                                              Faster's 10 T: 15 %
//   2, 3 "far"   I = 100 FLOP/B, 5 TFLOP/s:   over Fast's 2 T; Faster's 10 T: 50 %
//   4 "absurd"   I = 100 FLOP/B, 1 EFLOP/s:   over every roof
//   5 "memory too": as 0
std::vector<KernelPoint> allPoints()
{
    return { point("memory", 150e9, 150e9), point("compute", 1.5e12, 1.5e10),
        point("far", 5e12, 5e10), point("far too", 5e12, 5e10), point("absurd", 1e18, 1e16),
        point("memory too", 150e9, 150e9) };
}

const Hardware kSlow = machine("Slow", 1, 100);

std::vector<Hardware> machinesNamed(const QStringList &names)
{
    std::vector<Hardware> out;
    for (const QString &name : names) {
        if (name == "Fast")
            out.push_back(machine("Fast", 2, 200));
        else if (name == "Faster")
            out.push_back(machine("Faster", 10, 1000));
        else if (name == "Fast CPU")
            out.push_back(machine("Fast CPU", 2, 200, "cpu"));
        else if (name == "Slow")
            out.push_back(machine("Slow", 100, 10000)); // the current machine's name: skipped
    }
    return out;
}

} // namespace

class TestMachineFit : public QObject
{
    Q_OBJECT

private slots:
    void findsTheTightestMachine_data();
    void findsTheTightestMachine();
    void namesTheMachineForEachPointThatFits();
    void notesLeadWithTheMachine();
    void underTheFloorAloneIsNoSign_data();
    void underTheFloorAloneIsNoSign();
};

void TestMachineFit::findsTheTightestMachine_data()
{
    QTest::addColumn<QList<int>>("points"); // indices into allPoints()
    QTest::addColumn<QStringList>("candidates");
    QTest::addColumn<QString>("expected"); // empty: none
    QTest::addColumn<int>("fitted");
    QTest::addColumn<double>("median");

    QTest::newRow("the tightest of two that fit")
        << QList<int> { 0, 1, 5 } << QStringList { "Faster", "Fast" } << "Fast" << 3 << 0.75;
    QTest::newRow("order does not matter")
        << QList<int> { 0, 1, 5 } << QStringList { "Fast", "Faster" } << "Fast" << 3 << 0.75;
    QTest::newRow("two points are not enough")
        << QList<int> { 0, 1 } << QStringList { "Fast" } << "" << 0 << 0.0;
    QTest::newRow("the current machine is not another")
        << QList<int> { 0, 1, 5 } << QStringList { "Slow" } << "" << 0 << 0.0;
    QTest::newRow("another kind of machine is skipped")
        << QList<int> { 0, 1, 5 } << QStringList { "Fast CPU" } << "" << 0 << 0.0;
    // Fast holds 2 of 4 (under three quarters); Faster all 4: 15, 15, 50, 50 % (upper middle).
    QTest::newRow("three quarters must fit")
        << QList<int> { 0, 1, 2, 3 } << QStringList { "Fast", "Faster" } << "Faster" << 4 << 0.5;
    // 3 of 4 is three quarters: Fast holds 0 and 1 only; Faster 0, 1, 2 (15, 15, 50 %).
    QTest::newRow("one point over every roof")
        << QList<int> { 0, 1, 2, 4 } << QStringList { "Fast", "Faster" } << "Faster" << 3 << 0.15;
    QTest::newRow("nothing fits") << QList<int> { 4, 4, 4 } << QStringList { "Fast", "Faster" }
                                  << "" << 0 << 0.0;
}

void TestMachineFit::findsTheTightestMachine()
{
    QFETCH(QList<int>, points);
    QFETCH(QStringList, candidates);
    QFETCH(QString, expected);
    QFETCH(int, fitted);
    QFETCH(double, median);

    const std::vector<KernelPoint> all = allPoints();
    std::vector<KernelPoint> impossible;
    for (const int i : points) {
        const auto onSlow = analyzePoint(all[static_cast<std::size_t>(i)], kSlow);
        QVERIFY(onSlow && !onSlow->consistent); // the premise: each is impossible on Slow
        impossible.push_back(all[static_cast<std::size_t>(i)]);
    }
    const auto fit = findMachineThatFits(impossible, kSlow, machinesNamed(candidates));
    if (expected.isEmpty()) {
        QVERIFY2(!fit, fit ? fit->machine.c_str() : "");
        return;
    }
    QVERIFY(fit);
    QCOMPARE(QString::fromStdString(fit->machine), expected);
    QCOMPARE(fit->impossible, static_cast<std::size_t>(points.size()));
    QCOMPARE(fit->fitted, static_cast<std::size_t>(fitted));
    QCOMPARE(fit->medianUtilization, median);
}

void TestMachineFit::namesTheMachineForEachPointThatFits()
{
    const std::vector<KernelPoint> all = allPoints();
    const std::vector<KernelPoint> impossible { all[0], all[1], all[5] };
    const std::vector<Hardware> candidates = machinesNamed({ "Faster", "Fast" });
    const auto fit = findMachineThatFits(impossible, kSlow, candidates);
    QVERIFY(fit);
    const auto entry = otherMachineDiagnosis(all[0], kSlow, candidates[1], *fit);
    QVERIFY(entry);
    QCOMPARE(QString::fromStdString(entry->cause), QString("measured on Fast"));
    QCOMPARE(QString::fromStdString(entry->evidence),
        QString("it fits Fast's roofs at 75 %, as do 3 of the 3 points faster than Slow's roofs"));
    QCOMPARE(QString::fromStdString(entry->fix),
        QString("if the kernels ran on Fast, choose that machine (--hardware 'Fast')"));
    // The absurd point fits no machine: no entry for it.
    QVERIFY(!otherMachineDiagnosis(all[4], kSlow, candidates[1], *fit));
}

// analyze's notes (Fast holds 2 of the 4, under three quarters; Faster 3): the machine line first,
// then each point with the machine as its first cause when it fits there (the absurd one keeps its
// own list).
void TestMachineFit::notesLeadWithTheMachine()
{
    const std::vector<Hardware> candidates = machinesNamed({ "Faster", "Fast" });
    DiagnosisNotes notes;
    notes.tryOtherMachines(kSlow, candidates, {});
    const std::vector<KernelPoint> all = allPoints();
    for (const std::size_t i : { 0u, 1u, 2u, 4u }) {
        const auto a = analyzePoint(all[i], kSlow);
        QVERIFY(a && !a->diagnosis.empty());
        notes.add(all[i], *a);
    }
    const QStringList lines = QString::fromStdString(notes.text()).split('\n');
    QCOMPARE(lines.value(2),
        QString("  3 of the 4 points faster than Slow's roofs fit Faster's (median utilization "
                "15 %): were they measured there? (--hardware 'Faster')"));
    QCOMPARE(lines.value(3), QString("  memory (×1.50 the HBM roof):"));
    QVERIFY2(lines.value(4).startsWith("    1. measured on Faster: it fits Faster's roofs at 15 %"),
        qPrintable(lines.value(4)));
    const qsizetype absurd = lines.indexOf(QRegularExpression("^  absurd .*"));
    QVERIFY(absurd > 0);
    QVERIFY2(!lines.value(absurd + 1).contains("measured on"), qPrintable(lines.value(absurd + 1)));

    // Without tryOtherMachines no machine is named.
    DiagnosisNotes plain;
    const auto a = analyzePoint(all[0], kSlow);
    plain.add(all[0], *a);
    QVERIFY(!QString::fromStdString(plain.text()).contains("measured on"));
}

void TestMachineFit::underTheFloorAloneIsNoSign_data()
{
    QTest::addColumn<int>("underTheFloor"); // points under Slow's 10 µs floor, not its roofs
    QTest::addColumn<bool>("withTheFaster"); // and points 0, 1, 5: faster than Slow's roofs
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("looked"); // MachineFit::impossible
    // 1 MFLOP, 100 kB in 5 µs on Slow: F/π = B/β = 1 µs ≤ 5 µs, so within its roofs; under its
    // 10 µs launch latency, so impossible there. On Fast (no floor) they would run at
    // 0.2 TFLOP/s of its 2 TFLOP/s roof at 10 FLOP/B: 10 %, a "fit" that says nothing.
    QTest::newRow("three under the floor alone: no machine") << 3 << false << "" << 0;
    // With points 0, 1, 5 (Fast: 75 % each) only those three are looked at.
    QTest::newRow("the floor's left out of the count") << 3 << true << "Fast" << 3;
}

void TestMachineFit::underTheFloorAloneIsNoSign()
{
    QFETCH(int, underTheFloor);
    QFETCH(bool, withTheFaster);
    QFETCH(QString, expected);
    QFETCH(int, looked);
    Hardware slow = kSlow;
    slow.limits.launchLatency = LatencyFigure { MemoryLevel::HBM, 1e-5, {} };
    std::vector<KernelPoint> impossible;
    for (int i = 0; i < underTheFloor; ++i) {
        KernelPoint p = point("tiny " + std::to_string(i), 1e6, 1e5);
        p.seconds = 5e-6;
        const auto a = analyzePoint(p, slow);
        QVERIFY(a && !a->consistent && a->bound == Bound::Latency); // the premise
        impossible.push_back(p);
    }
    const std::vector<KernelPoint> all = allPoints();
    if (withTheFaster)
        impossible.insert(impossible.end(), { all[0], all[1], all[5] });
    const std::vector<Hardware> candidates = machinesNamed({ "Fast" });
    const auto fit = findMachineThatFits(impossible, slow, candidates);
    if (expected.isEmpty()) {
        QVERIFY2(!fit, fit ? fit->machine.c_str() : "");
        // Nor is the machine named for one such point.
        const MachineFit any { "Fast", "Fast", 3, 3, 0.1 };
        QVERIFY(!otherMachineDiagnosis(impossible.front(), slow, candidates.front(), any));
        return;
    }
    QVERIFY(fit);
    QCOMPARE(QString::fromStdString(fit->machine), expected);
    QCOMPARE(fit->impossible, static_cast<std::size_t>(looked));
    QCOMPARE(fit->fitted, std::size_t { 3 });
    QCOMPARE(fit->medianUtilization, 0.75);
}

QTEST_APPLESS_MAIN(TestMachineFit)
#include "tst_machinefit.moc"
