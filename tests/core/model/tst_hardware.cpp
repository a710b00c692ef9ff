// Hardware files: the JSON schema, its errors, and machine edits.
#include "core/calibrate/calibration.h"
#include "core/io/formats/hardware_json.h"

#include "core/analysis/analysis.h"

#include <QTest>

using namespace ridgepoint;

namespace {

const char *kValid = R"({
  "format": "ridgepoint-hardware", "version": 1,
  "name": "Test GPU", "aliases": ["TG"], "source": "made up for a test",
  "sustained_fraction": 0.9, "default_compute": "BF16",
  "compute": [
    {"name": "BF16", "precision": "bf16", "unit": "tensor", "peak": "100 TFLOP/s"},
    {"name": "BF16 sparse", "precision": "bf16", "unit": "tensor", "peak": 2e14, "sparse": true},
    {"name": "FP32", "precision": "fp32", "peak": "10 TFLOPS", "sustained_fraction": 0.5}
  ],
  "memory": [
    {"name": "HBM", "level": "HBM", "bandwidth": "2 TB/s"},
    {"name": "L2", "level": "l2", "bandwidth": "8 TiB/s", "visible": false}
  ]
})";

} // namespace

class TestHardware : public QObject
{
    Q_OBJECT

private slots:
    void readsAMachine();
    void roundTripsThroughJson();
    void readsAListOfMachines();
    void reportsSchemaErrors_data();
    void reportsSchemaErrors();
    void keepsLinksPerDirection_data();
    void keepsLinksPerDirection();
    void reportsSyntaxErrorsWithLineAndColumn();
    void warnsAboutUnknownKeys();
    void overridesRenameTheMachine();
    void levelAndPrecisionNamesRoundTrip();
    void neverTakesASparseRoof_data();
    void neverTakesASparseRoof();
    void calibrationIsCopiedWithTheMachine();
};

void TestHardware::readsAMachine()
{
    const auto result = readHardwareJson(kValid, "test.json");
    QVERIFY(!hasErrors(result.diagnostics));
    QCOMPARE(result.machines.size(), std::size_t { 1 });
    const Hardware &hw = result.machines.front();
    QCOMPARE(hw.name, std::string("Test GPU"));
    QCOMPARE(hw.compute.size(), std::size_t { 3 });
    QCOMPARE(hw.compute[0].peak, 1e14);
    QCOMPARE(hw.compute[1].sparse, true);
    QCOMPARE(hw.compute[2].peak, 1e13);
    QCOMPARE(*hw.compute[2].sustainedFraction, 0.5);
    QCOMPARE(hw.memory[1].level, MemoryLevel::L2);
    QCOMPARE(hw.memory[1].bandwidth, 8.0 * 1099511627776.0);
    QCOMPARE(hw.memory[1].visible, false);
    QCOMPARE(hw.defaultComputeCeiling()->name, std::string("BF16"));
    QCOMPARE(hw.mainMemory()->name, std::string("HBM"));
    // A hidden ceiling is not used for its level.
    QVERIFY(!hw.memoryFor(MemoryLevel::L2));
    // Sustained: a ceiling's own fraction wins over the machine's.
    QCOMPARE(sustainedPeak(hw, hw.compute[0]), 0.9e14);
    QCOMPARE(sustainedPeak(hw, hw.compute[2]), 0.5e13);
}

void TestHardware::roundTripsThroughJson()
{
    const Hardware original = readHardwareJson(kValid, "a.json").machines.front();
    const std::string written = writeHardwareJson(original);
    const auto again = readHardwareJson(written, "b.json");
    QVERIFY(again.diagnostics.empty());
    QCOMPARE(again.machines.size(), std::size_t { 1 });
    const Hardware &copy = again.machines.front();
    QCOMPARE(copy.name, original.name);
    QCOMPARE(copy.aliases, original.aliases);
    QCOMPARE(copy.source, original.source);
    QCOMPARE(copy.sustainedFraction, original.sustainedFraction);
    QCOMPARE(copy.defaultCompute, original.defaultCompute);
    QCOMPARE(copy.compute.size(), original.compute.size());
    for (std::size_t i = 0; i < copy.compute.size(); ++i) {
        QCOMPARE(copy.compute[i].name, original.compute[i].name);
        QCOMPARE(copy.compute[i].precision, original.compute[i].precision);
        QCOMPARE(copy.compute[i].peak, original.compute[i].peak); // exact: numbers, not text
        QCOMPARE(copy.compute[i].sparse, original.compute[i].sparse);
        QCOMPARE(copy.compute[i].sustainedFraction, original.compute[i].sustainedFraction);
    }
    for (std::size_t i = 0; i < copy.memory.size(); ++i) {
        QCOMPARE(copy.memory[i].level, original.memory[i].level);
        QCOMPARE(copy.memory[i].bandwidth, original.memory[i].bandwidth);
        QCOMPARE(copy.memory[i].visible, original.memory[i].visible);
    }
    QCOMPARE(writeHardwareJson(copy), written);
}

void TestHardware::readsAListOfMachines()
{
    const std::string one = writeHardwareJson(readHardwareJson(kValid, "a").machines.front());
    const std::string list = "{\"presets\": [" + one + "," + one + "]}";
    const auto result = readHardwareJson(list, "list.json");
    QVERIFY(result.diagnostics.empty());
    QCOMPARE(result.machines.size(), std::size_t { 2 });
}

void TestHardware::reportsSchemaErrors_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message");
    const QString memory = R"("memory": [{"name": "M", "level": "DRAM", "bandwidth": 1e9}])";
    const QString compute = R"("compute": [{"name": "C", "precision": "fp32", "peak": 1e12}])";
    QTest::newRow("no name") << "{" + compute + "," + memory + "}"
                             << "machine: missing \"name\"";
    QTest::newRow("no compute") << "{\"name\": \"X\"," + memory + "}"
                                << "missing \"compute\"";
    QTest::newRow("no memory") << "{\"name\": \"X\"," + compute + "}"
                               << "missing \"memory\"";
    QTest::newRow("peak missing")
        << R"({"name": "X", "compute": [{"name": "C", "precision": "fp32"}],)" + memory + "}"
        << "machine (X).compute[0]: missing \"peak\"";
    QTest::newRow("peak is a bad unit string")
        << R"({"name": "X", "compute": [{"name": "C", "precision": "fp32", "peak": "12 TB/s"}],)"
            + memory + "}"
        << "machine (X).compute[0].peak: \"12 TB/s\" is not a compute rate";
    QTest::newRow("negative bandwidth")
        << "{\"name\": \"X\"," + compute
            + R"(, "memory": [{"name": "M", "level": "DRAM", "bandwidth": -1}]})"
        << "machine (X).memory[0].bandwidth: must be greater than zero";
    QTest::newRow("unknown precision")
        << R"({"name": "X", "compute": [{"name": "C", "precision": "fp12", "peak": 1}],)" + memory
            + "}"
        << "unknown precision \"fp12\"";
    QTest::newRow("unknown level")
        << "{\"name\": \"X\"," + compute
            + R"(, "memory": [{"name": "M", "level": "SRAM", "bandwidth": 1}]})"
        << "unknown level \"SRAM\" (expected L1, L2, L3, DRAM, HBM, PCIe, NVLink, ICI, DCN or LDS)";
    QTest::newRow("duplicate ceiling names") << "{\"name\": \"X\"," + compute
            + R"(, "memory": [{"name": "C", "level": "DRAM", "bandwidth": 1}]})"
                                             << "ceiling name \"C\" is used twice";
    QTest::newRow("default names nothing")
        << "{\"name\": \"X\", \"default_compute\": \"Z\"," + compute + "," + memory + "}"
        << "default compute ceiling \"Z\" is not one of";
    QTest::newRow("fraction above one")
        << "{\"name\": \"X\", \"sustained_fraction\": 1.5," + compute + "," + memory + "}"
        << "sustained_fraction: expected a number in (0, 1]";
    QTest::newRow("newer version")
        << "{\"version\": 99, \"name\": \"X\"," + compute + "," + memory + "}"
        << "version 99 is newer than this Ridgepoint reads";
    QTest::newRow("wrong format name")
        << "{\"format\": \"ert\", \"name\": \"X\"," + compute + "," + memory + "}"
        << "format: expected \"ridgepoint-hardware\"";
    QTest::newRow("array at the top") << "[1, 2]"
                                      << "expected a machine object, found array";
    QTest::newRow("name is a number") << "{\"name\": 5," + compute + "," + memory + "}"
                                      << "name: expected a string, found number";
    QTest::newRow("direction on a memory")
        << "{\"name\": \"X\"," + compute
            + R"(, "memory": [{"name": "M", "level": "HBM", "bandwidth": 1, "direction": "both"}]})"
        << "machine (X).memory[0].direction: a direction is for links (PCIe, NVLink, ICI, DCN), "
           "not HBM";
    QTest::newRow("unknown direction")
        << "{\"name\": \"X\"," + compute
            + R"(, "memory": [{"name": "M", "level": "PCIe", "bandwidth": 1, "direction": "up"}]})"
        << "machine (X).memory[0].direction: unknown direction \"up\" (expected each: one way, or "
           "both: the two directions added)";
}

void TestHardware::keepsLinksPerDirection_data()
{
    QTest::addColumn<QString>("link"); // the memory list's link entry
    QTest::addColumn<double>("bandwidth"); // B/s kept, each way
    QTest::addColumn<double>("alternate"); // 0: none
    QTest::addColumn<QString>("formula");
    QTest::newRow("both: halved")
        << R"({"name": "NVLink 4", "level": "NVLink", "bandwidth": "900 GB/s", "direction": "both"})"
        << 450e9 << 0.0 << "900 GB/s both directions / 2 = 450 GB/s each way";
    QTest::newRow("each: as given")
        << R"({"name": "PCIe", "level": "PCIe", "bandwidth": "512 GB/s", "direction": "each"})"
        << 512e9 << 0.0 << "";
    QTest::newRow("unstated: as given")
        << R"({"name": "ICI", "level": "ICI", "bandwidth": "45 GB/s"})" << 45e9 << 0.0 << "";
    QTest::newRow("both, with a formula and an alternate")
        << R"({"name": "X", "level": "DCN", "bandwidth": 2e11, "direction": "both",
              "provenance": {"basis": "derived", "formula": "8 x 25 GB/s"},
              "alternate": {"bandwidth": 1e11, "provenance": {"basis": "measured"}}})"
        << 1e11 << 5e10 << "(8 x 25 GB/s) both directions / 2 = 100 GB/s each way";
}

void TestHardware::keepsLinksPerDirection()
{
    QFETCH(QString, link);
    QFETCH(double, bandwidth);
    QFETCH(double, alternate);
    QFETCH(QString, formula);
    const std::string json = R"({"name": "M", "compute": [{"name": "C", "precision": "fp32",
        "peak": 1e12}], "memory": [{"name": "HBM", "level": "HBM", "bandwidth": 1e12}, )"
        + link.toStdString() + "]}";
    const auto read = readHardwareJson(json, "m.json");
    QVERIFY(!hasErrors(read.diagnostics));
    const MemoryCeiling &m = read.machines.at(0).memory.at(1);
    QCOMPARE(m.bandwidth, bandwidth);
    QCOMPARE(m.alternate.has_value(), alternate > 0.0);
    if (m.alternate)
        QCOMPARE(m.alternate->value, alternate);
    QCOMPARE(QString::fromStdString(m.provenance.formula), formula);
    // Written back as "each" with the kept figure, it reads back the same: no second halving.
    const std::string written = writeHardwareJson(read.machines.front());
    QVERIFY(written.find("\"direction\": \"each\"") != std::string::npos);
    const auto again = readHardwareJson(written, "again.json");
    QVERIFY(!hasErrors(again.diagnostics));
    QCOMPARE(again.machines.at(0).memory.at(1).bandwidth, bandwidth);
    // The HBM ceiling is not a link: it is written without a direction.
    QCOMPARE(written.find("\"direction\""), written.rfind("\"direction\""));
}

void TestHardware::reportsSchemaErrors()
{
    QFETCH(QString, json);
    QFETCH(QString, message);
    const auto result = readHardwareJson(json.toStdString(), "bad.json");
    QVERIFY(result.machines.empty());
    QVERIFY(hasErrors(result.diagnostics));
    QStringList all;
    for (const auto &d : result.diagnostics)
        all << QString::fromStdString(d.toString());
    QVERIFY2(all.join('\n').contains(message), qPrintable(all.join('\n')));
    QVERIFY(all.front().startsWith("bad.json: "));
}

void TestHardware::reportsSyntaxErrorsWithLineAndColumn()
{
    const std::string broken = "{\n  \"name\": \"X\",\n  \"compute\": [,]\n}";
    const auto result = readHardwareJson(broken, "broken.json");
    QCOMPARE(result.diagnostics.size(), std::size_t { 1 });
    const Diagnostic &d = result.diagnostics.front();
    QCOMPARE(d.line, 3);
    QCOMPARE(d.column, 15);
    QVERIFY(QString::fromStdString(d.toString()).startsWith("broken.json:3:15: invalid JSON"));

    const auto truncated = readHardwareJson("{\"name\": \"X\"", "cut.json");
    QCOMPARE(truncated.diagnostics.size(), std::size_t { 1 });
    QCOMPARE(truncated.diagnostics.front().line, 1);
    QVERIFY(QString::fromStdString(truncated.diagnostics.front().message).contains("invalid JSON"));
}

void TestHardware::warnsAboutUnknownKeys()
{
    std::string typo = kValid;
    typo.replace(
        typo.find("\"bandwidth\": \"2 TB/s\""), 11, "\"bandwith\": \"2 TB/s\", \"bandwidth\"");
    const auto result = readHardwareJson(typo, "typo.json");
    QCOMPARE(result.machines.size(), std::size_t { 1 });
    QCOMPARE(result.diagnostics.size(), std::size_t { 1 });
    QCOMPARE(result.diagnostics.front().severity, Severity::Warning);
    QVERIFY(QString::fromStdString(result.diagnostics.front().message)
                .contains("unknown key \"bandwith\" ignored"));
}

void TestHardware::overridesRenameTheMachine()
{
    const Hardware hw = readHardwareJson(kValid, "a").machines.front();
    const auto custom = withOverrides(hw, 5e14, std::nullopt);
    QVERIFY(custom);
    QCOMPARE(custom->name, std::string("Custom (from Test GPU)"));
    QCOMPARE(custom->findCompute("BF16")->peak, 5e14);
    QCOMPARE(custom->mainMemory()->bandwidth, 2e12);
    const auto named = withOverrides(hw, 1e12, 3e12, "FP32");
    QVERIFY(named);
    QCOMPARE(named->findCompute("FP32")->peak, 1e12);
    QCOMPARE(named->findCompute("BF16")->peak, 1e14);
    QCOMPARE(named->mainMemory()->bandwidth, 3e12);
    QVERIFY(!withOverrides(hw, 1e12, std::nullopt, "nope"));
    const auto unchanged = withOverrides(hw, std::nullopt, std::nullopt);
    QCOMPARE(unchanged->name, hw.name);
}

void TestHardware::levelAndPrecisionNamesRoundTrip()
{
    for (auto level :
        { MemoryLevel::L1, MemoryLevel::L2, MemoryLevel::L3, MemoryLevel::DRAM, MemoryLevel::HBM,
            MemoryLevel::PCIe, MemoryLevel::NVLink, MemoryLevel::ICI, MemoryLevel::DCN })
        QCOMPARE(memoryLevelFromName(memoryLevelName(level)), level);
    QCOMPARE(memoryLevelName(MemoryLevel::NVLink), std::string_view("NVLink"));
    QCOMPARE(memoryLevelName(MemoryLevel::PCIe), std::string_view("PCIe"));
    QCOMPARE(memoryLevelFromName("nvlink"), MemoryLevel::NVLink);
    for (auto precision : { Precision::FP64, Precision::FP32, Precision::TF32, Precision::BF16,
             Precision::FP16, Precision::FP8, Precision::INT8, Precision::INT4 })
        QCOMPARE(precisionFromName(precisionName(precision)), precision);
    QVERIFY(!precisionFromName("fp128"));
}

// docs/MODEL.md §4.1: a 2:4-sparse figure is drawn but never a point's roof, not as the only
// compute ceiling and not when the file names it as the default (issue 27: a machine whose only
// roof was sparse placed points under twice the dense peak without a word).
void TestHardware::neverTakesASparseRoof_data()
{
    QTest::addColumn<bool>("withDense");
    QTest::addColumn<QString>("defaultCompute");
    QTest::addColumn<QString>("expected"); // the default roof's name, or the analysis's refusal
    const QString refusal = "M has only 2:4-sparse compute ceilings, which are never a point's "
                            "roof (add the dense figure, half the sparse peak on NVIDIA's tensor "
                            "cores, or choose a ceiling by name)";
    QTest::newRow("dense and sparse") << true << ""
                                      << "dense";
    QTest::newRow("default names the sparse one") << true << "sparse"
                                                  << "dense";
    QTest::newRow("default names the dense one") << true << "dense"
                                                 << "dense";
    QTest::newRow("only sparse") << false << "" << refusal;
    QTest::newRow("only sparse, named default") << false << "sparse" << refusal;
}

void TestHardware::neverTakesASparseRoof()
{
    QFETCH(bool, withDense);
    QFETCH(QString, defaultCompute);
    QFETCH(QString, expected);
    Hardware hw;
    hw.name = "M";
    hw.defaultCompute = defaultCompute.toStdString();
    const auto ceiling = [](const char *name, double peak, bool sparse) {
        ComputeCeiling c;
        c.name = name;
        c.precision = Precision::BF16;
        c.peak = peak;
        c.sparse = sparse;
        return c;
    };
    hw.compute.push_back(ceiling("sparse", 2e15, true));
    if (withDense)
        hw.compute.push_back(ceiling("dense", 1e15, false));
    MemoryCeiling hbm;
    hbm.name = "HBM";
    hbm.level = MemoryLevel::HBM;
    hbm.bandwidth = 3e12;
    hw.memory.push_back(hbm);
    KernelPoint point;
    point.name = "k";
    point.flops = 1e12;
    point.bytes = { { MemoryLevel::HBM, 1e9 } };
    point.seconds = 1e-2;
    const auto placed = analyzePoint(point, hw);
    if (withDense) {
        QCOMPARE(QString::fromStdString(hw.defaultComputeCeiling()->name), expected);
        QVERIFY2(placed, placed ? "" : placed.error().c_str());
        QCOMPARE(QString::fromStdString(placed->computeCeiling), expected);
    } else {
        QVERIFY(!hw.defaultComputeCeiling());
        QVERIFY(!placed);
        QCOMPARE(QString::fromStdString(placed.error()), expected);
    }
}

// The machine holds its calibration in a Boxed (core/model/boxed.h) so hardware.h need not include
// it: a copy owns its own calibration, `==` compares the figures, and an empty box stays empty.
void TestHardware::calibrationIsCopiedWithTheMachine()
{
    Hardware machine;
    QVERIFY(!machine.calibration);
    Calibration calibration;
    calibration.peak = 989e12;
    KernelFit matmul;
    matmul.name = "matmul";
    matmul.computeFraction = 0.7;
    calibration.operators.push_back(matmul);
    machine.calibration = calibration;
    Hardware copy = machine;
    QVERIFY(copy.calibration && copy.calibration == machine.calibration);
    copy.calibration->operators.front().computeFraction = 0.5;
    QCOMPARE(machine.calibration->operators.front().computeFraction, 0.7);
    QVERIFY(!(copy.calibration == machine.calibration));
    const Hardware moved = std::move(copy);
    QCOMPARE(moved.calibration->operators.front().computeFraction, 0.5);
    machine = moved;
    QVERIFY(machine.calibration == moved.calibration);
    machine.calibration.reset();
    QVERIFY(!machine.calibration && !(machine.calibration == moved.calibration));
    Hardware empty;
    QVERIFY(empty.calibration == Hardware().calibration);
}

QTEST_GUILESS_MAIN(TestHardware)
#include "tst_hardware.moc"
