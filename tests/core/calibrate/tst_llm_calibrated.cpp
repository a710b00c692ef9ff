// An LLM step timed by a calibrated machine (docs/MODEL.md §15.7). A layer small enough to work
// out by hand: h = 64, 4 heads of 16, FFN 256 (gated), 2 layers; prefill of 8 tokens, batch 1,
// bf16, tp = 2. The machine: BF16 tensor 1 PFLOP/s, HBM 1 TB/s, NVLink 100 GB/s. Its
// calibration: GEMMs c = 0.5, μ = 0.25, f = 1 µs; elementwise c = 0.9, μ = 0.5, f = 2 µs; no
// attention fit; all_reduce on 2 ranks (one node): α = 10 µs, bus bandwidth 50 GB/s.
#include "core/calibrate/llm_calibrated.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace ridgepoint;

namespace {

ModelConfig layer()
{
    ModelConfig m;
    m.name = "tiny";
    m.hiddenSize = 64;
    m.layers = 2;
    m.heads = 4;
    m.kvHeads = 4;
    m.headDim = 16;
    m.ffnSize = 256;
    m.vocabSize = 1000;
    m.gatedFfn = true;
    return m;
}

LlmSpec step()
{
    LlmSpec s;
    s.phase = LlmPhase::Prefill;
    s.seq = 8;
    s.batch = 1;
    s.tp = 2;
    return s;
}

KernelFit classFit(OperatorClass kind, double c, double mu, double floor)
{
    KernelFit f;
    f.name = std::string(operatorClassName(kind));
    f.kind = kind;
    f.computeFraction = c;
    f.memoryFraction = mu;
    f.floorSeconds = floor;
    return f;
}

Hardware machine()
{
    Hardware hw;
    hw.name = "calibrated test machine";
    hw.compute.push_back({ "BF16 tensor", Precision::BF16, "tensor", 1e15, false, {}, true });
    hw.memory.push_back({ "HBM", MemoryLevel::HBM, 1e12, {}, true });
    hw.memory.push_back({ "NVLink", MemoryLevel::NVLink, 1e11, {}, true });
    hw.defaultCompute = "BF16 tensor";
    Calibration cal;
    cal.files = { "/data/measured/h100_mlp.csv" };
    cal.rowsUsed = 120;
    cal.computeCeiling = "BF16 tensor";
    cal.peak = 1e15;
    cal.memoryCeiling = "HBM";
    cal.bandwidth = 1e12;
    cal.classes = { classFit(OperatorClass::Gemm, 0.5, 0.25, 1e-6),
        classFit(OperatorClass::Elementwise, 0.9, 0.5, 2e-6) };
    CollectiveFit ar;
    ar.collective = "all_reduce";
    ar.ranks = 2;
    ar.ranksPerNode = 2;
    ar.regimes = { { 0.0, 1e9, 1e-5, 5e10 } };
    cal.collectives = { ar };
    hw.calibration = cal;
    return hw;
}

CalibratedLlm timed(const Hardware &hw)
{
    const auto result = modelLlm(layer(), step(), hw);
    if (!result)
        qFatal("%s", result.error().c_str());
    auto c = calibratedLlm(layer(), step(), hw, *result);
    if (!c || !*c)
        qFatal("no calibrated step");
    return **c;
}

const CalibratedLlmOperator *find(const CalibratedLlm &c, const std::string &kind)
{
    for (const auto &op : c.operators) {
        if (op.kind == kind)
            return &op;
    }
    return nullptr;
}

} // namespace

class TestLlmCalibrated : public QObject
{
    Q_OBJECT

private slots:
    void operatorsTakeTheirFits_data();
    void operatorsTakeTheirFits();
    void sumsAndSaysWhichFitsItUsed();
    void kernelFitsNeedTheirRoof();
    void uncalibratedMachineHasNone();
    void jsonCarriesTheCalibration();
};

void TestLlmCalibrated::operatorsTakeTheirFits_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("calibrated");
    QTest::addColumn<double>("seconds"); // NaN: the operator's own T_min
    // FFN down per chip: 2·8·128·64 = 131072 FLOPs, (256·64 + 8·256 + 8·64)·2 / 2 = 18944 bytes.
    // max(131072 / (0.5·1e15), 18944 / (0.25·1e12)) + 1 µs = 75.776 ns + 1 µs, × 2 layers.
    QTest::newRow("gemm") << "FFN down" << true << 2.0 * (18944.0 / 0.25e12 + 1e-6);
    // FFN residual (replicated): 8·64 = 512 FLOPs, 3·8·64·2 = 3072 bytes.
    // max(512 / 0.9e15, 3072 / 0.5e12) + 2 µs = 6.144 ns + 2 µs, × 2 layers.
    QTest::newRow("elementwise") << "FFN residual" << true << 2.0 * (3072.0 / 0.5e12 + 2e-6);
    // TP all-reduce after the FFN: a message of 8·64·2 = 1024 bytes, bus factor 2·1/2 = 1:
    // 10 µs + 1024 / 50 GB/s = 10 µs + 20.48 ns, × 2 layers.
    QTest::newRow("all-reduce") << "TP all-reduce (FFN)" << true << 2.0 * (1e-5 + 1024.0 / 5e10);
    // No attention fit: the roofline's T_min.
    QTest::newRow("attention") << "attention score" << false << std::nan("");
}

void TestLlmCalibrated::operatorsTakeTheirFits()
{
    QFETCH(QString, kind);
    QFETCH(bool, calibrated);
    QFETCH(double, seconds);
    const CalibratedLlm c = timed(machine());
    const CalibratedLlmOperator *op = find(c, kind.toStdString());
    QVERIFY2(op, qPrintable(kind));
    QCOMPARE(op->calibrated, calibrated);
    const double expected = std::isnan(seconds) ? op->rooflineSeconds : seconds;
    QVERIFY2(std::abs(op->seconds - expected) <= 1e-12 * expected,
        qPrintable(QString("%1 s, expected %2 s").arg(op->seconds).arg(expected)));
}

void TestLlmCalibrated::sumsAndSaysWhichFitsItUsed()
{
    const Hardware hw = machine();
    const CalibratedLlm c = timed(hw);
    double sum = 0.0;
    double roofline = 0.0;
    for (const auto &op : c.operators) {
        sum += op.seconds;
        roofline += op.rooflineSeconds;
    }
    QCOMPARE(c.seconds, sum);
    QCOMPARE(c.rooflineSeconds, roofline);
    const QString line = QString::fromStdString(calibratedLlmLine(c, *hw.calibration));
    QVERIFY2(line.startsWith("calibrated: "), qPrintable(line));
    QVERIFY2(line.contains("(calibration of h100_mlp.csv, 120 rows: "), qPrintable(line));
    QVERIFY2(line.contains("gemm fit") && line.contains("elementwise fit")
            && line.contains("all_reduce on 2 ranks"),
        qPrintable(line));
    QVERIFY2(line.contains("; roofline for attention: no fit)"), qPrintable(line));
}

void TestLlmCalibrated::kernelFitsNeedTheirRoof()
{
    // Fractions of another roof than the step's: the kernels keep their T_min, the collectives
    // their fit.
    Hardware hw = machine();
    hw.calibration->computeCeiling = "FP8 tensor";
    const CalibratedLlm c = timed(hw);
    QVERIFY(!find(c, "FFN down")->calibrated);
    QVERIFY(find(c, "TP all-reduce (FFN)")->calibrated);
    const QString line = QString::fromStdString(calibratedLlmLine(c, *hw.calibration));
    QVERIFY2(line.contains("gemm: its fit is of FP8 tensor, the step runs on BF16 tensor"),
        qPrintable(line));
}

void TestLlmCalibrated::uncalibratedMachineHasNone()
{
    Hardware hw = machine();
    hw.calibration.reset();
    const auto result = modelLlm(layer(), step(), hw);
    QVERIFY(result);
    const auto c = calibratedLlm(layer(), step(), hw, *result);
    QVERIFY(c);
    QVERIFY(!*c);
}

void TestLlmCalibrated::jsonCarriesTheCalibration()
{
    const Hardware hw = machine();
    const CalibratedLlm c = timed(hw);
    const auto text = llmJsonWithCalibrated("{\"model\": \"tiny\"}", c, *hw.calibration);
    const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
    QCOMPARE(j["model"].toString(), QString("tiny"));
    const QJsonObject cal = j["calibrated"].toObject();
    QCOMPARE(cal["seconds"].toDouble(), c.seconds);
    QCOMPARE(cal["roofline_seconds"].toDouble(), c.rooflineSeconds);
    QCOMPARE(cal["rows_used"].toInt(), 120);
    QCOMPARE(cal["files"].toArray().at(0).toString(), QString("/data/measured/h100_mlp.csv"));
    const QJsonArray ops = cal["operators"].toArray();
    QCOMPARE(ops.size(), static_cast<qsizetype>(c.operators.size()));
    for (const auto &value : ops) {
        const QJsonObject op = value.toObject();
        if (op["operator"].toString() != "FFN down")
            continue;
        QCOMPARE(op["class"].toString(), QString("gemm"));
        QCOMPARE(op["calibrated"].toBool(), true);
        QCOMPARE(op["seconds"].toDouble(), find(c, "FFN down")->seconds);
    }
}

QTEST_APPLESS_MAIN(TestLlmCalibrated)
#include "tst_llm_calibrated.moc"
