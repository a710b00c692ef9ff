// The I/O lower bound of a matmul (docs/MODEL.md §12): the tiling wall √(C/w)/w, the least
// traffic w·(2mnk/√S − 2S) at a shape, and a matmul past its wall flagged with the doctor's
// reason. Every expected value is worked out by hand in the row's comment.
#include "core/analysis/io_bounds.h"
#include "core/report/workload_report.h"
#include "core/workloads/workloads.h"
#include "core/workspace/workspace.h"

#include "tests/support/core_test_support.h"

#include <QTest>

#include <cmath>

using namespace ridgepoint;
using test::preset;

namespace {

bool near(double actual, double expected, double relative)
{
    return std::fabs(actual - expected) <= relative * std::fabs(expected);
}

Hardware machineWithCapacities()
{
    Hardware hw;
    hw.name = "Capacities";
    ComputeCeiling c;
    c.name = "BF16";
    c.precision = Precision::BF16;
    c.peak = 1e15;
    hw.compute.push_back(c);
    MemoryCeiling m;
    m.name = "HBM";
    m.level = MemoryLevel::HBM;
    m.bandwidth = 3e12;
    hw.memory.push_back(m);
    hw.limits.capacities.push_back({ MemoryLevel::L2, "L2", 8.0 * 1024 * 1024, "chip", {} });
    hw.limits.capacities.push_back({ MemoryLevel::LDS, "LDS", 64.0 * 1024, "cu", {} });
    return hw;
}

} // namespace

class TestIoBounds : public QObject
{
    Q_OBJECT

private slots:
    void maxIntensity_data();
    void maxIntensity();
    void minTraffic_data();
    void minTraffic();
    void capacityNeededInvertsMinTraffic();
    void eachCapacityBoundsTheLevelBelowIt();
    void h100Walls();
    void matmulPastTheL2Wall_data();
    void matmulPastTheL2Wall();
    void explainsTheWall();
    void reportsTheBounds();
    void noCapacitiesNoBounds();
    void aSharedMemoryAloneBoundsL2();
    void dragPastTheWallIsFlagged_data();
    void dragPastTheWallIsFlagged();
    void capacityText_data();
    void capacityText();
};

void TestIoBounds::maxIntensity_data()
{
    QTest::addColumn<double>("capacity");
    QTest::addColumn<double>("word");
    QTest::addColumn<double>("expected");
    // 228 KiB = 233,472 B = 116,736 bf16 words; √116,736 = 341.667; / 2 B = 170.83 FLOP/B.
    QTest::newRow("H100 shared memory, bf16") << 233472.0 << 2.0 << 170.8333;
    // 50 MiB = 52,428,800 B = 26,214,400 words; √ = 5,120; / 2 = 2,560 FLOP/B.
    QTest::newRow("H100 L2, bf16") << 52428800.0 << 2.0 << 2560.0;
    // 40 MiB in fp32: 10,485,760 words; √ = 3,238.17; / 4 = 809.54 FLOP/B.
    QTest::newRow("A100 L2, fp32") << 41943040.0 << 4.0 << 809.543;
    // 64 KiB of int8: 65,536 words; √ = 256; / 1 = 256 FLOP/B.
    QTest::newRow("LDS, int8") << 65536.0 << 1.0 << 256.0;
}

void TestIoBounds::maxIntensity()
{
    QFETCH(double, capacity);
    QFETCH(double, word);
    QFETCH(double, expected);
    const double got = matmulMaxIntensity(capacity, word);
    QVERIFY2(near(got, expected, 1e-5), qPrintable(QString::number(got, 'g', 10)));
}

void TestIoBounds::minTraffic_data()
{
    QTest::addColumn<double>("m");
    QTest::addColumn<double>("capacity");
    QTest::addColumn<double>("expected");
    // m = n = k = 4096, bf16, 8 MiB: S = 4,194,304 words, √S = 2,048; 2mnk = 2^37;
    // 2^37 / 2^11 = 2^26 = 67,108,864; − 2S = 58,720,256 words = 117,440,512 B.
    QTest::newRow("4096 cubed, 8 MiB") << 4096.0 << 8388608.0 << 117440512.0;
    // m = n = k = 64 in 1 MiB: S = 524,288, 2mnk/√S = 524,288 / 724.08 = 724.08 < 2S: it fits,
    // the bound says nothing.
    QTest::newRow("fits in the fast memory") << 64.0 << 1048576.0 << 0.0;
}

void TestIoBounds::minTraffic()
{
    QFETCH(double, m);
    QFETCH(double, capacity);
    QFETCH(double, expected);
    const double got = matmulMinTraffic({ m, m, m, 2.0 }, capacity);
    QVERIFY2(
        got == expected || near(got, expected, 1e-12), qPrintable(QString::number(got, 'g', 17)));
}

void TestIoBounds::capacityNeededInvertsMinTraffic()
{
    const MatmulShape shape { 4096.0, 4096.0, 4096.0, 2.0 };
    // 117,440,512 B is exactly the least traffic of 8 MiB (minTraffic above).
    QVERIFY(near(matmulCapacityNeeded(shape, 117440512.0), 8388608.0, 1e-9));
    // Less traffic needs more memory.
    QVERIFY(matmulCapacityNeeded(shape, 1e8) > 8388608.0);
    QVERIFY(std::isinf(matmulCapacityNeeded(shape, 0.0)));
}

void TestIoBounds::eachCapacityBoundsTheLevelBelowIt()
{
    const auto bounds = matmulIoBounds(machineWithCapacities(), 2.0);
    QCOMPARE(bounds.size(), std::size_t(2));
    // L2 is the largest on-chip level given: it bounds main memory. LDS bounds L2.
    QCOMPARE(bounds[0].capacity.level, MemoryLevel::L2);
    QCOMPARE(bounds[0].against, MemoryLevel::HBM);
    QCOMPARE(bounds[1].capacity.level, MemoryLevel::LDS);
    QCOMPARE(bounds[1].against, MemoryLevel::L2);
    // 8 MiB bf16: √4,194,304 / 2 = 2,048 / 2 = 1,024. 64 KiB: √32,768 / 2 = 181.02 / 2 = 90.51.
    QCOMPARE(bounds[0].maxIntensity, 1024.0);
    QVERIFY(near(bounds[1].maxIntensity, 90.5097, 1e-5));
}

void TestIoBounds::h100Walls()
{
    auto r = modelMatmul({ 8192, 8192, 8192, Precision::BF16, QuantMode::None }, preset("H100"));
    QVERIFY2(r, r ? "" : r.error().c_str());
    QCOMPARE(r->ioWordBytes, 2.0);
    QCOMPARE(r->ioBounds.size(), std::size_t(2));
    QCOMPARE(r->ioBounds[0].capacity.level, MemoryLevel::L1);
    QCOMPARE(r->ioBounds[0].against, MemoryLevel::L2);
    QVERIFY(near(r->ioBounds[0].maxIntensity, 170.8333, 1e-5));
    QCOMPARE(r->ioBounds[1].capacity.level, MemoryLevel::L2);
    QCOMPARE(r->ioBounds[1].against, MemoryLevel::HBM);
    QCOMPARE(r->ioBounds[1].maxIntensity, 2560.0);
}

void TestIoBounds::matmulPastTheL2Wall_data()
{
    QTest::addColumn<int>("size");
    QTest::addColumn<int>("tile");
    QTest::addColumn<bool>("beyond");
    // 8192³ untiled: 3·8192²·2 = 402,653,184 B; the bound with 50 MiB: 2·8192³ / 5,120 −
    // 2·26,214,400 = 214,748,364.8 − 52,428,800 = 162,319,564.8 words = 324.6 MB < 402.7 MB.
    QTest::newRow("8192 untiled: within") << 8192 << 0 << false;
    // 32768³ untiled: 3·32768²·2 = 6,442,450,944 B; the bound: 2·32768³ / 5,120 − 52,428,800
    // = 13,691,466,547.2 words = 27.38 GB > 6.44 GB: the ideal reuse needs more than 50 MiB.
    QTest::newRow("32768 untiled: beyond") << 32768 << 0 << true;
    // Tiled 128×128×128: X read 256 times, Y 256 times: 2·32768²·256·2 + 2·32768² ≈ 1.1 TB,
    // far above the 27.38 GB bound.
    QTest::newRow("32768 tiled: within") << 32768 << 128 << false;
}

void TestIoBounds::matmulPastTheL2Wall()
{
    QFETCH(int, size);
    QFETCH(int, tile);
    QFETCH(bool, beyond);
    std::optional<TileSpec> tiles;
    if (tile > 0)
        tiles = TileSpec { tile, tile, tile };
    auto r = modelMatmul(
        { size, size, size, Precision::BF16, QuantMode::None }, preset("H100"), {}, tiles);
    QVERIFY2(r, r ? "" : r.error().c_str());
    QCOMPARE(r->beyondIoBound.has_value(), beyond);
    if (beyond) {
        QCOMPARE(r->beyondIoBound->bound.capacity.level, MemoryLevel::L2);
        QVERIFY(near(r->beyondIoBound->minTrafficBytes, 27382933094.4, 1e-9));
        QVERIFY(r->beyondIoBound->capacityNeeded > 52428800.0);
        // and the traffic it moves would suffice with that much: the inverse holds.
        const MatmulShape shape { double(size), double(size), double(size), 2.0 };
        QVERIFY(near(matmulMinTraffic(shape, r->beyondIoBound->capacityNeeded), r->bytes, 1e-9));
    }
}

void TestIoBounds::explainsTheWall()
{
    auto r = modelMatmul({ 32768, 32768, 32768, Precision::BF16, QuantMode::None }, preset("H100"));
    QVERIFY(r && r->beyondIoBound);
    const Diagnosis d = ioBoundDiagnosis(*r->beyondIoBound);
    QCOMPARE(d.cause, std::string("beyond the L2 tiling wall"));
    QVERIFY2(d.evidence.find("needs more than 50 MiB per chip of on-chip memory (L2) at this "
                             "shape")
            != std::string::npos,
        d.evidence.c_str());
    QVERIFY2(d.evidence.find("27.38 GB to and from HBM") != std::string::npos, d.evidence.c_str());
}

void TestIoBounds::reportsTheBounds()
{
    auto r = modelMatmul({ 32768, 32768, 32768, Precision::BF16, QuantMode::None }, preset("H100"));
    QVERIFY(r);
    const QString json = QString::fromStdString(matmulJson(*r));
    QVERIFY2(json.contains("\"io_bounds\": ["), qPrintable(json));
    QVERIFY(json.contains("\"max_intensity\": 2560"));
    QVERIFY(json.contains("\"beyond_io_bound\": true"));
    const QString table = QString::fromStdString(matmulTable(*r));
    QVERIFY2(table.contains("L1 228 KiB per sm: 170.8 FLOP/B against L2; L2 50 MiB per chip: "
                            "2560 FLOP/B against HBM"),
        qPrintable(table));
    QVERIFY(table.contains("beyond the I/O bound"));
}

void TestIoBounds::noCapacitiesNoBounds()
{
    Hardware hw = machineWithCapacities();
    hw.limits.capacities.clear();
    auto r = modelMatmul({ 32768, 32768, 32768, Precision::BF16, QuantMode::None }, hw);
    QVERIFY(r);
    QVERIFY(r->ioBounds.empty());
    QVERIFY(!r->beyondIoBound);
    QVERIFY(!QString::fromStdString(matmulJson(*r)).contains("io_bounds"));
}

void TestIoBounds::aSharedMemoryAloneBoundsL2()
{
    // Without the L2's capacity (as on the L4 preset) the shared memory still bounds the L2's
    // traffic, not main memory's: the L2 between them may hold far more, so a main-memory point
    // is not held to it (no false flag).
    Hardware hw = machineWithCapacities();
    hw.limits.capacities = { { MemoryLevel::LDS, "LDS", 64.0 * 1024, "cu", {} } };
    const auto bounds = matmulIoBounds(hw, 2.0);
    QCOMPARE(bounds.size(), std::size_t(1));
    QCOMPARE(bounds[0].against, MemoryLevel::L2);
    auto r = modelMatmul({ 32768, 32768, 32768, Precision::BF16, QuantMode::None }, hw);
    QVERIFY(r);
    QVERIFY(!r->beyondIoBound);
}

void TestIoBounds::dragPastTheWallIsFlagged_data()
{
    QTest::addColumn<double>("bytesFactor");
    QTest::addColumn<bool>("beyond");
    // The 8192³ bf16 matmul moves 402,653,184 B; with 50 MiB of L2 it must move at least
    // 324,639,129.6 B (matmulPastTheL2Wall above).
    QTest::newRow("where it was") << 1.0 << false;
    // × 0.9 = 362,387,865.6 B: still above the bound.
    QTest::newRow("10 % fewer bytes") << 0.9 << false;
    // × 0.75 = 301,989,888 B: fewer than the L2 allows at this shape.
    QTest::newRow("25 % fewer bytes") << 0.75 << true;
}

void TestIoBounds::dragPastTheWallIsFlagged()
{
    QFETCH(double, bytesFactor);
    QFETCH(bool, beyond);
    Workspace workspace;
    workspace.setHardware(preset("H100"));
    Workload matmul;
    matmul.model = MatmulWorkload { { 8192, 8192, 8192, Precision::BF16, QuantMode::None },
        std::nullopt, std::nullopt };
    auto rows = workspace.workloadRows({ matmul });
    QVERIFY2(rows, rows ? "" : rows.error().c_str());
    workspace.insertRows(*rows);
    QCOMPARE(workspace.pointCount(), std::size_t(1));
    workspace.setWhatIf(0, { bytesFactor, 1.0 });
    const auto excess = workspace.ioBoundExcess(0);
    QCOMPARE(excess.has_value(), beyond);
    if (beyond) {
        QCOMPARE(excess->bound.capacity.level, MemoryLevel::L2);
        QVERIFY(near(excess->trafficBytes, 402653184.0 * bytesFactor, 1e-12));
        QVERIFY(near(excess->minTrafficBytes, 324639129.6, 1e-9));
    }
}

void TestIoBounds::capacityText_data()
{
    QTest::addColumn<double>("bytes");
    QTest::addColumn<QString>("expected");
    QTest::newRow("KiB") << 233472.0 << "228 KiB";
    QTest::newRow("MiB") << 52428800.0 << "50 MiB";
    QTest::newRow("not a binary multiple") << 50e6 << "50 MB";
    QTest::newRow("small") << 512.0 << "512 B";
}

void TestIoBounds::capacityText()
{
    QFETCH(double, bytes);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(ridgepoint::capacityText(bytes)), expected);
}

QTEST_GUILESS_MAIN(TestIoBounds)
#include "tst_iobounds.moc"
