// The built-in preset database: every file loads, cites a source, and is found by name.
#include "core/presets/presets.h"
#include "tests/support/testpaths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace ridgepoint;

class TestPresets : public QObject
{
    Q_OBJECT

private slots:
    void loadsEveryBuiltInFileCleanly();
    void containsTheMachinesUsersAskFor_data();
    void containsTheMachinesUsersAskFor();
    void findsByNameAliasAndPrefix_data();
    void findsByNameAliasAndPrefix();
    void explainsAmbiguousAndUnknownNames();
    void keepsSparsePeaksApart();
    void tpusCarryInt8AndIci();
    void gpusCarryTheirComputeUnits_data();
    void gpusCarryTheirComputeUnits();
    void launchLatencyReadFromTheFile_data();
    void launchLatencyReadFromTheFile();
    void launchLatencyIsTheShortestMeasuredKernel_data();
    void launchLatencyIsTheShortestMeasuredKernel();
    void linksCompareInOneConvention_data();
    void linksCompareInOneConvention();
    void everyPresetLinkStatesItsDirection();
    void carriesLowPrecisionPeaks_data();
    void carriesLowPrecisionPeaks();
    void derivesCacheRoofsFromTheirWidths_data();
    void derivesCacheRoofsFromTheirWidths();
    void userMachinesReplacePresets();
    void everyBuiltInPresetCeilingHasABasisAndASource_data();
    void everyBuiltInPresetCeilingHasABasisAndASource();
    void everyDerivedCeilingHasAFormulaAndEveryMeasuredOneAToolAndDate_data();
    void everyDerivedCeilingHasAFormulaAndEveryMeasuredOneAToolAndDate();
    void provenanceGapsNameTheCeiling_data();
    void provenanceGapsNameTheCeiling();
};

namespace {

// One row per built-in machine.
void presetRows()
{
    QTest::addColumn<QString>("machine");
    const PresetDatabase db = PresetDatabase::builtin();
    for (const auto &machine : db.machines())
        QTest::newRow(machine.name.c_str()) << QString::fromStdString(machine.name);
}

const Hardware &presetNamed(const PresetDatabase &db, const QString &name)
{
    static const Hardware none;
    auto found = db.find(name.toStdString());
    return found ? **found : none;
}

} // namespace

void TestPresets::loadsEveryBuiltInFileCleanly()
{
    const PresetDatabase db = PresetDatabase::builtin();
    for (const auto &d : db.diagnostics())
        qWarning("%s", d.toString().c_str());
    QVERIFY(db.diagnostics().empty());
    QVERIFY(db.machines().size() >= 33);
    for (const auto &machine : db.machines()) {
        QVERIFY2(!machine.source.empty(), machine.name.c_str());
        QVERIFY2(validateHardware(machine).empty(), machine.name.c_str());
        QVERIFY2(machine.compute.size() >= 2, machine.name.c_str());
        QVERIFY2(machine.mainMemory(), machine.name.c_str());
    }
}

void TestPresets::containsTheMachinesUsersAskFor_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QString>("name");
    QTest::newRow("T4") << "T4"
                        << "NVIDIA T4";
    QTest::newRow("V100") << "V100"
                          << "NVIDIA V100";
    QTest::newRow("A100 40GB") << "A100 40GB"
                               << "NVIDIA A100 40GB";
    QTest::newRow("A100 80GB") << "a100-80gb"
                               << "NVIDIA A100 80GB";
    QTest::newRow("H100") << "h100"
                          << "NVIDIA H100 SXM5 80GB";
    QTest::newRow("L4") << "l4"
                        << "NVIDIA L4";
    QTest::newRow("H200") << "H200"
                          << "NVIDIA H200 SXM 141GB";
    QTest::newRow("B200") << "b200"
                          << "NVIDIA B200";
    QTest::newRow("MI300X") << "mi300x"
                            << "AMD Instinct MI300X";
    QTest::newRow("TPU v5e") << "tpu v5e"
                             << "Google TPU v5e";
    QTest::newRow("TPU v6e") << "v6e"
                             << "Google TPU v6e";
    QTest::newRow("Q8_0 note's DDR5 desktop") << "DDR5 desktop"
                                              << "DDR5-5500 desktop CPU";
    QTest::newRow("server CPU") << "epyc 9654"
                                << "AMD EPYC 9654";
    // Issue 13: the accelerators and CPUs of 2023-2026 roofline studies.
    const char *const more[][2] = {
        { "H100 PCIe", "NVIDIA H100 PCIe 80GB" },
        { "GH200", "NVIDIA GH200 Grace Hopper (GPU)" },
        { "GB200", "NVIDIA GB200 (per GPU)" },
        { "B300", "NVIDIA B300 (Blackwell Ultra)" },
        { "L40S", "NVIDIA L40S" },
        { "RTX 4090", "NVIDIA GeForce RTX 4090" },
        { "MI250X", "AMD Instinct MI250X" },
        { "MI250 GCD", "AMD Instinct MI250 (one GCD)" },
        { "MI250X GCD", "AMD Instinct MI250X (one GCD)" },
        { "MI300A", "AMD Instinct MI300A" },
        { "MI325X", "AMD Instinct MI325X" },
        { "MI355X", "AMD Instinct MI355X" },
        { "Gaudi 3", "Intel Gaudi 3" },
        { "TPU v4", "Google TPU v4" },
        { "TPU v5p", "Google TPU v5p" },
        { "Ironwood", "Google TPU7x (Ironwood)" },
        { "Trainium2", "AWS Trainium2" },
        { "Grace", "NVIDIA Grace CPU" },
        { "EPYC 9755", "AMD EPYC 9755" },
        { "Xeon 6980P", "Intel Xeon 6980P" },
        { "8480+", "Intel Xeon Platinum 8480+" },
        { "M4 Max", "Apple M4 Max (16-core CPU, 40-core GPU)" },
    };
    for (const auto &row : more)
        QTest::newRow(row[0]) << row[0] << row[1];
}

void TestPresets::containsTheMachinesUsersAskFor()
{
    QFETCH(QString, query);
    QFETCH(QString, name);
    const PresetDatabase db = PresetDatabase::builtin();
    const auto found = db.find(query.toStdString());
    QVERIFY2(found, found ? "" : found.error().c_str());
    QCOMPARE(QString::fromStdString((*found)->name), name);
}

void TestPresets::findsByNameAliasAndPrefix_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QString>("name");
    QTest::newRow("full name, other case") << "nvidia h100 sxm5 80gb"
                                           << "NVIDIA H100 SXM5 80GB";
    QTest::newRow("unique prefix of a name") << "NVIDIA H2"
                                             << "NVIDIA H200 SXM 141GB";
    // "mi3" is no longer unique (MI300X, MI300A, MI325X, MI355X); "mi30" still names two.
    QTest::newRow("unique prefix of an alias") << "mi32"
                                               << "AMD Instinct MI325X";
    QTest::newRow("spaces and dashes ignored") << "tpu-v5e"
                                               << "Google TPU v5e";
    QTest::newRow("exact alias beats prefix") << "H100"
                                              << "NVIDIA H100 SXM5 80GB";
}

void TestPresets::findsByNameAliasAndPrefix()
{
    QFETCH(QString, query);
    QFETCH(QString, name);
    const PresetDatabase db = PresetDatabase::builtin();
    const auto found = db.find(query.toStdString());
    QVERIFY2(found, found ? "" : found.error().c_str());
    QCOMPARE(QString::fromStdString((*found)->name), name);
}

void TestPresets::explainsAmbiguousAndUnknownNames()
{
    const PresetDatabase db = PresetDatabase::builtin();
    const auto ambiguous = db.find("a100");
    QVERIFY(!ambiguous);
    const QString message = QString::fromStdString(ambiguous.error());
    QVERIFY2(message.contains("ambiguous"), qPrintable(message));
    QVERIFY(message.contains("NVIDIA A100 40GB"));
    QVERIFY(message.contains("NVIDIA A100 80GB"));

    const auto unknown = db.find("Cray-1");
    QVERIFY(!unknown);
    QVERIFY(
        QString::fromStdString(unknown.error()).contains("no hardware preset matches \"Cray-1\""));
    QVERIFY(QString::fromStdString(unknown.error()).contains("H100"));
    QVERIFY(!db.find(""));
}

void TestPresets::keepsSparsePeaksApart()
{
    const PresetDatabase db = PresetDatabase::builtin();
    for (const auto &machine : db.machines()) {
        QVERIFY2(!machine.defaultComputeCeiling()->sparse, machine.name.c_str());
        for (const auto &c : machine.compute) {
            // A 2:4-sparsity figure is labelled as such and sits beside a dense one of half.
            const bool saysSparse = c.name.find("sparse") != std::string::npos;
            QCOMPARE(c.sparse, saysSparse);
            if (c.sparse) {
                bool hasDense = false;
                for (const auto &d : machine.compute)
                    hasDense = hasDense
                        || (!d.sparse && d.precision == c.precision
                            && std::fabs(d.peak * 2 - c.peak) <= 0.002 * c.peak);
                QVERIFY2(hasDense, c.name.c_str());
            }
        }
    }
}

void TestPresets::linksCompareInOneConvention_data()
{
    // docs/PRESETS.md, "Links": every link per chip and each way; the printed figure is in the
    // file, halved when the vendor adds both directions.
    QTest::addColumn<QString>("machine");
    QTest::addColumn<QString>("level");
    QTest::addColumn<double>("eachWay");
    QTest::newRow("H100 NVLink 4: 900 both") << "H100 SXM"
                                             << "NVLink" << 450e9;
    QTest::newRow("H100 PCIe Gen5 x16: 128 both") << "H100 SXM"
                                                  << "PCIe" << 64e9;
    QTest::newRow("A100 NVLink 3: 600 both") << "A100 80GB"
                                             << "NVLink" << 300e9;
    QTest::newRow("V100 NVLink 2: 300 both") << "V100"
                                             << "NVLink" << 150e9;
    QTest::newRow("B200 NVLink 5: 1.8 TB/s both") << "B200"
                                                  << "NVLink" << 900e9;
    QTest::newRow("T4 PCIe Gen3 x16: 32 both") << "T4"
                                               << "PCIe" << 16e9;
    QTest::newRow("MI250X: two Gen4 x16 links") << "MI250X"
                                                << "PCIe" << 64e9;
    QTest::newRow("MI300X Infinity Fabric: 7 x 128 both") << "MI300X"
                                                          << "ICI" << 448e9;
    QTest::newRow("MI355X Infinity Fabric: 7 x 153.6 both") << "MI355X"
                                                            << "ICI" << 537.6e9;
    QTest::newRow("TPU v5e ICI: 400 both per chip") << "TPU v5e"
                                                    << "ICI" << 200e9;
    QTest::newRow("TPU v6e ICI: 800 both per chip") << "TPU v6e"
                                                    << "ICI" << 400e9;
    QTest::newRow("TPU v5p ICI: 1200 both per chip") << "TPU v5p"
                                                     << "ICI" << 600e9;
    QTest::newRow("TPU7x ICI: 1.2 TB/s both per chip") << "TPU7x"
                                                       << "ICI" << 600e9;
    QTest::newRow("TPU v5p DCN: 50 Gbps one way") << "TPU v5p"
                                                  << "DCN" << 6.25e9;
    QTest::newRow("Gaudi 3: 24 x 200 GbE") << "Gaudi 3"
                                           << "ICI" << 600e9;
    QTest::newRow("EPYC 9654: 128 Gen5 lanes one way") << "EPYC 9654"
                                                       << "PCIe" << 512e9;
}

void TestPresets::linksCompareInOneConvention()
{
    QFETCH(QString, machine);
    QFETCH(QString, level);
    QFETCH(double, eachWay);
    const PresetDatabase db = PresetDatabase::builtin();
    const Hardware &hw = presetNamed(db, machine);
    QVERIFY2(!hw.name.empty(), qPrintable(machine));
    const auto l = memoryLevelFromName(level.toStdString());
    QVERIFY(l);
    const MemoryCeiling *link = hw.memoryFor(*l);
    QVERIFY2(link, qPrintable(level));
    QVERIFY2(std::abs(link->bandwidth - eachWay) <= 1e-9 * eachWay,
        qPrintable(QString::number(link->bandwidth)));
}

void TestPresets::everyPresetLinkStatesItsDirection()
{
    // The files, not the database: the reader takes a link without "direction" as one way, so
    // only the file shows whether its author said which it is.
    const QDir dir(test::sourcePath(QStringLiteral("resources/hardware")));
    const QStringList files = dir.entryList({ "*.json" }, QDir::Files);
    QVERIFY(files.size() >= 30);
    int links = 0;
    for (const QString &name : files) {
        QFile file(dir.filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject machine = QJsonDocument::fromJson(file.readAll()).object();
        for (const auto &entry : machine["memory"].toArray()) {
            const QJsonObject m = entry.toObject();
            const auto level = memoryLevelFromName(m["level"].toString().toStdString());
            QVERIFY2(level, qPrintable(name));
            if (!isNetwork(*level))
                continue;
            ++links;
            const QString direction = m["direction"].toString();
            QVERIFY2(direction == "each" || direction == "both",
                qPrintable(name + ": " + m["name"].toString()));
        }
    }
    QVERIFY(links >= 40);
}

void TestPresets::gpusCarryTheirComputeUnits_data()
{
    QTest::addColumn<QString>("machine");
    QTest::addColumn<qint64>("count");
    QTest::addColumn<QString>("kind");
    // The counts the presets' derived roofs use (NVIDIA's and AMD's architecture documents).
    QTest::newRow("H100 SXM") << "H100 SXM" << qint64(132) << "sm";
    QTest::newRow("H100 PCIe") << "H100 PCIe" << qint64(114) << "sm";
    QTest::newRow("A100") << "A100 80GB" << qint64(108) << "sm";
    QTest::newRow("V100") << "V100" << qint64(80) << "sm";
    QTest::newRow("B200") << "B200" << qint64(148) << "sm";
    QTest::newRow("MI300X") << "MI300X" << qint64(304) << "cu";
    QTest::newRow("MI250X") << "MI250X" << qint64(220) << "cu";
    QTest::newRow("MI250 GCD") << "MI250 GCD" << qint64(104) << "cu";
    QTest::newRow("MI250X GCD") << "MI250X GCD" << qint64(110) << "cu";
}

void TestPresets::gpusCarryTheirComputeUnits()
{
    QFETCH(QString, machine);
    QFETCH(qint64, count);
    QFETCH(QString, kind);
    const PresetDatabase db = PresetDatabase::builtin();
    const Hardware &hw = presetNamed(db, machine);
    QVERIFY2(hw.limits.computeUnits, qPrintable(machine));
    QCOMPARE(hw.limits.computeUnits->count, std::int64_t(count));
    QCOMPARE(QString::fromStdString(hw.limits.computeUnits->kind), kind);
    QVERIFY(hw.limits.computeUnits->provenance.basis != Basis::Unstated);
    QVERIFY(!hw.limits.computeUnits->provenance.source.empty());
}

void TestPresets::tpusCarryInt8AndIci()
{
    const PresetDatabase db = PresetDatabase::builtin();
    const Hardware &v5e = **db.find("TPU v5e");
    QCOMPARE(v5e.computeFor(Precision::INT8)->peak, 3.94e14);
    QCOMPARE(v5e.computeFor(Precision::BF16)->peak, 1.97e14);
    QCOMPARE(v5e.mainMemory()->bandwidth, 8.2e11);
    // Google's 400 GB/s per chip, both directions added: 200 GB/s each way (docs/PRESETS.md).
    QCOMPARE(v5e.memoryFor(MemoryLevel::ICI)->bandwidth, 2e11);
    const Hardware &v6e = **db.find("TPU v6e");
    QCOMPARE(v6e.computeFor(Precision::BF16)->peak, 9.1e14);
    QCOMPARE(v6e.mainMemory()->bandwidth, 1.6e12);
    QVERIFY(v6e.computeFor(Precision::INT8));
    QVERIFY(v6e.memoryFor(MemoryLevel::ICI));
}

void TestPresets::carriesLowPrecisionPeaks_data()
{
    QTest::addColumn<QString>("machine");
    QTest::addColumn<int>("precision");
    QTest::addColumn<double>("peak");
    // Dense peaks, each from the vendor's figure by hand:
    QTest::newRow("B200 FP4") << "B200" << int(Precision::FP4) << 9e15; // HGX B200 72 PF / 8
    QTest::newRow("B200 FP6") << "B200" << int(Precision::FP6) << 4.5e15; // FP8 rate
    QTest::newRow("GB200 FP4") << "GB200" << int(Precision::FP4) << 10e15; // NVL72 1440 PF / 72 / 2
    QTest::newRow("B300 FP4") << "B300" << int(Precision::FP4) << 13.125e15; // HGX B300 105 PF / 8
    QTest::newRow("B300 FP64") << "B300" << int(Precision::FP64) << 1.25e12; // 10 TF / 8
    // MI355X: 256 CUs x 16384 FLOP/clk x 2.4 GHz = 1.00663e16
    QTest::newRow("MI355X FP4") << "MI355X" << int(Precision::FP4) << 256.0 * 16384 * 2.4e9;
    QTest::newRow("MI355X FP6") << "MI355X" << int(Precision::FP6) << 256.0 * 16384 * 2.4e9;
    QTest::newRow("H100 FP8") << "H100" << int(Precision::FP8) << 1979e12; // 3958 sparse / 2
    QTest::newRow("GH200 FP8") << "GH200" << int(Precision::FP8) << 1979e12; // 3958 sparse / 2
    QTest::newRow("MI300X FP8") << "MI300X" << int(Precision::FP8) << 2614.9e12;
    QTest::newRow("Gaudi 3 FP8") << "Gaudi 3" << int(Precision::FP8) << 1835e12;
    QTest::newRow("TPU7x FP8") << "TPU7x" << int(Precision::FP8) << 4614e12;
    // MI300A: 228 CUs x 128 FLOP/clk x 2.1 GHz = 61.3 TF, not MI300X's 81.7
    QTest::newRow("MI300A FP64") << "MI300A" << int(Precision::FP64) << 122.6e12; // matrix
}

void TestPresets::carriesLowPrecisionPeaks()
{
    QFETCH(QString, machine);
    QFETCH(int, precision);
    QFETCH(double, peak);
    const PresetDatabase db = PresetDatabase::builtin();
    const auto found = db.find(machine.toStdString());
    QVERIFY2(found, found ? "" : found.error().c_str());
    const ComputeCeiling *c = (*found)->computeFor(static_cast<Precision>(precision));
    QVERIFY2(c, qPrintable(machine));
    QVERIFY(!c->sparse);
    QVERIFY2(std::fabs(c->peak - peak) <= 1e-3 * peak, qPrintable(QString::number(c->peak)));
}

void TestPresets::derivesCacheRoofsFromTheirWidths_data()
{
    QTest::addColumn<QString>("machine");
    QTest::addColumn<int>("level");
    QTest::addColumn<double>("bandwidth");
    // cores or SMs x bytes per clock x clock (the files round to 4 digits)
    QTest::newRow("A100 L2") << "A100 40GB" << int(MemoryLevel::L2) << 5120 * 1.41e9;
    QTest::newRow("A100 L1/shared") << "A100 80GB" << int(MemoryLevel::L1) << 108 * 128 * 1.41e9;
    QTest::newRow("V100 L2") << "V100" << int(MemoryLevel::L2) << 2048 * 1.53e9;
    // Hopper: at the clock the BF16 tensor peak implies (docs/PRESETS.md, "Links" corrections):
    // 989 TFLOP/s = 132 SMs x 4096 x 1.83 GHz, 756 = 114 x 4096 x 1.62 GHz.
    QTest::newRow("H100 PCIe L2") << "H100 PCIe" << int(MemoryLevel::L2) << 5120 * 1.62e9;
    QTest::newRow("H100 SXM L2") << "H100 SXM" << int(MemoryLevel::L2) << 5120 * 1.83e9;
    QTest::newRow("H200 L1/shared") << "H200" << int(MemoryLevel::L1) << 132 * 128 * 1.83e9;
    QTest::newRow("GH200 L1/shared") << "GH200" << int(MemoryLevel::L1) << 132 * 128 * 1.83e9;
    QTest::newRow("MI300X LDS") << "MI300X" << int(MemoryLevel::LDS) << 304 * 128 * 2.1e9;
    QTest::newRow("MI300X L2") << "MI300X" << int(MemoryLevel::L2) << 8 * 2048 * 2.1e9;
    QTest::newRow("MI300A L2") << "MI300A" << int(MemoryLevel::L2) << 6 * 2048 * 2.1e9;
    QTest::newRow("EPYC 9654 L1") << "EPYC 9654" << int(MemoryLevel::L1) << 96 * 64 * 2.4e9;
    QTest::newRow("EPYC 9654 L3") << "EPYC 9654" << int(MemoryLevel::L3) << 96 * 32 * 2.4e9;
    QTest::newRow("Xeon 6980P L1") << "Xeon 6980P" << int(MemoryLevel::L1) << 128 * 128 * 2.0e9;
    QTest::newRow("Gaudi 3 SRAM") << "Gaudi 3" << int(MemoryLevel::L2) << 12.8e12; // spec
}

void TestPresets::derivesCacheRoofsFromTheirWidths()
{
    QFETCH(QString, machine);
    QFETCH(int, level);
    QFETCH(double, bandwidth);
    const PresetDatabase db = PresetDatabase::builtin();
    const auto found = db.find(machine.toStdString());
    QVERIFY2(found, found ? "" : found.error().c_str());
    const MemoryCeiling *m = (*found)->memoryFor(static_cast<MemoryLevel>(level));
    QVERIFY2(m, qPrintable(machine));
    QVERIFY2(std::fabs(m->bandwidth - bandwidth) <= 1e-3 * bandwidth,
        qPrintable(QString::number(m->bandwidth)));
}

void TestPresets::launchLatencyReadFromTheFile_data()
{
    QTest::addColumn<QString>("machine");
    QTest::addColumn<double>("seconds"); // 0: no floor
    // docs/PRESETS.md, "Launch latency": the two GPUs Vidur's operator times were measured on.
    QTest::newRow("H100 SXM: 1 us") << "H100 SXM" << 1e-6;
    QTest::newRow("A100 80GB: 2 us") << "A100 80GB" << 2e-6;
    // The same chip as the A100 80GB, not measured: no floor rather than a borrowed one.
    QTest::newRow("A100 40GB: none") << "A100 40GB" << 0.0;
    QTest::newRow("H100 PCIe: none") << "H100 PCIe" << 0.0;
    // CPUs: a call, not a launch; no floor (docs/MODEL.md section 13, "Presets").
    QTest::newRow("EPYC 9654: none") << "EPYC 9654" << 0.0;
}

void TestPresets::launchLatencyReadFromTheFile()
{
    QFETCH(QString, machine);
    QFETCH(double, seconds);
    const PresetDatabase db = PresetDatabase::builtin();
    const Hardware &hw = presetNamed(db, machine);
    QVERIFY2(!hw.name.empty(), qPrintable(machine));
    const auto &launch = hw.limits.launchLatency;
    QCOMPARE(launch.has_value(), seconds > 0.0);
    if (!launch)
        return;
    QVERIFY2(std::fabs(launch->seconds - seconds) <= 1e-12 * seconds,
        qPrintable(QString::number(launch->seconds)));
    // Measured, with the data, the profiler and the GPU named.
    QCOMPARE(launch->provenance.basis, Basis::Measured);
    QVERIFY(launch->provenance.source.find("Vidur") != std::string::npos);
    QVERIFY(launch->provenance.tool.find("CUPTI") != std::string::npos);
    QVERIFY(!launch->provenance.host.empty());
}

void TestPresets::launchLatencyIsTheShortestMeasuredKernel_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("machine");
    QTest::newRow("H100") << "h100_llama-2-7b_mlp.csv"
                          << "H100 SXM";
    QTest::newRow("A100") << "a100_llama-2-7b_mlp.csv"
                          << "A100 80GB";
}

// The presets' floor is the fit "the least time any operator took" (docs/MODEL.md section 13):
// found again here from Vidur's rows, read as plain CSV, every operator's fastest run (the
// time_stats.*.min columns, milliseconds). No row may be under the floor, and one must be on it.
void TestPresets::launchLatencyIsTheShortestMeasuredKernel()
{
    QFETCH(QString, file);
    QFETCH(QString, machine);
    QFile csv(test::sourcePath(QStringLiteral("tests/data/measured/vidur/") + file));
    QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList header = QString::fromUtf8(csv.readLine()).trimmed().split(',');
    std::vector<qsizetype> mins;
    for (qsizetype i = 0; i < header.size(); ++i) {
        if (header[i].startsWith("time_stats.") && header[i].endsWith(".min"))
            mins.push_back(i);
    }
    QCOMPARE(mins.size(), std::size_t { 10 }); // ten operators
    double least = 1.0;
    int rows = 0;
    while (!csv.atEnd()) {
        const QStringList cells = QString::fromUtf8(csv.readLine()).trimmed().split(',');
        QCOMPARE(cells.size(), header.size());
        for (const qsizetype i : mins)
            least = std::min(least, cells[i].toDouble() * 1e-3);
        ++rows;
    }
    QCOMPARE(rows, 1044);
    const PresetDatabase db = PresetDatabase::builtin();
    const Hardware &hw = presetNamed(db, machine);
    QVERIFY(hw.limits.launchLatency);
    QVERIFY2(std::fabs(least - hw.limits.launchLatency->seconds) <= 1e-9 * least,
        qPrintable(QString::number(least, 'g', 17)));
}

void TestPresets::userMachinesReplacePresets()
{
    PresetDatabase db = PresetDatabase::builtin();
    const std::size_t before = db.machines().size();
    Hardware mine = **db.find("H100");
    mine.memory.front().bandwidth = 3.0e12;
    db.add(mine);
    QCOMPARE(db.machines().size(), before);
    QCOMPARE((*db.find("H100"))->mainMemory()->bandwidth, 3.0e12);
    Hardware other = makeSimpleMachine(1e12, 1e11);
    other.name = "My laptop";
    db.add(other);
    QCOMPARE(db.machines().size(), before + 1);
    QCOMPARE((*db.find("my laptop"))->name, std::string("My laptop"));
}

// Issue 13: every figure a preset ships says what it rests on (spec, derived, measured) and where
// it comes from. Needs the presets rewritten to hardware JSON version 2.
void TestPresets::everyBuiltInPresetCeilingHasABasisAndASource_data()
{
    presetRows();
}

void TestPresets::everyBuiltInPresetCeilingHasABasisAndASource()
{
    QFETCH(QString, machine);
    const PresetDatabase db = PresetDatabase::builtin();
    const Hardware &hw = presetNamed(db, machine);
    QVERIFY(!hw.compute.empty());
    const auto gaps = provenanceGaps(hw);
    std::string all;
    for (const auto &gap : gaps)
        all += "\n  " + gap;
    QVERIFY2(gaps.empty(), all.c_str());
}

void TestPresets::everyDerivedCeilingHasAFormulaAndEveryMeasuredOneAToolAndDate_data()
{
    presetRows();
}

void TestPresets::everyDerivedCeilingHasAFormulaAndEveryMeasuredOneAToolAndDate()
{
    QFETCH(QString, machine);
    const PresetDatabase db = PresetDatabase::builtin();
    const Hardware &hw = presetNamed(db, machine);
    QVERIFY(!hw.compute.empty());
    const auto gaps = provenanceDetailGaps(hw);
    std::string all;
    for (const auto &gap : gaps)
        all += "\n  " + gap;
    QVERIFY2(gaps.empty(), all.c_str());
}

void TestPresets::provenanceGapsNameTheCeiling_data()
{
    QTest::addColumn<int>("basis");
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("formula");
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QString>("date");
    QTest::addColumn<QStringList>("gaps"); // provenanceGaps, then provenanceDetailGaps
    const auto b = [](Basis basis) { return static_cast<int>(basis); };
    QTest::newRow("complete spec") << b(Basis::Spec) << "datasheet"
                                   << ""
                                   << ""
                                   << "" << QStringList {};
    QTest::newRow("unstated") << b(Basis::Unstated) << "datasheet"
                              << ""
                              << ""
                              << "" << QStringList { "memory ceiling \"Memory\": no basis" };
    QTest::newRow("no source") << b(Basis::Spec) << ""
                               << ""
                               << ""
                               << "" << QStringList { "memory ceiling \"Memory\": no source" };
    QTest::newRow("derived without formula")
        << b(Basis::Derived) << "whitepaper"
        << ""
        << ""
        << "" << QStringList { "memory ceiling \"Memory\": derived without a formula" };
    QTest::newRow("derived with formula") << b(Basis::Derived) << "whitepaper"
                                          << "8 x 64 B x 1 GHz"
                                          << ""
                                          << "" << QStringList {};
    QTest::newRow("measured without tool or date")
        << b(Basis::Measured) << "a run"
        << ""
        << ""
        << ""
        << QStringList { "memory ceiling \"Memory\": measured without a tool",
               "memory ceiling \"Memory\": measured without a date" };
    QTest::newRow("measured complete") << b(Basis::Measured) << "a run"
                                       << ""
                                       << "stream"
                                       << "2026-11-26" << QStringList {};
}

void TestPresets::provenanceGapsNameTheCeiling()
{
    QFETCH(int, basis);
    QFETCH(QString, source);
    QFETCH(QString, formula);
    QFETCH(QString, tool);
    QFETCH(QString, date);
    QFETCH(QStringList, gaps);
    Hardware hw = makeSimpleMachine(1e12, 1e11);
    // The compute ceiling is complete, so every gap is the memory ceiling's.
    hw.compute.front().provenance.basis = Basis::Spec;
    Provenance &p = hw.memory.front().provenance;
    p.basis = static_cast<Basis>(basis);
    p.source = source.toStdString();
    p.formula = formula.toStdString();
    p.tool = tool.toStdString();
    p.date = date.toStdString();
    QStringList found;
    for (const auto &gap : provenanceGaps(hw))
        found << QString::fromStdString(gap);
    for (const auto &gap : provenanceDetailGaps(hw))
        found << QString::fromStdString(gap);
    QCOMPARE(found.size(), gaps.size());
    for (qsizetype i = 0; i < gaps.size(); ++i)
        QVERIFY2(found[i].startsWith(gaps[i]), qPrintable(found.join('\n')));
}

QTEST_GUILESS_MAIN(TestPresets)
#include "tst_presets.moc"
