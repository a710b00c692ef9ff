// Issue 13 item 4, "keep what was read": every memory level an Nsight Compute file gives bytes
// for stays in the point through analysis, the JSON `levels`, and the table, CSV and Markdown
// columns (one bytes column per level, never a sum; the intensity header names its level).
#include "core/analysis/analysis.h"
#include "core/analysis/levels.h"
#include "core/io/formats/hardware_json.h"
#include "core/io/formats/ncu_reader.h"
#include "core/model/units.h"
#include "core/report/report.h"
#include "core/report/report_stream.h"

#include "tests/support/testfiles.h"
#include "tests/support/testpaths.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace ridgepoint;

namespace {

std::string dataFile(const char *path)
{
    return test::readAll(test::dataPath(QLatin1String(path))).toStdString();
}

// tests/data/ncu/ncu_levels_daxpy_stencil.csv, analysed on tests/data/json/<machine>.
std::vector<AnalyzedPoint> analysedOn(const QString &machine)
{
    const auto read = readNcuCsv(dataFile("ncu/ncu_levels_daxpy_stencil.csv"), "levels.csv");
    const auto hw = readHardwareJson(
        dataFile(("json/" + machine.toStdString() + ".json").c_str()), machine.toStdString());
    if (read.points.size() != 2 || hw.machines.size() != 1)
        qFatal("test data unreadable");
    std::vector<Diagnostic> problems;
    auto out = analyzePoints(read.points, hw.machines.front(), {}, problems);
    if (!problems.empty() || out.size() != 2)
        qFatal("test data not placed");
    return out;
}

// The file's counts (tests/data/ncu/README.md explains how they were chosen):
// daxpy, n = 2^28 = 268,435,456 doubles: 2n FLOP = 536,870,912; L1 24n = 6,442,450,944 B;
// L2 24n + 32 MiB = 6,476,005,376 B; DRAM 24n + 1 MiB = 6,443,499,520 B.
// stencil27, m = 512^3 = 134,217,728 cells: 26 FFMA + 1 FMUL per cell = 53m FLOP =
// 7,113,539,584; L1 112m = 15,032,385,536 B; L2 24m = 3,221,225,472 B; DRAM 9m = 1,207,959,552 B.
constexpr double kDaxpyFlops = 536870912.0;
constexpr double kStencilFlops = 7113539584.0;

} // namespace

class TestLevelColumns : public QObject
{
    Q_OBJECT

private slots:
    void levelsSurviveToJson_data();
    void levelsSurviveToJson();
    void columnsPerLevel_data();
    void columnsPerLevel();
    void lateLevelGoesToTheNote();
};

void TestLevelColumns::levelsSurviveToJson_data()
{
    QTest::addColumn<QString>("machine");
    QTest::addColumn<int>("point");
    QTest::addColumn<QString>("level");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("intensity");
    QTest::addColumn<bool>("bounded");
    QTest::addColumn<double>("attainable"); // -1: null
    QTest::addColumn<QString>("ceiling"); // empty: null

    // HBM only: L1 and L2 kept, bounded false, attainable null. Intensities F / B_l:
    // daxpy L1 536870912 / 6442450944 = 1/12; stencil L1 53m / 112m = 53/112, L2 53/24.
    QTest::newRow("daxpy L1, no roof")
        << "a100_hbm_only" << 0 << "L1" << 6442450944.0 << 1.0 / 12.0 << false << -1.0 << "";
    QTest::newRow("daxpy L2, no roof") << "a100_hbm_only" << 0 << "L2" << 6476005376.0
                                       << kDaxpyFlops / 6476005376.0 << false << -1.0 << "";
    // HBM: 9.7 TFLOP/s FP64 against 1555 GB/s × 536870912 / 6443499520 = 129.56 GFLOP/s.
    QTest::newRow("daxpy HBM") << "a100_hbm_only" << 0 << "HBM" << 6443499520.0
                               << kDaxpyFlops / 6443499520.0 << true
                               << 1555e9 * (kDaxpyFlops / 6443499520.0) << "HBM2";
    QTest::newRow("stencil L1, no roof")
        << "a100_hbm_only" << 1 << "L1" << 15032385536.0 << 53.0 / 112.0 << false << -1.0 << "";
    QTest::newRow("stencil L2, no roof")
        << "a100_hbm_only" << 1 << "L2" << 3221225472.0 << 53.0 / 24.0 << false << -1.0 << "";
    // With roofs: each level under its own β_l, all below π (FP64 9.7, FP32 19.5 TFLOP/s):
    // daxpy L1 19.5 TB/s / 12 = 1.625 TFLOP/s; stencil L2 5.5 TB/s × 53/24 = 12.15 TFLOP/s,
    // stencil L1 19.5 TB/s × 53/112 = 9.23 TFLOP/s, stencil HBM 1555 GB/s × 53/9 = 9.16 TFLOP/s.
    QTest::newRow("daxpy L1, roof") << "a100_levels" << 0 << "L1" << 6442450944.0 << 1.0 / 12.0
                                    << true << 19.5e12 / 12.0 << "L1";
    QTest::newRow("stencil L1, roof") << "a100_levels" << 1 << "L1" << 15032385536.0 << 53.0 / 112.0
                                      << true << 19.5e12 * 53.0 / 112.0 << "L1";
    QTest::newRow("stencil L2, roof") << "a100_levels" << 1 << "L2" << 3221225472.0 << 53.0 / 24.0
                                      << true << 5.5e12 * 53.0 / 24.0 << "L2";
    QTest::newRow("stencil HBM, roof") << "a100_levels" << 1 << "HBM" << 1207959552.0 << 53.0 / 9.0
                                       << true << 1555e9 * 53.0 / 9.0 << "HBM2";
}

void TestLevelColumns::levelsSurviveToJson()
{
    QFETCH(QString, machine);
    QFETCH(int, point);
    QFETCH(QString, level);
    QFETCH(double, bytes);
    QFETCH(double, intensity);
    QFETCH(bool, bounded);
    QFETCH(double, attainable);
    QFETCH(QString, ceiling);

    const auto points = analysedOn(machine);
    const auto &a = points[static_cast<std::size_t>(point)].analysis;
    QCOMPARE(allLevels(a).size(), std::size_t { 3 }); // L1, L2, HBM: none dropped
    const auto doc = nlohmann::json::parse(analysisJson(
        *readHardwareJson(dataFile(("json/" + machine.toStdString() + ".json").c_str()), "m")
             .machines.begin(),
        points));
    const auto &entries = doc["points"][static_cast<std::size_t>(point)]["levels"];
    QCOMPARE(entries.size(), std::size_t { 3 });
    const auto found = std::find_if(entries.begin(), entries.end(),
        [&](const nlohmann::json &e) { return e["level"] == level.toStdString(); });
    QVERIFY(found != entries.end());
    const auto &e = *found;
    QCOMPARE(e["bytes"].get<double>(), bytes);
    QVERIFY(qFuzzyCompare(e["intensity"].get<double>(), intensity));
    QCOMPARE(e["bounded"].get<bool>(), bounded);
    if (attainable < 0.0) {
        QVERIFY(e["attainable"].is_null());
        QVERIFY(e["ceiling"].is_null());
        QVERIFY(e["bound"].is_null());
    } else {
        QVERIFY(qFuzzyCompare(e["attainable"].get<double>(), attainable));
        QCOMPARE(QString::fromStdString(e["ceiling"].get<std::string>()), ceiling);
        QCOMPARE(e["bound"].get<std::string>(), std::string("memory"));
    }
    // The first level stays the main-memory one, as tools reading levels[0] expect.
    QCOMPARE(entries[0]["level"].get<std::string>(), std::string("HBM"));
}

void TestLevelColumns::columnsPerLevel_data()
{
    QTest::addColumn<int>("format"); // ReportFormat
    QTest::addColumn<QStringList>("present");
    QTest::addColumn<QStringList>("absent");

    // daxpy's levels summed: 6442450944 + 6476005376 + 6443499520 = 19361955840 B = "19.36 GB";
    // HBM alone: 6443499520 B = "6.443 GB"; its intensity 536870912 / 6443499520 = 0.08332.
    const QString sum = QString::fromStdString(formatQuantity(19361955840.0, Dimension::Bytes));
    const QString hbm = QString::fromStdString(formatQuantity(6443499520.0, Dimension::Bytes));
    QTest::newRow("table") << int(ReportFormat::Table)
                           << QStringList { "L1 bytes", "L2 bytes", "HBM bytes", "HBM intensity",
                                  hbm, "0.08332" }
                           << QStringList { sum, "  level  " };
    QTest::newRow("markdown") << int(ReportFormat::Markdown)
                              << QStringList { "| L1 bytes", "| L2 bytes", "| HBM bytes",
                                     "HBM intensity [FLOP/B]", hbm }
                              << QStringList { sum, "| Memory" };
    QTest::newRow("csv") << int(ReportFormat::Csv)
                         << QStringList { "L1 bytes [B],L1 intensity [FLOP/B],L2 bytes [B]",
                                "HBM bytes [B],HBM intensity [FLOP/B]",
                                "6442450944,0.08333333333333333", "6443499520" }
                         << QStringList { "19361955840" };
}

void TestLevelColumns::columnsPerLevel()
{
    QFETCH(int, format);
    QFETCH(QStringList, present);
    QFETCH(QStringList, absent);

    const auto points = analysedOn("a100_hbm_only");
    const Hardware hw = readHardwareJson(dataFile("json/a100_hbm_only.json"), "m").machines.front();
    std::string text;
    auto writer = makeReportWriter(
        static_cast<ReportFormat>(format), hw, [&](std::string_view piece) { text += piece; });
    for (const auto &[point, analysis] : points)
        writer->add(point, analysis);
    writer->finish();
    const QString out = QString::fromStdString(text);
    for (const QString &expected : present)
        QVERIFY2(out.contains(expected), qPrintable(expected + " missing in\n" + out));
    for (const QString &unexpected : absent)
        QVERIFY2(!out.contains(unexpected), qPrintable(unexpected + " found in\n" + out));
}

// A level first seen past the look-ahead has no column: its bytes go to the row's note.
void TestLevelColumns::lateLevelGoesToTheNote()
{
    const auto points = analysedOn("a100_hbm_only");
    const Hardware hw = readHardwareJson(dataFile("json/a100_hbm_only.json"), "m").machines.front();
    AnalyzedPoint hbmOnly = points[0];
    hbmOnly.analysis.unbounded.clear();
    std::string text;
    ReportWriterOptions options;
    options.lookAhead = 1;
    auto writer = makeReportWriter(
        ReportFormat::Table, hw, [&](std::string_view piece) { text += piece; }, options);
    writer->add(hbmOnly.point, hbmOnly.analysis);
    writer->add(points[1].point, points[1].analysis);
    writer->finish();
    const QString out = QString::fromStdString(text);
    QVERIFY2(!out.contains("L1 bytes"), qPrintable(out));
    // stencil's L1: 15032385536 B; L2: 3221225472 B.
    QVERIFY2(out.contains("also L1 "
                 + QString::fromStdString(formatQuantity(15032385536.0, Dimension::Bytes)) + ", L2 "
                 + QString::fromStdString(formatQuantity(3221225472.0, Dimension::Bytes))),
        qPrintable(out));
}

QTEST_GUILESS_MAIN(TestLevelColumns)
#include "tst_levelcolumns.moc"
