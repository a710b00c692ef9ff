// The matmul family of docs/MODEL.md (§5.1-§5.5, §6, the worked examples of §9) and the Q8_0
// matrix-vector product of §5.6, each checked against a calculation
// written out here independently of core/workloads/workloads.cpp.
#include "core/presets/presets.h"
#include "core/workloads/workloads.h"

#include "tests/support/core_test_support.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace ridgepoint;

namespace {

using test::close;
using test::preset;

Hardware withBandwidth(const Hardware &hardware, double bandwidth)
{
    auto custom = withOverrides(hardware, std::nullopt, bandwidth);
    if (!custom)
        qFatal("%s", custom.error().c_str());
    return *custom;
}

// Smallest B with T_math >= T_mem, by walking B upwards: no algebra shared with the model.
// Returns 0 when no B up to `limit` qualifies.
qint64 bruteForceCriticalBatch(double d, double f, double bx, double by, double bz, double peak,
    double bandwidth, qint64 limit = 2000000)
{
    for (qint64 b = 1; b <= limit; ++b) {
        const double bb = static_cast<double>(b);
        const double flops = 2.0 * bb * d * f;
        const double bytes = bx * bb * d + by * d * f + bz * bb * f;
        if (flops / peak >= bytes / bandwidth)
            return b;
    }
    return 0;
}

} // namespace

class TestMatmul : public QObject
{
    Q_OBJECT

private slots:
    void dotProductOfSection4_1_data();
    void dotProductOfSection4_1();
    void intensityKeepsEveryTerm_data();
    void intensityKeepsEveryTerm();
    void criticalBatchExactAndApproximate_data();
    void criticalBatchExactAndApproximate();
    void acceptanceTest4MixedHalvesFullInt8Unchanged_data();
    void acceptanceTest4MixedHalvesFullInt8Unchanged();
    void neverComputeBoundWhenTheLimitIsBelowTheRidge();
    void quantizationModesChangeBytesAndCeiling_data();
    void quantizationModesChangeBytesAndCeiling();
    void missingCeilingIsAnErrorNamingIt();
    void shardedMatmulOfSection4_3_data();
    void shardedMatmulOfSection4_3();
    void shardedNetworkBandwidthOverride();
    void shardedDefaultsToTheLinkBetweenChips_data();
    void shardedDefaultsToTheLinkBetweenChips();
    void tiledMatmulOfSection4_4_data();
    void tiledMatmulOfSection4_4();
    void tilingNeverRaisesIntensityAboveUntiled_data();
    void tilingNeverRaisesIntensityAboveUntiled();
    void tileIntensityRisesWithTileSize();
    void perExampleWeightsOfSection12_1_data();
    void perExampleWeightsOfSection12_1();
    void q8_0MatrixVector_data();
    void q8_0MatrixVector();
    void q8_0RejectsPartialBlocks();
    void rejectsNonPositiveShapes();
};

void TestMatmul::dotProductOfSection4_1_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<double>("intensity");
    QTest::addColumn<double>("attainable");
    // I = (2N−1)/(4N+2); P = min(100 TFLOP/s, 2 TB/s · I); ridge 50.
    QTest::newRow("N=4") << qint64(4) << 7.0 / 18.0 << 2e12 * 7.0 / 18.0;
    QTest::newRow("N=1024") << qint64(1024) << 2047.0 / 4098.0 << 2e12 * 2047.0 / 4098.0;
    // The reference's limit: I -> 1/2, P -> 1 TFLOP/s.
    QTest::newRow("N=1e9") << qint64(1000000000) << 0.5 << 1e12;
}

void TestMatmul::dotProductOfSection4_1()
{
    QFETCH(qint64, n);
    QFETCH(double, intensity);
    QFETCH(double, attainable);
    const KernelPoint p = dotProductPoint(n);
    const double nn = static_cast<double>(n);
    QCOMPARE(p.flops, 2.0 * nn - 1.0);
    QCOMPARE(p.bytes.front().bytes, 4.0 * nn + 2.0);
    Hardware machine = makeSimpleMachine(100e12, 2e12);
    machine.compute.front().precision = Precision::BF16;
    QCOMPARE(ridges(machine).front().intensity, 50.0);
    const auto a = analyzePoint(p, machine);
    QVERIFY2(a.has_value(), a ? "" : a.error().c_str());
    QVERIFY(close(a->levels.front().intensity, intensity, 1e-6));
    QVERIFY(close(a->attainable, attainable, 1e-6));
    QCOMPARE(a->bound, Bound::Memory);
}

void TestMatmul::intensityKeepsEveryTerm_data()
{
    QTest::addColumn<qint64>("b");
    QTest::addColumn<qint64>("d");
    QTest::addColumn<qint64>("f");
    // Small-D and small-B shapes where dropping the BD or BF term is visibly wrong (docs/MODEL.md
    // §5.2).
    QTest::newRow("small D") << qint64(512) << qint64(128) << qint64(4096);
    QTest::newRow("small B") << qint64(1) << qint64(4096) << qint64(4096);
    QTest::newRow("square") << qint64(4096) << qint64(4096) << qint64(4096);
    QTest::newRow("odd") << qint64(7) << qint64(300) << qint64(11);
}

void TestMatmul::intensityKeepsEveryTerm()
{
    QFETCH(qint64, b);
    QFETCH(qint64, d);
    QFETCH(qint64, f);
    const auto r = modelMatmul({ b, d, f, Precision::BF16, QuantMode::None }, preset("H100"));
    QVERIFY2(r.has_value(), r ? "" : r.error().c_str());
    const double B = static_cast<double>(b), D = static_cast<double>(d), F = static_cast<double>(f);
    QCOMPARE(r->flops, 2.0 * B * D * F);
    QCOMPARE(r->bytes, 2.0 * B * D + 2.0 * D * F + 2.0 * B * F);
    QVERIFY(close(r->intensity, B * D * F / (B * D + D * F + B * F)));
    QCOMPARE(r->point.flops, r->flops);
    QCOMPARE(r->point.bytes.size(), std::size_t(1));
    QVERIFY(!r->point.seconds);
    QCOMPARE(r->computeCeiling, std::string("BF16 tensor"));
    QVERIFY(close(r->tMath, 2.0 * B * D * F / 989e12));
    QVERIFY(close(r->tMem, r->bytes / 3.35e12));
    // T_min = max(T_math, T_mem, λ): the H100 preset's 1 µs launch latency (docs/MODEL.md §13)
    // is the floor of the odd shape, whose 7·300 + 300·11 + 7·11 elements move in 3 ns.
    QVERIFY(close(r->analysis.tMin, std::max({ r->tMath, r->tMem, 1e-6 })));
}

void TestMatmul::criticalBatchExactAndApproximate_data()
{
    QTest::addColumn<QString>("machine");
    QTest::addColumn<double>("bandwidth"); // 0: the preset's
    QTest::addColumn<QString>("quant");
    QTest::addColumn<qint64>("d");
    QTest::addColumn<qint64>("f");
    QTest::addColumn<double>("bx");
    QTest::addColumn<double>("by");
    QTest::addColumn<double>("bz");
    QTest::addColumn<double>("peak");
    QTest::addColumn<double>("approx");
    QTest::addColumn<QString>("ceiling");

    // docs/MODEL.md §5.2, §9: TPU v5e bf16, π/β = 1.97e14 / 8.2e11 ≈ 240.
    QTest::newRow("4.2 v5e bf16 D=F=8192")
        << "TPU v5e" << 0.0 << "none" << qint64(8192) << qint64(8192) << 2.0 << 2.0 << 2.0
        << 1.97e14 << 1.97e14 / 8.2e11 << "BF16 MXU";
    QTest::newRow("4.2 v5e bf16 D=F=65536")
        << "TPU v5e" << 0.0 << "none" << qint64(65536) << qint64(65536) << 2.0 << 2.0 << 2.0
        << 1.97e14 << 1.97e14 / 8.2e11 << "BF16 MXU";
    // docs/MODEL.md §6.1: full int8, I ≈ 2B, knee 3.94e14 / 8.1e11 ≈ 486, B > 243.
    QTest::newRow("6.1 v5e int8 @8.1e11 D=F=65536")
        << "TPU v5e" << 8.1e11 << "int8" << qint64(65536) << qint64(65536) << 1.0 << 1.0 << 1.0
        << 3.94e14 << 3.94e14 / 8.1e11 / 2.0 << "INT8 MXU";
    // docs/MODEL.md §6.2: int8 weights, bf16 knee 240, B > 120.
    QTest::newRow("6.2 v5e w8a16 D=F=65536")
        << "TPU v5e" << 0.0 << "w8a16" << qint64(65536) << qint64(65536) << 2.0 << 1.0 << 2.0
        << 1.97e14 << 1.97e14 / 8.2e11 / 2.0 << "BF16 MXU";
    // Beyond the worked examples: int4 weights quarter it; H100 (≈295) with its own shapes.
    QTest::newRow("v5e w4a16 D=F=65536")
        << "TPU v5e" << 0.0 << "w4a16" << qint64(65536) << qint64(65536) << 2.0 << 0.5 << 2.0
        << 1.97e14 << 1.97e14 / 8.2e11 / 4.0 << "BF16 MXU";
    QTest::newRow("H100 bf16 D=4096 F=14336")
        << "H100" << 0.0 << "none" << qint64(4096) << qint64(14336) << 2.0 << 2.0 << 2.0 << 989e12
        << 989e12 / 3.35e12 << "BF16 tensor";
    QTest::newRow("H100 int8 D=8192 F=28672")
        << "H100" << 0.0 << "int8" << qint64(8192) << qint64(28672) << 1.0 << 1.0 << 1.0 << 1979e12
        << 1979e12 / 3.35e12 / 2.0 << "INT8 tensor";
    QTest::newRow("A100 80GB w8a16 D=5120 F=13824")
        << "A100 80GB" << 0.0 << "w8a16" << qint64(5120) << qint64(13824) << 2.0 << 1.0 << 2.0
        << 312e12 << 312e12 / 2039e9 / 2.0 << "BF16 tensor";
}

void TestMatmul::criticalBatchExactAndApproximate()
{
    QFETCH(QString, machine);
    QFETCH(double, bandwidth);
    QFETCH(QString, quant);
    QFETCH(qint64, d);
    QFETCH(qint64, f);
    QFETCH(double, bx);
    QFETCH(double, by);
    QFETCH(double, bz);
    QFETCH(double, peak);
    QFETCH(double, approx);
    QFETCH(QString, ceiling);

    Hardware hw = preset(machine.toUtf8().constData());
    if (bandwidth > 0)
        hw = withBandwidth(hw, bandwidth);
    const double beta = hw.mainMemory()->bandwidth;
    const auto mode = quantModeFromName(quant.toStdString());
    QVERIFY(mode);
    const auto r = modelMatmul({ 1, d, f, Precision::BF16, *mode }, hw);
    QVERIFY2(r.has_value(), r ? "" : r.error().c_str());
    QCOMPARE(QString::fromStdString(r->computeCeiling), ceiling);
    QCOMPARE(r->peak, peak);
    QVERIFY(close(r->ridge, peak / beta));
    QVERIFY(close(r->criticalBatchApprox, approx));

    const qint64 expected = bruteForceCriticalBatch(
        static_cast<double>(d), static_cast<double>(f), bx, by, bz, peak, beta);
    QVERIFY(expected > 0);
    QVERIFY(r->criticalBatch.has_value());
    qInfo("%s: exact %lld, approximate %.2f", QTest::currentDataTag(),
        static_cast<long long>(*r->criticalBatch), r->criticalBatchApprox);
    QCOMPARE(static_cast<qint64>(*r->criticalBatch), expected);
    // The exact threshold lies above the approximation (the BD and BF terms only add bytes).
    QVERIFY(static_cast<double>(*r->criticalBatch) >= approx);

    // The model's own analysis agrees on both sides of the threshold.
    const auto at = modelMatmul({ expected, d, f, Precision::BF16, *mode }, hw);
    const auto below = modelMatmul({ expected - 1, d, f, Precision::BF16, *mode }, hw);
    QVERIFY(at && below);
    QCOMPARE(at->analysis.bound, Bound::Compute);
    QCOMPARE(below->analysis.bound, Bound::Memory);
}

void TestMatmul::acceptanceTest4MixedHalvesFullInt8Unchanged_data()
{
    QTest::addColumn<QString>("machine");
    QTest::addColumn<double>("int8Bandwidth"); // 0: the preset's
    QTest::addColumn<double>("bf16Threshold");
    QTest::addColumn<double>("mixedThreshold");
    QTest::addColumn<double>("int8Threshold");
    // docs/MODEL.md §9, int8 thresholds on v5e: ≈240 -> ≈120 (mixed), ≈240 -> ≈243 (full int8, at
    // 8.1e11 B/s). The exact thresholds are taken at D = F = 65536.
    QTest::newRow("v5e as in the reference") << "TPU v5e" << 8.1e11 << 240.0 << 120.0 << 243.0;
    QTest::newRow("v5e one bandwidth") << "TPU v5e" << 0.0 << 240.0 << 120.0 << 240.0;
    QTest::newRow("H100") << "H100" << 0.0 << 295.0 << 148.0 << 295.0;
}

void TestMatmul::acceptanceTest4MixedHalvesFullInt8Unchanged()
{
    QFETCH(QString, machine);
    QFETCH(double, int8Bandwidth);
    QFETCH(double, bf16Threshold);
    QFETCH(double, mixedThreshold);
    QFETCH(double, int8Threshold);
    const Hardware &hw = preset(machine.toUtf8().constData());
    const Hardware int8Hw = int8Bandwidth > 0 ? withBandwidth(hw, int8Bandwidth) : hw;
    const qint64 d = 65536;
    const auto bf16 = modelMatmul({ 1, d, d, Precision::BF16, QuantMode::None }, hw);
    const auto mixed = modelMatmul({ 1, d, d, Precision::BF16, QuantMode::W8A16 }, hw);
    const auto int8 = modelMatmul({ 1, d, d, Precision::BF16, QuantMode::Int8 }, int8Hw);
    QVERIFY(bf16 && mixed && int8);
    QVERIFY(bf16->criticalBatch && mixed->criticalBatch && int8->criticalBatch);
    qInfo("%s approx %.1f -> mixed %.1f, int8 %.1f; exact %lld -> mixed %lld, int8 %lld",
        QTest::currentDataTag(), bf16->criticalBatchApprox, mixed->criticalBatchApprox,
        int8->criticalBatchApprox, static_cast<long long>(*bf16->criticalBatch),
        static_cast<long long>(*mixed->criticalBatch),
        static_cast<long long>(*int8->criticalBatch));
    // The approximations round to the reference's numbers.
    QCOMPARE(std::round(bf16->criticalBatchApprox), bf16Threshold);
    QCOMPARE(std::round(mixed->criticalBatchApprox), mixedThreshold);
    QCOMPARE(std::round(int8->criticalBatchApprox), int8Threshold);
    // The exact thresholds: mixed halves it, full int8 leaves it within 2 %.
    const double exactBf16 = static_cast<double>(*bf16->criticalBatch);
    const double ratioMixed = static_cast<double>(*mixed->criticalBatch) / exactBf16;
    const double ratioInt8 = static_cast<double>(*int8->criticalBatch) / exactBf16;
    QVERIFY2(std::fabs(ratioMixed - 0.5) < 0.01, qPrintable(QString::number(ratioMixed)));
    QVERIFY2(std::fabs(ratioInt8 - 1.0) < 0.02, qPrintable(QString::number(ratioInt8)));
    QVERIFY(std::fabs(exactBf16 - bf16Threshold) / bf16Threshold < 0.02);
}

void TestMatmul::neverComputeBoundWhenTheLimitIsBelowTheRidge()
{
    // D = F = 256 in bf16: I -> 2·256·256 / (2·256 + 2·256) = 128 < 240 on v5e.
    const auto r
        = modelMatmul({ 100000, 256, 256, Precision::BF16, QuantMode::None }, preset("TPU v5e"));
    QVERIFY(r);
    QCOMPARE(r->intensityLimit, 128.0);
    QVERIFY(!r->criticalBatch);
    QCOMPARE(r->analysis.bound, Bound::Memory);
    QCOMPARE(bruteForceCriticalBatch(256, 256, 2, 2, 2, 1.97e14, 8.2e11, 200000), qint64(0));
    // Just above the ridge the threshold exists (limit 2·D·F/(2D+2F) = 256 at D = F = 512).
    const auto wider
        = modelMatmul({ 1, 512, 512, Precision::BF16, QuantMode::None }, preset("TPU v5e"));
    QVERIFY(wider && wider->criticalBatch);
    QCOMPARE(static_cast<qint64>(*wider->criticalBatch),
        bruteForceCriticalBatch(512, 512, 2, 2, 2, 1.97e14, 8.2e11));
}

void TestMatmul::quantizationModesChangeBytesAndCeiling_data()
{
    QTest::addColumn<QString>("quant");
    QTest::addColumn<double>("bx");
    QTest::addColumn<double>("by");
    QTest::addColumn<double>("bz");
    QTest::addColumn<QString>("ceiling");
    QTest::newRow("none") << "none" << 2.0 << 2.0 << 2.0 << "BF16 tensor";
    QTest::newRow("int8") << "int8" << 1.0 << 1.0 << 1.0 << "INT8 tensor";
    QTest::newRow("w8a16") << "w8a16" << 2.0 << 1.0 << 2.0 << "BF16 tensor";
    QTest::newRow("w4a16") << "W4A16" << 2.0 << 0.5 << 2.0 << "BF16 tensor";
}

void TestMatmul::quantizationModesChangeBytesAndCeiling()
{
    QFETCH(QString, quant);
    QFETCH(double, bx);
    QFETCH(double, by);
    QFETCH(double, bz);
    QFETCH(QString, ceiling);
    const auto mode = quantModeFromName(quant.toStdString());
    QVERIFY(mode);
    const double b = 64, d = 4096, f = 11008;
    const auto r = modelMatmul({ 64, 4096, 11008, Precision::BF16, *mode }, preset("H100"));
    QVERIFY2(r, r ? "" : r.error().c_str());
    QCOMPARE(r->bytesX, bx * b * d);
    QCOMPARE(r->bytesY, by * d * f);
    QCOMPARE(r->bytesZ, bz * b * f);
    QCOMPARE(r->flops, 2 * b * d * f);
    QCOMPARE(QString::fromStdString(r->computeCeiling), ceiling);
    QCOMPARE(QString::fromStdString(r->analysis.computeCeiling), ceiling);
}

void TestMatmul::missingCeilingIsAnErrorNamingIt()
{
    Hardware bf16Only = makeSimpleMachine(100e12, 1e12);
    bf16Only.name = "bf16 box";
    bf16Only.compute.front().precision = Precision::BF16;
    const auto fine = modelMatmul({ 8, 8, 8, Precision::BF16, QuantMode::W8A16 }, bf16Only);
    QVERIFY(fine);
    const auto r = modelMatmul({ 8, 8, 8, Precision::BF16, QuantMode::Int8 }, bf16Only);
    QVERIFY(!r);
    QCOMPARE(QString::fromStdString(r.error()),
        QString("bf16 box has no int8 compute ceiling (needed by quantization mode int8)"));
}

void TestMatmul::shardedMatmulOfSection4_3_data()
{
    QTest::addColumn<qint64>("chips");
    QTest::addColumn<qint64>("d");
    QTest::addColumn<bool>("computeBeatsNetwork");
    QTest::addColumn<QString>("limiting");
    // Test 5: 2 chips, B = 1024, F = 8192, D in {4k, 8k, 16k}; flips near D ≈ 8755. The book's
    // network is one ICI link one way, 4.5e10 B/s, given as the workload's own bandwidth: the
    // preset's ICI roof is the whole chip's (docs/PRESETS.md, "Links").
    QTest::newRow("2 chips D=4096") << qint64(2) << qint64(4096) << false << "ICI (per chip)";
    QTest::newRow("2 chips D=8192") << qint64(2) << qint64(8192) << false << "ICI (per chip)";
    QTest::newRow("2 chips D=16384") << qint64(2) << qint64(16384) << true << "BF16 MXU";
    // Beyond the reference: 4 chips, ring all-reduce, critical D = 3·2·π/β ≈ 26,267.
    QTest::newRow("4 chips D=16384") << qint64(4) << qint64(16384) << false << "ICI (per chip)";
    QTest::newRow("4 chips D=32768") << qint64(4) << qint64(32768) << true << "BF16 MXU";
}

void TestMatmul::shardedMatmulOfSection4_3()
{
    QFETCH(qint64, chips);
    QFETCH(qint64, d);
    QFETCH(bool, computeBeatsNetwork);
    QFETCH(QString, limiting);
    const double b = 1024, f = 8192, n = static_cast<double>(chips);
    const double dd = static_cast<double>(d);
    ShardSpec shards;
    shards.chips = chips;
    shards.networkBandwidth = 4.5e10;
    const auto r = modelMatmul({ 1024, d, 8192, Precision::BF16, QuantMode::None },
        preset("TPU v5e"), {}, std::nullopt, shards);
    QVERIFY2(r, r ? "" : r.error().c_str());
    QCOMPARE(r->networkCeiling, std::string("ICI (per chip)"));
    QCOMPARE(r->networkBandwidth, 4.5e10);
    QCOMPARE(r->flops, 2.0 * b * (dd / n) * f); // BDF for 2 chips
    QVERIFY(close(r->networkBytes, 2.0 * (n - 1.0) / n * b * f * 2.0)); // 2BF for 2 chips
    QVERIFY(close(r->tNetwork, r->networkBytes / 4.5e10));
    QVERIFY(close(r->criticalD, (n - 1.0) * 2.0 * 1.97e14 / 4.5e10));
    if (chips == 2) {
        QCOMPARE(r->flops, b * dd * f);
        QCOMPARE(r->networkBytes, 2.0 * b * f);
        QCOMPARE(std::floor(r->criticalD), 8755.0); // "D > 8,755"
    }
    QCOMPARE(r->tMath > r->tNetwork, computeBeatsNetwork);
    QCOMPARE(dd > r->criticalD, computeBeatsNetwork);
    QCOMPARE(QString::fromStdString(r->analysis.limitingCeiling), limiting);
    QCOMPARE(r->point.bytes.size(), std::size_t(2));
    QVERIFY(r->point.bytes.back().level == MemoryLevel::ICI);
}

void TestMatmul::shardedNetworkBandwidthOverride()
{
    ShardSpec shards;
    shards.chips = 8;
    shards.network = "NVLink";
    shards.networkBandwidth = 450e9;
    const auto r = modelMatmul({ 2048, 8192, 8192, Precision::BF16, QuantMode::None },
        preset("H100"), {}, std::nullopt, shards);
    QVERIFY2(r, r ? "" : r.error().c_str());
    QCOMPARE(r->networkCeiling, std::string("NVLink 4"));
    QCOMPARE(r->networkBandwidth, 450e9);
    QVERIFY(close(r->criticalD, 7.0 * 2.0 * 989e12 / 450e9));
    QCOMPARE(r->analysis.levels.back().bandwidth, 450e9);

    shards.network = "DCN";
    shards.networkBandwidth.reset();
    const auto missing = modelMatmul({ 2048, 8192, 8192, Precision::BF16, QuantMode::None },
        preset("H100"), {}, std::nullopt, shards);
    QVERIFY(!missing);
    QVERIFY(QString::fromStdString(missing.error()).contains("no network ceiling"));
    shards.network.clear();
    const auto uneven = modelMatmul({ 2048, 1001, 8192, Precision::BF16, QuantMode::None },
        preset("H100"), {}, std::nullopt, shards);
    QVERIFY(!uneven);
    QCOMPARE(QString::fromStdString(uneven.error()),
        QString("D = 1001 does not split evenly over 8 chips"));
}

// Without --network the partial sums cross the link between the chips (NVLink, else ICI, else
// PCIe; core/model/chip_link.h), not the first network ceiling the file lists: the MI300X lists
// its PCIe (128 GB/s both ways) before its Infinity Fabric (896 both ways). One way each:
// T_network = 2·(2−1)/2 · B·F · 2 B / β for B = 2048, F = 8192 on 2 chips = 33,554,432 B / β.
void TestMatmul::shardedDefaultsToTheLinkBetweenChips_data()
{
    QTest::addColumn<QString>("machine");
    QTest::addColumn<QString>("link");
    QTest::addColumn<double>("bandwidth");
    QTest::newRow("MI300X: Infinity Fabric, not PCIe") << "MI300X"
                                                       << "Infinity Fabric (7 links)" << 448e9;
    QTest::newRow("H100: NVLink") << "H100"
                                  << "NVLink 4" << 450e9;
    QTest::newRow("L40S: PCIe alone") << "L40S"
                                      << "PCIe Gen4 x16" << 32e9;
}

void TestMatmul::shardedDefaultsToTheLinkBetweenChips()
{
    QFETCH(QString, machine);
    QFETCH(QString, link);
    QFETCH(double, bandwidth);
    ShardSpec shards;
    shards.chips = 2;
    const auto r = modelMatmul({ 2048, 8192, 8192, Precision::BF16, QuantMode::None },
        preset(machine.toUtf8().constData()), {}, std::nullopt, shards);
    QVERIFY2(r, r ? "" : r.error().c_str());
    QCOMPARE(QString::fromStdString(r->networkCeiling), link);
    QCOMPARE(r->networkBandwidth, bandwidth);
    QCOMPARE(r->networkBytes, 33554432.0);
    QVERIFY(close(r->tNetwork, 33554432.0 / bandwidth));
}

void TestMatmul::tiledMatmulOfSection4_4_data()
{
    QTest::addColumn<qint64>("m");
    QTest::addColumn<qint64>("k");
    QTest::addColumn<qint64>("n");
    QTest::addColumn<qint64>("bm");
    QTest::addColumn<qint64>("bk");
    QTest::addColumn<qint64>("bn");
    QTest::addColumn<double>("approx"); // bm·bn/(bm+bn)
    QTest::newRow("128 tiles") << qint64(4096) << qint64(4096) << qint64(4096) << qint64(128)
                               << qint64(128) << qint64(128) << 64.0;
    QTest::newRow("256x128") << qint64(4096) << qint64(4096) << qint64(4096) << qint64(256)
                             << qint64(64) << qint64(128) << 256.0 * 128.0 / 384.0;
    QTest::newRow("ragged 1000x3000x500")
        << qint64(1000) << qint64(3000) << qint64(500) << qint64(128) << qint64(256) << qint64(64)
        << 128.0 * 64.0 / 192.0;
}

void TestMatmul::tiledMatmulOfSection4_4()
{
    QFETCH(qint64, m);
    QFETCH(qint64, k);
    QFETCH(qint64, n);
    QFETCH(qint64, bm);
    QFETCH(qint64, bk);
    QFETCH(qint64, bn);
    QFETCH(double, approx);
    const auto r = modelMatmul(
        { m, k, n, Precision::BF16, QuantMode::None }, preset("H100"), {}, TileSpec { bm, bk, bn });
    QVERIFY2(r, r ? "" : r.error().c_str());
    const double tm = std::ceil(double(m) / double(bm));
    const double tk = std::ceil(double(k) / double(bk));
    const double tn = std::ceil(double(n) / double(bn));
    QCOMPARE(double(r->tilesM), tm);
    QCOMPARE(double(r->tilesK), tk);
    QCOMPARE(double(r->tilesN), tn);
    // Independent count: useful FLOPs only; X re-read per column of tiles, Y per row of tiles.
    QCOMPARE(r->flops, 2.0 * double(m) * double(k) * double(n));
    const double reads = 2.0 * (double(m) * double(k) * tn + double(k) * double(n) * tm);
    const double writes = 2.0 * double(m) * double(n);
    QCOMPARE(r->bytes, reads + writes);
    QVERIFY(close(r->tileIntensityApprox, approx));
    // When the tiles divide the matrix this is section 4.4's own count, and ignoring the
    // writes gives its approximation b_m b_n / (b_m + b_n) exactly.
    if (m % bm == 0 && k % bk == 0 && n % bn == 0) {
        QVERIFY(close(reads, 2.0 * tm * tn * tk * (double(bm * bk) + double(bk * bn))));
        QVERIFY(close(r->flops / reads, approx));
    }
}

void TestMatmul::tilingNeverRaisesIntensityAboveUntiled_data()
{
    QTest::addColumn<qint64>("b");
    QTest::addColumn<qint64>("tile");
    // Regression (review): ragged tiles once counted their padding, giving B=1 an intensity of
    // 63 FLOP/B where the untiled GEMV has 1.
    QTest::newRow("GEMV, B=1") << qint64(1) << qint64(128);
    QTest::newRow("B=100, ragged") << qint64(100) << qint64(128);
    QTest::newRow("B=4096, even") << qint64(4096) << qint64(256);
}

void TestMatmul::tilingNeverRaisesIntensityAboveUntiled()
{
    QFETCH(qint64, b);
    QFETCH(qint64, tile);
    const MatmulSpec spec { b, 4096, 4096, Precision::BF16, QuantMode::None };
    const auto untiled = modelMatmul(spec, preset("H100"), {});
    const auto tiled = modelMatmul(spec, preset("H100"), {}, TileSpec { tile, 64, tile });
    QVERIFY(untiled && tiled);
    QCOMPARE(tiled->flops, untiled->flops);
    QVERIFY(tiled->intensity <= untiled->intensity * (1 + 1e-12));
}

void TestMatmul::tileIntensityRisesWithTileSize()
{
    double last = 0;
    for (qint64 size : { 32, 64, 128, 256, 512 }) {
        const auto r = modelMatmul({ 8192, 8192, 8192, Precision::BF16, QuantMode::None },
            preset("H100"), {}, TileSpec { size, 128, size });
        QVERIFY(r);
        QVERIFY2(r->intensity > last, qPrintable(QString::number(size)));
        last = r->intensity;
    }
}

void TestMatmul::perExampleWeightsOfSection12_1_data()
{
    QTest::addColumn<qint64>("b");
    QTest::addColumn<qint64>("d");
    QTest::addColumn<qint64>("f");
    QTest::addColumn<QString>("bound");
    QTest::newRow("B=1") << qint64(1) << qint64(8192) << qint64(8192) << "memory";
    QTest::newRow("B=512") << qint64(512) << qint64(8192) << qint64(8192) << "memory";
    // 65,536 FLOP over 65,536 × (64 + 1024 + 16) / 1024 = 70,656 B: 21 ns of HBM, under the
    // H100 preset's 1 µs launch latency (docs/MODEL.md §13).
    QTest::newRow("small") << qint64(32) << qint64(64) << qint64(16) << "latency";
}

void TestMatmul::perExampleWeightsOfSection12_1()
{
    QFETCH(qint64, b);
    QFETCH(qint64, d);
    QFETCH(qint64, f);
    const KernelPoint p = perExampleWeightsPoint(b, d, f);
    const double D = double(d), F = double(f);
    QVERIFY(close(p.flops / p.bytes.front().bytes, D * F / (D + D * F + F)));
    if (d >= 8192)
        QVERIFY(std::fabs(p.flops / p.bytes.front().bytes - 1.0) < 1e-3);
    const auto a = analyzePoint(p, preset("H100"));
    QVERIFY(a);
    QFETCH(QString, bound);
    QCOMPARE(QString::fromStdString(std::string(boundName(a->bound))), bound);
}

void TestMatmul::q8_0MatrixVector_data()
{
    QTest::addColumn<qint64>("rows");
    QTest::addColumn<qint64>("cols");
    QTest::addColumn<int>("flopsPerFma");
    QTest::addColumn<double>("intensity");
    const auto expected = [](double r, double c, double perFma) {
        return perFma * r * c / (r * c / 32.0 * 34.0 + 4.0 * c + 4.0 * r);
    };
    // docs/MODEL.md §5.6: ~32 FLOPs / 34 bytes ≈ 0.94 FLOP/B when an FMA counts once.
    QTest::newRow("4096x4096 fma=1")
        << qint64(4096) << qint64(4096) << 1 << expected(4096, 4096, 1);
    QTest::newRow("4096x4096 fma=2")
        << qint64(4096) << qint64(4096) << 2 << expected(4096, 4096, 2);
    QTest::newRow("lm_head 32000x4096 fma=1")
        << qint64(32000) << qint64(4096) << 1 << expected(32000, 4096, 1);
}

void TestMatmul::q8_0MatrixVector()
{
    QFETCH(qint64, rows);
    QFETCH(qint64, cols);
    QFETCH(int, flopsPerFma);
    QFETCH(double, intensity);
    Q8_0Spec spec;
    spec.rows = rows;
    spec.cols = cols;
    spec.flopsPerFma = flopsPerFma;
    const auto p = q8_0MatVecPoint(spec);
    QVERIFY2(p, p ? "" : p.error().c_str());
    QVERIFY(close(p->flops / p->bytes.front().bytes, intensity));
    // Per block: 32 (or 64) FLOPs over 34 bytes; the vectors only add a little.
    const double perBlock = 32.0 * flopsPerFma / 34.0;
    QVERIFY(intensity < perBlock && intensity > 0.99 * perBlock);
    if (flopsPerFma == 1)
        QCOMPARE(std::round(intensity * 100) / 100, 0.94);
}

void TestMatmul::q8_0RejectsPartialBlocks()
{
    Q8_0Spec spec;
    spec.cols = 100;
    const auto p = q8_0MatVecPoint(spec);
    QVERIFY(!p);
    QVERIFY(QString::fromStdString(p.error()).contains("multiple of 32"));
    spec.cols = 128;
    spec.flopsPerFma = 3;
    QVERIFY(!q8_0MatVecPoint(spec));
}

void TestMatmul::rejectsNonPositiveShapes()
{
    const auto r = modelMatmul({ 0, 8, 8, Precision::BF16, QuantMode::None }, preset("H100"));
    QVERIFY(!r);
    QCOMPARE(QString::fromStdString(r.error()), QString("B must be a positive integer (got 0)"));
    QVERIFY(!modelMatmul({ 8, -1, 8, Precision::BF16, QuantMode::None }, preset("H100")));
    QVERIFY(!modelMatmul(
        { 8, 8, 8, Precision::BF16, QuantMode::None }, preset("H100"), {}, TileSpec { 0, 8, 8 }));
}

QTEST_GUILESS_MAIN(TestMatmul)
#include "tst_matmul.moc"
