// analyze's report (issue 17): errors first, the payoff column and "what next" line, the compact
// JSON form, and the streamed CSV against the output captured before the payoff column.
#include "tests/support/cli_run.h"
#include "tests/support/testpaths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

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

QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

// One RFC 4180 record's fields as [begin, end) offsets into `text` from `at` (quotes included),
// `at` left at the next record.
std::vector<std::pair<qsizetype, qsizetype>> csvRecord(const QByteArray &text, qsizetype &at)
{
    std::vector<std::pair<qsizetype, qsizetype>> fields;
    qsizetype begin = at;
    bool quoted = false;
    for (; at < text.size(); ++at) {
        const char c = text[at];
        if (c == '"') {
            quoted = !quoted; // a doubled quote toggles twice
        } else if (!quoted && c == ',') {
            fields.emplace_back(begin, at);
            begin = at + 1;
        } else if (!quoted && c == '\r' && at + 1 < text.size() && text[at + 1] == '\n') {
            fields.emplace_back(begin, at);
            at += 2;
            return fields;
        }
    }
    fields.emplace_back(begin, at);
    return fields;
}

// The CSV with its column `column` taken out, every other byte kept.
QByteArray withoutColumn(const QByteArray &csv, std::size_t column)
{
    QByteArray out;
    qsizetype at = 0;
    while (at < csv.size()) {
        const qsizetype start = at;
        const auto fields = csvRecord(csv, at);
        if (column >= fields.size())
            return {};
        // The field and the comma before it (the column is never the first).
        const qsizetype cutFrom = fields[column - 1].second;
        const qsizetype cutTo = fields[column].second;
        out += csv.mid(start, cutFrom - start);
        out += csv.mid(cutTo, at - cutTo);
    }
    return out;
}

QStringList csvFields(const QByteArray &csv, qsizetype &at)
{
    QStringList out;
    for (const auto &[begin, end] : csvRecord(csv, at)) {
        QString field = QString::fromUtf8(csv.mid(begin, end - begin));
        if (field.startsWith('"'))
            field = field.mid(1, field.size() - 2).replace("\"\"", "\"");
        out << field;
    }
    return out;
}

// A machine of 1 TFLOP/s and 100 GB/s (ridge at 10 FLOP/B) and five kernels, four timed:
//   a: 1e9 FLOP, 1e9 B (1 FLOP/B, roof 1e11), 0.02 s -> 5e10 FLOP/s, utilization 0.5
//   b: 1e10 FLOP, 1e8 B (100 FLOP/B, roof 1e12), 0.03 s -> 3.33e11, utilization 1/3
//   c: 1e9 FLOP, 1e8 B (10 FLOP/B, roof 1e12), 0.01 s -> 1e11, utilization 0.1
//   d: 1e9 FLOP, 1e9 B, no time -> no payoff
//   e: 5e8 FLOP, 5e8 B (1 FLOP/B, roof 1e11), 0.01 s -> 5e10, utilization 0.5
// total = 0.02 + 0.03 + 0.01 + 0.01 = 0.07 s; payoff = share × (1 − utilization):
//   a = 2/7 × 0.5 = 1/7 = 0.142857;  b = 3/7 × 2/3 = 2/7 = 0.285714
//   c = 1/7 × 0.9 = 0.128571;        e = 1/7 × 0.5 = 0.0714286
// so "what next" names b (28.6 %), a (14.3 %), c (12.9 %), and not e.
const QByteArray kTimed = "name,flops,bytes,seconds\n"
                          "a,1e9,1e9,0.02\n"
                          "b,1e10,1e8,0.03\n"
                          "c,1e9,1e8,0.01\n"
                          "d,1e9,1e9,\n"
                          "e,5e8,5e8,0.01\n";
const QStringList kMachine { "--peak", "1e12", "--bandwidth", "1e11" };

} // namespace

class TestCliReport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void noPlacedPointPrintsOnlyErrors_data();
    void noPlacedPointPrintsOnlyErrors();
    void payoffInEveryFormat_data();
    void payoffInEveryFormat();
    void namesWhatNext();
    void compactJsonIsOneObjectPerLine();
    void csvIsUnchangedBesidesPayoff_data();
    void csvIsUnchangedBesidesPayoff();

private:
    QTemporaryDir m_dir;
};

void TestCliReport::noPlacedPointPrintsOnlyErrors_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("message");
    const QByteArray zero = "name,flops,bytes,seconds\nidle,0,1e9,1\n";
    const QByteArray garbage = "not, a\nfile we read\n";
    const QString placed = "zero.csv:2: point \"idle\": FLOPs must be a positive finite number";
    const QString tried = "not a file Ridgepoint can read; tried points CSV";
    QTest::newRow("no placeable point, table") << zero << QStringList {} << placed;
    QTest::newRow("no placeable point, csv") << zero << QStringList { "--format", "csv" } << placed;
    QTest::newRow("no placeable point, markdown")
        << zero << QStringList { "--format", "markdown" } << placed;
    QTest::newRow("no placeable point, json") << zero << QStringList { "--json" } << placed;
    QTest::newRow("no placeable point, compact") << zero << QStringList { "--compact" } << placed;
    QTest::newRow("no placeable point, render")
        << zero << QStringList { "render", "-o", m_dir.filePath("zero.svg") } << placed;
    QTest::newRow("unknown format, table") << garbage << QStringList {} << tried;
    QTest::newRow("unknown format, csv") << garbage << QStringList { "--format", "csv" } << tried;
    QTest::newRow("unknown format, render")
        << garbage << QStringList { "render", "-o", m_dir.filePath("garbage.svg") } << tried;
}

// Nothing on stdout (no machine block, no table header), the reason on stderr, status 2.
void TestCliReport::noPlacedPointPrintsOnlyErrors()
{
    QFETCH(QByteArray, content);
    QFETCH(QStringList, options);
    QFETCH(QString, message);
    const QString name = content.contains("idle") ? "zero.csv" : "garbage.csv";
    const QString file = write(m_dir, name, content);
    QStringList arguments
        = options.value(0) == "render" ? QStringList {} : QStringList { "analyze" };
    arguments << options << "--hardware"
              << "h100" << file;
    const Run run = runCli(arguments);
    QCOMPARE(run.status, 2);
    QCOMPARE(run.out, QByteArray());
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
}

void TestCliReport::payoffInEveryFormat_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("expected"); // -1: none
    QTest::newRow("a") << "a" << 1.0 / 7.0;
    QTest::newRow("b") << "b" << 2.0 / 7.0;
    QTest::newRow("c") << "c" << 0.9 / 7.0;
    QTest::newRow("d (no time)") << "d" << -1.0;
    QTest::newRow("e") << "e" << 0.5 / 7.0;
}

void TestCliReport::payoffInEveryFormat()
{
    QFETCH(QString, name);
    QFETCH(double, expected);
    const QString file = write(m_dir, "timed.csv", kTimed);

    // CSV: the "payoff [1]" column, empty without a time.
    const Run csv = runCli(QStringList { "analyze", "--format", "csv" } << kMachine << file);
    QCOMPARE(csv.status, 0);
    qsizetype at = 0;
    const QStringList header = csvFields(csv.out, at);
    const auto column = header.indexOf("payoff [1]");
    QVERIFY(column > 0);
    QString cell = "<missing>";
    while (at < csv.out.size()) {
        const QStringList row = csvFields(csv.out, at);
        if (row.value(0) == name)
            cell = row.value(column);
    }
    if (expected < 0)
        QCOMPARE(cell, QString());
    else
        QVERIFY2(qAbs(cell.toDouble() - expected) < 1e-12, qPrintable(cell));

    // JSON: "payoff", null without a time.
    const Run json = runCli(QStringList { "analyze", "--json" } << kMachine << file);
    QCOMPARE(json.status, 0);
    bool found = false;
    for (const auto &value : QJsonDocument::fromJson(json.out).object()["points"].toArray()) {
        const QJsonObject point = value.toObject();
        if (point["name"].toString() != name)
            continue;
        found = true;
        QVERIFY(point.contains("payoff"));
        if (expected < 0)
            QVERIFY(point["payoff"].isNull());
        else
            QVERIFY(qAbs(point["payoff"].toDouble() - expected) < 1e-12);
    }
    QVERIFY(found);

    // Markdown: a "Payoff" column in percent ("14.3 %"), "–" without a time.
    const Run markdown
        = runCli(QStringList { "analyze", "--format", "markdown" } << kMachine << file);
    QCOMPARE(markdown.status, 0);
    const QStringList lines = QString::fromUtf8(markdown.out).split('\n');
    const QStringList head = lines.value(0).split('|');
    const auto payoffAt = std::find_if(head.begin(), head.end(), [](const QString &c) {
        return c.trimmed() == "Payoff";
    }) - head.begin();
    QVERIFY(payoffAt < head.size());
    for (const QString &line : lines) {
        const QStringList cells = line.split('|');
        if (cells.value(1).trimmed() != name)
            continue;
        const QString shown = cells.value(payoffAt).trimmed();
        if (expected < 0)
            QCOMPARE(shown, QString("–"));
        else
            QCOMPARE(shown, QString::number(expected * 100.0, 'g', 3) + " %");
    }
}

void TestCliReport::namesWhatNext()
{
    const QString file = write(m_dir, "timed.csv", kTimed);
    const Run run = runCli(QStringList { "analyze" } << kMachine << file);
    QCOMPARE(run.status, 0);
    const QString out = QString::fromUtf8(run.out);
    // After the tally, the top three by payoff (see kTimed): b 2/7, a 1/7, c 0.9/7.
    const auto tally = out.indexOf("5 points:");
    const auto next = out.indexOf("what next");
    QVERIFY2(tally >= 0 && next > tally, run.out.constData());
    const QString line = out.mid(next, out.indexOf('\n', next) - next);
    QVERIFY2(line.endsWith(": b 28.6 %, a 14.3 %, c 12.9 %"), qPrintable(line));

    // Without a single time there is no payoff and no line.
    const QString untimed = write(m_dir, "untimed.csv", "name,flops,bytes\nx,1e9,1e9\n");
    const Run none = runCli(QStringList { "analyze" } << kMachine << untimed);
    QCOMPARE(none.status, 0);
    QVERIFY(!none.out.contains("what next"));
}

void TestCliReport::compactJsonIsOneObjectPerLine()
{
    const QString file = write(m_dir, "timed.csv", kTimed);
    const Run compact = runCli(QStringList { "analyze", "--compact" } << kMachine << file);
    const Run pretty = runCli(QStringList { "analyze", "--json" } << kMachine << file);
    QCOMPARE(compact.status, 0);
    QVERIFY(compact.out.endsWith('\n'));
    const QList<QByteArray> lines = compact.out.chopped(1).split('\n');
    QCOMPARE(lines.size(), 6); // the machine, then the five points
    const QJsonObject document = QJsonDocument::fromJson(pretty.out).object();
    QJsonParseError error;
    const QJsonObject machine = QJsonDocument::fromJson(lines[0], &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(machine["hardware"].toObject(), document["hardware"].toObject());
    const QJsonArray points = document["points"].toArray();
    for (int i = 1; i < lines.size(); ++i) {
        const QJsonObject point = QJsonDocument::fromJson(lines[i], &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(point, points[i - 1].toObject()); // the same objects as the document's
    }
    QVERIFY(compact.out.size() < pretty.out.size() * 3 / 4);
    const Run contradiction
        = runCli(QStringList { "analyze", "--compact", "--format", "csv" } << kMachine << file);
    QCOMPARE(contradiction.status, 2);
}

void TestCliReport::csvIsUnchangedBesidesPayoff_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("hardware");
    QTest::addColumn<QString>("expected");
    QTest::newRow("H100 example") << "resources/examples/h100-transformer-kernels.csv"
                                  << "h100"
                                  << "analyze_h100_example.csv";
    QTest::newRow("ncu daxpy/stencil") << "tests/data/ncu/ncu_levels_daxpy_stencil.csv"
                                       << "A100 40GB"
                                       << "analyze_ncu_daxpy_stencil.csv";
    QTest::newRow("rocprof MI300") << "tests/data/rocprof/pmc_perf_mi300.csv"
                                   << "mi300x"
                                   << "analyze_rocprof_mi300.csv";
    QTest::newRow("likwid region") << "tests/data/likwid/mem_dp_region.csv"
                                   << "Intel Xeon Platinum 8480+"
                                   << "analyze_likwid_mem_dp.csv";
}

// The streamed CSV is byte for byte the output captured from the build before this change
// (tests/data/cli/, commit 611f074), once the new payoff column (after "utilization [1]") is
// taken out; daxpy's T_max since then grew with its FP64 CUDA roof (docs/MODEL.md §4.1).
void TestCliReport::csvIsUnchangedBesidesPayoff()
{
    QFETCH(QString, input);
    QFETCH(QString, hardware);
    QFETCH(QString, expected);
    const QDir source(test::sourcePath());
    const Run run
        = runCli({ "analyze", "--hardware", hardware, "--format", "csv", source.filePath(input) });
    QCOMPARE(run.status, 0);
    qsizetype at = 0;
    const auto column = csvFields(run.out, at).indexOf("payoff [1]");
    QCOMPARE(column, 11);
    const QByteArray before = readAll(source.filePath("tests/data/cli/" + expected));
    QVERIFY(!before.isEmpty());
    QCOMPARE(withoutColumn(run.out, static_cast<std::size_t>(column)), before);
}

QTEST_GUILESS_MAIN(TestCliReport)
#include "tst_cli_report.moc"
