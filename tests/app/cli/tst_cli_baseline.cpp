// `analyze TRACE --baseline OTHER` (text and --json) and `render --baseline` end to end through
// the executable (docs/MODEL.md §11.7): a hand-made pair of traces whose speed-ups are worked by
// hand, the A100 fixture against the V100 one with times linked apart by
// tests/data/traces/operator_times.py, and baselines that are missing or not a trace.
#include "tests/support/cli_run.h"
#include "tests/support/testfiles.h"
#include "tests/support/testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace test = ridgepoint::test;

namespace {

using test::Run;
using test::runCli;

QString testData(const char *name)
{
    return test::dataPath(QLatin1String(name));
}

// The hand-made pair (tests/data/traces/small): before.json is the baseline, after.json the run.
//   aten::mm 64×32·32×16   before 20 µs (volta_sgemm_64x32)   after 10 µs (ampere_sgemm_64x32)
//   aten::relu 4×16        before 4 µs (one launch)           after 3 + 5 = 8 µs (two launches)
//   aten::sigmoid 4×16     before 2 µs                        —
//   aten::mul 4×16, 4×16   —                                  after 6 µs
// Matched: mm and relu, 24 us → 18 us, ×24/18 = ×1.33; every point 26 us → 24 us, ×26/24 = ×1.08;
// the matched share 18/24 = 75.0 % of the run's time.
const QString kBefore = testData("traces/small/before.json");
const QString kAfter = testData("traces/small/after.json");
const QString kA100 = testData("traces/diff_control_a100.json.gz");
const QString kV100 = testData("traces/diff_test_v100.json.gz");

const char *const kMm = "aten::mm(float[64, 32], float[32, 16])";
const char *const kRelu = "aten::relu(float[4, 16])";
const char *const kSigmoid = "aten::sigmoid(float[4, 16])";
const char *const kMul = "aten::mul(float[4, 16], float[4, 16])";

bool near(double a, double b, double relative)
{
    return std::abs(a - b) <= relative * std::abs(b);
}

// The report's "baseline" object; an empty one when the output is not JSON.
QJsonObject baselineOf(const Run &run)
{
    return QJsonDocument::fromJson(run.out).object().value("baseline").toObject();
}

QJsonObject operatorRow(const QJsonObject &baseline, const QString &key)
{
    for (const auto row : baseline.value("operators").toArray()) {
        if (row.toObject().value("key").toString() == key)
            return row.toObject();
    }
    return {};
}

// The text table's row for `key`: its cells (split where two or more spaces align them).
QStringList tableRow(const QByteArray &out, const QString &key)
{
    for (const QString &line : QString::fromUtf8(out).split('\n')) {
        if (line.startsWith(key + "  "))
            return line.split(QRegularExpression(" {2,}"), Qt::SkipEmptyParts);
    }
    return {};
}

} // namespace

class TestCliBaseline : public QObject
{
    Q_OBJECT

private slots:
    void handPairTableRows_data();
    void handPairTableRows();
    void handPairSentence();
    void handPairJson_data();
    void handPairJson();
    void handPairRowOrder();
    void fixturesAgainstTheCountMadeApart_data();
    void fixturesAgainstTheCountMadeApart();
    void renderDrawsTheBaseline();
    void renderTakesTheTracesMachine_data();
    void renderTakesTheTracesMachine();
    void refusesABadBaseline_data();
    void refusesABadBaseline();
    void aBaselineMatchedByNameGivesEachPointsSpeedup();
};

void TestCliBaseline::handPairTableRows_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QStringList>("cells"); // baseline, this run, speed-up, kernels, status
    QTest::newRow("mm twice as fast")
        << kMm << QStringList { "20 us", "10 us", "×2.00", "1 / 1", "matched" };
    QTest::newRow("relu half as fast, two launches in one point")
        << kRelu << QStringList { "4 us", "8 us", "×0.50", "1 / 1", "matched" };
    QTest::newRow("mul only in this run")
        << kMul << QStringList { "–", "6 us", "–", "0 / 1", "only in this run" };
    QTest::newRow("sigmoid only in the baseline")
        << kSigmoid << QStringList { "2 us", "–", "–", "1 / 0", "only in the baseline" };
}

void TestCliBaseline::handPairTableRows()
{
    QFETCH(QString, key);
    QFETCH(QStringList, cells);
    const Run run = runCli({ "analyze", kAfter, "--baseline", kBefore });
    QVERIFY2(run.status == 0, run.err.constData());
    const QStringList row = tableRow(run.out, key);
    QVERIFY2(!row.isEmpty(), run.out.constData());
    QCOMPARE(row.mid(1), cells);
}

void TestCliBaseline::handPairSentence()
{
    const Run run = runCli({ "analyze", kAfter, "--baseline", kBefore });
    QVERIFY2(run.status == 0, run.err.constData());
    const QString out = QString::fromUtf8(run.out);
    const QString sentence = "Against " + kBefore
        + " (matched by operator and shapes; speed-up = baseline time ÷ this run's time): 2 "
          "operators in both runs (75.0 % of this run's time), 1 only here, 1 only in the "
          "baseline; matched 24 us → 18 us, ×1.33; every point 26 us → 24 us, ×1.08.";
    QVERIFY2(out.contains(sentence), qPrintable(out));
}

void TestCliBaseline::handPairJson_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("status");
    QTest::addColumn<double>("baselineSeconds");
    QTest::addColumn<double>("currentSeconds");
    QTest::addColumn<int>("baselinePoints");
    QTest::addColumn<int>("currentPoints");
    QTest::addColumn<double>("speedup"); // 0: null
    QTest::newRow("mm") << kMm << "matched" << 20e-6 << 10e-6 << 1 << 1 << 2.0;
    QTest::newRow("relu") << kRelu << "matched" << 4e-6 << 8e-6 << 1 << 1 << 0.5;
    QTest::newRow("mul") << kMul << "only in this run" << 0.0 << 6e-6 << 0 << 1 << 0.0;
    QTest::newRow("sigmoid") << kSigmoid << "only in the baseline" << 2e-6 << 0.0 << 1 << 0 << 0.0;
}

void TestCliBaseline::handPairJson()
{
    QFETCH(QString, key);
    QFETCH(QString, status);
    QFETCH(double, baselineSeconds);
    QFETCH(double, currentSeconds);
    QFETCH(int, baselinePoints);
    QFETCH(int, currentPoints);
    QFETCH(double, speedup);
    const Run run = runCli({ "analyze", kAfter, "--baseline", kBefore, "--json" });
    QVERIFY2(run.status == 0, run.err.constData());
    const QJsonObject baseline = baselineOf(run);
    QCOMPARE(baseline.value("file").toString(), kBefore);
    QCOMPARE(baseline.value("match").toString(), QString("operator"));
    QVERIFY(near(baseline.value("baseline_seconds").toDouble(), 26e-6, 1e-9));
    QVERIFY(near(baseline.value("current_seconds").toDouble(), 24e-6, 1e-9));
    QVERIFY(near(baseline.value("matched_baseline_seconds").toDouble(), 24e-6, 1e-9));
    QVERIFY(near(baseline.value("matched_current_seconds").toDouble(), 18e-6, 1e-9));
    QVERIFY(near(baseline.value("matched_share").toDouble(), 0.75, 1e-9));
    QVERIFY(near(baseline.value("speedup").toDouble(), 26.0 / 24.0, 1e-9));
    QVERIFY(near(baseline.value("matched_speedup").toDouble(), 24.0 / 18.0, 1e-9));

    const QJsonObject row = operatorRow(baseline, key);
    QVERIFY2(!row.isEmpty(), run.out.constData());
    QCOMPARE(row.value("status").toString(), status);
    QVERIFY(std::abs(row.value("baseline_seconds").toDouble() - baselineSeconds) < 1e-12);
    QVERIFY(std::abs(row.value("current_seconds").toDouble() - currentSeconds) < 1e-12);
    QCOMPARE(row.value("baseline_points").toInt(), baselinePoints);
    QCOMPARE(row.value("current_points").toInt(), currentPoints);
    if (speedup == 0.0)
        QVERIFY(row.value("speedup").isNull());
    else
        QVERIFY(near(row.value("speedup").toDouble(), speedup, 1e-9));
}

void TestCliBaseline::handPairRowOrder()
{
    // Matched first (largest baseline time first), then only here, then only in the baseline.
    const Run run = runCli({ "analyze", kAfter, "--baseline", kBefore, "--json" });
    QVERIFY2(run.status == 0, run.err.constData());
    QStringList keys;
    for (const auto row : baselineOf(run).value("operators").toArray())
        keys << row.toObject().value("key").toString();
    QCOMPARE(keys, (QStringList { kMm, kRelu, kMul, kSigmoid }));
}

void TestCliBaseline::fixturesAgainstTheCountMadeApart_data()
{
    // Times per operator and shapes linked by tests/data/traces/operator_times.py (json + bisect,
    // no Ridgepoint code): python3 operator_times.py diff_control_a100.json.gz
    // diff_test_v100.json.gz. The V100 run against the A100 baseline, as the fixtures were made
    // (control and test).
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("a100Milliseconds");
    QTest::addColumn<double>("v100Milliseconds");
    QTest::newRow("addmm 1024×512 · 512×96")
        << "aten::addmm(float[96], float[1024, 512], float[512, 96])" << 3.043 << 2.993;
    QTest::newRow("mul 1024×512") << "aten::mul(float[1024, 512], float[1024, 512])" << 3.524
                                  << 3.628;
    QTest::newRow("sigmoid, faster on the V100")
        << "aten::sigmoid(float[1024, 512])" << 1.425 << 0.647;
}

void TestCliBaseline::fixturesAgainstTheCountMadeApart()
{
    QFETCH(QString, key);
    QFETCH(double, a100Milliseconds);
    QFETCH(double, v100Milliseconds);
    // Run once for every row: a Debug build reads each fixture in seconds.
    static const Run run = runCli({ "analyze", kV100, "--baseline", kA100, "--json" });
    QVERIFY2(run.status == 0, run.err.constData());
    const QJsonObject baseline = baselineOf(run);
    // 128 keys in both, 3 only on the V100, 240 only on the A100 (tst_operatorchange's count of
    // the same comparison through the core, not the executable).
    QCOMPARE(baseline.value("operators").toArray().size(), 128 + 3 + 240);
    int matched = 0;
    int onlyHere = 0;
    int onlyBaseline = 0;
    for (const auto value : baseline.value("operators").toArray()) {
        const QString status = value.toObject().value("status").toString();
        matched += status == "matched" ? 1 : 0;
        onlyHere += status == "only in this run" ? 1 : 0;
        onlyBaseline += status == "only in the baseline" ? 1 : 0;
    }
    QCOMPARE(matched, 128);
    QCOMPARE(onlyHere, 3);
    QCOMPARE(onlyBaseline, 240);
    QVERIFY(baseline.value("matched_share").toDouble() >= 0.99);

    const QJsonObject row = operatorRow(baseline, key);
    QVERIFY2(!row.isEmpty(), qPrintable(key));
    QCOMPARE(row.value("status").toString(), QString("matched"));
    // The script prints times to 1 µs: 0.05 % of these.
    QVERIFY(near(row.value("baseline_seconds").toDouble(), a100Milliseconds * 1e-3, 5e-4));
    QVERIFY(near(row.value("current_seconds").toDouble(), v100Milliseconds * 1e-3, 5e-4));
    QVERIFY(near(row.value("speedup").toDouble(), a100Milliseconds / v100Milliseconds, 1e-3));

    // The text report's row shows the same speed-up to two decimals.
    static const Run text = runCli({ "analyze", kV100, "--baseline", kA100 });
    QVERIFY2(text.status == 0, text.err.constData());
    const QStringList cells = tableRow(text.out, key);
    QVERIFY2(cells.size() == 6, qPrintable(cells.join('|')));
    QCOMPARE(cells[3], "×" + QString::number(a100Milliseconds / v100Milliseconds, 'f', 2));
}

void TestCliBaseline::renderDrawsTheBaseline()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString svg = dir.filePath("change.svg");
    const Run run = runCli({ "render", kAfter, "--baseline", kBefore, "-o", svg });
    QVERIFY2(run.status == 0, run.err.constData());
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString picture = QString::fromUtf8(file.readAll());
    // The arrows' labels: the matched operators' speed-ups (×2 for mm, ×0.5 for relu).
    QVERIFY2(picture.contains("×2"), qPrintable(picture.left(2000)));
    QVERIFY(picture.contains("×0.5"));
}

void TestCliBaseline::renderTakesTheTracesMachine_data()
{
    // As analyze: without --hardware a trace's deviceProperties name the preset; --hardware wins;
    // a device no preset names is taken by its compute units when one GPU preset of its vendor
    // has that count; else it stops with a message naming the file.
    QTest::addColumn<QString>("trace");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("machine"); // in the picture's session; empty: refused
    QTest::newRow("A100-PG509-200 → A100 40GB") << kAfter << QStringList {} << "NVIDIA A100 40GB";
    QTest::newRow("--hardware wins")
        << kAfter << QStringList { "--hardware", "H100" } << "NVIDIA H100 SXM5 80GB";
    QTest::newRow("an MI250's \"AMD Radeon Graphics\", 104 CUs → MI250 GCD") << testData(
        "traces/mi250_minitoy_train.json.gz") << QStringList {} << "AMD Instinct MI250 (one GCD)";
    QTest::newRow("a device no preset names or counts: refused")
        << "UNNAMED" << QStringList {} << QString();
}

void TestCliBaseline::renderTakesTheTracesMachine()
{
    QFETCH(QString, trace);
    QFETCH(QStringList, options);
    QFETCH(QString, machine);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    if (trace == "UNNAMED")
        trace = test::write(dir, "unnamed.json", test::traceOfAnUnknownDevice());
    const QString svg = dir.filePath("trace.svg");
    const Run run = runCli(QStringList { "render", trace, "-o", svg } + options);
    if (machine.isEmpty()) {
        QVERIFY(run.status != 0);
        QVERIFY2(run.err.contains(trace.toUtf8()) && run.err.contains("--hardware"),
            run.err.constData());
        QVERIFY(!QFile::exists(svg));
        return;
    }
    QVERIFY2(run.status == 0, run.err.constData());
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    // The picture carries its session, whose machine is named in the text.
    const QByteArray picture = file.readAll();
    QVERIFY2(picture.contains(machine.toUtf8()), qPrintable(machine));
}

void TestCliBaseline::refusesABadBaseline_data()
{
    QTest::addColumn<QString>("subcommand");
    QTest::addColumn<QString>("name"); // in a temporary folder
    QTest::addColumn<QByteArray>("content"); // empty: the file is not made
    QTest::addColumn<QString>("why"); // a part of the message
    QTest::newRow("analyze, missing") << "analyze"
                                      << "gone.json" << QByteArray() << "not found";
    QTest::newRow("render, missing") << "render"
                                     << "gone.json" << QByteArray() << "not found";
    QTest::newRow("analyze, not a trace")
        << "analyze"
        << "notes.txt" << QByteArray("these are notes, not a trace\n") << "";
    QTest::newRow("analyze, a truncated trace")
        << "analyze"
        << "cut.json" << QByteArray(R"({"schemaVersion": 1, "traceEvents": [)") << "";
}

void TestCliBaseline::refusesABadBaseline()
{
    QFETCH(QString, subcommand);
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    QFETCH(QString, why);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(name);
    if (!content.isEmpty()) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
    }
    QStringList arguments { subcommand, kAfter, "--baseline", path };
    if (subcommand == "render")
        arguments << "-o" << dir.filePath("out.png");
    const Run run = runCli(arguments);
    QVERIFY(run.status != 0);
    const QString err = QString::fromUtf8(run.err);
    QVERIFY2(err.contains(path), qPrintable(err));
    QVERIFY2(err.contains(why), qPrintable(err));
    QVERIFY(run.out.isEmpty());
}

// Points files are matched by name. Until 2026-11-30 `analyze --baseline` indexed a temporary copy
// of the baseline, and a points-file baseline crashed (exit 139) once the copy was gone; traces,
// matched by operator, kept their own copy and hid it.
void TestCliBaseline::aBaselineMatchedByNameGivesEachPointsSpeedup()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto write = [&dir](const QString &name, const QByteArray &text) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
            qFatal("cannot write the test file");
        return file.fileName();
    };
    const QString before = write(
        "before.csv", "name,flops,bytes,seconds\ngemm,2e12,1e9,0.010\nstream,1e9,1.2e10,0.006\n");
    const QString after = write(
        "after.csv", "name,flops,bytes,seconds\ngemm,2e12,1e9,0.008\nstream,1e9,1.2e10,0.005\n");
    const Run run = runCli(
        { "analyze", "--hardware", "H100", "--format", "csv", "--baseline", before, after });
    QVERIFY2(run.status == 0, run.err.constData());
    const QList<QByteArray> lines = run.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    const QList<QByteArray> header = lines[0].split(',');
    const qsizetype column = header.indexOf("speed-up vs baseline [1]");
    QVERIFY(column >= 0);
    // Counted from the end: the quoted note before the column holds commas, none after it does.
    const auto speedup = [&](const QByteArray &line) {
        const QList<QByteArray> fields = line.split(',');
        return fields.value(fields.size() - (header.size() - column));
    };
    // 10 ms → 8 ms, 6 ms → 5 ms.
    QCOMPARE(speedup(lines[1]), QByteArray("1.25"));
    QCOMPARE(speedup(lines[2]), QByteArray("1.2"));
    const Run json
        = runCli({ "analyze", "--hardware", "H100", "--json", "--baseline", before, after });
    QCOMPARE(json.status, 0);
    QVERIFY(near(baselineOf(json)["speedup"].toDouble(), 16.0 / 13.0, 1e-12));
}

QTEST_GUILESS_MAIN(TestCliBaseline)
#include "tst_cli_baseline.moc"
