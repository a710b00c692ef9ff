// `ridgepoint calibrate` and `ridgepoint predict` end to end (issue 29): a calibrated machine
// written from Vidur's H100 runs (tests/data/measured/vidur/), read back by predict, and the
// shape of predict --json: rows with operator, tokens/tp or bytes/ranks, measured, predicted
// and roofline in seconds; a summary of both errors; rows that cannot be predicted listed with
// why. Then an rccl-tests run (tests/data/measured/rccl/) on the MI300X's own link.
#include "tests/support/cli_run.h"
#include "tests/support/testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

namespace test = ridgepoint::test;

namespace {

using test::Run;
using test::runCli;

const QString kVidur = test::sourcePath(QStringLiteral("tests/data/measured/vidur/"));
const QString kRccl = test::sourcePath(QStringLiteral("tests/data/measured/rccl/"));

} // namespace

class TestCliCalibrate : public QObject
{
    Q_OBJECT

private slots:
    void calibrateThenPredict();
    void rcclRunOnItsLink();
    void badArguments_data();
    void badArguments();
    void help_data();
    void help();
};

void TestCliCalibrate::calibrateThenPredict()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString machine = dir.filePath("h100-calibrated.json");
    const QString operators = kVidur + "h100_llama-2-7b_mlp.csv";
    const QString network = kVidur + "h100_pairwise_nvlink_all_reduce.csv";
    const Run calibrated = runCli(
        { "calibrate", "--hardware", "H100", "--sms", "132", operators, network, "-o", machine });
    QVERIFY2(calibrated.status == 0, calibrated.err.constData());
    QFile file(machine);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject written = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonObject calibration = written["calibration"].toObject();
    QCOMPARE(calibration["basis"].toString(), QString("calibrated"));
    QCOMPARE(calibration["provenance"].toObject()["files"].toArray().size(), 2);
    QCOMPARE(calibration["operators"].toArray().size(), 10); // Vidur's ten operators
    QCOMPARE(calibration["collectives"].toArray().size(), 2); // all-reduce on 2 and on 4
    // Without --tile each GEMM takes the cheapest tile of the set, whose operand cost is fitted.
    QCOMPARE(calibration["tile_m"].toInt(), 0);
    const QJsonArray classes = calibration["classes"].toArray();
    const auto gemm = std::find_if(classes.begin(), classes.end(),
        [](const QJsonValue &c) { return c.toObject()["class"].toString() == "gemm"; });
    QVERIFY(gemm != classes.end());
    QVERIFY(gemm->toObject()["operand_cost"].toDouble() > 0.0);

    // A plain CSV row of a class the calibration never saw.
    const QString attention = dir.filePath("attention.csv");
    QFile plain(attention);
    QVERIFY(plain.open(QIODevice::WriteOnly));
    plain.write("operator,kind,dtype,seconds,flops,bytes\nflash,attention,bf16,1e-4,1e9,1e7\n");
    plain.close();

    const Run predicted
        = runCli({ "predict", "--hardware", machine, "--json", operators, network, attention });
    QVERIFY2(predicted.status == 0, predicted.err.constData());
    const QJsonObject json = QJsonDocument::fromJson(predicted.out).object();
    const QJsonArray rows = json["rows"].toArray();
    QCOMPARE(rows.size(), 1044 * 10 + 1988 + 1);
    const QJsonObject first = rows.first().toObject();
    for (const char *key : { "operator", "tokens", "tp", "measured", "predicted", "roofline" })
        QVERIFY2(first.contains(key), key);
    QCOMPARE(first["operator"].toString(), QString("emb"));
    QCOMPARE(first["tokens"].toInt(), 4096);
    QCOMPARE(first["tp"].toInt(), 1);
    QCOMPARE(first["measured"].toDouble(), 0.119e-3); // 0.11900000000000001 ms in the file
    const QJsonObject collective = rows[1044 * 10].toObject();
    QCOMPARE(collective["operator"].toString(), QString("all_reduce"));
    QCOMPARE(collective["bytes"].toDouble(), 2048.0);
    QCOMPARE(collective["ranks"].toInt(), 2);
    QVERIFY(collective["predicted"].toDouble() > 0.0);
    const QJsonObject unknown = rows.last().toObject();
    QVERIFY(unknown["predicted"].isNull());
    QVERIFY(unknown["why"].toString().contains("no fit for operator \"flash\""));
    // The residual adds of many tokens run faster than the HBM roof allows (their operands
    // are still in L2): flagged, and left out of the fit.
    int below = 0;
    for (const auto &row : rows) {
        if (row.toObject()["below_roofline"].toBool()) {
            ++below;
            QCOMPARE(row.toObject()["operator"].toString(), QString("add"));
        }
    }
    QVERIFY(below > 0);
    const QJsonObject summary = json["summary"].toObject();
    for (const char *key : { "calibrated", "roofline" }) {
        const QJsonObject s = summary[key].toObject();
        QVERIFY2(s.contains("median") && s.contains("p90") && s.contains("rows"), key);
    }
    QCOMPARE(summary["calibrated"].toObject()["rows"].toInt(), 1044 * 10 + 1988);
}

// A real rccl-tests run on eight MI300X: the regimes print their sizes in whole bytes, and every
// row's roofline is its bus bytes 2·7/8·m over the Infinity Fabric's 448 GB/s one way (896 both
// ways), the MI300X's link between chips; none is faster than that roof.
void TestCliCalibrate::rcclRunOnItsLink()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString machine = dir.filePath("mi300x-calibrated.json");
    const QString run = kRccl + "all_reduce_perf_mi300x.txt";
    const Run calibrated = runCli({ "calibrate", "--hardware", "MI300X", run, "-o", machine });
    QVERIFY2(calibrated.status == 0, calibrated.err.constData());
    QVERIFY2(calibrated.out.contains("all_reduce on 8 ranks (8 per node): [8-"),
        calibrated.out.constData());
    QVERIFY2(calibrated.out.contains("-8589934592 B: "), calibrated.out.constData());
    QVERIFY2(!calibrated.out.contains("e+"), calibrated.out.constData());

    const Run predicted = runCli({ "predict", "--hardware", machine, "--json", run });
    QVERIFY2(predicted.status == 0, predicted.err.constData());
    const QJsonArray rows = QJsonDocument::fromJson(predicted.out).object()["rows"].toArray();
    QCOMPARE(rows.size(), 31);
    for (const auto &value : rows) {
        const QJsonObject row = value.toObject();
        const double roofline = 1.75 * row["bytes"].toDouble() / 448e9;
        QVERIFY(std::abs(row["roofline"].toDouble() / roofline - 1.0) < 1e-12);
        QVERIFY(!row.contains("below_roofline"));
    }
}

void TestCliCalibrate::badArguments_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("no output") << QStringList { "calibrate", "--hardware", "H100", "x.csv" }
                               << "-o OUT.json is required";
    QTest::newRow("no files") << QStringList { "predict", "--hardware", "H100" }
                              << "expected one or more measured-runs files";
    QTest::newRow("bad tile") << QStringList { "calibrate", "--hardware", "H100", "--tile", "64",
        "-o", "/dev/null", "x.csv" }
                              << "--tile: expected MxN";
}

void TestCliCalibrate::badArguments()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = runCli(arguments);
    QCOMPARE(run.status, 2);
    QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
}

void TestCliCalibrate::help_data()
{
    QTest::addColumn<QString>("command");
    QTest::newRow("calibrate") << "calibrate";
    QTest::newRow("predict") << "predict";
}

// Both commands are listed, and their --help names them as they are typed.
void TestCliCalibrate::help()
{
    QFETCH(QString, command);
    const Run list = runCli({ "--help" });
    QVERIFY(list.out.contains("  " + command.toUtf8() + " "));
    const Run help = runCli({ command, "--help" });
    QCOMPARE(help.status, 0);
    QVERIFY2(help.out.startsWith("Usage: ridgepoint " + command.toUtf8() + " [options] FILE..."),
        help.out.constData());
}

QTEST_GUILESS_MAIN(TestCliCalibrate)
#include "tst_cli_calibrate.moc"
