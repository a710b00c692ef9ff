// The headless command line, end to end: presets, analyze, render, exit statuses.
#include "tests/support/cli_run.h"
#include "tests/support/testpaths.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace test = ridgepoint::test;

namespace {

using test::Run;
using test::runCli;

QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void listsPresetsAsJson();
    void analysesPointsAsJson();
    void analysesWithInlinePeaks();
    void holdsEveryPointToAGivenPeak();
    void exitsTwoWhenOneFileHasNoPlaceablePoint();
    void placesSmallKernels();
    void flagsInconsistentPoints();
    void diagnosesImpossiblePoints_data();
    void diagnosesImpossiblePoints();
    void printsAnAlignedTable();
    void printsTheTableAsCsvOrMarkdown();
    void refusesAnUnknownFormat_data();
    void refusesAnUnknownFormat();
    void exitsTwoOnBadInput_data();
    void exitsTwoOnBadInput();
    void unreadableInputPrintsNoReport_data();
    void unreadableInputPrintsNoReport();
    void skipsBadRowsUnlessStrict();
    void rendersImages_data();
    void rendersImages();
    void explainsItself();
    void helpNamesTheCommand_data();
    void helpNamesTheCommand();
    void showsProvenanceOfAPreset();
    void picksFiguresForTheAnalysis_data();
    void picksFiguresForTheAnalysis();

private:
    QTemporaryDir m_dir;
    QString m_points;
};

void TestCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_points = write(m_dir, "points.csv",
        "name,flops,bytes,seconds,precision\n"
        "gemm,2e12,1e9,0.003,bf16\n"
        "stream,1e9,1.2e10,0.005,\n");
}

void TestCli::listsPresetsAsJson()
{
    const Run run = runCli({ "presets", "--json" });
    QCOMPARE(run.status, 0);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(run.out, &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonArray presets = doc.object().value("presets").toArray();
    QVERIFY(presets.size() >= 13);
    bool sawH100 = false;
    for (const auto &entry : presets) {
        const QJsonObject machine = entry.toObject();
        QCOMPARE(machine.value("version").toInt(), 2);
        // Every ceiling carries its provenance (at least a source: a version 1 file's ceilings
        // take the machine's) and every compute ceiling its sparsity.
        for (const char *list : { "compute", "memory" }) {
            for (const auto &c : machine.value(list).toArray()) {
                const QJsonObject ceiling = c.toObject();
                const QJsonObject provenance = ceiling.value("provenance").toObject();
                QVERIFY2(!provenance.value("source").toString().isEmpty(),
                    qPrintable(ceiling.value("name").toString()));
                if (QLatin1String(list) == QLatin1String("compute"))
                    QVERIFY(ceiling.value("sparsity").toString() == "dense"
                        || ceiling.value("sparsity").toString() == "2:4");
            }
        }
        QVERIFY(!machine.value("name").toString().isEmpty());
        QVERIFY(!machine.value("compute").toArray().isEmpty());
        QVERIFY(!machine.value("memory").toArray().isEmpty());
        const QJsonArray ridges = machine.value("ridges").toArray();
        QCOMPARE(ridges.size(),
            machine.value("compute").toArray().size() * machine.value("memory").toArray().size());
        if (machine.value("name").toString() == "NVIDIA H100 SXM5 80GB") {
            sawH100 = true;
            const QJsonObject first = ridges.first().toObject();
            QCOMPARE(first.value("compute").toString(), QString("BF16 tensor"));
            QCOMPARE(first.value("memory").toString(), QString("HBM3"));
            QVERIFY(std::fabs(first.value("intensity").toDouble() - 989e12 / 3.35e12) < 1e-9);
        }
    }
    QVERIFY(sawH100);
}

void TestCli::analysesPointsAsJson()
{
    const Run run = runCli({ "analyze", "--hardware", "h100", "--json", m_points });
    QCOMPARE(run.status, 0);
    const QJsonObject doc = QJsonDocument::fromJson(run.out).object();
    const QJsonObject hardware = doc.value("hardware").toObject();
    QCOMPARE(hardware.value("name").toString(), QString("NVIDIA H100 SXM5 80GB"));
    for (const char *key : { "compute", "memory", "ridges" })
        QVERIFY2(hardware.value(key).isArray(), key);
    const QJsonArray points = doc.value("points").toArray();
    QCOMPARE(points.size(), 2);
    const QJsonObject gemm = points.at(0).toObject();
    for (const char *key : { "name", "flops", "seconds", "performance", "levels", "compute_ceiling",
             "t_math", "t_min", "t_max", "attainable", "bound", "limiting_ceiling", "utilization",
             "consistent", "note" })
        QVERIFY2(gemm.contains(key), key);
    const QJsonObject level = gemm.value("levels").toArray().first().toObject();
    for (const char *key : { "memory", "bytes", "intensity", "attainable", "t_mem" })
        QVERIFY2(level.contains(key), key);
    // Independent check in SI base units: 2 TFLOP on 989 TFLOP/s, 1 GB on 3.35 TB/s.
    QCOMPARE(gemm.value("bound").toString(), QString("compute"));
    QCOMPARE(gemm.value("compute_ceiling").toString(), QString("BF16 tensor"));
    QVERIFY(std::fabs(gemm.value("t_math").toDouble() - 2e12 / 989e12) < 1e-15);
    QVERIFY(std::fabs(level.value("t_mem").toDouble() - 1e9 / 3.35e12) < 1e-15);
    QVERIFY(std::fabs(gemm.value("performance").toDouble() - 2e12 / 0.003) < 1e-3);
    QVERIFY(std::fabs(gemm.value("utilization").toDouble() - (2e12 / 0.003) / 989e12) < 1e-12);
    QCOMPARE(gemm.value("consistent").toBool(), true);
    const QJsonObject stream = points.at(1).toObject();
    QCOMPARE(stream.value("bound").toString(), QString("memory"));
    QCOMPARE(stream.value("limiting_ceiling").toString(), QString("HBM3"));
}

void TestCli::analysesWithInlinePeaks()
{
    // docs/MODEL.md §5.1's machine from the command line alone: π = 100 TFLOP/s, β = 2 TB/s,
    // ridge 50.
    const Run run = runCli(
        { "analyze", "--peak", "100 TFLOP/s", "--bandwidth", "2TB/s", "--json", m_points });
    QCOMPARE(run.status, 0);
    const QJsonObject doc = QJsonDocument::fromJson(run.out).object();
    const QJsonObject ridge = doc["hardware"]["ridges"].toArray().first().toObject();
    QCOMPARE(ridge.value("intensity").toDouble(), 50.0);

    // Overrides on a preset rename it so nobody mistakes the result for the preset.
    const Run custom
        = runCli({ "analyze", "--hardware", "H100", "--bandwidth", "3 TB/s", "--json", m_points });
    QCOMPARE(custom.status, 0);
    const QJsonObject customDoc = QJsonDocument::fromJson(custom.out).object();
    QCOMPARE(
        customDoc["hardware"]["name"].toString(), QString("Custom (from NVIDIA H100 SXM5 80GB)"));
    QCOMPARE(
        customDoc["hardware"]["memory"].toArray().first().toObject().value("bandwidth").toDouble(),
        3e12);

    const Run chosen
        = runCli({ "analyze", "--hardware", "H100", "--compute", "FP32 CUDA", "--json", m_points });
    QCOMPARE(chosen.status, 0);
    QCOMPARE(QJsonDocument::fromJson(chosen.out)
                 .object()["points"]
                 .toArray()
                 .first()
                 .toObject()
                 .value("compute_ceiling")
                 .toString(),
        QString("FP32 CUDA"));
}

void TestCli::holdsEveryPointToAGivenPeak()
{
    // Regression (review): a one-ceiling machine from --peak/--bandwidth refused bf16 points,
    // and --peak on a preset silently missed points whose precision picked another ceiling.
    const QString bf16 = write(m_dir, "bf16.csv",
        "name,flops,bytes,seconds,precision\nk,1e9,1e9,1,bf16\nj,1e9,1e9,1,fp32\n");
    const Run simple
        = runCli({ "analyze", "--peak", "1e13", "--bandwidth", "1e11", "--json", bf16 });
    QCOMPARE(simple.status, 0);
    const QJsonArray points = QJsonDocument::fromJson(simple.out).object()["points"].toArray();
    QCOMPARE(points.size(), 2);
    for (const auto &p : points)
        QCOMPARE(p.toObject().value("peak").toDouble(), 1e13);
    const Run overridden
        = runCli({ "analyze", "--hardware", "h100", "--peak", "10 TFLOP/s", "--json", bf16 });
    QCOMPARE(overridden.status, 0);
    for (const auto &p : QJsonDocument::fromJson(overridden.out).object()["points"].toArray())
        QCOMPARE(p.toObject().value("peak").toDouble(), 1e13);
}

void TestCli::exitsTwoWhenOneFileHasNoPlaceablePoint()
{
    // Regression (review): a file whose rows all read but none could be placed let the run
    // exit 0 when another file had points.
    const QString zero = write(m_dir, "zero.csv", "name,flops,bytes,seconds\nidle,0,1e9,1\n");
    const Run run = runCli({ "analyze", "--hardware", "h100", m_points, zero });
    QCOMPARE(run.status, 2);
    QVERIFY2(run.err.contains("zero.csv: no point could be placed"), run.err.constData());
}

void TestCli::placesSmallKernels()
{
    // docs/MODEL.md §5.1's dot product on its own machine: ridge 50, P -> min(100, 2 x 0.5) = 1
    // TFLOP/s.
    const Run dot = runCli({ "kernel", "--dot", "1000000000", "--peak", "100 TFLOP/s",
        "--bandwidth", "2 TB/s", "--json" });
    QCOMPARE(dot.status, 0);
    const QJsonObject doc = QJsonDocument::fromJson(dot.out).object();
    QCOMPARE(
        doc["hardware"]["ridges"].toArray().first().toObject().value("intensity").toDouble(), 50.0);
    const QJsonObject point = doc["points"].toArray().first().toObject();
    const double n = 1e9;
    QCOMPARE(point.value("flops").toDouble(), 2 * n - 1);
    const QJsonObject level = point.value("levels").toArray().first().toObject();
    QCOMPARE(level.value("bytes").toDouble(), 4 * n + 2);
    const double attainable = point.value("attainable").toDouble();
    QVERIFY(std::fabs(attainable - 2e12 * (2 * n - 1) / (4 * n + 2)) < 1e-3);
    QVERIFY(std::fabs(attainable - 1e12) < 1e12 * 1e-8); // -> 1 TFLOP/s
    QCOMPARE(point.value("bound").toString(), QString("memory"));

    // Q8_0 (docs/MODEL.md §5.6): 32 FLOPs per 34-byte block when an FMA counts once; twice that
    // at 2.
    const auto q8 = [](const char *fma) {
        const Run run = runCli({ "kernel", "--q8-0", "4096,4096", "--fma-flops", fma, "--hardware",
            "DDR5 desktop", "--json" });
        const QJsonObject p
            = QJsonDocument::fromJson(run.out).object()["points"].toArray().first().toObject();
        return std::make_pair(run.status,
            p.value("levels").toArray().first().toObject().value("intensity").toDouble());
    };
    const auto [status1, intensity1] = q8("1");
    QCOMPARE(status1, 0);
    // Independent: FLOPs 4096*4096; bytes 4096*4096/32*34 (weights) + 4096*4 (x) + 4096*4 (y).
    const double expected = 4096.0 * 4096.0 / (4096.0 * 4096.0 / 32.0 * 34.0 + 2 * 4096.0 * 4.0);
    QVERIFY2(
        std::fabs(intensity1 - expected) < 1e-9, qPrintable(QString::number(intensity1, 'g', 12)));
    QVERIFY(std::fabs(intensity1 - 0.94) < 0.005);
    const auto [status2, intensity2] = q8("2");
    QCOMPARE(status2, 0);
    QVERIFY(std::fabs(intensity2 - 2 * intensity1) < 1e-9);

    const Run perExample
        = runCli({ "kernel", "--per-example", "64,8192,8192", "--hardware", "h100", "--json" });
    QCOMPARE(perExample.status, 0);
    const double i = QJsonDocument::fromJson(perExample.out)
                         .object()["points"]
                         .toArray()
                         .first()
                         .toObject()
                         .value("levels")
                         .toArray()
                         .first()
                         .toObject()
                         .value("intensity")
                         .toDouble();
    QVERIFY2(
        std::fabs(i - 1.0) < 0.001, qPrintable(QString::number(i))); // section 12.1: -> 1 in bf16

    QCOMPARE(runCli({ "kernel", "--hardware", "h100" }).status, 2);
    QCOMPARE(runCli({ "kernel", "--dot", "0", "--hardware", "h100" }).status, 2);
    QCOMPARE(runCli({ "kernel", "--q8-0", "4096,100", "--hardware", "h100" }).status, 2);
    QCOMPARE(
        runCli({ "kernel", "--q8-0", "64,64", "--fma-flops", "3", "--hardware", "h100" }).status,
        2);
}

void TestCli::flagsInconsistentPoints()
{
    const QString fast
        = write(m_dir, "fast.csv", "name,flops,bytes,seconds\ntoo fast,1e9,1e9,1e-6\n");
    const Run run = runCli({ "analyze", "--hardware", "h100", "--json", fast });
    QCOMPARE(run.status, 0);
    const QJsonObject point
        = QJsonDocument::fromJson(run.out).object()["points"].toArray().first().toObject();
    QCOMPARE(point.value("consistent").toBool(), false);
    QVERIFY(point.value("note").toString().contains("counts or peaks are off"));
    QVERIFY(run.err.contains("faster than the roofline allows"));
    // The doctor's list: 1e9 B in 1 us is 1e15 B/s, ×300 the H100's 3.35 TB/s HBM and above
    // every cache roof at I = 1 FLOP/B, so only the generic cause is left.
    const QJsonArray diagnosis = point.value("diagnosis").toArray();
    QCOMPARE(diagnosis.size(), 1);
    const QJsonObject top = diagnosis.first().toObject();
    QCOMPARE(top.value("cause").toString(), QString("counts or peaks are off"));
    QVERIFY(top.value("evidence").toString().contains("roof"));
    QVERIFY(!top.value("fix").toString().isEmpty());
    // The table lists it under the tally.
    const Run table = runCli({ "analyze", "--hardware", "h100", fast });
    QVERIFY(table.out.contains("notes: likely causes"));
    QVERIFY(table.out.contains("1. counts or peaks are off"));
}

void TestCli::diagnosesImpossiblePoints_data()
{
    QTest::addColumn<QString>("row");
    QTest::addColumn<QString>("cause"); // the top cause; empty for a point that is fine
    // On a machine of 10 TFLOP/s and 3 TB/s: I = 1e9 FLOP / 1e9 B = 1, at 1 ms: 1e12 FLOP/s,
    // under the roof of min(1e13, 3e12·1) = 3e12 FLOP/s: fine, an empty list.
    QTest::newRow("fine") << "fine,1e9,1e9,1e-3"
                          << "";
    // B: F = 1e12 at I = 1000, compute-bound on the 1e13 FLOP/s roof (T_min 0.1 s), measured
    // 0.05 s: ×2.00, the FMA factor.
    QTest::newRow("doubled") << "doubled,1e12,1e9,0.05"
                             << "FLOPs counted twice";
}

void TestCli::diagnosesImpossiblePoints()
{
    QFETCH(QString, row);
    QFETCH(QString, cause);
    const QString points
        = write(m_dir, "doctor.csv", ("name,flops,bytes,seconds\n" + row + "\n").toUtf8());
    const Run run
        = runCli({ "analyze", "--peak", "10 TFLOP/s", "--bandwidth", "3 TB/s", "--json", points });
    QCOMPARE(run.status, 0);
    const QJsonObject point
        = QJsonDocument::fromJson(run.out).object()["points"].toArray().first().toObject();
    QVERIFY(point.contains("diagnosis"));
    const QJsonArray diagnosis = point.value("diagnosis").toArray();
    if (cause.isEmpty()) {
        QVERIFY(diagnosis.isEmpty());
        return;
    }
    QVERIFY(diagnosis.size() >= 2);
    QCOMPARE(diagnosis.first().toObject().value("cause").toString(), cause);
    QVERIFY(diagnosis.first().toObject().value("evidence").toString().contains("×2.00"));
}

void TestCli::printsAnAlignedTable()
{
    const Run run = runCli({ "analyze", "--hardware", "tpu v5e", m_points });
    QCOMPARE(run.status, 0);
    const QString text = QString::fromUtf8(run.out);
    QVERIFY(text.contains("Google TPU v5e"));
    QVERIFY(text.contains("240.2 FLOP/B vs HBM"));
    QVERIFY(text.contains("820 GB/s"));
    const QStringList lines = text.split('\n');
    const int header = static_cast<int>(lines.indexOf(QRegularExpression("^kernel .*")));
    QVERIFY(header > 0);
    // Columns line up: "bound" starts at the same offset on the header and each row.
    const qsizetype column = lines[header].indexOf("bound");
    QVERIFY(lines[header + 1].mid(column).startsWith("compute"));
    QVERIFY(lines[header + 2].mid(column).startsWith("memory"));
    // The tally under the rows: gemm at 2000 FLOP/B and stream at 0.083 FLOP/B (ridge 240), both
    // faster than this machine allows; then the doctor's notes on both. gemm is at 666.7/197 =
    // ×3.38 the BF16 MXU roof and above the ×2 INT8 one (394), stream at 200/68.33 = ×2.93 the
    // HBM roof with no cache level: the generic cause alone for each.
    QVERIFY2(text.contains("\n\n2 points: 1 memory-bound, 1 compute-bound, 2 faster than the "
                           "roofline allows\n\nnotes: likely causes"),
        run.out.constData());
    QVERIFY2(text.contains("  gemm (×3.38 the BF16 MXU roof):\n    1. counts or peaks are off"),
        run.out.constData());
    QVERIFY2(text.contains("  stream (×2.93 the HBM roof):\n    1. counts or peaks are off"),
        run.out.constData());
}

void TestCli::exitsTwoOnBadInput_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown preset") << QStringList { "analyze", "--hardware", "Cray-1" }
                                    << "no hardware preset matches \"Cray-1\"";
    QTest::newRow("ambiguous preset")
        << QStringList { "analyze", "--hardware", "a100" } << "is ambiguous";
    QTest::newRow("no machine") << QStringList { "analyze", m_points } << "no machine given";
    QTest::newRow("nothing at all") << QStringList { "analyze" } << "nothing to analyze";
    QTest::newRow("bad peak") << QStringList { "analyze", "--peak", "fast", "--bandwidth",
        "1 TB/s" } << "--peak: \"fast\" is not a compute rate";
    QTest::newRow("bits for bandwidth") << QStringList { "analyze", "--peak", "1e12", "--bandwidth",
        "100 Gb/s" } << "lower-case b means bits";
    QTest::newRow("missing file") << QStringList { "analyze", "--hardware", "h100",
        "/nonexistent.csv" } << "/nonexistent.csv: not found";
    QTest::newRow("unknown option")
        << QStringList { "analyze", "--frobnicate" } << "Unknown option 'frobnicate'";
    QTest::newRow("unknown compute ceiling") << QStringList { "analyze", "--hardware", "h100",
        "--compute", "warp" } << "no compute ceiling named \"warp\"";
    QTest::newRow("missing hardware file") << QStringList { "analyze", "--hardware",
        "/nonexistent/gpu.json" } << "/nonexistent/gpu.json: not found";
    QTest::newRow("unknown command") << QStringList { "frobnicate" } << "";
    QTest::newRow("render without output")
        << QStringList { "render", "--hardware", "h100" } << "render needs an output file";
    QTest::newRow("render to unknown type") << QStringList { "render", "--hardware", "h100", "-o",
        "/tmp/x.bmp" } << "unknown image type";
}

void TestCli::exitsTwoOnBadInput()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    if (arguments.first() == "frobnicate") {
        // Not a subcommand: the window would open; only check that help exits 0.
        const Run help = runCli({ "help" });
        QCOMPARE(help.status, 0);
        return;
    }
    const Run run = runCli(arguments);
    QCOMPARE(run.status, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
}

void TestCli::unreadableInputPrintsNoReport_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << "/nonexistent.csv"
                             << "/nonexistent.csv: not found";
    QTest::newRow("directory") << "/tmp"
                               << "/tmp: is a directory";
    QTest::newRow("device") << "/dev/zero"
                            << "/dev/zero: is a character device";
}

// Every input unreadable: the reasons, and no machine block or empty table to bury them.
void TestCli::unreadableInputPrintsNoReport()
{
    QFETCH(QString, file);
    QFETCH(QString, message);
    const Run run = runCli({ "analyze", "--hardware", "h100", file });
    QCOMPARE(run.status, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    QCOMPARE(run.out, QByteArray());
}

void TestCli::skipsBadRowsUnlessStrict()
{
    const QString mixed = write(m_dir, "mixed.csv",
        "name,flops,bytes,seconds\ngood,1e9,1e9,1\nbad,x,1e9,1\nworse,1e9,0,1\n");
    const Run lenient = runCli({ "analyze", "--hardware", "h100", "--json", mixed });
    QCOMPARE(lenient.status, 0);
    QCOMPARE(QJsonDocument::fromJson(lenient.out).object()["points"].toArray().size(), 1);
    const QString err = QString::fromUtf8(lenient.err);
    QVERIFY2(err.contains(mixed + ":3:5: column \"flops\""), qPrintable(err));
    QVERIFY2(err.contains(mixed + ":4:11: column \"bytes\""), qPrintable(err));
    QVERIFY2(err.contains("2 of 3 rows skipped"), qPrintable(err));

    const Run strict = runCli({ "analyze", "--hardware", "h100", "--strict", "--json", mixed });
    QCOMPARE(strict.status, 2);

    const QString useless = write(m_dir, "useless.csv", "name,flops,bytes,seconds\nbad,x,1,1\n");
    const Run none = runCli({ "analyze", "--hardware", "h100", useless });
    QCOMPARE(none.status, 2);
    QVERIFY(none.err.contains("no usable point"));

    // A point whose precision the machine lacks is reported and left out.
    const QString fp64 = write(
        m_dir, "fp64.csv", "name,flops,bytes,seconds,precision\na,1e9,1e9,1,fp64\nb,1e9,1e9,1,\n");
    const Run v5e = runCli({ "analyze", "--hardware", "v5e", "--json", fp64 });
    QCOMPARE(v5e.status, 0);
    QVERIFY(v5e.err.contains(
        fp64.toUtf8() + ":2: point \"a\": Google TPU v5e has no fp64 compute ceiling"));
    QCOMPARE(QJsonDocument::fromJson(v5e.out).object()["points"].toArray().size(), 1);
    QCOMPARE(runCli({ "analyze", "--hardware", "v5e", "--strict", fp64 }).status, 2);
}

void TestCli::rendersImages_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("magic");
    QTest::newRow("png") << "chart.png" << QByteArray("\x89PNG");
    QTest::newRow("svg") << "chart.svg" << QByteArray("<?xml");
    QTest::newRow("pdf") << "chart.pdf" << QByteArray("%PDF");
}

void TestCli::rendersImages()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, magic);
    const QString output = m_dir.filePath(name);
    const Run run = runCli({ "render", "--hardware", "h100", "--example", "-o", output, "--width",
        "800", "--height", "500" });
    QCOMPARE(run.status, 0);
    QFile file(output);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray content = file.readAll();
    QVERIFY(content.startsWith(magic));
    QVERIFY(content.size() > 2000);
    if (name.endsWith(".svg")) {
        // Regression: a headless render never replots, and the roof labels were never placed.
        QVERIFY(content.contains("HBM3"));
        QVERIFY(content.contains("989 TFLOP/s"));
        QVERIFY(content.contains("ridge 295 FLOP/B"));
    }
}

// The same core table the window's File > Export table writes (issue 4).
void TestCli::printsTheTableAsCsvOrMarkdown()
{
    const Run csv = runCli({ "analyze", "--hardware", "h100", "--format", "csv", m_points });
    QCOMPARE(csv.status, 0);
    const QList<QByteArray> lines = csv.out.split('\n');
    QVERIFY(lines.at(0).startsWith("kernel,group,precision,flops [FLOP],memory,bytes [B],"));
    QVERIFY(lines.at(0).endsWith("\r"));
    // 2e12 FLOP in 0.003 s: every digit of the double, SI base units.
    QVERIFY2(lines.at(1).startsWith("gemm,,bf16,2e+12,HBM3,1e+09,2000,0.003,666666666666666.6,"),
        lines.at(1).constData());
    QVERIFY(lines.at(2).startsWith("stream,,,1e+09,HBM3,1.2e+10,0.08333333333333333,0.005,2e+11,"));

    const Run markdown
        = runCli({ "analyze", "--hardware", "h100", "--format", "markdown", m_points });
    QCOMPARE(markdown.status, 0);
    const QList<QByteArray> rows = markdown.out.split('\n');
    QVERIFY(rows.at(0).startsWith("| Kernel |"));
    QVERIFY(rows.at(1).startsWith("| ------ |"));
    QVERIFY2(rows.at(2).contains("| 666.7 TFLOP/s |"), rows.at(2).constData());
    QCOMPARE(rows.at(0).size(), rows.at(2).size()); // aligned

    // --json still works and means --format json.
    const Run json = runCli({ "analyze", "--hardware", "h100", "--format", "json", m_points });
    QCOMPARE(json.status, 0);
    QCOMPARE(json.out, runCli({ "analyze", "--hardware", "h100", "--json", m_points }).out);
}

void TestCli::refusesAnUnknownFormat_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown") << QStringList { "--format", "xml" }
                             << "--format: expected table, json, csv or markdown, got \"xml\"";
    QTest::newRow("contradiction") << QStringList { "--json", "--format", "csv" }
                                   << "--json and --format csv contradict each other";
}

void TestCli::refusesAnUnknownFormat()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = runCli(
        QStringList { "analyze", "--hardware", "h100" } + arguments + QStringList { m_points });
    QCOMPARE(run.status, 2);
    QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
}

void TestCli::explainsItself()
{
    const Run help = runCli({ "analyze", "--help" });
    QCOMPARE(help.status, 0);
    for (const char *option :
        { "--hardware", "--peak", "--bandwidth", "--compute", "--json", "--strict", "--figures" })
        QVERIFY2(help.out.contains(option), option);
    const Run window = runCli({ "--help-window" });
    QCOMPARE(window.status, 0);
    QVERIFY2(window.out.startsWith("Usage: ridgepoint [options]"), window.out.constData());
    const Run version = runCli({ "--version" });
    QCOMPARE(version.status, 0);
    QVERIFY(version.out.startsWith("ridgepoint "));
}

// Each command's --help starts with the command as it is typed, not the executable's path
// (which QCommandLineParser puts there), and a parse error points at that help.
void TestCli::helpNamesTheCommand_data()
{
    QTest::addColumn<QString>("command");
    for (const char *command :
        { "presets", "analyze", "render", "matmul", "llm", "kernel", "measure" })
        QTest::newRow(command) << command;
}

void TestCli::helpNamesTheCommand()
{
    QFETCH(QString, command);
    const Run help = runCli({ command, "--help" });
    QCOMPARE(help.status, 0);
    const QByteArray first = help.out.left(help.out.indexOf('\n'));
    QVERIFY2(first.startsWith("Usage: ridgepoint " + command.toUtf8() + " [options]"),
        first.constData());
    const Run wrong = runCli({ command, "--no-such-option" });
    QCOMPARE(wrong.status, 2);
    QVERIFY2(wrong.err.contains("(see 'ridgepoint " + command.toUtf8() + " --help')"),
        wrong.err.constData());
}

// `presets NAME` shows one machine with where each figure comes from; `presets` sums up the
// bases per machine; `presets NAME --json` is that machine's hardware file.
void TestCli::showsProvenanceOfAPreset()
{
    const Run detail = runCli({ "presets", "h100" });
    QCOMPARE(detail.status, 0);
    QVERIFY(detail.out.startsWith("NVIDIA H100 SXM5 80GB\n"));
    for (const char *part : { "  basis: spec ", "      basis: ", "      source: ", "  memory:\n" })
        QVERIFY2(detail.out.contains(part), part);
    const Run table = runCli({ "presets" });
    QCOMPARE(table.status, 0);
    QVERIFY(table.out.contains("  basis: spec "));
    const Run json = runCli({ "presets", "h100", "--json" });
    QCOMPARE(json.status, 0);
    const QJsonObject machine = QJsonDocument::fromJson(json.out).object();
    QCOMPARE(machine.value("name").toString(), QString("NVIDIA H100 SXM5 80GB"));
    QCOMPARE(machine.value("version").toInt(), 2);
    const Run unknown = runCli({ "presets", "no-such-machine" });
    QCOMPARE(unknown.status, 2);
    QVERIFY(unknown.err.contains("no hardware preset matches"));
}

void TestCli::picksFiguresForTheAnalysis_data()
{
    QTest::addColumn<QStringList>("figures");
    QTest::addColumn<double>("bandwidth");
    QTest::addColumn<QString>("basis");
    QTest::addColumn<QString>("summary");
    // tests/data/json/hardware_provenance.json: HBM2 is 1555 GB/s from the datasheet with a
    // measured 1.35 TB/s beside it; measured is the default. Of its five ceilings, L2 is derived
    // and FP32 vector and HBM2 have a measured alternate: measured figures make 2 spec, 1
    // derived, 2 measured; spec figures 4 spec, 1 derived. The figures not used are counted as
    // alternates, so a measured figure the source names is never left out of the summary.
    const QString measured = "  basis: spec 2, derived 1, measured 2; alternates: 2 spec\n";
    const QString spec = "  basis: spec 4, derived 1, measured 0; alternates: 2 measured\n";
    QTest::newRow("default") << QStringList {} << 1.35e12 << "measured" << measured;
    QTest::newRow("measured") << QStringList { "--figures", "measured" } << 1.35e12 << "measured"
                              << measured;
    QTest::newRow("spec") << QStringList { "--figures", "spec" } << 1555e9 << "spec" << spec;
}

void TestCli::picksFiguresForTheAnalysis()
{
    QFETCH(QStringList, figures);
    QFETCH(double, bandwidth);
    QFETCH(QString, basis);
    QFETCH(QString, summary);
    const QString file
        = test::sourcePath(QStringLiteral("tests/data/json/hardware_provenance.json"));
    const Run run = runCli(QStringList { "analyze", "--hardware", file, "--json" } + figures
        + QStringList { m_points });
    QCOMPARE(run.status, 0);
    const QJsonObject hardware
        = QJsonDocument::fromJson(run.out).object().value("hardware").toObject();
    QJsonObject hbm;
    for (const auto &m : hardware.value("memory").toArray()) {
        if (m.toObject().value("name").toString() == "HBM2")
            hbm = m.toObject();
    }
    QCOMPARE(hbm.value("bandwidth").toDouble(), bandwidth);
    QCOMPARE(hbm.value("provenance").toObject().value("basis").toString(), basis);
    QVERIFY(hbm.value("alternate").isObject());
    // The ceiling block before the table names each figure's basis.
    const Run table = runCli(
        QStringList { "analyze", "--hardware", file } + figures + QStringList { m_points });
    QCOMPARE(table.status, 0);
    QVERIFY2(table.out.contains(summary.toUtf8()), table.out.constData());
    QVERIFY(table.out.contains(" derived "));
    const Run bad = runCli({ "analyze", "--hardware", file, "--figures", "best", m_points });
    QCOMPARE(bad.status, 2);
    QVERIFY(bad.err.contains("--figures: expected measured or spec"));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
