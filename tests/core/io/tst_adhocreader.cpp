// The ad-hoc formats of roofline plotting scripts (docs/FORMATS.md §2 and §6): NERSC hierarchical
// text, ERT sum, GPU-Roofline-Profiler peaks.csv, mohamed/roofline hw_db.csv and apps.csv, the
// Techercise Metric Value CSV, and the script CSVs the generic reader takes (thoasm, HPCL). The
// fixtures in tests/data/adhoc/ are synthetic files in the shapes docs/FORMATS.md describes; every
// expected number is worked out here from the file's values.
#include "core/analysis/analysis.h"
#include "core/io/formats/adhoc_reader.h"
#include "core/io/formats/points_json.h"
#include "core/io/readers.h"
#include "core/io/sniff.h"
#include "core/report/report.h"
#include "core/session/session.h"
#include "tests/support/core_test_support.h"
#include "tests/support/reader_test_support.h"

#include <QTest>

using namespace ridgepoint;

class TestAdhocReader : public QObject
{
    Q_OBJECT

private slots:
    void readsNerscCeilings();
    void readsNerscPoints_data();
    void readsNerscPoints();
    void detectsNerscByMostOfItsLines_data();
    void detectsNerscByMostOfItsLines();
    void warnsOfAnUnknownNerscKeyWithItsPlace_data();
    void warnsOfAnUnknownNerscKeyWithItsPlace();
    void takesNerscPointsAsFp64LikeItsRoofs_data();
    void takesNerscPointsAsFp64LikeItsRoofs();
    void saysWhyANerscFileHasNoPoint_data();
    void saysWhyANerscFileHasNoPoint();
    void saysWhereANerscRoofLineIsShort_data();
    void saysWhereANerscRoofLineIsShort();
    void placesAHierarchicalPointUnderItsLowestRoof();
    void leavesOutALevelTheMachineHasNoRoofFor();
    void writesNoCountsForAPointKnownByIntensity();
    void keepsLevelIntensitiesThroughPointsJsonAndSessions();
    void readsErtSumAndWarnsItIsOneExperiment();
    void namesAnErtSumAfterItsExperiment();
    void readsProfilerPeaksAsOneMachine();
    void readsHwDbAsOneMachinePerRow_data();
    void readsHwDbAsOneMachinePerRow();
    void keepsTheUsableRowsOfAHwDb();
    void readsAHwDbRowWithoutANumericPrice_data();
    void readsAHwDbRowWithoutANumericPrice();
    void placesAHwDbFieldCountErrorAtTheRowsEnd_data();
    void placesAHwDbFieldCountErrorAtTheRowsEnd();
    void namesBothLinesOfAnErtSumCeilingGivenTwice_data();
    void namesBothLinesOfAnErtSumCeilingGivenTwice();
    void readsAppsOnePointPerImplementation_data();
    void readsAppsOnePointPerImplementation();
    void warnsOfAppsWithoutImplementations();
    void readsMetricValuesOnePointPerId_data();
    void readsMetricValuesOnePointPerId();
    void readsThoasmResultsThroughTheGenericReader_data();
    void readsThoasmResultsThroughTheGenericReader();
    void readsHpclAppDataThroughTheGenericReader_data();
    void readsHpclAppDataThroughTheGenericReader();
};

namespace {

const KernelPoint &named(const std::vector<KernelPoint> &points, const std::string &name)
{
    for (const auto &p : points) {
        if (p.name == name)
            return p;
    }
    qFatal("no point named %s", name.c_str());
}

double levelIntensity(const KernelPoint &point, MemoryLevel level)
{
    for (const auto &l : point.levelIntensities) {
        if (l.level == level)
            return l.intensity;
    }
    return -1.0;
}

} // namespace

void TestAdhocReader::readsNerscCeilings()
{
    // memroofs 12000 2500.5 800.25 (GB/s) named L1 L2 HBM; comproofs 6000 3000 (GFLOP/s).
    const auto result
        = readHardwareFile(test::readTestData("adhoc/nersc_hierarchical.txt"), "d.txt");
    QVERIFY2(!hasErrors(result.hardware.diagnostics),
        qPrintable(test::joined(result.hardware.diagnostics)));
    QCOMPARE(*result.format, FileFormat::NerscRoofline);
    const Hardware &h = result.hardware.machines.front();
    QCOMPARE(h.name, std::string("NERSC roofline (d.txt)"));
    QCOMPARE(h.memory.size(), std::size_t { 3 });
    QCOMPARE(h.memoryFor(MemoryLevel::L1)->bandwidth, 12000.0 * 1e9);
    QCOMPARE(h.memoryFor(MemoryLevel::L2)->bandwidth, 2500.5 * 1e9);
    QCOMPARE(h.mainMemory()->name, std::string("HBM"));
    QCOMPARE(h.mainMemory()->bandwidth, 800.25 * 1e9);
    QCOMPARE(h.compute.size(), std::size_t { 2 });
    QCOMPARE(h.defaultComputeCeiling()->name, std::string("FMA"));
    QCOMPARE(h.defaultComputeCeiling()->peak, 6000.0 * 1e9);
    QCOMPARE(h.findCompute("No-FMA")->peak, 3000.0 * 1e9);
}

void TestAdhocReader::readsNerscPoints_data()
{
    QTest::addColumn<QString>("label");
    QTest::addColumn<double>("gflops"); // FLOPS line
    QTest::addColumn<double>("hbm"); // AI_HBM
    QTest::addColumn<double>("l2"); // AI_L2
    QTest::addColumn<double>("l1"); // AI_L1
    // labels 'bs=1''bs=2' 'bs=4': the first two with no blank between them.
    QTest::newRow("bs=1") << "bs=1" << 1500.0 << 2.5 << 1.25 << 0.5;
    QTest::newRow("bs=2") << "bs=2" << 2400.5 << 5.0 << 2.5 << 1.0;
    QTest::newRow("bs=4") << "bs=4" << 3100.0 << 10.0 << 4.0 << 2.0;
}

void TestAdhocReader::readsNerscPoints()
{
    QFETCH(QString, label);
    QFETCH(double, gflops);
    QFETCH(double, hbm);
    QFETCH(double, l2);
    QFETCH(double, l1);
    const auto result = readPointsFile(test::readTestData("adhoc/nersc_hierarchical.txt"), "d.txt");
    QVERIFY2(
        !hasErrors(result.points.diagnostics), qPrintable(test::joined(result.points.diagnostics)));
    QCOMPARE(result.points.points.size(), std::size_t { 3 });
    const KernelPoint &p = named(result.points.points, label.toStdString());
    // Known by intensities and rate only: no FLOP count, no bytes, no time are made up.
    QCOMPARE(p.flops, 0.0);
    QVERIFY(p.bytes.empty());
    QVERIFY(!p.seconds);
    QVERIFY(p.knownByIntensity());
    QCOMPARE(*p.measuredRate, gflops * 1e9);
    QCOMPARE(*p.intensity, hbm); // HBM is main memory
    QCOMPARE(p.levelIntensities.size(), std::size_t { 2 });
    QCOMPARE(p.levelIntensities[0].level, MemoryLevel::L2); // file order
    QCOMPARE(levelIntensity(p, MemoryLevel::L2), l2);
    QCOMPARE(levelIntensity(p, MemoryLevel::L1), l1);
    QCOMPARE(p.source.line, 10); // the FLOPS line
    // No precision in the file: FP64, as its compute roofs are taken.
    QCOMPARE(p.precision, std::optional<Precision>(Precision::FP64));
}

void TestAdhocReader::detectsNerscByMostOfItsLines_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("nersc");
    const QString roofs = "memroofs 12000 800\nmem_roof_names 'L1' 'HBM'\ncomproofs 6000\n";
    QTest::newRow("known keys only") << roofs << true;
    QTest::newRow("one extra line (a title)") << "title 'x'\n" + roofs << true;
    QTest::newRow("points with an extra line")
        << "AI_HBM 2.5\nFLOPS 1500\nlabels 'a'\nplot_style dots\n"
        << true;
    QTest::newRow("comments do not count") << "# a\n# b\n# c\nAI_HBM 2\nFLOPS 1\n" << true;
    QTest::newRow("half the lines unknown")
        << "memroofs 12000\nmem_roof_names 'L1'\nxlabel 'AI'\nylabel 'GFLOP/s'\n"
        << false;
    QTest::newRow("names but no roof, intensity or FLOPS")
        << "mem_roof_names 'L1'\ncomp_roof_names 'FMA'\nlabels 'a'\n"
        << false;
    QTest::newRow("prose mentioning FLOPS")
        << "Results\nFLOPS were high\nthe run took long\nsee the log\n"
        << false;
}

void TestAdhocReader::detectsNerscByMostOfItsLines()
{
    QFETCH(QString, text);
    QFETCH(bool, nersc);
    const std::string content = text.toStdString();
    QCOMPARE(looksLikeNerscText(Sniff(content)), nersc);
}

void TestAdhocReader::warnsOfAnUnknownNerscKeyWithItsPlace_data()
{
    QTest::addColumn<bool>("hardware");
    QTest::newRow("as points") << false;
    QTest::newRow("as ceilings") << true;
}

void TestAdhocReader::warnsOfAnUnknownNerscKeyWithItsPlace()
{
    QFETCH(bool, hardware);
    // nersc_with_title.txt is nersc_hierarchical.txt with a `title 'roofline ...'` first line.
    const std::string text = test::readTestData("adhoc/nersc_with_title.txt");
    const auto points = readPointsFile(text, "t.txt");
    const auto machines = readHardwareFile(text, "t.txt");
    const auto &diagnostics = hardware ? machines.hardware.diagnostics : points.points.diagnostics;
    QVERIFY2(!hasErrors(diagnostics), qPrintable(test::joined(diagnostics)));
    QCOMPARE(*(hardware ? machines.format : points.format), FileFormat::NerscRoofline);
    QVERIFY2(test::joined(diagnostics)
                 .contains("t.txt:1:1: warning: unknown key \"title\" ignored (expected one "
                           "of memroofs, mem_roof_names, comproofs, comp_roof_names, AI_<level>, "
                           "FLOPS, labels)"),
        qPrintable(test::joined(diagnostics)));
    QCOMPARE(points.points.points.size(), std::size_t { 3 });
    QCOMPARE(machines.hardware.machines.size(), std::size_t { 1 });
}

void TestAdhocReader::takesNerscPointsAsFp64LikeItsRoofs_data()
{
    QTest::addColumn<QString>("machine");
    QTest::addColumn<QString>("ceiling");
    QTest::addColumn<double>("peak");
    // The H100's default is BF16 tensor (989 TFLOP/s); an FP64 point goes under its fastest
    // FP64 roof, FP64 tensor (67 TFLOP/s).
    QTest::newRow("h100") << "h100"
                          << "FP64 tensor" << 67e12;
    // The file's own roofs are FP64: the fastest, FMA.
    QTest::newRow("the file's roofs") << ""
                                      << "FMA" << 6000e9;
}

void TestAdhocReader::takesNerscPointsAsFp64LikeItsRoofs()
{
    QFETCH(QString, machine);
    QFETCH(QString, ceiling);
    QFETCH(double, peak);
    const std::string text = test::readTestData("adhoc/nersc_hierarchical.txt");
    const auto result = readPointsFile(text, "d.txt");
    const Hardware hardware = machine.isEmpty()
        ? readHardwareFile(text, "d.txt").hardware.machines.front()
        : test::preset(machine.toStdString().c_str());
    // Said once, as the machine's notes say it of the roofs.
    const QString messages = test::joined(result.points.diagnostics);
    QCOMPARE(messages,
        QString("d.txt:10: warning: the file gives no precision: its kernels are taken as FP64 "
                "(NERSC's hierarchical roofline measures double precision), as its compute roofs "
                "are"));
    const auto a = analyzePoint(named(result.points.points, "bs=4"), hardware);
    QVERIFY2(a, a ? "" : a.error().c_str());
    QCOMPARE(QString::fromStdString(a->computeCeiling), ceiling);
    QCOMPARE(a->peak, peak);
}

void TestAdhocReader::saysWhyANerscFileHasNoPoint_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("FLOPS and AI_HBM empty")
        << "AI_HBM\nFLOPS\n"
        << "n.txt:2:6: FLOPS has no values (expected one GFLOP/s value per kernel)";
    QTest::newRow("FLOPS empty, blanks after it")
        << "AI_HBM 2.5\nFLOPS   \n"
        << "n.txt:2:6: FLOPS has no values (expected one GFLOP/s value per kernel)";
    QTest::newRow("a label missing")
        << "AI_HBM 2.5 5\nFLOPS 1 2\nlabels 'a'\n"
        << "n.txt:3:11: labels has 1 values for 2 FLOPS values (expected one per kernel)";
    QTest::newRow("an intensity too many")
        << "AI_HBM 2.5 5 7\nFLOPS 1 2\n"
        << "n.txt:1:14: AI_HBM has 3 values for 2 FLOPS values (expected one per kernel)";
    QTest::newRow("an intensity missing, blanks after it")
        << "AI_HBM 2.5  \nFLOPS 1 2\n"
        << "n.txt:1:11: AI_HBM has 1 values for 2 FLOPS values (expected one per kernel)";
}

void TestAdhocReader::saysWhyANerscFileHasNoPoint()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    const auto result = readPointsFile(text.toStdString(), "n.txt");
    QVERIFY(result.points.points.empty());
    QCOMPARE(test::joined(result.points.diagnostics).split('\n').first(), message);
}

void TestAdhocReader::saysWhereANerscRoofLineIsShort_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("a level name missing")
        << "memroofs 12000 800\nmem_roof_names 'L1'\ncomproofs 6000\n"
        << "n.txt:2:20: mem_roof_names has 1 names for 2 memroofs values (expected one name per "
           "roof)";
    QTest::newRow("a compute name too many")
        << "memroofs 800\nmem_roof_names 'HBM'\ncomproofs 6000\ncomp_roof_names 'FMA' 'x'\n"
        << "n.txt:4:23: comp_roof_names has 2 names for 1 comproofs values (expected one name "
           "per roof)";
    QTest::newRow("memroofs empty") << "memroofs\nmem_roof_names\ncomproofs 6000\n"
                                    << "n.txt:1:9: memroofs has no values (expected one per roof, "
                                       "in GB/s)";
}

void TestAdhocReader::saysWhereANerscRoofLineIsShort()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    const auto result = readHardwareFile(text.toStdString(), "n.txt");
    QCOMPARE(*result.format, FileFormat::NerscRoofline);
    QVERIFY(result.hardware.machines.empty());
    QCOMPARE(test::joined(result.hardware.diagnostics), message);
}

void TestAdhocReader::placesAHierarchicalPointUnderItsLowestRoof()
{
    const std::string text = test::readTestData("adhoc/nersc_hierarchical.txt");
    const Hardware machine = readHardwareFile(text, "d.txt").hardware.machines.front();
    const auto points = readPointsFile(text, "d.txt").points.points;
    // bs=1: HBM 800.25 GB/s × 2.5 = 2000.625 GFLOP/s; L2 2500.5 × 1.25 = 3125.625; L1 12000 ×
    // 0.5 = 6000; FMA 6000. The lowest, HBM's, is the roof.
    const auto a = analyzePoint(named(points, "bs=1"), machine);
    QVERIFY2(a, a ? "" : a.error().c_str());
    QCOMPARE(a->levels.size(), std::size_t { 3 });
    QCOMPARE(a->levels[0].memory, std::string("HBM")); // main memory first
    QVERIFY(test::close(a->levels[0].attainable, 800.25e9 * 2.5));
    QVERIFY(test::close(a->levels[1].attainable, 2500.5e9 * 1.25));
    QCOMPARE(a->levels[2].attainable, 6000e9);
    QVERIFY(test::close(a->attainable, 800.25e9 * 2.5));
    QCOMPARE(a->bound, Bound::Memory);
    QCOMPARE(a->limitingCeiling, std::string("HBM"));
    QVERIFY(test::close(*a->utilization, 1500e9 / (800.25e9 * 2.5)));
    QCOMPARE(a->tMin, 0.0);
    // bs=4: HBM 800.25 × 10 = 8002.5; L2 2500.5 × 4 = 10002; L1 12000 × 2 = 24000: all above
    // FMA's 6000, so compute bound.
    const auto b = analyzePoint(named(points, "bs=4"), machine);
    QVERIFY(b);
    QCOMPARE(b->bound, Bound::Compute);
    QCOMPARE(b->attainable, 6000e9);
    QVERIFY(test::close(*b->utilization, 3100.0 / 6000.0));
}

void TestAdhocReader::leavesOutALevelTheMachineHasNoRoofFor()
{
    // A machine with main memory alone: the L1 and L2 intensities are noted, HBM's places it.
    const auto points
        = readPointsFile(test::readTestData("adhoc/nersc_hierarchical.txt"), "d.txt").points.points;
    Hardware machine = makeSimpleMachine(6000e9, 800e9);
    machine.compute.front().precision = Precision::FP64; // NERSC points are FP64
    const auto a = analyzePoint(named(points, "bs=2"), machine);
    QVERIFY2(a, a ? "" : a.error().c_str());
    QCOMPARE(a->levels.size(), std::size_t { 1 });
    QCOMPARE(a->levels[0].intensity, 5.0);
    QVERIFY(test::close(a->attainable, 800e9 * 5.0));
    QVERIFY(a->note.find("no L2 ceiling") != std::string::npos);
    // Two intensities that land on one roof are refused, as two byte counts are.
    KernelPoint twice = named(points, "bs=2");
    twice.levelIntensities.push_back({ MemoryLevel::HBM, 3.0 });
    const Hardware hbm
        = readHardwareFile(test::readTestData("adhoc/nersc_hierarchical.txt"), "d.txt")
              .hardware.machines.front();
    const auto refused = analyzePoint(twice, hbm);
    QVERIFY(!refused);
    QVERIFY(refused.error().find("two intensities both go to HBM") != std::string::npos);
}

void TestAdhocReader::writesNoCountsForAPointKnownByIntensity()
{
    const std::string text = test::readTestData("adhoc/nersc_hierarchical.txt");
    const Hardware machine = readHardwareFile(text, "d.txt").hardware.machines.front();
    std::vector<Diagnostic> problems;
    const auto analysed
        = analyzePoints(readPointsFile(text, "d.txt").points.points, machine, {}, problems);
    QVERIFY(problems.empty());
    const std::string json = analysisJson(machine, analysed);
    QVERIFY(json.find("\"flops\": null") != std::string::npos);
    QVERIFY(json.find("\"bytes\": null") != std::string::npos);
    QVERIFY(json.find("\"t_min\": null") != std::string::npos);
    QVERIFY(json.find("\"flops\": 0") == std::string::npos);
    // CSV: empty FLOP, byte and time cells; the precision (FP64, as the file's roofs), the
    // intensity and performance are there.
    const std::string csv = tableCsv(analysed);
    QVERIFY2(csv.find("\r\nbs=1,,fp64,,HBM,,2.5,,1.5e+12,2.000625e+12,") != std::string::npos,
        csv.c_str());
}

void TestAdhocReader::keepsLevelIntensitiesThroughPointsJsonAndSessions()
{
    const auto points
        = readPointsFile(test::readTestData("adhoc/nersc_hierarchical.txt"), "d.txt").points.points;
    const auto again = readPointsJson(writePointsJson(points), "p.json");
    QVERIFY2(!hasErrors(again.diagnostics), qPrintable(test::joined(again.diagnostics)));
    QCOMPARE(again.points.size(), points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        QCOMPARE(again.points[i].name, points[i].name);
        QCOMPARE(again.points[i].intensity, points[i].intensity);
        QCOMPARE(again.points[i].measuredRate, points[i].measuredRate);
        QCOMPARE(again.points[i].levelIntensities.size(), points[i].levelIntensities.size());
        for (std::size_t l = 0; l < points[i].levelIntensities.size(); ++l) {
            QCOMPARE(
                again.points[i].levelIntensities[l].level, points[i].levelIntensities[l].level);
            QCOMPARE(again.points[i].levelIntensities[l].intensity,
                points[i].levelIntensities[l].intensity);
        }
    }
    Session session;
    session.hardware = makeSimpleMachine(6000e9, 800e9);
    for (const auto &p : points) {
        SessionPoint entry;
        entry.point = p;
        session.points.push_back(std::move(entry));
    }
    const auto read = readSessionJson(writeSessionJson(session), "s.json");
    QVERIFY2(read.session, qPrintable(test::joined(read.diagnostics)));
    QCOMPARE(read.session->points.size(), points.size());
    QCOMPARE(read.session->points[0].point.levelIntensities.size(), std::size_t { 2 });
    QCOMPARE(read.session->points[0].point.levelIntensities[1].intensity, 0.5);
    // A level the points file does not know is an error with its path.
    const auto bad = readPointsJson(
        R"({"format": "ridgepoint-points", "version": 1, "points": [{"name": "k",
            "performance": 1e9, "level_intensities": [{"level": "L9", "intensity": 2}]}]})",
        "b.json");
    QCOMPARE(test::joined(bad.diagnostics),
        QString("b.json: points[0].level_intensities[0].level: unknown level \"L9\" (expected L1, "
                "L2, L3, DRAM, HBM, PCIe, NVLink, ICI, DCN or LDS; main memory's intensity is "
                "\"intensity\")"));
}

void TestAdhocReader::readsErtSumAndWarnsItIsOneExperiment()
{
    const auto result = readHardwareFile(test::readTestData("adhoc/ert_sum.txt"), "sum");
    QVERIFY2(!hasErrors(result.hardware.diagnostics),
        qPrintable(test::joined(result.hardware.diagnostics)));
    QCOMPARE(*result.format, FileFormat::ErtSum);
    const Hardware &h = result.hardware.machines.front();
    QCOMPARE(h.compute.size(), std::size_t { 1 }); // "Weight" is not a ceiling
    QCOMPARE(h.computeFor(Precision::FP64)->peak, 21.5e9);
    QCOMPARE(h.memory.size(), std::size_t { 4 }); // L1, L2, L3, DRAM; L4 left out
    QCOMPARE(h.memoryFor(MemoryLevel::L1)->bandwidth, 310.25e9);
    QCOMPARE(h.memoryFor(MemoryLevel::L3)->bandwidth, 60.75e9);
    QCOMPARE(h.mainMemory()->bandwidth, 20.4e9);
    const QString messages = test::joined(result.hardware.diagnostics);
    QVERIFY2(
        messages.contains("sum:8:11: warning: memory level \"L4\" is not one Ridgepoint knows"),
        qPrintable(messages));
    // docs/FORMATS.md §2's pitfall: one experiment's results, not roofline.json's maxima.
    QVERIFY2(messages.contains("sum: warning: an ERT sum file holds one experiment's results"),
        qPrintable(messages));
}

void TestAdhocReader::namesAnErtSumAfterItsExperiment()
{
    const auto result = readErtSum(test::readTestData("adhoc/ert_sum.txt"),
        "Results/Run.018/FLOPS.002/MPI.0001/OpenMP.0004/sum");
    QCOMPARE(result.machines.front().name, std::string("ERT sum (FLOPS.002 MPI.0001 OpenMP.0004)"));
}

void TestAdhocReader::readsProfilerPeaksAsOneMachine()
{
    // One GPU estimated two ways: a compute and a memory ceiling per row, the first row's used.
    const auto result = readHardwareFile(test::readTestData("adhoc/peaks.csv"), "peaks.csv");
    QVERIFY2(!hasErrors(result.hardware.diagnostics),
        qPrintable(test::joined(result.hardware.diagnostics)));
    QCOMPARE(result.hardware.machines.size(), std::size_t { 1 });
    const Hardware &h = result.hardware.machines.front();
    QCOMPARE(h.compute.size(), std::size_t { 2 });
    QCOMPARE(h.findCompute("FP32 (theoretical)")->peak, 30000000000000.0); // FLOP/s as written
    QCOMPARE(h.findCompute("FP32 (measured)")->peak, 28500000000000.5);
    QCOMPARE(h.findMemory("DRAM (measured)")->bandwidth, 580000000000.25); // B/s as written
    QCOMPARE(h.defaultComputeCeiling()->name, std::string("FP32 (theoretical)"));
    QCOMPARE(h.mainMemory()->name, std::string("DRAM (theoretical)"));
    QCOMPARE(h.mainMemory()->bandwidth, 650000000000.0);
}

void TestAdhocReader::readsHwDbAsOneMachinePerRow_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("gflops");
    QTest::addColumn<double>("gbs");
    QTest::addColumn<QString>("price");
    QTest::newRow("GPU") << 0 << "Vendor GPU Model X" << 9000.0 << 700.0 << "5000";
    QTest::newRow("CPU") << 1 << "Vendor CPU Model Y" << 2400.0 << 120.0 << "2000";
}

void TestAdhocReader::readsHwDbAsOneMachinePerRow()
{
    QFETCH(int, row);
    QFETCH(QString, name);
    QFETCH(double, gflops);
    QFETCH(double, gbs);
    QFETCH(QString, price);
    const auto result = readHardwareFile(test::readTestData("adhoc/hw_db.csv"), "hw_db.csv");
    QVERIFY2(!hasErrors(result.hardware.diagnostics),
        qPrintable(test::joined(result.hardware.diagnostics)));
    QCOMPARE(result.hardware.machines.size(), std::size_t { 2 });
    const Hardware &h = result.hardware.machines[static_cast<std::size_t>(row)];
    QCOMPARE(QString::fromStdString(h.name), name);
    QCOMPARE(h.defaultComputeCeiling()->peak, gflops * 1e9);
    QCOMPARE(h.mainMemory()->bandwidth, gbs * 1e9);
    QVERIFY(QString::fromStdString(h.notes).contains("Price in the file: " + price + "."));
}

void TestAdhocReader::keepsTheUsableRowsOfAHwDb()
{
    // Row 2 lacks its price column: an error on that line, row 1's machine still read.
    const auto result
        = readHwDb("Vendor GPU Model X,9000,700,5000\nVendor CPU Model Y,2400,120\n", "hw_db.csv");
    QCOMPARE(test::joined(result.diagnostics),
        QString(
            "hw_db.csv:2:28: expected 4 fields (name, peak GFLOP/s, peak GB/s, price), found 3"));
    QCOMPARE(result.machines.size(), std::size_t { 1 });
    QCOMPARE(result.machines.front().name, std::string("Vendor GPU Model X"));
}

void TestAdhocReader::readsAHwDbRowWithoutANumericPrice_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("gflops");
    QTest::addColumn<QString>("notes");
    // hw_db_no_price.csv: an empty price cell, then N/A. The price is only a note.
    QTest::newRow("empty price") << 0 << "NVIDIA Tesla P100" << 9300.0
                                 << "The file gives no precision: the peak is taken as FP32.";
    QTest::newRow("N/A") << 1 << "Vendor CPU Model Y" << 2400.0
                         << "The file gives no precision: the peak is taken as FP32. Price in the "
                            "file: N/A.";
}

void TestAdhocReader::readsAHwDbRowWithoutANumericPrice()
{
    QFETCH(int, row);
    QFETCH(QString, name);
    QFETCH(double, gflops);
    QFETCH(QString, notes);
    const auto result
        = readHardwareFile(test::readTestData("adhoc/hw_db_no_price.csv"), "hw_db.csv");
    QVERIFY2(!hasErrors(result.hardware.diagnostics),
        qPrintable(test::joined(result.hardware.diagnostics)));
    QCOMPARE(*result.format, FileFormat::HwDb);
    QCOMPARE(result.hardware.machines.size(), std::size_t { 2 });
    const Hardware &h = result.hardware.machines[static_cast<std::size_t>(row)];
    QCOMPARE(QString::fromStdString(h.name), name);
    QCOMPARE(h.defaultComputeCeiling()->peak, gflops * 1e9);
    QCOMPARE(QString::fromStdString(h.notes), notes);
}

void TestAdhocReader::placesAHwDbFieldCountErrorAtTheRowsEnd_data()
{
    QTest::addColumn<QString>("row");
    QTest::addColumn<QString>("message");
    // Too few: the column just after the row's last character, where the next field would go.
    QTest::newRow("3 fields") << "GPU B,2400,120"
                              << "h.csv:2:15: expected 4 fields (name, peak GFLOP/s, peak GB/s, "
                                 "price), found 3";
    QTest::newRow("3 fields, quoted, blanks after")
        << "\"GPU, B\",2400,\"120\"  "
        << "h.csv:2:20: expected 4 fields (name, peak GFLOP/s, peak GB/s, price), found 3";
    QTest::newRow("1 field") << "GPU B"
                             << "h.csv:2:6: expected 4 fields (name, peak GFLOP/s, peak GB/s, "
                                "price), found 1";
    // Too many: the column where the first extra field starts.
    QTest::newRow("5 fields") << "GPU B,2400,120,900,extra"
                              << "h.csv:2:20: expected 4 fields (name, peak GFLOP/s, peak GB/s, "
                                 "price), found 5";
    QTest::newRow("5 fields, the 5th empty")
        << "GPU B,2400,120,900,"
        << "h.csv:2:20: expected 4 fields (name, peak GFLOP/s, peak GB/s, price), found 5";
}

void TestAdhocReader::placesAHwDbFieldCountErrorAtTheRowsEnd()
{
    QFETCH(QString, row);
    QFETCH(QString, message);
    const auto result = readHwDb("GPU A,9000,700,5000\n" + row.toStdString() + "\n", "h.csv");
    QCOMPARE(test::joined(result.diagnostics), message);
    QCOMPARE(result.machines.size(), std::size_t { 1 });
}

void TestAdhocReader::namesBothLinesOfAnErtSumCeilingGivenTwice_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    // ERT's "GFLOPs" without a precision is FP64.
    QTest::newRow("GFLOPs and FP64 GFLOPs")
        << "  21.50 GFLOPs\n  20.00 FP64 GFLOPs\n  20.40 DRAM\n"
        << "sum:2:9: \"FP64 GFLOPs\" gives the ceiling \"FP64 (empirical)\", which line 1 "
           "(\"GFLOPs\") gives too (expected one result line per precision and memory level)";
    QTest::newRow("DRAM twice")
        << "21.5 GFLOPs\n\n20.4 DRAM\n18 DRAM\n"
        << "sum:4:4: \"DRAM\" gives the ceiling \"DRAM (empirical)\", which line 3 (\"DRAM\") "
           "gives too (expected one result line per precision and memory level)";
}

void TestAdhocReader::namesBothLinesOfAnErtSumCeilingGivenTwice()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    const auto result = readHardwareFile(text.toStdString(), "sum");
    QCOMPARE(*result.format, FileFormat::ErtSum);
    QVERIFY(result.hardware.machines.empty());
    QCOMPARE(test::joined(result.hardware.diagnostics), message);
}

void TestAdhocReader::readsAppsOnePointPerImplementation_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("group");
    QTest::addColumn<double>("intensity");
    QTest::addColumn<double>("gflops");
    QTest::newRow("spmv a") << "spmv (impl a)"
                            << "spmv" << 0.25 << 12.5;
    QTest::newRow("spmv b") << "spmv (impl b)"
                            << "spmv" << 0.25 << 40.0;
    QTest::newRow("gemm naive") << "dense gemm (naive)"
                                << "dense gemm" << 16.0 << 120.0;
    QTest::newRow("gemm tiled") << "dense gemm (tiled)"
                                << "dense gemm" << 16.0 << 480.5;
    QTest::newRow("gemm tuned") << "dense gemm (tuned)"
                                << "dense gemm" << 16.0 << 2200.0;
}

void TestAdhocReader::readsAppsOnePointPerImplementation()
{
    QFETCH(QString, name);
    QFETCH(QString, group);
    QFETCH(double, intensity);
    QFETCH(double, gflops);
    const auto result = readPointsFile(test::readTestData("adhoc/apps.csv"), "apps.csv");
    QVERIFY2(
        !hasErrors(result.points.diagnostics), qPrintable(test::joined(result.points.diagnostics)));
    QCOMPARE(result.points.points.size(), std::size_t { 5 });
    const KernelPoint &p = named(result.points.points, name.toStdString());
    QCOMPARE(QString::fromStdString(p.group), group);
    QCOMPARE(*p.intensity, intensity);
    QCOMPARE(*p.measuredRate, gflops * 1e9);
    QCOMPARE(p.flops, 0.0);
    QVERIFY(p.bytes.empty());
}

void TestAdhocReader::warnsOfAppsWithoutImplementations()
{
    const auto result = readAppsCsv(test::readTestData("adhoc/apps.csv"), "apps.csv");
    QCOMPARE(test::joined(result.diagnostics),
        QString("apps.csv:2: warning: 2 applications have an intensity but no implementation's "
                "performance, so nothing to place: \"vector add\", \"stencil (N=512)\""));
    QCOMPARE(result.rowsRead, 4);
}

void TestAdhocReader::readsMetricValuesOnePointPerId_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("rate"); // FLOPS, FLOP/s
    QTest::addColumn<double>("intensity"); // AI
    QTest::addColumn<int>("line");
    // lbm_kernel_a runs under IDs 0 and 1, so each point says which; AI before FLOPS for ID 2.
    QTest::newRow("ID 0") << "lbm_kernel_a (ID 0)" << 1200000000000.5 << 6.25 << 2;
    QTest::newRow("ID 1") << "lbm_kernel_a (ID 1)" << 1300000000000.0 << 6.5 << 6;
    QTest::newRow("ID 2") << "collide" << 250000000000.0 << 0.75 << 8;
}

void TestAdhocReader::readsMetricValuesOnePointPerId()
{
    QFETCH(QString, name);
    QFETCH(double, rate);
    QFETCH(double, intensity);
    QFETCH(int, line);
    const auto result = readPointsFile(test::readTestData("adhoc/metric_values.csv"), "m.csv");
    QVERIFY2(
        !hasErrors(result.points.diagnostics), qPrintable(test::joined(result.points.diagnostics)));
    QCOMPARE(result.points.points.size(), std::size_t { 3 });
    const KernelPoint &p = named(result.points.points, name.toStdString());
    QCOMPARE(*p.measuredRate, rate);
    QCOMPARE(*p.intensity, intensity);
    QCOMPARE(p.flops, 0.0);
    QCOMPARE(p.source.line, line);
    // On the H100 the AI is against HBM: attainable = min(π, 3.35 TB/s × AI).
    const auto a = analyzePoint(p, test::preset("h100"));
    QVERIFY(a);
    QVERIFY(test::close(a->levels.front().attainable,
        std::min(a->peak, test::preset("h100").mainMemory()->bandwidth * intensity)));
}

void TestAdhocReader::readsThoasmResultsThroughTheGenericReader_data()
{
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("computations");
    QTest::addColumn<double>("bytes"); // data [Bytes]
    QTest::addColumn<double>("ms"); // time [ms]
    QTest::addColumn<double>("gops"); // [GOP/s]
    QTest::addColumn<QString>("precision");
    QTest::newRow("double") << 0 << "line 2" << 250000000.0 << 2000000000.0 << 1.25 << 200.0
                            << "fp64";
    QTest::newRow("float") << 1 << "line 3" << 250000000.0 << 400000000.0 << 0.5 << 500.0 << "fp32";
}

void TestAdhocReader::readsThoasmResultsThroughTheGenericReader()
{
    QFETCH(int, index);
    QFETCH(QString, name);
    QFETCH(double, computations);
    QFETCH(double, bytes);
    QFETCH(double, ms);
    QFETCH(double, gops);
    QFETCH(QString, precision);
    const auto result = readPointsFile(test::readTestData("adhoc/thoasm_results.csv"), "r.csv");
    QVERIFY2(
        !hasErrors(result.points.diagnostics), qPrintable(test::joined(result.points.diagnostics)));
    QCOMPARE(*result.format, FileFormat::PointsCsv);
    const KernelPoint &p = result.points.points[static_cast<std::size_t>(index)];
    QCOMPARE(QString::fromStdString(p.name), name); // no name column: named after its line
    QCOMPARE(p.flops, computations);
    QCOMPARE(p.bytes.size(), std::size_t { 1 });
    QVERIFY(!p.bytes[0].level);
    QCOMPARE(p.bytes[0].bytes, bytes);
    QVERIFY(test::close(*p.seconds, ms * 1e-3));
    QVERIFY(test::close(*p.measuredRate, gops * 1e9));
    QCOMPARE(QString::fromStdString(std::string(precisionName(*p.precision))), precision);
    // The file's own columns agree: computations / time = [GOP/s].
    QVERIFY(test::close(*p.performance(), gops * 1e9, 1e-9));
    // BW [GB/s] and the iteration counts are the columns left out.
    QVERIFY(test::joined(result.points.diagnostics)
                .contains("columns not used: \"BW [GB/s]\", \"Outer Its\", \"Inner Its\", \"Comp "
                          "Its\", \"# Elements\""));
}

void TestAdhocReader::readsHpclAppDataThroughTheGenericReader_data()
{
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("ai");
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("seconds");
    QTest::newRow("triad") << 0 << "triad" << 0.125 << 2e9 << 0.5;
    QTest::newRow("matmul") << 1 << "blocked matmul" << 4.0 << 8e10 << 2.0;
}

void TestAdhocReader::readsHpclAppDataThroughTheGenericReader()
{
    QFETCH(int, index);
    QFETCH(QString, name);
    QFETCH(double, ai);
    QFETCH(double, flops);
    QFETCH(double, seconds);
    const auto result = readPointsFile(test::readTestData("adhoc/hpcl_app_data.csv"), "a.csv");
    QVERIFY2(
        !hasErrors(result.points.diagnostics), qPrintable(test::joined(result.points.diagnostics)));
    const KernelPoint &p = result.points.points[static_cast<std::size_t>(index)];
    QCOMPARE(QString::fromStdString(p.name), name);
    QCOMPARE(p.flops, flops);
    QCOMPARE(p.bytes.size(), std::size_t { 1 });
    QCOMPARE(p.bytes[0].bytes, flops / ai); // Total Flops / Arithmetic Intensity
    QCOMPARE(*p.seconds, seconds);
    QCOMPARE(*p.performance(), flops / seconds);
    QVERIFY(test::joined(result.points.diagnostics).contains("columns not used: \"Cycles\""));
}

QTEST_GUILESS_MAIN(TestAdhocReader)
#include "tst_adhocreader.moc"
