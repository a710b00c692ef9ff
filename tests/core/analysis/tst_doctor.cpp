// The doctor (docs/MODEL.md, "The doctor"): crafted machines and points faster than their roof,
// each built so that one cause fits, with the arithmetic that says so beside it.
#include "core/analysis/analysis.h"
#include "core/analysis/doctor.h"

#include <QTest>

using namespace ridgepoint;

Q_DECLARE_METATYPE(ridgepoint::Hardware)
Q_DECLARE_METATYPE(ridgepoint::KernelPoint)

namespace {

ComputeCeiling compute(
    std::string name, Precision precision, std::string unit, double peak, bool sparse = false)
{
    ComputeCeiling c;
    c.name = std::move(name);
    c.precision = precision;
    c.unit = std::move(unit);
    c.peak = peak;
    c.sparse = sparse;
    return c;
}

MemoryCeiling memory(std::string name, MemoryLevel level, double bandwidth)
{
    MemoryCeiling m;
    m.name = std::move(name);
    m.level = level;
    m.bandwidth = bandwidth;
    return m;
}

// 10 TFLOP/s of FP32 on vector units (the default), 1 TB/s of HBM: ridge at 10 FLOP/B.
Hardware vectorMachine()
{
    Hardware hw;
    hw.name = "Test machine";
    hw.defaultCompute = "FP32 vector";
    hw.compute.push_back(compute("FP32 vector", Precision::FP32, "vector", 1e13));
    hw.memory.push_back(memory("HBM", MemoryLevel::HBM, 1e12));
    return hw;
}

// F FLOP, B bytes at main memory, measured in t seconds.
KernelPoint point(
    double flops, double bytes, double seconds, std::optional<Precision> precision = std::nullopt)
{
    KernelPoint p;
    p.name = "k";
    p.flops = flops;
    p.bytes.push_back({ std::nullopt, bytes });
    p.seconds = seconds;
    p.precision = precision;
    return p;
}

} // namespace

class TestDoctor : public QObject
{
    Q_OBJECT

private slots:
    void ranksTheLikelyCause_data();
    void ranksTheLikelyCause();
    void consistentPointsHaveNone();
};

void TestDoctor::ranksTheLikelyCause_data()
{
    QTest::addColumn<Hardware>("hardware");
    QTest::addColumn<KernelPoint>("point");
    QTest::addColumn<QString>("first"); // the top cause, exactly
    QTest::addColumn<QString>("evidence"); // a piece of its evidence
    QTest::addColumn<int>("count"); // causes listed, the generic one included

    // F = 1e12, B = 1e9: I = 1000 FLOP/B, far right of the ridge, so T_min = F/π = 1e12/1e13 =
    // 0.1 s. Measured 0.05 s: 2e13 FLOP/s = ×2.00 the roof. Only FMA (and the generic) fit.
    QTest::newRow("FLOPs doubled")
        << vectorMachine() << point(1e12, 1e9, 0.05) << "FLOPs counted twice"
        << "×2.00 the FP32 vector roof" << 2;

    // FP16 tensor 100 TFLOP/s dense, 200 TFLOP/s 2:4 sparse. F = 1e12 in fp16, I = 1000:
    // T_min = 1e12/1e14 = 0.01 s; measured 0.005 s = 2e14 FLOP/s = ×2 dense, 100 % of sparse.
    // Sparse scores 0.55 + 0.45·1 = 1.0 against FMA's 0.5 + 0.4·1 = 0.9.
    Hardware sparse = vectorMachine();
    sparse.compute.push_back(compute("FP16 tensor", Precision::FP16, "tensor", 1e14));
    sparse.compute.push_back(
        compute("FP16 tensor 2:4 sparse", Precision::FP16, "tensor", 2e14, true));
    QTest::newRow("sparse peak") << sparse << point(1e12, 1e9, 0.005, Precision::FP16)
                                 << "the 2:4-sparse peak applies"
                                 << "fits FP16 tensor 2:4 sparse (200 TFLOP/s) at 100 %" << 3;

    // FP16 tensor 100 TFLOP/s, FP8 tensor 200 TFLOP/s (×2). A fp16 point at 1.7e14 FLOP/s
    // (t = 1e12/1.7e14 s) is ×1.70 the FP16 roof and 1.7e14/2e14 = 85 % of FP8's. 1.7 is 15 %
    // off 2, the edge of the FMA check: FMA scores 0.5 at best, FP8 scores 0.5 + 0.45·0.85.
    Hardware fp8 = vectorMachine();
    fp8.compute.push_back(compute("FP16 tensor", Precision::FP16, "tensor", 1e14));
    fp8.compute.push_back(compute("FP8 tensor", Precision::FP8, "tensor", 2e14));
    QTest::newRow("fp8 counted as fp16")
        << fp8 << point(1e12, 1e9, 1e12 / 1.7e14, Precision::FP16) << "fp8 work counted as fp16"
        << "fits FP8 tensor (200 TFLOP/s) at 85 %" << -1;

    // No precision, default FP32 vector 10 TFLOP/s, an FP16 tensor roof of 100 TFLOP/s. F = 1e12
    // in 0.02 s = 5e13 FLOP/s: ×5.00 the vector roof, 50 % of the tensor one.
    Hardware tensor = vectorMachine();
    tensor.compute.push_back(compute("FP16 tensor", Precision::FP16, "tensor", 1e14));
    QTest::newRow("tensor work against the vector roof")
        << tensor << point(1e12, 1e9, 0.02) << "tensor work measured against the FP32 vector roof"
        << "fits FP16 tensor (100 TFLOP/s) at 50 %" << 2;

    // HBM 1 TB/s, L2 2.5 TB/s. F = 1e9, B = 1e9: I = 1 FLOP/B, HBM roof 1e12 FLOP/s, T_min =
    // 1e9/1e12 = 1 ms. Measured 0.5 ms: 2e12 FLOP/s = ×2.00 the HBM roof; the L2 roof at I = 1
    // is min(1e13, 2.5e12·1) = 2.5e12, which 2e12 fits at 80 %. Memory-bound: no FMA.
    Hardware cached = vectorMachine();
    cached.memory.push_back(memory("L2", MemoryLevel::L2, 2.5e12));
    QTest::newRow("L2 bytes given as DRAM")
        << cached << point(1e9, 1e9, 5e-4) << "L2 bytes taken for HBM bytes"
        << "the L2 roof is 2.5 TFLOP/s: fits it at 80 %" << 2;

    // The FP32 roof assumes the base clock of 1000 MHz. Measured 0.1/1.2 s: ×1.20 the roof,
    // as if at 1000 × 1.2 = 1200 MHz, under the ×1.35 of boost over base.
    Hardware base = vectorMachine();
    base.compute.front().provenance.clock = "base";
    base.compute.front().provenance.clockMHz = 1000.0;
    QTest::newRow("clock above base")
        << base << point(1e12, 1e9, 0.1 / 1.2) << "a clock above the roof's basis"
        << "≈ 1200 MHz" << 2;

    // The HBM figure is per die; ×2.00 the HBM roof (I = 1 as above, 0.5 ms). Scope "die" scores
    // 0.5 + 0.45 against nothing else that fits (memory-bound, no cache level).
    Hardware dies = vectorMachine();
    dies.memory.front().provenance.scope = "die";
    QTest::newRow("two dies") << dies << point(1e9, 1e9, 5e-4) << "two dies counted against one"
                              << "provenance scope \"die\"" << 2;

    // ×7.00: 0.1/7 s. No factor of 2 or 4, no other roof, no clock basis.
    QTest::newRow("generic") << vectorMachine() << point(1e12, 1e9, 0.1 / 7.0)
                             << "counts or peaks are off"
                             << "×7.00 the FP32 vector roof" << 1;
}

void TestDoctor::ranksTheLikelyCause()
{
    QFETCH(Hardware, hardware);
    QFETCH(KernelPoint, point);
    QFETCH(QString, first);
    QFETCH(QString, evidence);
    QFETCH(int, count);
    const auto r = analyzePoint(point, hardware);
    QVERIFY2(r, r ? "" : r.error().c_str());
    QVERIFY(!r->consistent);
    QVERIFY(!r->diagnosis.empty());
    const Diagnosis &top = r->diagnosis.front();
    QCOMPARE(QString::fromStdString(top.cause), first);
    QVERIFY2(QString::fromStdString(top.evidence).contains(evidence), top.evidence.c_str());
    QVERIFY(!top.fix.empty());
    if (count >= 0)
        QCOMPARE(static_cast<int>(r->diagnosis.size()), count);
    // Best first, the generic entry last, and the note names the top cause.
    for (std::size_t i = 1; i < r->diagnosis.size(); ++i)
        QVERIFY(r->diagnosis[i - 1].score >= r->diagnosis[i].score);
    QCOMPARE(r->diagnosis.back().cause, std::string("counts or peaks are off"));
    QVERIFY2(QString::fromStdString(r->note).contains(first), r->note.c_str());
    // The same input gives the same list.
    const auto again = analyzePoint(point, hardware);
    QVERIFY(again);
    QCOMPARE(again->diagnosis.size(), r->diagnosis.size());
    for (std::size_t i = 0; i < r->diagnosis.size(); ++i)
        QCOMPARE(again->diagnosis[i].cause, r->diagnosis[i].cause);
}

void TestDoctor::consistentPointsHaveNone()
{
    // ×0.5 the roof (0.2 s for T_min 0.1 s): a fine point, no diagnosis.
    const auto r = analyzePoint(point(1e12, 1e9, 0.2), vectorMachine());
    QVERIFY(r);
    QVERIFY(r->consistent);
    QVERIFY(r->diagnosis.empty());
    QVERIFY(diagnose(point(1e12, 1e9, 0.2), vectorMachine(), *r).empty());
}

QTEST_GUILESS_MAIN(TestDoctor)
#include "tst_doctor.moc"
