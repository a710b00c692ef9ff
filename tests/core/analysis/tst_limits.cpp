// The latency floor (docs/MODEL.md §13) and the energy roofline (§14) on a machine of round
// numbers, every expected value worked out by hand beside its row.
#include "core/analysis/analysis.h"
#include "core/analysis/energy_roof.h"
#include "core/presets/presets.h"
#include "core/report/report.h"

#include "tests/support/testmachine.h"

#include <QTest>

#include <cmath>

using namespace ridgepoint;

namespace {

bool near(double actual, double expected, double relative = 1e-12)
{
    return std::fabs(actual - expected) <= relative * std::fabs(expected);
}

// test::roundEnergyMachine (π = 100 TFLOP/s, β = 1 TB/s, ridge 100 FLOP/B; 1 pJ/FLOP, 10 pJ/B,
// P0 = 50 W, cap 100 W) with a 5 µs launch latency and a 1 µs DRAM latency.
Hardware roundMachine()
{
    Hardware hw = test::roundEnergyMachine();
    hw.limits.launchLatency = LatencyFigure { MemoryLevel::HBM, 5e-6, {} };
    hw.limits.levelLatencies.push_back({ MemoryLevel::DRAM, 1e-6, {} });
    return hw;
}

KernelPoint kernel(double flops, double bytes, double seconds)
{
    KernelPoint p;
    p.name = "k";
    p.flops = flops;
    p.bytes = { { std::nullopt, bytes } };
    p.seconds = seconds;
    return p;
}

} // namespace

class TestLimits : public QObject
{
    Q_OBJECT

private slots:
    void latencyFloor_data();
    void latencyFloor();
    void fasterThanTheLaunchIsExplained();
    void presetFloorFromItsFile_data();
    void presetFloorFromItsFile();
    void underTheRoofsTooTheRoofsComeFirst();
    void fewBytesInFlight_data();
    void fewBytesInFlight();
    void energy_data();
    void energy();
    void energyNeedsEveryTerm();
    void energyRoofCurves_data();
    void energyRoofCurves();
    void energyRoofNeedsEveryTerm();
    void analyzeJsonCarriesTheEnergy();
    void noLimitsChangeNothing();
};

void TestLimits::latencyFloor_data()
{
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<QString>("bound");
    QTest::addColumn<double>("tMin");
    // 1 kFLOP, 1 kB: F/π = 1e3 / 1e14 = 10 ps, B/β = 1e3 / 1e12 = 1 ns, launch 5 µs: latency.
    QTest::newRow("1 kFLOP, 1 kB: latency-bound") << 1e3 << 1e3 << "latency" << 5e-6;
    // 1 GFLOP, 10 GB: B/β = 10 ms > 5 µs: memory.
    QTest::newRow("10 GB: memory-bound") << 1e9 << 1e10 << "memory" << 1e-2;
    // 1 TFLOP, 1 GB: F/π = 10 ms: compute.
    QTest::newRow("1 TFLOP: compute-bound") << 1e12 << 1e9 << "compute" << 1e-2;
    // 400 MFLOP, 1 MB: F/π = 4 µs, B/β = 1 µs: both under the 5 µs launch.
    QTest::newRow("4 µs of math: latency-bound") << 4e8 << 1e6 << "latency" << 5e-6;
    // 1 kFLOP, 5 MB: B/β = 5 µs, exactly the launch latency: a tie stays with the roof.
    QTest::newRow("B/β = λ: memory-bound") << 1e3 << 5e6 << "memory" << 5e-6;
}

void TestLimits::latencyFloor()
{
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(QString, bound);
    QFETCH(double, tMin);
    const auto a = analyzePoint(kernel(flops, bytes, 1.0), roundMachine());
    QVERIFY2(a, a ? "" : a.error().c_str());
    QCOMPARE(QString::fromStdString(std::string(boundName(a->bound))), bound);
    QVERIFY(near(a->tMin, tMin));
    QVERIFY(a->tMax >= a->tMin);
    QVERIFY(near(a->attainable, flops / tMin));
    if (bound == "latency")
        QCOMPARE(a->limitingCeiling, std::string(kLaunchLatencyName));
}

void TestLimits::fasterThanTheLaunchIsExplained()
{
    // The 1 kFLOP, 1 kB kernel of 8 µs under a 5 µs launch: latency-bound, consistent,
    // at 1e3 / 8e-6 = 125 MFLOP/s of its 1e3 / 5e-6 = 200 MFLOP/s: 62.5 %.
    const auto slow = analyzePoint(kernel(1e3, 1e3, 8e-6), roundMachine());
    QVERIFY(slow);
    QCOMPARE(slow->bound, Bound::Latency);
    QVERIFY(slow->consistent);
    QVERIFY(near(*slow->utilization, 0.625));
    // Measured at 2 µs, under the launch latency: impossible, and the doctor names the launch.
    const auto fast = analyzePoint(kernel(1e3, 1e3, 2e-6), roundMachine());
    QVERIFY(fast);
    QVERIFY(!fast->consistent);
    QVERIFY(!fast->diagnosis.empty());
    QCOMPARE(fast->diagnosis.front().cause, std::string("a time under the launch latency"));
    QVERIFY2(fast->diagnosis.front().evidence.find("below the machine's launch latency of 5 us")
            != std::string::npos,
        fast->diagnosis.front().evidence.c_str());
}

void TestLimits::presetFloorFromItsFile_data()
{
    QTest::addColumn<QString>("machine");
    QTest::addColumn<double>("seconds");
    QTest::addColumn<QString>("bound");
    QTest::addColumn<double>("attainable");
    QTest::addColumn<bool>("consistent");
    // Vidur's residual add at 1 token: 4096 FLOP (one add per element of 1 × 4096), 24,576 B
    // (two inputs and the output, 2 bytes each). On the H100 preset (λ = 1 µs from its file,
    // BF16 989 TFLOP/s, HBM 3.35 TB/s): F/π = 4.1 ps, B/β = 7.3 ns, so T_min = 1 µs and the
    // roof is F/λ = 4096 / 1e-6 = 4.096 GFLOP/s; measured at 1 µs it is on it (100 %).
    QTest::newRow("H100, add at 1 µs: on its floor")
        << "h100" << 1e-6 << "latency" << 4.096e9 << true;
    // Measured at 0.5 µs: under the floor, impossible; the doctor names the launch latency.
    QTest::newRow("H100, add at 0.5 µs: under it")
        << "h100" << 0.5e-6 << "latency" << 4.096e9 << false;
    // A100 80GB (λ = 2 µs): F/λ = 2.048 GFLOP/s; Vidur's add took 2 µs there.
    QTest::newRow("A100 80GB, add at 2 µs") << "A100 80GB" << 2e-6 << "latency" << 2.048e9 << true;
    // A100 40GB: no floor. B/β = 24576 / 1.555e12 = 15.8 ns binds: memory-bound, and the 2 µs
    // measured is far slower than that, consistent.
    QTest::newRow("A100 40GB: no floor")
        << "A100 40GB" << 2e-6 << "memory" << 4096.0 / (24576.0 / 1.555e12) << true;
}

void TestLimits::presetFloorFromItsFile()
{
    QFETCH(QString, machine);
    QFETCH(double, seconds);
    QFETCH(QString, bound);
    QFETCH(double, attainable);
    QFETCH(bool, consistent);
    const PresetDatabase db = PresetDatabase::builtin();
    const auto hw = db.find(machine.toStdString());
    QVERIFY(hw);
    const auto a = analyzePoint(kernel(4096.0, 24576.0, seconds), **hw);
    QVERIFY2(a, a ? "" : a.error().c_str());
    QCOMPARE(QString::fromStdString(std::string(boundName(a->bound))), bound);
    QVERIFY2(near(a->attainable, attainable, 1e-9), std::to_string(a->attainable).c_str());
    QCOMPARE(a->consistent, consistent);
    if (consistent)
        return;
    QVERIFY(!a->diagnosis.empty());
    const Diagnosis &d = a->diagnosis.front();
    QCOMPARE(d.cause, std::string("a time under the launch latency"));
    QCOMPARE(d.evidence,
        std::string("measured 500 ns is below the machine's launch latency of 1 us; both roofs "
                    "alone would allow 7.336 ns"));
    QVERIFY2(d.fix.find("if it is a device floor (the presets'), the kernel ran shorter than any "
                        "measured there")
            != std::string::npos,
        d.fix.c_str());
}

void TestLimits::underTheRoofsTooTheRoofsComeFirst()
{
    // The H100 example's embedding_gather: 2.62144 MFLOP, 1.6384 MB of HBM bytes in 210 ns.
    // Its roofs alone: B/β = 1.6384e6 / 3.35e12 = 489.1 ns, so 210 ns is under them as well as
    // under the 1 µs floor. The roofs are the stronger evidence: the doctor reads it as without
    // the floor (at 1.6 FLOP/B the L2 roof, 5120 B/clk × 1.83 GHz = 9.37 TB/s, allows
    // 1.6 × 9.37e12 = 14.99 TFLOP/s; the 12.48 TFLOP/s measured fits it at 83 %), and the launch
    // latency comes after, before the generic cause.
    const PresetDatabase db = PresetDatabase::builtin();
    const auto hw = db.find("h100");
    QVERIFY(hw);
    const auto a = analyzePoint(kernel(2621440.0, 1638400.0, 2.1e-7), **hw);
    QVERIFY(a);
    QCOMPARE(a->bound, Bound::Latency);
    QVERIFY(!a->consistent);
    QVERIFY(a->diagnosis.size() >= 3);
    QCOMPARE(a->diagnosis.front().cause, std::string("L2 bytes taken for HBM bytes"));
    QVERIFY2(a->diagnosis.front().evidence.find("the L2 roof is 14.99 TFLOP/s: fits it at 83 %")
            != std::string::npos,
        a->diagnosis.front().evidence.c_str());
    const auto &d = a->diagnosis;
    QCOMPARE(d[d.size() - 2].cause, std::string("a time under the launch latency"));
    QCOMPARE(d.back().cause, std::string("counts or peaks are off"));
    QVERIFY(a->note.find("L2 bytes taken for HBM bytes?") != std::string::npos);
}

void TestLimits::fewBytesInFlight_data()
{
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("seconds");
    QTest::addColumn<bool>("explained");
    // β·λ = 1 TB/s × 1 µs = 1 MB in flight to reach the roof. 100 kB, 10 GFLOP at 200 µs:
    // T_min = max(100 µs, 0.1 µs, 5 µs) = 100 µs; 50 % → not under half. Use 1 GFLOP instead:
    // T_min = max(10 µs, 0.1 µs, 5 µs) = 10 µs; at 100 µs it is at 10 %: far under, and
    // 100 kB < 1 MB: few bytes in flight.
    QTest::newRow("100 kB at 10 %") << 1e5 << 1e-4 << true;
    // 10 MB > 1 MB: enough bytes to fill the pipe, latency is no excuse.
    QTest::newRow("10 MB at 10 %") << 1e7 << 1e-4 << false;
    // 100 kB at 12 µs: 83 % of the 10 µs roof, not far under.
    QTest::newRow("100 kB near its roof") << 1e5 << 1.2e-5 << false;
}

void TestLimits::fewBytesInFlight()
{
    QFETCH(double, bytes);
    QFETCH(double, seconds);
    QFETCH(bool, explained);
    const auto a = analyzePoint(kernel(1e9, bytes, seconds), roundMachine());
    QVERIFY(a);
    QCOMPARE(
        a->note.find("few bytes in flight for DRAM's latency") != std::string::npos, explained);
    if (explained) {
        // 100 kB / 1 µs = 100 GB/s at most per round trip: 10 % of the 1 TB/s roof.
        QVERIFY2(a->note.find("one round trip moves at most 100 GB/s, 10 % of the roof's "
                              "bandwidth")
                != std::string::npos,
            a->note.c_str());
    }
}

void TestLimits::energy_data()
{
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("seconds");
    QTest::addColumn<double>("joules");
    QTest::addColumn<double>("capped");
    // The point: 1 TFLOP, 10 GB in 20 ms. 1e12 × 1 pJ = 1 J; 1e10 × 10 pJ = 0.1 J;
    // 50 W × 0.02 s = 1 J: 2.1 J. I = 100 FLOP/B; (100 − 50) / (1e-12 + 1e-11 / 100)
    // = 50 / 1.1e-12 = 45.45 TFLOP/s, under the 100 TFLOP/s roof.
    QTest::newRow("1 TFLOP, 10 GB, 20 ms") << 1e12 << 1e10 << 0.02 << 2.1 << 50.0 / 1.1e-12;
    // 1 TFLOP, 1 TB in 1.5 s: 1 + 10 + 75 = 86 J. I = 1: the roof is 1 TB/s × 1 = 1 TFLOP/s;
    // the cap allows 50 / (1e-12 + 1e-11) = 4.545 TFLOP/s: the roofline's 1 TFLOP/s stays.
    QTest::newRow("1 TFLOP, 1 TB: the roof binds first") << 1e12 << 1e12 << 1.5 << 86.0 << 1e12;
}

void TestLimits::energy()
{
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(double, seconds);
    QFETCH(double, joules);
    QFETCH(double, capped);
    const auto a = analyzePoint(kernel(flops, bytes, seconds), roundMachine());
    QVERIFY(a && a->energy);
    QVERIFY2(
        near(*a->energy->joules, joules, 1e-12), qPrintable(QString::number(*a->energy->joules)));
    QVERIFY(near(*a->energy->flopsPerJoule, flops / joules, 1e-12));
    QVERIFY2(near(*a->energy->powerCappedAttainable, capped, 1e-12),
        qPrintable(QString::number(*a->energy->powerCappedAttainable, 'g', 10)));
}

void TestLimits::energyNeedsEveryTerm()
{
    Hardware hw = roundMachine();
    hw.limits.energy->perByte.clear(); // a missing term is unknown, not free
    const auto a = analyzePoint(kernel(1e12, 1e10, 0.02), hw);
    QVERIFY(a && a->energy);
    QVERIFY(!a->energy->joules);
    QVERIFY(!a->energy->powerCappedAttainable);
    // Without a measured time there is no P0·T: no joules, but the capped roof stands.
    KernelPoint untimed = kernel(1e12, 1e10, 1.0);
    untimed.seconds.reset();
    const auto b = analyzePoint(untimed, roundMachine());
    QVERIFY(b && b->energy);
    QVERIFY(!b->energy->joules);
    QVERIFY(near(*b->energy->powerCappedAttainable, 50.0 / 1.1e-12, 1e-12));
}

void TestLimits::energyRoofCurves_data()
{
    QTest::addColumn<double>("intensity");
    QTest::addColumn<double>("capped");
    QTest::addColumn<double>("arch");
    // The round machine: π = 100 TFLOP/s, β = 1 TB/s, e_flop = 1 pJ, e_byte = 10 pJ, P0 = 50 W,
    // P_cap = 100 W. Capped: min(min(π, β·I), 50 / (1e-12 + 1e-11 / I)). Arch line:
    // 1 / (1e-12 + 1e-11 / I + 50 / min(π, β·I)).
    // I = 100 (the point): 50 / 1.1e-12 = 45.45 TFLOP/s; 1 / (1e-12 + 1e-13 + 5e-13)
    // = 1 / 1.6e-12 = 625 GFLOP/J.
    QTest::newRow("I = 100: the cap binds") << 100.0 << 50.0 / 1.1e-12 << 1.0 / 1.6e-12;
    // I = 1: roof 1 TFLOP/s, cap 50 / 1.1e-11 = 4.5 TFLOP/s: the roof; 1 / (1e-12 + 1e-11 +
    // 5e-11) = 1 / 6.1e-11 = 16.39 GFLOP/J.
    QTest::newRow("I = 1: the roof binds") << 1.0 << 1e12 << 1.0 / 6.1e-11;
    // I = 40: β·I = 40 TFLOP/s and 50 / (1e-12 + 2.5e-13) = 40 TFLOP/s: where the two meet
    // (β·I·(e_flop + e_byte / I) = I + 10 = 50). Arch: 1 / (1e-12 + 2.5e-13 + 50 / 4e13)
    // = 1 / 2.5e-12 = 400 GFLOP/J.
    QTest::newRow("I = 40: the roof meets the cap") << 40.0 << 4e13 << 1.0 / 2.5e-12;
    // I = 1000: 50 / 1.01e-12 = 49.5 TFLOP/s; 1 / (1e-12 + 1e-14 + 5e-13) = 662.3 GFLOP/J.
    QTest::newRow("I = 1000") << 1000.0 << 50.0 / 1.01e-12 << 1.0 / 1.51e-12;
}

void TestLimits::energyRoofCurves()
{
    QFETCH(double, intensity);
    QFETCH(double, capped);
    QFETCH(double, arch);
    const Hardware hw = roundMachine();
    const auto roof = headlineEnergyRoof(hw);
    QVERIFY(roof);
    QVERIFY(roof->capped(intensity));
    QVERIFY2(near(*roof->capped(intensity), capped, 1e-12),
        qPrintable(QString::number(*roof->capped(intensity), 'g', 10)));
    QVERIFY2(near(roof->archFlopsPerJoule(intensity), arch, 1e-12),
        qPrintable(QString::number(roof->archFlopsPerJoule(intensity), 'g', 10)));
    QCOMPARE(roof->ceilingFlopsPerJoule(), 1e12); // 1 / 1 pJ
    // The point analysis gives the same capped roof at the same intensity.
    const auto a = analyzePoint(kernel(1e12, 1e12 / intensity, 1.0), hw);
    QVERIFY(a && a->energy && a->energy->powerCappedAttainable);
    QVERIFY(near(*a->energy->powerCappedAttainable, capped, 1e-12));
}

void TestLimits::energyRoofNeedsEveryTerm()
{
    Hardware hw = roundMachine();
    hw.limits.energy->staticWatts.reset();
    QVERIFY(!headlineEnergyRoof(hw));
    hw = roundMachine();
    hw.limits.energy->perFlop.clear();
    QVERIFY(!headlineEnergyRoof(hw));
    hw = roundMachine();
    hw.limits.energy->powerCapWatts.reset(); // the arch line stands, the capped roof does not
    const auto roof = headlineEnergyRoof(hw);
    QVERIFY(roof && !roof->capped(100.0));
    hw.limits.energy.reset();
    QVERIFY(!headlineEnergyRoof(hw));
}

void TestLimits::analyzeJsonCarriesTheEnergy()
{
    const Hardware hw = roundMachine();
    const KernelPoint p = kernel(1e12, 1e10, 0.02);
    const auto a = analyzePoint(p, hw);
    QVERIFY(a);
    const QString json = QString::fromStdString(analysisJson(hw, { { p, *a } }));
    QVERIFY2(json.contains("\"energy_joules\": 2.1"), qPrintable(json));
    QVERIFY(json.contains("\"flops_per_joule\": "));
    QVERIFY(json.contains("\"power_capped_attainable\": 4545454545454"));
    QVERIFY(json.contains("\"launch_latency\""));
}

void TestLimits::noLimitsChangeNothing()
{
    Hardware hw = roundMachine();
    hw.limits = {};
    const auto a = analyzePoint(kernel(1e3, 1e3, 8e-6), hw);
    QVERIFY(a);
    QCOMPARE(a->bound, Bound::Memory);
    QVERIFY(near(a->tMin, 1e-9));
    QVERIFY(!a->energy);
    const QString json
        = QString::fromStdString(analysisJson(hw, { { kernel(1e3, 1e3, 8e-6), *a } }));
    QVERIFY(!json.contains("energy_joules"));
}

QTEST_GUILESS_MAIN(TestLimits)
#include "tst_limits.moc"
