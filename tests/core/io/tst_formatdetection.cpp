// Format detection by content: every real fixture and every synthetic excerpt goes to its reader.
#include "core/io/formats/points_json.h"
#include "core/io/readers.h"
#include "tests/support/reader_test_support.h"

#include <QTest>

using namespace ridgepoint;

Q_DECLARE_METATYPE(ridgepoint::FileFormat)

class TestFormatDetection : public QObject
{
    Q_OBJECT

private slots:
    void detectsByContent_data();
    void detectsByContent();
    void readsPointsOfEveryPointsFormat_data();
    void readsPointsOfEveryPointsFormat();
    void readsCeilingsOfEveryCeilingFormat_data();
    void readsCeilingsOfEveryCeilingFormat();
    void namesEveryFormatTriedForAnUnknownFile();
    void sendsMeasuredCollectivesToCalibrate_data();
    void sendsMeasuredCollectivesToCalibrate();
    void tellsPointsAndCeilingsApart();
    void passesReadOptionsToTheReader_data();
    void passesReadOptionsToTheReader();
};

namespace {

std::string load(const QString &path)
{
    return path.startsWith("real:") ? test::readFixture(path.mid(5).toStdString())
                                    : test::readTestData(path.toStdString());
}

} // namespace

void TestFormatDetection::detectsByContent_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<FileFormat>("format");
    QTest::newRow("ncu base units")
        << "real:ncu_details_metrics_gemm_tiled_rtx5070.csv" << FileFormat::NcuDetails;
    QTest::newRow("ncu auto units")
        << "real:ncu_details_autounits_cublas_gemv.csv" << FileFormat::NcuDetails;
    QTest::newRow("ncu section") << "real:ncu_section_roofline_chart_cublas_gemv.csv"
                                 << FileFormat::NcuRooflineSection;
    QTest::newRow("ncu raw") << "ncu/ncu_raw_page.csv" << FileFormat::NcuRaw;
    QTest::newRow("ncu 2020 unquoted")
        << "ncu/ncu_details_nersc_v100.csv" << FileFormat::NcuDetails;
    QTest::newRow("ncu per-kernel summary")
        << "ncu/ncu_summary_per_kernel.csv" << FileFormat::NcuSummary;
    QTest::newRow("ncu decimal comma")
        << "ncu/ncu_details_decimal_comma.csv" << FileFormat::NcuDetails;
    QTest::newRow("ncu raw page after ==ERROR== lines")
        << "ncu/ncu_raw_roofline_metrics.csv" << FileFormat::NcuRaw;
    QTest::newRow("rocprof roofline")
        << "real:rocprof_compute_roofline_MI200.csv" << FileFormat::RocprofRoofline;
    QTest::newRow("rocprof pmc_perf")
        << "real:rocprof_compute_pmc_perf_MI200.csv" << FileFormat::RocprofPmcPerf;
    QTest::newRow("rocprof MI300 pmc_perf")
        << "rocprof/pmc_perf_mi300.csv" << FileFormat::RocprofPmcPerf;
    QTest::newRow("rocprof roofline, newer build")
        << "rocprof/roofline_mi300.csv" << FileFormat::RocprofRoofline;
    QTest::newRow("ERT") << "ert/roofline_p100.json" << FileFormat::ErtJson;
    QTest::newRow("Advisor roofs") << "advisor/roofs.csv" << FileFormat::AdvisorRoofs;
    QTest::newRow("Advisor survey") << "advisor/survey_legacy.csv" << FileFormat::AdvisorSurvey;
    QTest::newRow("Advisor survey, current columns")
        << "advisor/survey_current.csv" << FileFormat::AdvisorSurvey;
    QTest::newRow("Advisor survey, tab delimited")
        << "advisor/survey_current_tab.csv" << FileFormat::AdvisorSurvey;
    QTest::newRow("Advisor GPU roofs") << "advisor/roofs_gpu.csv" << FileFormat::AdvisorRoofs;
    QTest::newRow("likwid") << "likwid/mem_dp_region.csv" << FileFormat::Likwid;
    QTest::newRow("likwid without markers")
        << "likwid/no_markers_two_groups.csv" << FileFormat::Likwid;
    // docs/FORMATS.md §2 and §6: the ad-hoc formats of roofline scripts (synthetic, same shapes).
    QTest::newRow("NERSC hierarchical text")
        << "adhoc/nersc_hierarchical.txt" << FileFormat::NerscRoofline;
    QTest::newRow("NERSC roofs only") << "adhoc/nersc_roofs_only.txt" << FileFormat::NerscRoofline;
    // A line the reader does not know (it warns of it) does not make the file unknown.
    QTest::newRow("NERSC with a title line")
        << "adhoc/nersc_with_title.txt" << FileFormat::NerscRoofline;
    QTest::newRow("ERT sum") << "adhoc/ert_sum.txt" << FileFormat::ErtSum;
    QTest::newRow("GPU-Roofline-Profiler peaks") << "adhoc/peaks.csv" << FileFormat::ProfilerPeaks;
    QTest::newRow("mohamed hw_db") << "adhoc/hw_db.csv" << FileFormat::HwDb;
    // The price is only a note: empty or N/A, the rows are still hw_db's.
    QTest::newRow("mohamed hw_db without prices") << "adhoc/hw_db_no_price.csv" << FileFormat::HwDb;
    QTest::newRow("mohamed apps") << "adhoc/apps.csv" << FileFormat::AppsCsv;
    // Its "ID,Kernel Name" header must not be taken for Nsight Compute's.
    QTest::newRow("Techercise metric values")
        << "adhoc/metric_values.csv" << FileFormat::MetricValuesCsv;
}

void TestFormatDetection::detectsByContent()
{
    QFETCH(QString, path);
    QFETCH(FileFormat, format);
    const auto detected = detectFileFormat(load(path));
    QVERIFY(detected);
    QCOMPARE(*detected, format);
}

void TestFormatDetection::readsPointsOfEveryPointsFormat_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<FileFormat>("format");
    QTest::addColumn<int>("points");
    QTest::newRow("script CSV") << "real:simple_kernel_timing_rtx5070.csv" << FileFormat::PointsCsv
                                << 62;
    QTest::newRow("ncu base units")
        << "real:ncu_details_metrics_gemm_tiled_rtx5070.csv" << FileFormat::NcuDetails << 1;
    QTest::newRow("ncu auto units")
        << "real:ncu_details_autounits_cublas_gemv.csv" << FileFormat::NcuDetails << 1;
    QTest::newRow("ncu per-kernel summary")
        << "ncu/ncu_summary_per_kernel.csv" << FileFormat::NcuSummary << 3;
    QTest::newRow("ncu decimal comma")
        << "ncu/ncu_details_decimal_comma.csv" << FileFormat::NcuDetails << 1;
    QTest::newRow("ncu section achieved values")
        << "real:ncu_section_roofline_chart_cublas_gemv.csv" << FileFormat::NcuRooflineSection << 1;
    QTest::newRow("rocprof pmc_perf")
        << "real:rocprof_compute_pmc_perf_MI200.csv" << FileFormat::RocprofPmcPerf << 3;
    QTest::newRow("rocprof MI300 pmc_perf")
        << "rocprof/pmc_perf_mi300.csv" << FileFormat::RocprofPmcPerf << 3;
    QTest::newRow("Advisor survey")
        << "advisor/survey_legacy.csv" << FileFormat::AdvisorSurvey << 1;
    QTest::newRow("Advisor survey, current columns")
        << "advisor/survey_current.csv" << FileFormat::AdvisorSurvey << 3;
    QTest::newRow("Advisor survey, tab delimited")
        << "advisor/survey_current_tab.csv" << FileFormat::AdvisorSurvey << 3;
    QTest::newRow("likwid") << "likwid/mem_dp_region.csv" << FileFormat::Likwid << 1;
    QTest::newRow("likwid without markers")
        << "likwid/no_markers_two_groups.csv" << FileFormat::Likwid << 1;
    QTest::newRow("NERSC hierarchical text")
        << "adhoc/nersc_hierarchical.txt" << FileFormat::NerscRoofline << 3;
    QTest::newRow("NERSC with a title line")
        << "adhoc/nersc_with_title.txt" << FileFormat::NerscRoofline << 3;
    QTest::newRow("mohamed apps") << "adhoc/apps.csv" << FileFormat::AppsCsv << 5;
    QTest::newRow("Techercise metric values")
        << "adhoc/metric_values.csv" << FileFormat::MetricValuesCsv << 3;
    // These have no signature of their own: the generic CSV reads them.
    QTest::newRow("thoasm roofline-benchmark")
        << "adhoc/thoasm_results.csv" << FileFormat::PointsCsv << 2;
    QTest::newRow("HPCL roofline_python")
        << "adhoc/hpcl_app_data.csv" << FileFormat::PointsCsv << 2;
}

void TestFormatDetection::readsPointsOfEveryPointsFormat()
{
    QFETCH(QString, path);
    QFETCH(FileFormat, format);
    QFETCH(int, points);
    const auto result = readPointsFile(load(path), "f");
    QVERIFY2(
        !hasErrors(result.points.diagnostics), qPrintable(test::joined(result.points.diagnostics)));
    QCOMPARE(*result.format, format);
    QCOMPARE(static_cast<int>(result.points.points.size()), points);
}

void TestFormatDetection::readsCeilingsOfEveryCeilingFormat_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<FileFormat>("format");
    QTest::addColumn<int>("machines");
    QTest::newRow("rocprof roofline")
        << "real:rocprof_compute_roofline_MI200.csv" << FileFormat::RocprofRoofline << 4;
    QTest::newRow("rocprof roofline, newer build")
        << "rocprof/roofline_mi300.csv" << FileFormat::RocprofRoofline << 1;
    QTest::newRow("ncu section") << "real:ncu_section_roofline_chart_cublas_gemv.csv"
                                 << FileFormat::NcuRooflineSection << 1;
    QTest::newRow("ncu raw page of roofline metrics")
        << "ncu/ncu_raw_roofline_metrics.csv" << FileFormat::NcuRaw << 1;
    QTest::newRow("ERT") << "ert/roofline_python3.json" << FileFormat::ErtJson << 1;
    QTest::newRow("Advisor roofs") << "advisor/roofs.csv" << FileFormat::AdvisorRoofs << 1;
    QTest::newRow("Advisor GPU roofs") << "advisor/roofs_gpu.csv" << FileFormat::AdvisorRoofs << 1;
    QTest::newRow("NERSC hierarchical text")
        << "adhoc/nersc_hierarchical.txt" << FileFormat::NerscRoofline << 1;
    QTest::newRow("NERSC roofs only")
        << "adhoc/nersc_roofs_only.txt" << FileFormat::NerscRoofline << 1;
    QTest::newRow("NERSC with a title line")
        << "adhoc/nersc_with_title.txt" << FileFormat::NerscRoofline << 1;
    QTest::newRow("GPU-Roofline-Profiler peaks")
        << "adhoc/peaks.csv" << FileFormat::ProfilerPeaks << 1;
    QTest::newRow("mohamed hw_db") << "adhoc/hw_db.csv" << FileFormat::HwDb << 2;
    QTest::newRow("mohamed hw_db without prices")
        << "adhoc/hw_db_no_price.csv" << FileFormat::HwDb << 2;
}

void TestFormatDetection::readsCeilingsOfEveryCeilingFormat()
{
    QFETCH(QString, path);
    QFETCH(FileFormat, format);
    QFETCH(int, machines);
    const auto result = readHardwareFile(load(path), "h");
    QVERIFY2(!hasErrors(result.hardware.diagnostics),
        qPrintable(test::joined(result.hardware.diagnostics)));
    QCOMPARE(*result.format, format);
    QCOMPARE(static_cast<int>(result.hardware.machines.size()), machines);
}

void TestFormatDetection::namesEveryFormatTriedForAnUnknownFile()
{
    const auto points
        = readPointsFile(test::readTestData("bad/unknown_shape.txt"), "unknown_shape.txt");
    QVERIFY(!points.format);
    QCOMPARE(test::joined(points.points.diagnostics),
        QString(
            "unknown_shape.txt: not a file Ridgepoint can read; tried points CSV (no header row "
            "naming a kernel column and a flops, bytes or intensity column), points JSON (no "
            "\"format\": \"ridgepoint-points\"), Nsight Compute CSV (no \"ID\",...,\"Kernel "
            "Name\" or \"Process ID\",...,\"Invocations\" header), rocprof-compute pmc_perf.csv "
            "(no Dispatch_ID,Kernel_Name header), Intel Advisor survey (no \"ID\",\"Function Call "
            "Sites and Loops\" "
            "header), likwid-perfctr -O (no STRUCT,Info / TABLE, lines), NERSC roofline text (no "
            "memroofs, AI_<level> and FLOPS lines), mohamed/roofline apps.csv (no \"# name, "
            "intensity, ...\" header), ncu-like metric CSV (no ID,Kernel Name,Host Name,Metric "
            "Name,Metric Value header), PyTorch profiler trace (no \"traceEvents\" with "
            "\"deviceProperties\" or \"schemaVersion\")"
            ", Vidur per-operator CSV (no "
            "time_stats.<operator>...,num_tokens,...num_tensor_parallel_workers header)"));
    const auto hardware
        = readHardwareFile(test::readTestData("bad/unknown_shape.txt"), "unknown_shape.txt");
    QVERIFY(!hardware.format);
    QVERIFY(test::joined(hardware.hardware.diagnostics)
                .startsWith("unknown_shape.txt: not a file Ridgepoint can read; tried hardware "
                            "JSON"));
}

// Measured collectives have no FLOPs to place: opened as points or as a machine, the message
// says what the file is and which commands read it, not the list of formats tried.
void TestFormatDetection::sendsMeasuredCollectivesToCalibrate_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("what");
    QTest::newRow("rccl-tests run") << "measured/rccl/all_reduce_perf_mi300x.txt"
                                    << "nccl-tests output";
    QTest::newRow("Vidur all-reduce") << "measured/vidur/a100_dgx_all_reduce.csv"
                                      << "Vidur's collective CSV";
    QTest::newRow("Vidur send/recv") << "measured/vidur/a100_dgx_send_recv.csv"
                                     << "Vidur's collective CSV";
}

void TestFormatDetection::sendsMeasuredCollectivesToCalibrate()
{
    QFETCH(QString, path);
    QFETCH(QString, what);
    const std::string text = test::readTestData(path.toStdString());
    const QString expected = "f: " + what
        + ": measured collective times, with no FLOPs or bytes to place on a roofline. "
          "'ridgepoint calibrate --hardware MACHINE FILE -o OUT.json' fits their latency and bus "
          "bandwidth; 'ridgepoint predict --hardware OUT.json FILE --chart OUT.png' draws them on "
          "their link roof (docs/MODEL.md section 15)";
    const auto points = readPointsFile(text, "f");
    QVERIFY(!points.format);
    QCOMPARE(test::joined(points.points.diagnostics), expected);
    const auto hardware = readHardwareFile(text, "f");
    QVERIFY(!hardware.format);
    QCOMPARE(test::joined(hardware.hardware.diagnostics), expected);
}

void TestFormatDetection::tellsPointsAndCeilingsApart()
{
    const auto points
        = readPointsFile(test::readFixture("rocprof_compute_roofline_MI200.csv"), "r.csv");
    QCOMPARE(test::joined(points.points.diagnostics),
        QString(
            "r.csv: this file is in the rocprof-compute roofline.csv format: it gives ceilings, "
            "not points "
            "(open it as the machine instead)"));
    const auto hardware
        = readHardwareFile(test::readFixture("rocprof_compute_pmc_perf_MI200.csv"), "p.csv");
    QCOMPARE(test::joined(hardware.hardware.diagnostics),
        QString("p.csv: this file is in the rocprof-compute pmc_perf.csv format: it gives points, "
                "not ceilings "
                "(expected a hardware file)"));
    // A points JSON written by Ridgepoint is recognised as such.
    KernelPoint k;
    k.name = "k";
    k.flops = 1;
    k.bytes = { { std::nullopt, 1 } };
    QCOMPARE(*readPointsFile(writePointsJson({ k }), "p.json").format, FileFormat::PointsJson);
}

void TestFormatDetection::passesReadOptionsToTheReader_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("sumNcu");
    QTest::addColumn<bool>("sumRocprof");
    QTest::addColumn<int>("points");
    // The NERSC excerpt has two launches of one kernel; the MI300 file two gemm dispatches and
    // one daxpy. Each reader sums only when its own option says so.
    QTest::newRow("ncu, per launch") << "ncu/ncu_details_nersc_v100.csv" << false << true << 2;
    QTest::newRow("ncu, per kernel") << "ncu/ncu_details_nersc_v100.csv" << true << false << 1;
    QTest::newRow("rocprof, per dispatch") << "rocprof/pmc_perf_mi300.csv" << true << false << 3;
    QTest::newRow("rocprof, per kernel") << "rocprof/pmc_perf_mi300.csv" << false << true << 2;
}

void TestFormatDetection::passesReadOptionsToTheReader()
{
    QFETCH(QString, path);
    QFETCH(bool, sumNcu);
    QFETCH(bool, sumRocprof);
    QFETCH(int, points);
    ReadOptions options;
    options.ncu.sumLaunchesOfAKernel = sumNcu;
    options.rocprof.sumDispatchesOfAKernel = sumRocprof;
    const auto result = readPointsFile(load(path), "f", options);
    QVERIFY2(
        !hasErrors(result.points.diagnostics), qPrintable(test::joined(result.points.diagnostics)));
    QCOMPARE(static_cast<int>(result.points.points.size()), points);
    // The sink reads the same way.
    int sunk = 0;
    const auto sinkResult = readPointsFile(
        load(path), "f", [&](KernelPoint &&) { ++sunk; }, options);
    QCOMPARE(sinkResult.points.diagnostics.size(), result.points.diagnostics.size());
    QCOMPARE(sunk, points);
}

QTEST_GUILESS_MAIN(TestFormatDetection)
#include "tst_formatdetection.moc"
