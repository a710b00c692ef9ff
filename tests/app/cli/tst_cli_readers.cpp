// `ridgepoint analyze` end to end on the profilers' real files: every reader through the CLI;
// and the reader options of analyze and render (issue 4), which change what a file gives.
#include "tests/support/cli_run.h"
#include "tests/support/testfiles.h"
#include "tests/support/testpaths.h"
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

namespace test = ridgepoint::test;

namespace {

using test::Run;
using test::runCli;

QString fixture(const char *name)
{
    return test::fixturePath(QLatin1String(name));
}

QString testData(const char *name)
{
    return test::dataPath(QLatin1String(name));
}

// The NERSC excerpt: two launches (ID 0, 1) of one kernel, ComputeCurrent, on a V100.
const QString kNcuTwoLaunches = testData("ncu/ncu_details_nersc_v100.csv");
// Two dispatches of gemm_bf16 and one of daxpy on an MI300, and that MI300's roofs (with LDS).
const QString kRocprofThreeDispatches = testData("rocprof/pmc_perf_mi300.csv");
const QString kMi300Roofs = testData("rocprof/roofline_mi300.csv");

// An Nsight Compute details page (--csv --page details) of one launch of "k" with these
// metrics, each {name, unit, value}.
QByteArray ncuDetails(const QList<QStringList> &metrics)
{
    QByteArray text = "ID,Process ID,Process Name,Host Name,Kernel Name,Kernel Time,Context,"
                      "Stream,Section Name,Metric Name,Metric Unit,Metric Value\n";
    for (const QStringList &metric : metrics) {
        text += "0,1,bench,127.0.0.1,k,2024-Jan-01 00:00:00,1,7,Command line profiler metrics,"
            + metric.join(',').toUtf8() + "\n";
    }
    return text;
}

QJsonArray pointsOf(const Run &run)
{
    return QJsonDocument::fromJson(run.out).object().value("points").toArray();
}

// The bytes of `point` at memory level `level` ("LDS", "HBM", ...); -1 when it has none.
double bytesAt(const QJsonObject &point, const QString &level)
{
    for (const auto &entry : point.value("levels").toArray()) {
        if (entry.toObject().value("level").toString() == level)
            return entry.toObject().value("bytes").toDouble();
    }
    return -1.0;
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
    void placesNerscPointsOnTheFilesOwnRoofs();
    void analysesAProfilerTraceOnItsDevice();
    void asksForAMachineATraceDoesNotName();
    void aFileWithItsRoofsNeedsNoMachine_data();
    void aFileWithItsRoofsNeedsNoMachine();
    void aMachineFileAmongTheInputsIsTheMachine_data();
    void aMachineFileAmongTheInputsIsTheMachine();
    void aMachineFileAloneIsShownNotAnalysed();
    void presetsListsEveryMachineOfAFile();

    void initTestCase();
    // Issue 4: the readers' options on the command line.
    void perKernelGivesOnePointPerKernel_data();
    void perKernelGivesOnePointPerKernel();
    void perKernelReachesEveryFormat_data();
    void perKernelReachesEveryFormat();
    void readOptionsChangeTheCounts_data();
    void readOptionsChangeTheCounts();
    void decimalPointRefusesADecimalCommaFile();
    void saysWhichReadOptionsAFileCannotUse_data();
    void saysWhichReadOptionsAFileCannotUse();
    void refusesBadReadOptions_data();
    void refusesBadReadOptions();
    void helpListsTheReadOptions_data();
    void helpListsTheReadOptions();

private:
    QString write(const QString &name, const QByteArray &content);
    // `render FILES... -o NAME` (an SVG in the test's folder): the picture, or empty after a
    // failed run (its stderr logged).
    QByteArray renderedSvg(const QStringList &files, const QString &name);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_halfPrecision; // an ncu launch counting FP16 FMAs, adds and multiplies
    QString m_tensor; // an ncu launch counting tensor instructions only
};

// One launch each, 1 MB to DRAM in 100 us.
constexpr double kHalfFma = 3e6;
constexpr double kHalfAdd = 2e5;
constexpr double kHalfMul = 1e5;
constexpr double kTensorInstructions = 1e4;

void TestCliReaders::initTestCase()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    const QStringList bytes = { "dram__bytes.sum", "byte", "1000000" };
    const QStringList time = { "gpu__time_duration.sum", "nsecond", "100000" };
    m_halfPrecision = write("half.csv",
        ncuDetails({ bytes, time,
            { "sm__sass_thread_inst_executed_op_hfma_pred_on.sum", "inst", "3000000" },
            { "sm__sass_thread_inst_executed_op_hadd_pred_on.sum", "inst", "200000" },
            { "sm__sass_thread_inst_executed_op_hmul_pred_on.sum", "inst", "100000" } }));
    m_tensor = write("tensor.csv",
        ncuDetails({ bytes, time, { "sm__inst_executed_pipe_tensor.sum", "inst", "10000" } }));
}

QString TestCliReaders::write(const QString &name, const QByteArray &content)
{
    QFile file(m_dir->filePath(name));
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
        qFatal("cannot write the test file");
    return file.fileName();
}

QByteArray TestCliReaders::renderedSvg(const QStringList &files, const QString &name)
{
    const QString picture = m_dir->filePath(name);
    const Run drawn = runCli(QStringList { "render", "-o", picture } + files);
    QFile svg(picture);
    if (drawn.status != 0 || !svg.open(QIODevice::ReadOnly)) {
        qWarning("%s", drawn.err.constData());
        return {};
    }
    return svg.readAll();
}

void TestCliReaders::perKernelGivesOnePointPerKernel_data()
{
    QTest::addColumn<QString>("command"); // analyze --json, or render then analyze the picture
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("hardware");
    QTest::addColumn<bool>("perKernel");
    QTest::addColumn<int>("points");
    for (const QString command : { "analyze", "render" }) {
        const QByteArray c = command.toUtf8();
        QTest::addRow("%s ncu, one per launch", c.constData())
            << command << kNcuTwoLaunches << "v100" << false << 2;
        QTest::addRow("%s ncu, --per-kernel", c.constData())
            << command << kNcuTwoLaunches << "v100" << true << 1;
        QTest::addRow("%s rocprof, one per dispatch", c.constData())
            << command << kRocprofThreeDispatches << kMi300Roofs << false << 3;
        QTest::addRow("%s rocprof, --per-kernel", c.constData())
            << command << kRocprofThreeDispatches << kMi300Roofs << true << 2;
    }
}

void TestCliReaders::perKernelGivesOnePointPerKernel()
{
    QFETCH(QString, command);
    QFETCH(QString, file);
    QFETCH(QString, hardware);
    QFETCH(bool, perKernel);
    QFETCH(int, points);
    const QStringList options = perKernel ? QStringList { "--per-kernel" } : QStringList {};
    Run run;
    if (command == "analyze") {
        run = runCli(QStringList { "analyze", "--hardware", hardware, "--json", file } + options);
    } else {
        // The picture carries the points render drew; analyze reads them back.
        const QString picture = m_dir->filePath("per-kernel.svg");
        const Run render = runCli(
            QStringList { "render", "--hardware", hardware, file, "-o", picture } + options);
        QVERIFY2(render.status == 0, render.err.constData());
        run = runCli({ "analyze", "--json", picture });
    }
    QVERIFY2(run.status == 0, run.err.constData());
    const QJsonArray list = pointsOf(run);
    QCOMPARE(list.size(), points);
    // A kernel's one point has its plain name; a launch's is told apart by its number.
    const QString name = list.first().toObject().value("name").toString();
    QCOMPARE(name.contains(" (ID ") || name.contains(" (dispatch "), !perKernel);
}

void TestCliReaders::perKernelReachesEveryFormat_data()
{
    QTest::addColumn<QString>("format");
    QTest::newRow("table") << "table";
    QTest::newRow("csv") << "csv";
    QTest::newRow("markdown") << "markdown";
}

void TestCliReaders::perKernelReachesEveryFormat()
{
    // Not only the streaming --json path: the others read every file before analysing it.
    QFETCH(QString, format);
    const Run perLaunch
        = runCli({ "analyze", "--hardware", "v100", "--format", format, kNcuTwoLaunches });
    QVERIFY2(perLaunch.status == 0, perLaunch.err.constData());
    QVERIFY(perLaunch.out.contains("ComputeCurrent (ID 1)"));
    const Run perKernel = runCli(
        { "analyze", "--hardware", "v100", "--format", format, "--per-kernel", kNcuTwoLaunches });
    QVERIFY2(perKernel.status == 0, perKernel.err.constData());
    QVERIFY(perKernel.out.contains("ComputeCurrent"));
    QVERIFY(!perKernel.out.contains("(ID "));
}

void TestCliReaders::readOptionsChangeTheCounts_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("hardware");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("quantity"); // flops, seconds, or the bytes of a level
    QTest::addColumn<double>("expected");

    // FP16 FLOP = k * hfma + hadd + hmul (docs/FORMATS.md §1.10).
    QTest::newRow("half FMA is 2 FLOP by default") << m_halfPrecision << "h100" << QStringList {}
                                                   << "flops" << 2 * kHalfFma + kHalfAdd + kHalfMul;
    QTest::newRow("--half-fma-flops 2")
        << m_halfPrecision << "h100" << QStringList { "--half-fma-flops", "2" } << "flops"
        << 2 * kHalfFma + kHalfAdd + kHalfMul;
    QTest::newRow("--half-fma-flops 4")
        << m_halfPrecision << "h100" << QStringList { "--half-fma-flops", "4" } << "flops"
        << 4 * kHalfFma + kHalfAdd + kHalfMul;
    // Tensor FLOP = sm__inst_executed_pipe_tensor.sum * FLOP per instruction.
    QTest::newRow("tensor instruction is 512 FLOP by default")
        << m_tensor << "h100" << QStringList {} << "flops" << 512 * kTensorInstructions;
    QTest::newRow("--tensor-flops-per-inst 1024")
        << m_tensor << "h100" << QStringList { "--tensor-flops-per-inst", "1024" } << "flops"
        << 1024 * kTensorInstructions;
    // "65,77" us: told from the file ("27.595.520" shows a decimal comma), or forced.
    QTest::newRow("decimal comma told from the file")
        << testData("ncu/ncu_details_decimal_comma.csv") << "h100" << QStringList {} << "seconds"
        << 65.77e-6;
    QTest::newRow("--decimal-comma") << testData("ncu/ncu_details_decimal_comma.csv") << "h100"
                                     << QStringList { "--decimal-comma" } << "seconds" << 65.77e-6;
    // LDS bytes = (SQ_LDS_IDX_ACTIVE - SQ_LDS_BANK_CONFLICT) * 4 B * banks, dispatch 0.
    QTest::newRow("32 LDS banks by default")
        << kRocprofThreeDispatches << kMi300Roofs << QStringList {} << "LDS"
        << (1048576.0 - 65536.0) * 4 * 32;
    QTest::newRow("--lds-banks 64")
        << kRocprofThreeDispatches << kMi300Roofs << QStringList { "--lds-banks", "64" } << "LDS"
        << (1048576.0 - 65536.0) * 4 * 64;
}

void TestCliReaders::readOptionsChangeTheCounts()
{
    QFETCH(QString, file);
    QFETCH(QString, hardware);
    QFETCH(QStringList, options);
    QFETCH(QString, quantity);
    QFETCH(double, expected);
    const Run run
        = runCli(QStringList { "analyze", "--hardware", hardware, "--json", file } + options);
    QVERIFY2(run.status == 0, run.err.constData());
    const QJsonObject first = pointsOf(run).first().toObject();
    const double value = quantity == "flops" || quantity == "seconds"
        ? first.value(quantity).toDouble()
        : bytesAt(first, quantity);
    QVERIFY2(qAbs(value - expected) <= 1e-12 * expected,
        qPrintable(QStringLiteral("%1 is %2, expected %3").arg(quantity).arg(value).arg(expected)));
}

void TestCliReaders::decimalPointRefusesADecimalCommaFile()
{
    // Forced to read "65,77" with a decimal point, the reader refuses it rather than guess.
    const QString file = testData("ncu/ncu_details_decimal_comma.csv");
    const Run run = runCli({ "analyze", "--hardware", "h100", "--decimal-point", file });
    QCOMPARE(run.status, 2);
    QVERIFY2(run.err.contains("65,77"), run.err.constData());
}

void TestCliReaders::saysWhichReadOptionsAFileCannotUse_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("warning"); // empty: none
    const QString csv = fixture("simple_kernel_timing_rtx5070.csv");
    QTest::newRow("--per-kernel on a CSV of one's own")
        << csv << QStringList { "--per-kernel" }
        << "--per-kernel does not apply to this points CSV file (it is for Nsight Compute and "
           "rocprof-compute files); read without it";
    QTest::newRow("--per-kernel on a CSV, streamed --json")
        << csv << QStringList { "--per-kernel", "--json" }
        << "--per-kernel does not apply to this points CSV file (it is for Nsight Compute and "
           "rocprof-compute files); read without it";
    QTest::newRow("three on a CSV")
        << csv << QStringList { "--per-kernel", "--decimal-comma", "--lds-banks", "64" }
        << "--per-kernel, --decimal-comma, --lds-banks do not apply";
    QTest::newRow("--lds-banks on ncu") << kNcuTwoLaunches << QStringList { "--lds-banks", "64" }
                                        << "--lds-banks does not apply to this Nsight Compute";
    QTest::newRow("ncu options on rocprof")
        << kRocprofThreeDispatches
        << QStringList { "--tensor-flops-per-inst", "1024", "--half-fma-flops", "4" }
        << "--tensor-flops-per-inst, --half-fma-flops do not apply to this rocprof-compute";
    QTest::newRow("--per-kernel on ncu: used")
        << kNcuTwoLaunches << QStringList { "--per-kernel" } << QString();
    QTest::newRow("--per-kernel on rocprof: used")
        << kRocprofThreeDispatches << QStringList { "--per-kernel" } << QString();
    QTest::newRow("defaults say nothing") << csv << QStringList {} << QString();
}

void TestCliReaders::saysWhichReadOptionsAFileCannotUse()
{
    QFETCH(QString, file);
    QFETCH(QStringList, options);
    QFETCH(QString, warning);
    const Run run
        = runCli(QStringList { "analyze", "--hardware", "h100" } + options + QStringList { file });
    QVERIFY2(run.status == 0, run.err.constData());
    if (warning.isEmpty()) {
        QVERIFY2(!run.err.contains("does not apply") && !run.err.contains("do not apply"),
            run.err.constData());
    } else {
        QVERIFY2(run.err.contains(warning.toUtf8()), run.err.constData());
        QCOMPARE(run.err.count("apply to this"), 1); // once per file
    }
}

void TestCliReaders::refusesBadReadOptions_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("message");
    const QString tensor = "--tensor-flops-per-inst: expected FLOP per tensor instruction";
    const QString half = "--half-fma-flops: expected 2 (NERSC) or 4";
    const QString lds = "--lds-banks: expected LDS banks per compute unit";
    for (const QString command : { "analyze", "render" }) {
        const QByteArray c = command.toUtf8();
        const auto row = [&](const char *name, const QStringList &options, const QString &message) {
            QTest::addRow("%s %s", c.constData(), name) << command << options << message;
        };
        row("tensor 0", { "--tensor-flops-per-inst", "0" }, tensor);
        row("tensor negative", { "--tensor-flops-per-inst", "-512" }, tensor);
        row("tensor not a number", { "--tensor-flops-per-inst", "many" }, tensor);
        row("tensor fraction", { "--tensor-flops-per-inst", "512.5" }, tensor);
        row("tensor too large", { "--tensor-flops-per-inst", "2000000" }, tensor);
        row("half FMA 3", { "--half-fma-flops", "3" }, half);
        row("half FMA 0", { "--half-fma-flops", "0" }, half);
        row("half FMA not a number", { "--half-fma-flops", "two" }, half);
        row("LDS banks 0", { "--lds-banks", "0" }, lds);
        row("LDS banks negative", { "--lds-banks", "-32" }, lds);
        row("LDS banks not a number", { "--lds-banks", "32 banks" }, lds);
        row("both decimal separators", { "--decimal-comma", "--decimal-point" },
            "--decimal-comma and --decimal-point contradict each other");
        row("no value", { "--lds-banks" }, "Missing value after '--lds-banks'");
    }
}

void TestCliReaders::refusesBadReadOptions()
{
    QFETCH(QString, command);
    QFETCH(QStringList, options);
    QFETCH(QString, message);
    const QString picture = m_dir->filePath("refused.png");
    QFile::remove(picture);
    QStringList arguments = { command, "--hardware", "v100", kNcuTwoLaunches };
    if (command == "render")
        arguments << "-o" << picture;
    const Run run = runCli(arguments + options);
    QCOMPARE(run.status, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    QVERIFY2(run.out.isEmpty(), run.out.constData()); // nothing analysed, nothing written
    QVERIFY(!QFile::exists(picture));
}

void TestCliReaders::helpListsTheReadOptions_data()
{
    QTest::addColumn<QString>("command");
    QTest::newRow("analyze") << "analyze";
    QTest::newRow("render") << "render";
}

void TestCliReaders::helpListsTheReadOptions()
{
    QFETCH(QString, command);
    const Run run = runCli({ command, "--help" });
    QCOMPARE(run.status, 0);
    const QString help = QString::fromUtf8(run.out);
    for (const char *option : { "--per-kernel", "--tensor-flops-per-inst <N>",
             "--half-fma-flops <2|4>", "--decimal-comma", "--decimal-point", "--lds-banks <N>" })
        QVERIFY2(help.contains(QLatin1String(option)), option);
}

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
    // The ad-hoc script formats (docs/FORMATS.md §6): points known by intensity and rate, whose
    // FLOPs the report leaves null (read as 0 here).
    QTest::newRow("NERSC hierarchical text")
        << testData("adhoc/nersc_hierarchical.txt") << 0 << 3 << "bs=1" << 0.0 << "";
    QTest::newRow("mohamed apps.csv")
        << testData("adhoc/apps.csv") << 0 << 5 << "spmv (impl a)" << 0.0
        << "2 applications have an intensity but no implementation's performance";
    QTest::newRow("Techercise metric values")
        << testData("adhoc/metric_values.csv") << 0 << 3 << "lbm_kernel_a (ID 0)" << 0.0 << "";
    QTest::newRow("thoasm roofline-benchmark")
        << testData("adhoc/thoasm_results.csv") << 0 << 2 << "line 2" << 250000000.0 << "";
}

void TestCliReaders::analysesTheRealPointFiles()
{
    QFETCH(QString, file);
    QFETCH(int, status);
    QFETCH(int, points);
    QFETCH(QString, firstName);
    QFETCH(double, firstFlops);
    QFETCH(QString, stderrContains);
    const Run run = runCli({ "analyze", "--hardware", "h100", "--json", file });
    QVERIFY2(run.status == status, run.err.constData());
    QVERIFY2(QString::fromUtf8(run.err).contains(stderrContains), run.err.constData());
    if (status == 2 && points == 0) {
        // Errors first (issue 17): no point placed, nothing on stdout, not even an empty report.
        QCOMPARE(run.out, QByteArray());
        return;
    }
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
    // memroofs 12000 2500.5 800.25 GB/s: L1 first.
    QTest::newRow("NERSC hierarchical text")
        << testData("adhoc/nersc_hierarchical.txt") << "NERSC roofline (nersc_hierarchical.txt)"
        << 12000e9;
    QTest::newRow("ERT sum") << testData("adhoc/ert_sum.txt") << "ERT sum (ert_sum.txt)"
                             << 310.25e9;
    QTest::newRow("GPU-Roofline-Profiler peaks.csv")
        << testData("adhoc/peaks.csv") << "GPU-Roofline-Profiler peaks (peaks.csv)" << 650e9;
    // One machine per row: the first is used.
    QTest::newRow("mohamed hw_db.csv")
        << testData("adhoc/hw_db.csv") << "Vendor GPU Model X" << 700e9;
}

void TestCliReaders::takesCeilingsFromProfilerFiles()
{
    QFETCH(QString, hardware);
    QFETCH(QString, name);
    QFETCH(double, mainMemory);
    const Run run = runCli({ "analyze", "--hardware", hardware, "--json",
        fixture("simple_kernel_timing_rtx5070.csv") });
    QVERIFY2(run.status == 0, run.err.constData());
    const QJsonObject machine
        = QJsonDocument::fromJson(run.out).object().value("hardware").toObject();
    QCOMPARE(machine.value("name").toString(), name);
    QCOMPARE(machine.value("memory").toArray().first().toObject().value("bandwidth").toDouble(),
        mainMemory);
}

void TestCliReaders::placesNerscPointsOnTheFilesOwnRoofs()
{
    // One NERSC file gives both: its roofs with --hardware, its kernels as points.
    const QString file = testData("adhoc/nersc_hierarchical.txt");
    const Run run = runCli({ "analyze", "--hardware", file, "--json", file });
    QVERIFY2(run.status == 0, run.err.constData());
    const QJsonObject bs1 = pointsOf(run).first().toObject();
    QCOMPARE(bs1.value("name").toString(), QString("bs=1"));
    // One level per intensity (HBM, L2, L1); HBM's 800.25 GB/s × 2.5 FLOP/B is the lowest roof.
    const QJsonArray levels = bs1.value("levels").toArray();
    QCOMPARE(levels.size(), 3);
    QCOMPARE(levels.at(1).toObject().value("memory").toString(), QString("L2"));
    QCOMPARE(levels.at(1).toObject().value("intensity").toDouble(), 1.25);
    QCOMPARE(bs1.value("limiting_ceiling").toString(), QString("HBM"));
    QVERIFY(std::fabs(bs1.value("attainable").toDouble() - 800.25e9 * 2.5) < 1e-3);
    QVERIFY(bs1.value("flops").isNull());
    QVERIFY(bs1.value("t_min").isNull());
    QCOMPARE(bs1.value("performance").toDouble(), 1500e9);
}

void TestCliReaders::explainsAFileOfUnknownShape()
{
    const QString file = test::sourcePath(QStringLiteral("tests/data/bad/unknown_shape.txt"));
    const Run run = runCli({ "analyze", "--hardware", "h100", file });
    QCOMPARE(run.status, 2);
    QVERIFY2(QString::fromUtf8(run.err).startsWith(
                 file + ": not a file Ridgepoint can read; tried points CSV (no header row"),
        run.err.constData());
}

void TestCliReaders::analysesAProfilerTraceOnItsDevice()
{
    const QString trace = testData("traces/small/example.json");
    const Run table = runCli({ "analyze", trace });
    QCOMPARE(table.status, 0);
    QVERIFY2(table.out.startsWith("placed 63.6 % of 22 us of GPU time (4 kernels); not placed: "
                                  "replayed_kernel 6 us (no launch in the trace"),
        table.out.constData());
    QVERIFY(table.out.contains("\nNVIDIA A100 40GB (A100 40GB)\n"));
    const Run json = runCli({ "analyze", "--json", trace });
    QCOMPARE(json.status, 0);
    const QJsonObject root = QJsonDocument::fromJson(json.out).object();
    const QJsonObject summary = root.value("trace").toObject();
    QCOMPARE(summary.value("gpu_seconds").toDouble(), 22e-6);
    QCOMPARE(summary.value("placed_seconds").toDouble(), 14e-6);
    const QJsonArray unplaced = summary.value("unplaced").toArray();
    QCOMPARE(unplaced.size(), 2);
    QCOMPARE(unplaced[1].toObject().value("reason").toString(),
        QString("operator aten::nonzero has no model yet"));
    double seconds = 0.0;
    for (const auto &point : pointsOf(json))
        seconds += point.toObject().value("seconds").toDouble();
    QVERIFY(std::abs(seconds - 14e-6) < 1e-15);
    // Each point is held to the roof of its own precision, not the machine's default.
    QCOMPARE(
        pointsOf(json)[0].toObject().value("compute_ceiling").toString(), QString("FP32 CUDA"));
}

void TestCliReaders::asksForAMachineATraceDoesNotName()
{
    // A device no preset names and whose SM count (108) two presets share: no guess.
    const QString unnamed = write("unnamed_device.json", test::traceOfAnUnknownDevice());
    const Run unknown = runCli({ "analyze", unnamed });
    QCOMPARE(unknown.status, 2);
    QVERIFY2(unknown.err.contains("the trace's device \"NVIDIA Prototype X\" is not a preset "
                                  "Ridgepoint knows: give the machine with --hardware"),
        unknown.err.constData());
    QCOMPARE(runCli({ "analyze", "--hardware", "a100 40gb", unnamed }).status, 0);
    // ROCm names an MI250's die "AMD Radeon Graphics": its 104 CUs are the MI250 GCD's, the
    // one AMD preset with that count.
    const Run amd = runCli({ "analyze", testData("traces/mi250_minitoy_train.json.gz") });
    QCOMPARE(amd.status, 0);
    QVERIFY2(amd.out.contains("\nAMD Instinct MI250 (one GCD) (MI250 GCD)\n"), amd.out.constData());
}

void TestCliReaders::aFileWithItsRoofsNeedsNoMachine_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("machine");
    QTest::newRow("ncu roofline section") << fixture("ncu_section_roofline_chart_cublas_gemv.csv")
                                          << "Nsight Compute roofline (device 0, CC 12.0)";
    QTest::newRow("NERSC hierarchical text")
        << testData("adhoc/nersc_hierarchical.txt") << "NERSC roofline (nersc_hierarchical.txt)";
}

// A file that brings its roofs with its kernels is analysed and drawn on them without
// --hardware, as a trace is on its device's preset (until 2026-11-30: "no machine given"); a
// machine on the command line still wins.
void TestCliReaders::aFileWithItsRoofsNeedsNoMachine()
{
    QFETCH(QString, file);
    QFETCH(QString, machine);
    const Run own = runCli({ "analyze", file });
    QVERIFY2(own.status == 0, own.err.constData());
    QVERIFY2(own.out.startsWith(machine.toUtf8() + '\n'), own.out.constData());
    const Run named = runCli({ "analyze", "--hardware", "H100", file });
    QCOMPARE(named.status, 0);
    QVERIFY(named.out.startsWith("NVIDIA H100 SXM5 80GB"));
    QVERIFY(renderedSvg({ file }, "own-roofs.svg").contains(machine.toHtmlEscaped().toUtf8()));
}

void TestCliReaders::aMachineFileAmongTheInputsIsTheMachine_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QString>("machine");
    QTest::addColumn<int>("points");
    QTest::newRow("rocprof roofline.csv, then pmc_perf.csv")
        << QStringList { kMi300Roofs, kRocprofThreeDispatches }
        << "rocprof-compute roofline (GPU 0)" << 3;
    QTest::newRow("pmc_perf.csv, then roofline.csv")
        << QStringList { kRocprofThreeDispatches, kMi300Roofs }
        << "rocprof-compute roofline (GPU 0)" << 3;
    QTest::newRow("Advisor's roofs with its survey")
        << QStringList { testData("advisor/roofs.csv"), testData("advisor/survey_current.csv") }
        << "Intel Advisor roofs (CPU)" << 3;
}

// Without a machine on the command line, an input that gives a machine and no points (a
// profiler's measured roofs) is the machine, as the window opens it: rocprof-compute's two files
// side by side need no --hardware (until 2026-11-30 the roofline.csv was refused as a points
// file, "open it as the machine instead", and then "no machine given"). A machine on the command
// line still wins, and the file is then refused as points.
void TestCliReaders::aMachineFileAmongTheInputsIsTheMachine()
{
    QFETCH(QStringList, files);
    QFETCH(QString, machine);
    QFETCH(int, points);
    const Run run = runCli(QStringList { "analyze", "--json" } + files);
    QVERIFY2(run.status == 0, run.err.constData());
    QVERIFY(run.err.contains(": gives a machine, not points: taken as the machine (--hardware "));
    const QJsonObject report = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(report["hardware"].toObject()["name"].toString(), machine);
    QCOMPARE(report["points"].toArray().size(), points);
    QVERIFY(renderedSvg(files, "machine-file.svg").contains(machine.toHtmlEscaped().toUtf8()));
    // One machine at a time: beside --hardware, or a second machine file, it is refused.
    const QString machineFile = files.first().contains("roof") ? files.first() : files.last();
    const Run named = runCli(QStringList { "analyze", "--json", "--hardware", "H100" } + files);
    QCOMPARE(named.status, 2);
    QCOMPARE(named.err,
        (machineFile
            + ": gives a machine, not points, and one machine is used at a time (given: "
              "--hardware H100): give one (render --compare FILE draws a second beside it)\n")
            .toUtf8());
    QVERIFY(named.out.isEmpty());
    // Two machine files: neither is announced as taken.
    const QString second = testData("json/hardware.json");
    const Run two = runCli(QStringList { "render", "-o", m_dir->filePath("two.svg") } + files
        + QStringList { second });
    QCOMPARE(two.status, 2);
    QVERIFY(two.err.contains((machineFile + ", " + second
        + ": each gives a machine, not points, and one machine is used at a time: give one "
          "(render --compare FILE draws a second beside it)\n")
                                 .toUtf8()));
}

// A machine file alone: `analyze` has nothing to place and says what to give (exit 2), `presets`
// shows the machine in full, `render` draws its roofline without points.
void TestCliReaders::aMachineFileAloneIsShownNotAnalysed()
{
    const Run alone = runCli({ "analyze", kMi300Roofs });
    QCOMPARE(alone.status, 2);
    QVERIFY2(
        alone.err.contains("analyze: no points to place on it: give the kernels' file after "
                           "it (ridgepoint analyze "
            + kMi300Roofs.toUtf8() + " KERNELS...), or see its ceilings with 'ridgepoint presets "
            + kMi300Roofs.toUtf8() + "'"),
        alone.err.constData());
    QVERIFY(alone.out.isEmpty());
    const Run shown = runCli({ "presets", kMi300Roofs });
    QVERIFY2(shown.status == 0, shown.err.constData());
    QVERIFY(shown.out.startsWith("rocprof-compute roofline (GPU 0)\n"));
    QVERIFY(shown.out.contains("BF16 MFMA"));
    const Run json = runCli({ "presets", "--json", kMi300Roofs });
    QCOMPARE(json.status, 0);
    QCOMPARE(QJsonDocument::fromJson(json.out).object()["name"].toString(),
        QString("rocprof-compute roofline (GPU 0)"));
    const Run nothing = runCli({ "analyze", "--hardware", "H100" });
    QCOMPARE(nothing.status, 2);
    QCOMPARE(nothing.err,
        QByteArray("analyze: nothing to analyze: give a points file, a session or --example (a "
                   "machine's ceilings alone: ridgepoint presets NAME|FILE)\n"));
    QVERIFY(nothing.out.isEmpty());
    const Run namesOfFile = runCli({ "presets", "--names", kMi300Roofs });
    QCOMPARE(namesOfFile.status, 2);
    QCOMPARE(namesOfFile.err,
        QByteArray("presets: --names lists the presets' names; it takes no NAME or FILE\n"));
    const Run missingFile = runCli({ "presets", "no-such-machine.json" });
    QCOMPARE(missingFile.status, 2);
    QVERIFY2(
        missingFile.err.contains("no-such-machine.json: not found"), missingFile.err.constData());
    const Run missing = runCli({ "presets", "no-such-machine" });
    QCOMPARE(missing.status, 2);
    QVERIFY(missing.err.startsWith("presets: no hardware preset matches \"no-such-machine\""));
    QVERIFY(renderedSvg({ kMi300Roofs }, "machine-alone.svg").contains("BF16 MFMA"));
}

// `presets FILE` lists every machine a file gives; --hardware FILE takes the first and says so.
void TestCliReaders::presetsListsEveryMachineOfAFile()
{
    const QString table = testData("adhoc/hw_db.csv");
    const Run shown = runCli({ "presets", table });
    QVERIFY2(shown.status == 0, shown.err.constData());
    QVERIFY(shown.out.startsWith("Vendor GPU Model X\n"));
    QVERIFY(shown.out.contains("\n\nVendor CPU Model Y\n"));
    const Run json = runCli({ "presets", "--json", table });
    QCOMPARE(QJsonDocument::fromJson(json.out).object()["presets"].toArray().size(), qsizetype(2));
    const Run used = runCli({ "analyze", "--hardware", table, testData("adhoc/apps.csv") });
    QVERIFY(used.err.contains((table
        + ": warning: 2 machines; the first, \"Vendor GPU Model X\", is used ('ridgepoint "
          "presets "
        + table + "' lists them)")
                                  .toUtf8()));
    QVERIFY(used.out.startsWith("Vendor GPU Model X"));
}

QTEST_GUILESS_MAIN(TestCliReaders)
#include "tst_cli_readers.moc"
