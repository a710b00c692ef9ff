// The fit on synthetic rows made from known figures, each time written out here by the formula
// of docs/MODEL.md "Calibration" (not by the code under test):
//   T = max(F' / (c·π), B / (μ·β)) + floor,  F' = 2·K·64·128·SMs·⌈⌈M/64⌉·⌈N/128⌉ / SMs⌉ (F without
//   SMs; `--tile 64x128`), or on the tile set T = min over tiles tm×tn of
//   max(T_c, T_m) + κ·min(T_c, T_m), plus the floor, with
//   T_c = 2·K·tm·tn·SMs·⌈⌈M/tm⌉·⌈N/tn⌉ / SMs⌉·(1 + r·(tm+tn)/(tm·tn)) / (c·π) and
//   T_m = (B + W·(⌈M/tm⌉ − 1)·max(0, 1 − L2/W)) / (μ·β), W = 2·K·N, on a machine with an L2;
//   collective T = α_r + 2(n−1)/n · bytes / busbw_r in regime r
// The figures must come back within 1 %; the calibration must survive a hardware file unchanged.
#include "core/calibrate/fit.h"
#include "core/calibrate/predict.h"
#include "core/io/formats/hardware_json.h"

#include "tests/support/core_test_support.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>

using namespace ridgepoint;

namespace {

constexpr double kPeak = 1e15;
constexpr double kBandwidth = 2e12;

Hardware machine(double l2Bytes = 0.0)
{
    Hardware hardware = makeSimpleMachine(kPeak, kBandwidth);
    if (l2Bytes > 0.0)
        hardware.limits.capacities.push_back({ MemoryLevel::L2, "L2", l2Bytes, "chip", {} });
    return hardware;
}

double ceilDiv(double a, double b)
{
    return std::ceil(a / b);
}

// GEMM rows from 1 to 8192 tokens on three weight shapes, memory-bound to compute-bound.
std::vector<MeasuredRow> gemmRows(double c, double mu, double floor, std::int64_t sms)
{
    std::vector<MeasuredRow> rows;
    int line = 2;
    for (const double n : { 4096.0, 12288.0, 22016.0 }) {
        for (double m = 1.0; m <= 8192.0; m *= 2.0) {
            const double k = 4096.0;
            MeasuredRow row;
            row.file = "synthetic.csv";
            row.line = line++;
            row.op = "gemm";
            row.kind = OperatorClass::Gemm;
            row.m = static_cast<std::int64_t>(m);
            row.n = static_cast<std::int64_t>(n);
            row.k = static_cast<std::int64_t>(k);
            row.flops = 2.0 * m * n * k;
            row.bytes = (m * k + k * n + m * n) * 2.0;
            const double s = static_cast<double>(sms);
            const double effective = sms > 0
                ? 2.0 * k * 64.0 * 128.0 * s * ceilDiv(ceilDiv(m, 64.0) * ceilDiv(n, 128.0), s)
                : row.flops;
            row.seconds = std::max(effective / (c * kPeak), row.bytes / (mu * kBandwidth)) + floor;
            rows.push_back(row);
        }
    }
    return rows;
}

// GEMM rows of 1 to 8192 tokens (steps of about √2) on four weight shapes, timed with the tile
// set's cheapest tile for operand cost r, overlap loss κ and an L2 of `l2` bytes (0: none).
std::vector<MeasuredRow> tileSetRows(
    double c, double mu, double floor, double r, double sms, double kappa = 0.0, double l2 = 0.0)
{
    const double tiles[][2]
        = { { 64, 64 }, { 64, 128 }, { 128, 64 }, { 128, 128 }, { 128, 256 }, { 256, 128 } };
    std::vector<MeasuredRow> rows;
    int line = 2;
    for (const double n : { 1536.0, 4096.0, 12288.0, 22016.0 }) {
        for (double step = 0.0; step <= 26.0; step += 1.0) {
            const double m = std::round(std::pow(2.0, step / 2.0));
            const double k = 4096.0;
            MeasuredRow row;
            row.file = "synthetic.csv";
            row.line = line++;
            row.op = "gemm";
            row.kind = OperatorClass::Gemm;
            row.m = static_cast<std::int64_t>(m);
            row.n = static_cast<std::int64_t>(n);
            row.k = static_cast<std::int64_t>(k);
            row.flops = 2.0 * m * n * k;
            row.bytes = (m * k + k * n + m * n) * 2.0;
            const double weight = 2.0 * k * n;
            double least = 1e300;
            for (const auto &tile : tiles) {
                const double waves = ceilDiv(ceilDiv(m, tile[0]) * ceilDiv(n, tile[1]), sms);
                const double compute = 2.0 * k * tile[0] * tile[1] * sms * waves
                    * (1.0 + r * (tile[0] + tile[1]) / (tile[0] * tile[1])) / (c * kPeak);
                const double missed = l2 > 0.0 ? std::max(0.0, 1.0 - l2 / weight) : 0.0;
                const double memory = (row.bytes + weight * (ceilDiv(m, tile[0]) - 1.0) * missed)
                    / (mu * kBandwidth);
                least = std::min(
                    least, std::max(compute, memory) + kappa * std::min(compute, memory));
            }
            row.seconds = least + floor;
            rows.push_back(row);
        }
    }
    return rows;
}

MeasuredRow collectiveRow(double bytes, double seconds)
{
    MeasuredRow row;
    row.file = "synthetic_all_reduce.csv";
    row.op = "all_reduce";
    row.kind = OperatorClass::Collective;
    row.messageBytes = bytes;
    row.ranks = 8;
    row.ranksPerNode = 8;
    row.seconds = seconds;
    return row;
}

bool within(double got, double want, double relative)
{
    return std::abs(got / want - 1.0) <= relative;
}

} // namespace

class TestCalibrationFit : public QObject
{
    Q_OBJECT

private slots:
    void kernel_data();
    void kernel();
    void tileSet_data();
    void tileSet();
    void collective_data();
    void collective();
    void betweenRegimes_data();
    void betweenRegimes();
    void collectiveRoofline_data();
    void collectiveRoofline();
    void roundTrip();
    void takesTheMachinesSmCount_data();
    void takesTheMachinesSmCount();
    void badCalibrationJson_data();
    void badCalibrationJson();
    void nothingToFit();
    void uncalibratedPredict();
};

void TestCalibrationFit::kernel_data()
{
    QTest::addColumn<double>("compute");
    QTest::addColumn<double>("memory");
    QTest::addColumn<double>("floor");
    QTest::addColumn<qint64>("sms");
    QTest::newRow("no quantization") << 0.7 << 0.8 << 5e-6 << qint64(0);
    QTest::newRow("132 SMs") << 0.55 << 0.35 << 12e-6 << qint64(132);
    QTest::newRow("108 SMs, small floor") << 0.9 << 0.6 << 2e-6 << qint64(108);
}

void TestCalibrationFit::kernel()
{
    QFETCH(double, compute);
    QFETCH(double, memory);
    QFETCH(double, floor);
    QFETCH(qint64, sms);
    CalibrateOptions options;
    options.sms = sms;
    options.tileM = 64;
    options.tileN = 128;
    const auto rows = gemmRows(compute, memory, floor, sms);
    const auto calibration = calibrate(rows, machine(), options);
    QVERIFY2(calibration, calibration ? "" : calibration.error().c_str());
    QCOMPARE(calibration->operators.size(), std::size_t(1));
    const KernelFit &fit = calibration->operators.front();
    QVERIFY2(within(fit.computeFraction, compute, 0.01),
        qPrintable(QString::number(fit.computeFraction)));
    QVERIFY2(
        within(fit.memoryFraction, memory, 0.01), qPrintable(QString::number(fit.memoryFraction)));
    QVERIFY2(within(fit.floorSeconds, floor, 0.01), qPrintable(QString::number(fit.floorSeconds)));
    QVERIFY(fit.error.median < 0.001);
    QCOMPARE(fit.operandCost, 0.0); // one fixed tile: no operand cost to tell from c
    QCOMPARE(calibration->rowsUsed, rows.size());
}

void TestCalibrationFit::tileSet_data()
{
    QTest::addColumn<double>("compute");
    QTest::addColumn<double>("memory");
    QTest::addColumn<double>("floor");
    QTest::addColumn<double>("cost"); // r, FLOP/B
    QTest::addColumn<qint64>("sms");
    QTest::addColumn<double>("kappa"); // κ, 0: rows made without it
    QTest::addColumn<double>("l2"); // bytes, 0: a machine without an L2 capacity
    const double mib = 1048576.0;
    QTest::newRow("132 SMs, r 17") << 0.94 << 0.74 << 6e-6 << 17.0 << qint64(132) << 0.0 << 0.0;
    QTest::newRow("108 SMs, r 5") << 0.8 << 0.6 << 3e-6 << 5.0 << qint64(108) << 0.0 << 0.0;
    QTest::newRow("132 SMs, r 40") << 1.0 << 0.9 << 2e-6 << 40.0 << qint64(132) << 0.0 << 0.0;
    QTest::newRow("132 SMs, L2 50 MiB")
        << 0.98 << 0.93 << 8e-6 << 16.0 << qint64(132) << 0.0 << 50.0 * mib;
    QTest::newRow("108 SMs, kappa 0.08, L2 40 MiB")
        << 0.9 << 0.87 << 5e-6 << 13.0 << qint64(108) << 0.08 << 40.0 * mib;
    QTest::newRow("132 SMs, kappa 0.5") << 0.8 << 0.7 << 4e-6 << 10.0 << qint64(132) << 0.5 << 0.0;
}

// Without --tile each GEMM takes the cheapest tile of the set, and the operand cost comes back.
void TestCalibrationFit::tileSet()
{
    QFETCH(double, compute);
    QFETCH(double, memory);
    QFETCH(double, floor);
    QFETCH(double, cost);
    QFETCH(qint64, sms);
    QFETCH(double, kappa);
    QFETCH(double, l2);
    CalibrateOptions options;
    options.sms = sms;
    const auto rows
        = tileSetRows(compute, memory, floor, cost, static_cast<double>(sms), kappa, l2);
    const auto calibration = calibrate(rows, machine(l2), options);
    QVERIFY2(calibration, calibration ? "" : calibration.error().c_str());
    QCOMPARE(calibration->tileM, std::int64_t(0));
    QCOMPARE(calibration->l2Bytes, l2);
    QCOMPARE(calibration->operators.size(), std::size_t(1));
    const KernelFit &fit = calibration->operators.front();
    QVERIFY2(within(fit.computeFraction, compute, 0.01),
        qPrintable(QString::number(fit.computeFraction)));
    QVERIFY2(
        within(fit.memoryFraction, memory, 0.01), qPrintable(QString::number(fit.memoryFraction)));
    QVERIFY2(within(fit.floorSeconds, floor, 0.01), qPrintable(QString::number(fit.floorSeconds)));
    QVERIFY2(within(fit.operandCost, cost, 0.01), qPrintable(QString::number(fit.operandCost)));
    // Without κ in the rows the fit's stays near its lower bound, 1e-9.
    QVERIFY2(kappa > 0.0 ? within(fit.overlapLoss, kappa, 0.01) : fit.overlapLoss < 1e-6,
        qPrintable(QString::number(fit.overlapLoss)));
    QVERIFY(fit.error.median < 0.001);
    // A large GEMM sustains c/(1 + r/I) with the largest tile's intensity, 128·256/384.
    QVERIFY(within(sustainedComputeFraction(fit, *calibration),
        compute / (1.0 + cost * 384.0 / (128.0 * 256.0)), 1e-9));
}

void TestCalibrationFit::collective_data()
{
    QTest::addColumn<double>("alphaSmall");
    QTest::addColumn<double>("busSmall");
    QTest::addColumn<double>("alphaLarge");
    QTest::addColumn<double>("busLarge");
    QTest::newRow("NVLink-like") << 20e-6 << 50e9 << 60e-6 << 200e9;
    QTest::newRow("network-like") << 80e-6 << 5e9 << 300e-6 << 20e9;
}

void TestCalibrationFit::collective()
{
    QFETCH(double, alphaSmall);
    QFETCH(double, busSmall);
    QFETCH(double, alphaLarge);
    QFETCH(double, busLarge);
    const double factor = 2.0 * 7.0 / 8.0; // all-reduce on 8 ranks
    std::vector<MeasuredRow> rows;
    for (double bytes = 1024.0; bytes <= 256.0 * 1048576.0; bytes *= 2.0) {
        const bool small = bytes <= 1048576.0;
        const double seconds = small ? alphaSmall + factor * bytes / busSmall
                                     : alphaLarge + factor * bytes / busLarge;
        rows.push_back(collectiveRow(bytes, seconds));
    }
    const auto calibration = calibrate(rows, machine(), {});
    QVERIFY2(calibration, calibration ? "" : calibration.error().c_str());
    QCOMPARE(calibration->collectives.size(), std::size_t(1));
    const CollectiveFit &fit = calibration->collectives.front();
    QCOMPARE(fit.regimes.size(), std::size_t(2));
    QCOMPARE(fit.regimes[0].toBytes, 1048576.0);
    QCOMPARE(fit.regimes[1].fromBytes, 2097152.0);
    QVERIFY(within(fit.regimes[0].latencySeconds, alphaSmall, 0.01));
    QVERIFY(within(*fit.regimes[0].busBandwidth, busSmall, 0.01));
    QVERIFY(within(fit.regimes[1].latencySeconds, alphaLarge, 0.01));
    QVERIFY(within(*fit.regimes[1].busBandwidth, busLarge, 0.01));
}

// Two regimes of an 8-rank all-reduce (b = 1.75) with a gap of sizes between them:
// [1 KiB, 1 MiB] α 10 µs, W 20 GB/s; [4 MiB, 256 MiB] α 200 µs, W 200 GB/s. Worked by hand:
// inside a regime α + b·m/W; in the gap the faster of the two (they cross at
// m = 190 µs / (1.75/20e9 − 1.75/200e9) ≈ 2.41 MB); outside every regime the nearest.
void TestCalibrationFit::betweenRegimes_data()
{
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("seconds");
    QTest::newRow("under the first: its line") << 512.0 << 10.0448e-6; // 10 + 0.0448
    QTest::newRow("first regime's end") << 1048576.0 << 101.7504e-6; // 10 + 91.7504
    QTest::newRow("gap, the first faster") << 1.5e6 << 141.25e-6; // 10 + 131.25 < 200 + 13.125
    // Past the old rule's boundary, √(1 MiB · 4 MiB) = 2 MiB, before the crossing: the nearer
    // regime would have been the second, 219.25 µs.
    QTest::newRow("gap, past the geometric middle") << 2.2e6 << 202.5e-6; // 10 + 192.5
    QTest::newRow("gap, the second faster") << 3e6 << 226.25e-6; // 10 + 262.5 > 200 + 26.25
    QTest::newRow("second regime") << 8388608.0 << 273.40032e-6; // 200 + 73.40032
    QTest::newRow("over the second: its line") << 1e9 << 8950e-6; // 200 + 8750
}

void TestCalibrationFit::betweenRegimes()
{
    QFETCH(double, bytes);
    QFETCH(double, seconds);
    CollectiveFit fit;
    fit.collective = "all_reduce";
    fit.ranks = 8;
    fit.ranksPerNode = 8;
    fit.regimes.push_back({ 1024.0, 1048576.0, 10e-6, 20e9 });
    fit.regimes.push_back({ 4194304.0, 268435456.0, 200e-6, 200e9 });
    QVERIFY2(within(collectiveSeconds(fit, bytes), seconds, 1e-9),
        qPrintable(QString::number(collectiveSeconds(fit, bytes) * 1e6, 'g', 10)));
}

// The plain roofline of a collective inside a node: its bus bytes over the machine's link
// between chips, one way: NVLink, else ICI (Infinity Fabric on the AMD presets), else PCIe.
// An 8-rank all-reduce of 1 GiB moves 1.75 GiB of bus bytes.
void TestCalibrationFit::collectiveRoofline_data()
{
    QTest::addColumn<QString>("machine");
    QTest::addColumn<double>("link"); // bytes/s, one way
    QTest::newRow("H100: NVLink 900 both ways") << "H100" << 450e9;
    QTest::newRow("MI300X: Infinity Fabric 896 both ways, not PCIe") << "MI300X" << 448e9;
    QTest::newRow("Gaudi 3: ICI 1200 both ways") << "Gaudi 3" << 600e9;
    QTest::newRow("L40S: PCIe 64 both ways") << "L40S" << 32e9;
}

void TestCalibrationFit::collectiveRoofline()
{
    QFETCH(QString, machine);
    QFETCH(double, link);
    const std::vector<MeasuredRow> rows { collectiveRow(1073741824.0, 0.05) };
    const Predictions predictions = predictRows(rows, test::preset(machine.toUtf8().constData()));
    const PredictedRow &p = predictions.rows.front();
    QVERIFY2(p.roofline, p.rooflineWhy.c_str());
    QVERIFY2(within(*p.roofline, 1.75 * 1073741824.0 / link, 1e-9),
        qPrintable(QString::number(*p.roofline)));
}

void TestCalibrationFit::roundTrip()
{
    auto rows = gemmRows(0.6, 0.7, 4e-6, 132);
    for (double bytes = 4096.0; bytes <= 64.0 * 1048576.0; bytes *= 4.0)
        rows.push_back(collectiveRow(bytes, 25e-6 + bytes / 100e9));
    CalibrateOptions options;
    options.sms = 132;
    options.tileM = 64;
    options.tileN = 128;
    auto calibration = calibrate(rows, machine(), options);
    QVERIFY(calibration);
    Hardware hardware = machine();
    hardware.calibration = *calibration;
    const std::string json = writeHardwareJson(hardware);
    QVERIFY(json.find("\"basis\": \"calibrated\"") != std::string::npos);
    // nlohmann_json writes NaN and ∞ as null.
    for (const char *bad : { ": null", ": nan", ": inf", ": -inf" })
        QVERIFY2(json.find(bad) == std::string::npos, bad);
    const auto read = readHardwareJson(json, "calibrated.json");
    QVERIFY(!hasErrors(read.diagnostics));
    QCOMPARE(read.machines.size(), std::size_t(1));
    QVERIFY(read.machines.front().calibration == hardware.calibration);
    // The same rows, the same figures.
    QVERIFY(*calibrate(rows, machine(), options) == *calibration);
    // On the tile set: a 0×0 tile and the GEMM fit's operand cost survive the file too.
    options.tileM = 0;
    options.tileN = 0;
    auto tileSet
        = calibrate(tileSetRows(0.9, 0.7, 4e-6, 12.0, 132.0, 0.1, 50e6), machine(50e6), options);
    QVERIFY(tileSet);
    QVERIFY(tileSet->classes.front().operandCost > 0.0);
    QVERIFY(tileSet->classes.front().overlapLoss > 0.0);
    hardware.calibration = *tileSet;
    const std::string setJson = writeHardwareJson(hardware);
    for (const char *key : { "\"operand_cost\"", "\"overlap_loss\"", "\"l2_bytes\"" })
        QVERIFY2(setJson.find(key) != std::string::npos, key);
    const auto setRead = readHardwareJson(setJson, "calibrated.json");
    QVERIFY(!hasErrors(setRead.diagnostics));
    QVERIFY(setRead.machines.front().calibration == hardware.calibration);
}

void TestCalibrationFit::takesTheMachinesSmCount_data()
{
    QTest::addColumn<qint64>("option"); // --sms, 0 when not given
    QTest::addColumn<QString>("kind"); // the machine's compute units, empty: none
    QTest::addColumn<qint64>("count");
    QTest::addColumn<qint64>("used");
    QTest::newRow("no option, machine's SMs") << qint64(0) << "sm" << qint64(132) << qint64(132);
    QTest::newRow("no option, machine's CUs") << qint64(0) << "cu" << qint64(304) << qint64(304);
    QTest::newRow("the option wins") << qint64(100) << "sm" << qint64(132) << qint64(100);
    QTest::newRow("cores fill no waves") << qint64(0) << "core" << qint64(96) << qint64(0);
    QTest::newRow("nothing known") << qint64(0) << "" << qint64(0) << qint64(0);
}

void TestCalibrationFit::takesTheMachinesSmCount()
{
    QFETCH(qint64, option);
    QFETCH(QString, kind);
    QFETCH(qint64, count);
    QFETCH(qint64, used);
    Hardware hardware = machine();
    if (!kind.isEmpty())
        hardware.limits.computeUnits = ComputeUnits { count, kind.toStdString(), {} };
    CalibrateOptions options;
    options.sms = option;
    options.tileM = 64;
    options.tileN = 128;
    const auto calibration = calibrate(gemmRows(0.6, 0.7, 4e-6, used), hardware, options);
    QVERIFY2(calibration, calibration ? "" : calibration.error().c_str());
    QCOMPARE(calibration->sms, used);
    // The waves the machine's count gives are the ones the rows were made with.
    const KernelFit *gemm = nullptr;
    for (const auto &fit : calibration->classes)
        gemm = fit.kind == OperatorClass::Gemm ? &fit : gemm;
    QVERIFY(gemm);
    QVERIFY(within(gemm->computeFraction, 0.6, 0.01));
}

void TestCalibrationFit::badCalibrationJson_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("replacement");
    QTest::addColumn<QString>("message");
    QTest::newRow("fraction above 1")
        << "\"compute_fraction\": [^,]+,"
        << "\"compute_fraction\": 1.5,"
        << "operators[0].compute_fraction: expected a fraction in (0, 1]";
    QTest::newRow("negative latency") << "\"latency\": [^,]+,"
                                      << "\"latency\": -1e-6,"
                                      << "collectives[0].regimes[0].latency: expected a number";
    QTest::newRow("not calibrated") << "\"basis\": \"calibrated\""
                                    << "\"basis\": \"spec\""
                                    << "calibration.basis: expected \"calibrated\"";
    QTest::newRow("latency a string") << "\"latency\": [^,]+,"
                                      << "\"latency\": \"fast\","
                                      << "regimes[0].latency: expected a number";
}

// A calibration whose figures are out of range is refused with its JSON path, never read as
// NaN or a fraction above the roof.
void TestCalibrationFit::badCalibrationJson()
{
    QFETCH(QString, pattern);
    QFETCH(QString, replacement);
    QFETCH(QString, message);
    auto rows = gemmRows(0.6, 0.7, 4e-6, 0);
    for (double bytes = 4096.0; bytes <= 64.0 * 1048576.0; bytes *= 4.0)
        rows.push_back(collectiveRow(bytes, 25e-6 + bytes / 100e9));
    auto calibration = calibrate(rows, machine(), {});
    QVERIFY(calibration);
    Hardware hardware = machine();
    hardware.calibration = *calibration;
    QString json = QString::fromStdString(writeHardwareJson(hardware));
    const QRegularExpression first(pattern);
    const auto match = first.match(json);
    QVERIFY(match.hasMatch());
    json.replace(match.capturedStart(), match.capturedLength(), replacement);
    const auto read = readHardwareJson(json.toStdString(), "bad.json");
    QVERIFY(read.machines.empty());
    const auto error = std::find_if(read.diagnostics.begin(), read.diagnostics.end(),
        [](const Diagnostic &d) { return d.severity == Severity::Error; });
    QVERIFY(error != read.diagnostics.end());
    QVERIFY2(
        error->message.find(message.toStdString()) != std::string::npos, error->message.c_str());
}

void TestCalibrationFit::nothingToFit()
{
    auto rows = gemmRows(0.6, 0.7, 4e-6, 0);
    rows.resize(2);
    const auto calibration = calibrate(rows, machine(), {});
    QVERIFY(!calibration);
    QVERIFY(calibration.error().find("at least 3 usable rows") != std::string::npos);
}

void TestCalibrationFit::uncalibratedPredict()
{
    const auto rows = gemmRows(0.6, 0.7, 4e-6, 0);
    const Predictions predictions = predictRows(rows, machine());
    QCOMPARE(predictions.rows.size(), rows.size());
    for (const PredictedRow &p : predictions.rows) {
        QVERIFY(!p.predicted);
        QVERIFY(p.why.find("not calibrated") != std::string::npos);
        QVERIFY(p.roofline); // max(F/π, B/β) of the spec roofs
        QCOMPARE(*p.roofline, std::max(p.row.flops / kPeak, p.row.bytes / kBandwidth));
    }
    QCOMPARE(predictions.calibrated.rows, std::size_t(0));
}

QTEST_APPLESS_MAIN(TestCalibrationFit)
#include "tst_calibration_fit.moc"
