// `ridgepoint analyze` end to end on the profilers' real files: every reader through the CLI.
#include "cli_run.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <QProcess>
#include <QTest>

namespace {

using test::ridgepoint;
using test::Run;

QString fixture(const char *name)
{
    return QString(RIDGEPOINT_FIXTURES_DIR "/") + name;
}

} // namespace

class TestCliReaders : public QObject
{
    Q_OBJECT

private slots:
    void analysesTheRealPointFiles_data();
    void analysesTheRealPointFiles();
    void takesCeilingsFromProfilerFiles_data();
    void takesCeilingsFromProfilerFiles();
    void explainsAFileOfUnknownShape();
};

void TestCliReaders::analysesTheRealPointFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("points"); // placed on the H100's roofline
    QTest::addColumn<QString>("firstName");
    QTest::addColumn<double>("firstFlops");
    QTest::addColumn<QString>("stderrContains");

    // 62 rows; the 16 transpose rows do no arithmetic and cannot be placed.
    QTest::newRow("script timing CSV")
        << fixture("simple_kernel_timing_rtx5070.csv") << 0 << 46 << "saxpy" << 2097152.0
        << "FLOPs must be a positive finite number";
    // ncu's roofline section: the FP32 achieved value is a point known by intensity and rate.
    QTest::newRow("ncu roofline section")
        << fixture("ncu_section_roofline_chart_cublas_gemv.csv") << 0 << 1
        << "enable_if<!T7, void>::type kernel<int, int, __nv_bfloat16, __nv_bfloat16, "
           "__nv_bfloat16, float, 0, 1, 1, 0, 7, 0, cublasGemvParamsEx<int, "
           "cublasGemvTensorStridedBatched<const __nv_bfloat16>, "
           "cublasGemvTensorStridedBatched<const __nv_bfloat16>, "
           "cublasGemvTensorStridedBatched<__nv_bfloat16>, float>>(T13) (fp32 achieved)"
        << 0.0 << "";
    // These metric lists count bytes and time but no FLOPs: read, then refused by the
    // analysis with a reason, so the run fails (status 2) rather than plotting nonsense.
    QTest::newRow("ncu details, base units")
        << fixture("ncu_details_metrics_gemm_tiled_rtx5070.csv") << 2 << 0 << "" << 0.0
        << "no FLOP counters for launch 0";
    QTest::newRow("ncu details, auto units")
        << fixture("ncu_details_autounits_cublas_gemv.csv") << 2 << 0 << "" << 0.0
        << "FLOPs must be a positive finite number";
    QTest::newRow("rocprof-compute pmc_perf (a copy kernel)")
        << fixture("rocprof_compute_pmc_perf_MI200.csv") << 2 << 0 << "" << 0.0
        << "3 of 3 dispatches count 0 FLOPs";
}

void TestCliReaders::analysesTheRealPointFiles()
{
    QFETCH(QString, file);
    QFETCH(int, status);
    QFETCH(int, points);
    QFETCH(QString, firstName);
    QFETCH(double, firstFlops);
    QFETCH(QString, stderrContains);
    const Run run = ridgepoint({ "analyze", "--hardware", "h100", "--json", file });
    QVERIFY2(run.status == status, run.err.constData());
    QVERIFY2(QString::fromUtf8(run.err).contains(stderrContains), run.err.constData());
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(run.out, &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonArray list = doc.object().value("points").toArray();
    QCOMPARE(list.size(), points);
    if (points > 0) {
        const QJsonObject first = list.first().toObject();
        QCOMPARE(first.value("name").toString(), firstName);
        QCOMPARE(first.value("flops").toDouble(), firstFlops);
        QCOMPARE(first.value("source").toObject().value("file").toString(), file);
    }
}

void TestCliReaders::takesCeilingsFromProfilerFiles_data()
{
    QTest::addColumn<QString>("hardware");
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("mainMemory"); // B/s of the first memory ceiling
    QTest::newRow("rocprof-compute roofline.csv")
        << fixture("rocprof_compute_roofline_MI200.csv") << "rocprof-compute roofline (GPU 0)"
        << 1388.9282e9;
    QTest::newRow("ncu roofline section")
        << fixture("ncu_section_roofline_chart_cublas_gemv.csv")
        << "Nsight Compute roofline (device 0, CC 12.0)" << 128.0 * 13.72e9;
}

void TestCliReaders::takesCeilingsFromProfilerFiles()
{
    QFETCH(QString, hardware);
    QFETCH(QString, name);
    QFETCH(double, mainMemory);
    const Run run = ridgepoint({ "analyze", "--hardware", hardware, "--json",
        fixture("simple_kernel_timing_rtx5070.csv") });
    QVERIFY2(run.status == 0, run.err.constData());
    const QJsonObject machine
        = QJsonDocument::fromJson(run.out).object().value("hardware").toObject();
    QCOMPARE(machine.value("name").toString(), name);
    QCOMPARE(machine.value("memory").toArray().first().toObject().value("bandwidth").toDouble(),
        mainMemory);
}

void TestCliReaders::explainsAFileOfUnknownShape()
{
    const QString file = RIDGEPOINT_SOURCE_DIR "/tests/data/bad/unknown_shape.txt";
    const Run run = ridgepoint({ "analyze", "--hardware", "h100", file });
    QCOMPARE(run.status, 2);
    QVERIFY2(QString::fromUtf8(run.err).startsWith(
                 file + ": not a file Ridgepoint can read; tried points CSV (no header row"),
        run.err.constData());
}

QTEST_GUILESS_MAIN(TestCliReaders)
#include "tst_cli_readers.moc"
