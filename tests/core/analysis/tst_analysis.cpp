// The roofline model (docs/MODEL.md) on single points: ridges, bounds, times, consistency.
#include "core/analysis/analysis.h"
#include "core/presets/presets.h"

#include "tests/support/core_test_support.h"

#include <QTest>

#include <cmath>

using namespace ridgepoint;

Q_DECLARE_METATYPE(ridgepoint::KernelPoint)

namespace {

using test::close;
using test::preset;

Hardware machine(double peak, double bandwidth)
{
    return makeSimpleMachine(peak, bandwidth);
}

KernelPoint point(double flops, double bytes, std::optional<double> seconds = std::nullopt)
{
    KernelPoint p;
    p.name = "k";
    p.flops = flops;
    p.bytes.push_back({ std::nullopt, bytes });
    p.seconds = seconds;
    return p;
}

} // namespace

class TestAnalysis : public QObject
{
    Q_OBJECT

private slots:
    void ridgeOfLlmViewerGpus_data();
    void ridgeOfLlmViewerGpus();
    void kneesOfTpusAndH100_data();
    void kneesOfTpusAndH100();
    void dotProductWorkedExample();
    void boundsAndTimes_data();
    void boundsAndTimes();
    void multiLevelTakesTheMinimumRoof();
    void unitPicksTheCeiling_data();
    void unitPicksTheCeiling();
    void flagsMeasurementsFasterThanTheRoof_data();
    void flagsMeasurementsFasterThanTheRoof();
    void bandwidthUtilizationOfQ8_0Note_data();
    void bandwidthUtilizationOfQ8_0Note();
    void picksComputeCeilingByPrecision();
    void rejectsPointsThatCannotBePlaced_data();
    void rejectsPointsThatCannotBePlaced();
    void refusesTwoByteCountsForOneCeiling();
    void refusesWhenNoCeilingFits_data();
    void refusesWhenNoCeilingFits();
    void sustainedPeaksScaleCeilings();
    void ridgesCoverEveryPair();
    void placesAPointGivenByIntensityAndRate();
};

void TestAnalysis::ridgeOfLlmViewerGpus_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<double>("peak");
    QTest::addColumn<double>("bandwidth");
    QTest::addColumn<int>("ridge");
    // The GPU table of docs/MODEL.md §9 (NVIDIA's datasheet figures): peak FP16 (TFLOPS),
    // memory bandwidth (GB/s), ridge point (F/B).
    QTest::newRow("T4") << "T4" << 65e12 << 320e9 << 203;
    QTest::newRow("V100") << "V100" << 125e12 << 900e9 << 139;
    QTest::newRow("A100 40GB") << "A100 40GB" << 312e12 << 1555e9 << 201;
    QTest::newRow("A100 80GB") << "A100 80GB" << 312e12 << 2039e9 << 153;
    QTest::newRow("H100") << "H100" << 990e12 << 3350e9 << 296;
    QTest::newRow("L4") << "L4" << 121e12 << 300e9 << 403;
}

void TestAnalysis::ridgeOfLlmViewerGpus()
{
    QFETCH(QString, gpu);
    QFETCH(double, peak);
    QFETCH(double, bandwidth);
    QFETCH(int, ridge);
    const Hardware &hw = preset(gpu.toStdString().c_str());
    const ComputeCeiling *fp16 = hw.findCompute("FP16 tensor");
    QVERIFY(fp16);
    QVERIFY(hw.mainMemory());
    // The preset holds exactly the table's numbers...
    QCOMPARE(fp16->peak, peak);
    QCOMPARE(hw.mainMemory()->bandwidth, bandwidth);
    // ...and the ridge rounds to the table's ridge point.
    const double computed = ridgeIntensity(*fp16, *hw.mainMemory());
    QCOMPARE(static_cast<int>(std::lround(computed)), ridge);
    QVERIFY(close(computed, peak / bandwidth));
}

void TestAnalysis::kneesOfTpusAndH100_data()
{
    QTest::addColumn<double>("peak");
    QTest::addColumn<double>("bandwidth");
    QTest::addColumn<double>("knee");
    QTest::addColumn<double>("within");
    // docs/MODEL.md §9: v5e ≈ 240; H100 ≈ 295; v5e int8 with 8.1e11 ≈ 486 (§6.1); 100/2 = 50
    // (§5.1).
    QTest::newRow("TPU v5e bf16") << 1.97e14 << 8.2e11 << 240.0 << 0.5;
    QTest::newRow("H100 bf16") << 9.89e14 << 3.35e12 << 295.0 << 0.5;
    QTest::newRow("v5e int8 (section 6.1)") << 3.94e14 << 8.1e11 << 486.0 << 0.5;
    QTest::newRow("dot product machine") << 100e12 << 2e12 << 50.0 << 0.0;
    QTest::newRow("v5p VPU") << 7e12 << 2.8e12 << 2.5 << 0.0;
}

void TestAnalysis::kneesOfTpusAndH100()
{
    QFETCH(double, peak);
    QFETCH(double, bandwidth);
    QFETCH(double, knee);
    QFETCH(double, within);
    const Hardware hw = machine(peak, bandwidth);
    const auto list = ridges(hw);
    QCOMPARE(list.size(), std::size_t { 1 });
    QVERIFY2(std::fabs(list.front().intensity - knee) <= within + 1e-12,
        qPrintable(QString::number(list.front().intensity)));
}

void TestAnalysis::dotProductWorkedExample()
{
    // docs/MODEL.md §5.1: bf16 vectors of N elements, F = 2N - 1, B = 4N + 2, on π = 100 TFLOP/s,
    // β = 2 TB/s: ridge 50, I → 1/2, P = min(100, 2 × 0.5) = 1 TFLOP/s, bandwidth-bound.
    const double n = 1e9;
    const auto result = analyzePoint(point(2 * n - 1, 4 * n + 2), machine(100e12, 2e12));
    QVERIFY(result);
    QCOMPARE(result->bound, Bound::Memory);
    QVERIFY(close(result->levels.front().intensity, (2 * n - 1) / (4 * n + 2)));
    QVERIFY(std::fabs(result->levels.front().intensity - 0.5) < 1e-9);
    QVERIFY(std::fabs(result->attainable - 1e12) < 1e12 * 1e-9);
    QCOMPARE(result->limitingCeiling, std::string("Memory"));
}

void TestAnalysis::boundsAndTimes_data()
{
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("peak");
    QTest::addColumn<double>("bandwidth");
    QTest::addColumn<bool>("computeBound");

    QTest::newRow("compute-bound GEMM") << 2e12 << 1e9 << 1e14 << 1e12 << true;
    QTest::newRow("memory-bound stream") << 1e9 << 1.2e10 << 1e14 << 1e12 << false;
    QTest::newRow("exactly at the ridge") << 1e12 << 1e10 << 1e14 << 1e12 << true;
    QTest::newRow("H100 qkv GEMM") << 2.0615843e11 << 1.6777216e8 << 9.89e14 << 3.35e12 << true;
    QTest::newRow("T4 decode GEMV") << 1.0e8 << 1.0e8 << 65e12 << 320e9 << false;
}

void TestAnalysis::boundsAndTimes()
{
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(double, peak);
    QFETCH(double, bandwidth);
    QFETCH(bool, computeBound);
    const auto r = analyzePoint(point(flops, bytes), machine(peak, bandwidth));
    QVERIFY(r);
    // Independent: T_math = F/π, T_mem = B/β, T_min = max, T_max = sum, P = min(π, βI) = F/T_min.
    const double tMath = flops / peak;
    const double tMem = bytes / bandwidth;
    QVERIFY(close(r->tMath, tMath));
    QVERIFY(close(r->levels.front().tMem, tMem));
    QVERIFY(close(r->tMin, std::max(tMath, tMem)));
    QVERIFY(close(r->tMax, tMath + tMem));
    QVERIFY(r->tMax <= 2.0 * r->tMin * (1 + 1e-12));
    QVERIFY(close(r->attainable, std::min(peak, bandwidth * flops / bytes)));
    QCOMPARE(r->bound == Bound::Compute, computeBound);
    QVERIFY(!r->performance);
    QVERIFY(!r->utilization);
    QVERIFY(r->consistent);
}

void TestAnalysis::multiLevelTakesTheMinimumRoof()
{
    // docs/MODEL.md §4.2: per-level intensities, the minimum roof, T_min = max(T_math, T_HBM,
    // T_ICI). The v5e's ICI roof is Google's 400 GB/s both ways per chip, 2e11 B/s each way
    // (docs/PRESETS.md, "Links").
    const Hardware &v5e = preset("TPU v5e");
    KernelPoint p;
    p.name = "sharded step";
    p.flops = 1e12;
    p.bytes = { { MemoryLevel::HBM, 2e9 }, { MemoryLevel::ICI, 4e9 } };
    const auto r = analyzePoint(p, v5e);
    QVERIFY(r);
    QCOMPARE(r->levels.size(), std::size_t { 2 });
    const double tMath = 1e12 / 1.97e14; // 5.08 ms
    const double tHbm = 2e9 / 8.2e11; // 2.44 ms
    const double tIci = 4e9 / 2e11; // 20 ms
    QVERIFY(close(r->tMin, std::max({ tMath, tHbm, tIci })));
    QVERIFY(close(r->tMin, tIci));
    QVERIFY(close(r->tMax, tMath + tHbm + tIci));
    QCOMPARE(r->bound, Bound::Memory);
    QCOMPARE(r->limitingCeiling, std::string("ICI (per chip)"));
    QVERIFY(close(r->attainable, std::min({ 1.97e14, 8.2e11 * 1e12 / 2e9, 2e11 * 1e12 / 4e9 })));
    QVERIFY(close(r->levels[0].intensity, 500.0));
    QVERIFY(close(r->levels[1].intensity, 250.0));
}

void TestAnalysis::flagsMeasurementsFasterThanTheRoof_data()
{
    QTest::addColumn<double>("secondsOverTmin");
    QTest::addColumn<bool>("consistent");
    QTest::addColumn<QString>("note");
    QTest::newRow("at T_min") << 1.0 << true << "";
    QTest::newRow("rounding in a file") << 1.0 - 1e-9 << true << "";
    QTest::newRow("half of the roof, at T_max") << 2.0 << true << "";
    QTest::newRow("10 % too fast") << 0.9 << false << "counts or peaks are off";
    QTest::newRow("slower than T_max") << 3.0 << true << "above T_max";
}

void TestAnalysis::flagsMeasurementsFasterThanTheRoof()
{
    QFETCH(double, secondsOverTmin);
    QFETCH(bool, consistent);
    QFETCH(QString, note);
    // Balanced: T_math = T_mem = 1 ms, so T_max = 2 T_min.
    const Hardware hw = machine(1e14, 1e12);
    const double flops = 1e11;
    const double tMin = std::max(flops / 1e14, 1e9 / 1e12);
    const auto r = analyzePoint(point(flops, 1e9, tMin * secondsOverTmin), hw);
    QVERIFY(r);
    QCOMPARE(r->consistent, consistent);
    QVERIFY(r->utilization);
    QVERIFY(close(*r->utilization, 1.0 / secondsOverTmin));
    if (note.isEmpty())
        QVERIFY2(r->note.empty(), r->note.c_str());
    else
        QVERIFY2(QString::fromStdString(r->note).contains(note), r->note.c_str());
    if (!consistent)
        QVERIFY(QString::fromStdString(r->note).contains("below T_min"));

    // A rate without a time is checked against the roof too.
    KernelPoint rateOnly = point(flops, 1e9);
    rateOnly.measuredRate = flops / (tMin * secondsOverTmin);
    const auto byRate = analyzePoint(rateOnly, hw);
    QVERIFY(byRate);
    QCOMPARE(byRate->consistent, consistent);
}

void TestAnalysis::bandwidthUtilizationOfQ8_0Note_data()
{
    QTest::addColumn<QString>("ceiling");
    QTest::addColumn<double>("achieved");
    QTest::addColumn<int>("percent");
    // The Q8_0 note's table (docs/MODEL.md §4.4): measured GB/s against the benchmark's read or
    // copy bandwidth.
    QTest::newRow("lm_head vs read") << "DRAM read (measured)" << 18e9 << 86;
    QTest::newRow("Gate+Up vs copy") << "DRAM copy (measured)" << 13.9e9 << 99;
    QTest::newRow("Down_proj vs copy") << "DRAM copy (measured)" << 11.1e9 << 79;
}

void TestAnalysis::bandwidthUtilizationOfQ8_0Note()
{
    QFETCH(QString, ceiling);
    QFETCH(double, achieved);
    QFETCH(int, percent);
    const Hardware &cpu = preset("DDR5 desktop");
    // Make the named ceiling the one DRAM bytes are counted against.
    Hardware hw = cpu;
    std::stable_partition(hw.memory.begin(), hw.memory.end(),
        [&](const MemoryCeiling &m) { return m.name == ceiling.toStdString(); });
    // Q8_0 matrix-vector: 32 FLOPs per 34-byte block (an FMA counted once, docs/MODEL.md §7).
    const double bytes = 34.0 * 1e6;
    const auto r = analyzePoint(point(32.0 * 1e6, bytes, bytes / achieved), hw);
    QVERIFY(r);
    QCOMPARE(r->bound, Bound::Memory);
    QVERIFY(r->levels.front().bandwidthUtilization);
    QCOMPARE(static_cast<int>(std::lround(*r->levels.front().bandwidthUtilization * 100)), percent);
    QVERIFY(close(*r->levels.front().achievedBandwidth, achieved));
    QVERIFY(std::fabs(r->levels.front().intensity - 32.0 / 34.0) < 1e-12);
}

void TestAnalysis::picksComputeCeilingByPrecision()
{
    const Hardware &h100 = preset("H100");
    KernelPoint p = point(1e12, 1e9);
    QCOMPARE(analyzePoint(p, h100)->computeCeiling, std::string("BF16 tensor"));
    p.precision = Precision::FP64;
    // The fastest dense fp64 ceiling, never a sparse one.
    QCOMPARE(analyzePoint(p, h100)->computeCeiling, std::string("FP64 tensor"));
    p.precision = Precision::FP8;
    QCOMPARE(analyzePoint(p, h100)->computeCeiling, std::string("FP8 tensor"));
    AnalysisOptions options;
    options.computeCeiling = "fp32 cuda";
    QCOMPARE(analyzePoint(p, h100, options)->computeCeiling, std::string("FP32 CUDA"));
    options.computeCeiling = "warp drive";
    QVERIFY(!analyzePoint(p, h100, options));
}

void TestAnalysis::rejectsPointsThatCannotBePlaced_data()
{
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("seconds");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero FLOPs") << 0.0 << 1.0 << 1.0 << "FLOPs must be a positive";
    QTest::newRow("negative bytes") << 1.0 << -5.0 << 1.0 << "bytes at main memory must be";
    QTest::newRow("NaN FLOPs") << std::nan("") << 1.0 << 1.0 << "FLOPs must be";
    QTest::newRow("infinite bytes") << 1.0 << HUGE_VAL << 1.0 << "bytes at main memory";
    QTest::newRow("zero time") << 1.0 << 1.0 << 0.0 << "measured time";
}

void TestAnalysis::refusesTwoByteCountsForOneCeiling()
{
    // Regression (review): "bytes" and "bytes_hbm" both landed on HBM3 and were summed into
    // T_max twice.
    KernelPoint p = point(1e12, 1e9);
    p.bytes.push_back({ MemoryLevel::HBM, 2e9 });
    const auto r = analyzePoint(p, preset("H100"));
    QVERIFY(!r);
    QVERIFY2(QString::fromStdString(r.error()).contains("two byte counts both go to HBM3"),
        r.error().c_str());
}

void TestAnalysis::rejectsPointsThatCannotBePlaced()
{
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(double, seconds);
    QFETCH(QString, message);
    const auto r = analyzePoint(point(flops, bytes, seconds), machine(1e12, 1e9));
    QVERIFY(!r);
    QVERIFY2(QString::fromStdString(r.error()).contains(message), r.error().c_str());
    QVERIFY(QString::fromStdString(r.error()).contains("\"k\""));
}

// Each way a point and a machine can fail to meet: no compute ceiling to hold the point to, no
// memory ceiling for any of its levels, or two of its numbers on one ceiling.
void TestAnalysis::refusesWhenNoCeilingFits_data()
{
    QTest::addColumn<KernelPoint>("point");
    QTest::addColumn<QString>("computeCeiling");
    QTest::addColumn<bool>("withCompute");
    QTest::addColumn<QString>("message");
    KernelPoint counted = point(1e12, 1e9);
    KernelPoint int4 = counted;
    int4.precision = Precision::INT4;
    KernelPoint l3Only = counted;
    l3Only.bytes = { { MemoryLevel::L3, 1e9 } };
    KernelPoint l2Intensity;
    l2Intensity.name = "k";
    l2Intensity.levelIntensities = { { MemoryLevel::L2, 4.0 } };
    l2Intensity.measuredRate = 1e11;
    KernelPoint twice = l2Intensity;
    twice.levelIntensities = { { MemoryLevel::DRAM, 4.0 } };
    twice.intensity = 2.0;
    QTest::newRow("named ceiling missing") << counted << "warp drive" << true
                                           << "no compute ceiling named \"warp drive\" on Custom "
                                              "machine";
    QTest::newRow("no ceiling for the precision")
        << int4 << "" << true << "\"k\": Custom machine has no int4 compute ceiling";
    QTest::newRow("no compute ceiling at all")
        << counted << "" << false << "Custom machine has no compute ceiling";
    QTest::newRow("bytes at a level the machine lacks")
        << l3Only << "" << true
        << "\"k\": none of its byte levels has a memory ceiling on Custom machine";
    QTest::newRow("intensity at a level the machine lacks")
        << l2Intensity << "" << true
        << "\"k\": none of its intensities' levels has a memory ceiling on Custom machine";
    QTest::newRow("two intensities on one ceiling")
        << twice << "" << true << "\"k\": two intensities both go to Memory";
}

void TestAnalysis::refusesWhenNoCeilingFits()
{
    QFETCH(KernelPoint, point);
    QFETCH(QString, computeCeiling);
    QFETCH(bool, withCompute);
    QFETCH(QString, message);
    Hardware hardware = machine(1e12, 1e11);
    if (!withCompute)
        hardware.compute.clear();
    AnalysisOptions options;
    options.computeCeiling = computeCeiling.toStdString();
    const auto r = analyzePoint(point, hardware, options);
    QVERIFY(!r);
    QVERIFY2(QString::fromStdString(r.error()).contains(message), r.error().c_str());
}

void TestAnalysis::sustainedPeaksScaleCeilings()
{
    // docs/MODEL.md §4.5: H100 sustains 80-85 % of peak; the preset records 0.8.
    const Hardware sustained = withSustainedPeaks(preset("H100"));
    QVERIFY(close(sustained.findCompute("BF16 tensor")->peak, 0.8 * 989e12));
    QVERIFY(close(sustained.mainMemory()->bandwidth, 0.8 * 3.35e12));
    // The ridge is unchanged when both roofs scale alike.
    QVERIFY(close(ridgeIntensity(*sustained.findCompute("BF16 tensor"), *sustained.mainMemory()),
        989e12 / 3.35e12));
}

void TestAnalysis::ridgesCoverEveryPair()
{
    const Hardware &h100 = preset("H100");
    const auto list = ridges(h100);
    QCOMPARE(list.size(), h100.compute.size() * h100.memory.size());
    for (const auto &ridge : list) {
        QVERIFY(close(ridge.intensity,
            h100.findCompute(ridge.compute)->peak / h100.findMemory(ridge.memory)->bandwidth));
    }
}

void TestAnalysis::placesAPointGivenByIntensityAndRate()
{
    // Issue 4: files that give only intensity and performance (no counts).
    const Hardware machine = makeSimpleMachine(1e15, 1e12); // ridge at 1000 FLOP/B
    KernelPoint point;
    point.name = "stream";
    point.intensity = 0.25;
    point.measuredRate = 80e9;
    const auto analysis = analyzePoint(point, machine);
    QVERIFY2(analysis, analysis ? "" : analysis.error().c_str());
    QCOMPARE(analysis->bound, Bound::Memory);
    QCOMPARE(analysis->attainable, 1e12 * 0.25);
    QCOMPARE(*analysis->utilization, 80e9 / (1e12 * 0.25));
    QCOMPARE(analysis->levels.size(), std::size_t { 1 });
    QCOMPARE(analysis->levels.front().intensity, 0.25);
    QVERIFY(analysis->consistent);
    point.measuredRate = 300e9; // above the 250 GFLOP/s roof
    QVERIFY(!analyzePoint(point, machine)->consistent);
    point.measuredRate.reset();
    QVERIFY(!analyzePoint(point, machine));
}

// A point's units choose among the ceilings of its precision (docs/MODEL.md §4.1): H100's FP64
// figures, 67 TFLOP/s on tensor cores and 34 on CUDA cores, and FP32 on CUDA cores only.
void TestAnalysis::unitPicksTheCeiling_data()
{
    QTest::addColumn<int>("precision"); // Precision
    QTest::addColumn<int>("unit"); // ComputeUnit
    QTest::addColumn<QString>("ceiling");
    QTest::newRow("fp64, units unknown: the fastest")
        << int(Precision::FP64) << int(ComputeUnit::Unknown) << "FP64 tensor";
    QTest::newRow("fp64 on tensor cores")
        << int(Precision::FP64) << int(ComputeUnit::Tensor) << "FP64 tensor";
    QTest::newRow("fp64 on CUDA cores")
        << int(Precision::FP64) << int(ComputeUnit::Core) << "FP64 CUDA";
    // No FP32 tensor figure: the precision's own ceiling, whatever its units.
    QTest::newRow("fp32 said on tensor cores")
        << int(Precision::FP32) << int(ComputeUnit::Tensor) << "FP32 CUDA";
}

void TestAnalysis::unitPicksTheCeiling()
{
    QFETCH(int, precision);
    QFETCH(int, unit);
    QFETCH(QString, ceiling);
    Hardware hw;
    hw.name = "H100-like";
    hw.compute.push_back({ "FP64 tensor", Precision::FP64, "tensor", 67e12, false, {}, true });
    hw.compute.push_back({ "FP64 CUDA", Precision::FP64, "vector", 34e12, false, {}, true });
    hw.compute.push_back({ "FP32 CUDA", Precision::FP32, "vector", 67e12, false, {}, true });
    hw.memory.push_back({ "HBM3", MemoryLevel::HBM, 3.35e12, {}, true });
    hw.defaultCompute = "FP64 tensor";
    KernelPoint p;
    p.name = "daxpy";
    p.flops = 5.4e8;
    p.bytes = { { std::nullopt, 6.4e9 } };
    p.precision = static_cast<Precision>(precision);
    p.unit = static_cast<ComputeUnit>(unit);
    const auto a = analyzePoint(p, hw);
    QVERIFY(a);
    QCOMPARE(QString::fromStdString(a->computeCeiling), ceiling);
}

QTEST_GUILESS_MAIN(TestAnalysis)
#include "tst_analysis.moc"
