// `ridgepoint measure` end to end: a quick run on whatever machine runs the tests, checked for
// sanity only (no machine-specific numbers), and its file read back by `analyze`. It compares the
// speeds it measured (SIMD against scalar, one level against the next), so ctest runs it alone;
// the runs that check only what measure writes and refuses are tst_cli_measure_options.
#include "tests/support/cli_run.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

namespace test = ridgepoint::test;

namespace {

using test::Run;
using test::runCli;

// The CI cost of a measurement: a quick run shrunk to a few seconds.
const QStringList kQuick { "measure", "--quick", "--budget", "3" };

} // namespace

class TestCliMeasure : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void quickRunIsSane();
    void fileIsAHardwareFile();

private:
    QTemporaryDir m_dir;
    QJsonObject m_machine; // from the quick run
    QString m_file;
};

void TestCliMeasure::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_file = m_dir.filePath("measured.json");
    const Run run = runCli(kQuick + QStringList { "--json", "-o", m_file });
    QVERIFY2(run.status == 0, run.err.constData());
    QJsonParseError error;
    m_machine = QJsonDocument::fromJson(run.out, &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
}

void TestCliMeasure::quickRunIsSane()
{
    QCOMPARE(m_machine.value("format").toString(), QString("ridgepoint-hardware"));
    QCOMPARE(m_machine.value("kind").toString(), QString("cpu"));
    const QJsonObject m = m_machine.value("measurement").toObject();
    QVERIFY(m.value("threads").toInt() >= 1);
    QCOMPARE(m.value("write_allocate_counted").toBool(true), false);
    QVERIFY(!m.value("sweep").toArray().isEmpty());

    // Peaks positive; the widest SIMD at least as fast as scalar, on one thread and on all.
    double simd[2] = {}, scalar[2] = {};
    for (const auto &entry : m.value("compute").toArray()) {
        const QJsonObject c = entry.toObject();
        QVERIFY(c.value("best").toDouble() > 0.0);
        QVERIFY(c.value("best").toDouble() >= c.value("median").toDouble());
        if (c.value("precision").toString() != "fp64" || !c.value("fma").toBool(true))
            continue;
        const int all = c.value("threads").toInt() == 1 ? 0 : 1;
        if (!c.value("simd").toBool())
            scalar[all] = c.value("best").toDouble();
        else if (c.value("isa").toString() == m.value("isa").toString())
            simd[all] = c.value("best").toDouble();
    }
    if (m.value("isa").toString() != "portable" && m.value("isa").toString() != "sse2") {
        QVERIFY(simd[0] > 0.0 && scalar[0] > 0.0);
        // The widest vectors do 4-8 FLOPs per instruction where scalar does 1: even on a busy
        // machine they are not slower by half unless the kernel is wrong.
        QVERIFY2(simd[0] >= 0.5 * scalar[0],
            qPrintable(QString("%1 < half of %2").arg(simd[0]).arg(scalar[0])));
    }

    // Memory: the visible load roofs, named by working-set size (docs/MEASURE.md). Usually
    // faster the closer to the core; where a level measured faster than the one before it (a
    // busy machine), the names stay and the measurement's warnings say so.
    const QStringList order { "L1", "L2", "L3", "DRAM" };
    QMap<qsizetype, double> byLevel;
    for (const auto &entry : m_machine.value("memory").toArray()) {
        const QJsonObject c = entry.toObject();
        QVERIFY(c.value("bandwidth").toDouble() > 0.0);
        if (!c.value("name").toString().endsWith(" load"))
            continue;
        byLevel[order.indexOf(c.value("level").toString())] = c.value("bandwidth").toDouble();
    }
    QVERIFY(!byLevel.isEmpty());
    QVERIFY(!byLevel.contains(-1));
    QStringList warnings;
    for (const auto &w : m.value("warnings").toArray())
        warnings << w.toString();
    const QString allThreads = QString("load, %1 %2: ")
                                   .arg(m.value("threads").toInt())
                                   .arg(m.value("threads").toInt() == 1 ? "thread" : "threads");
    double previous = INFINITY;
    QString previousLevel;
    for (auto it = byLevel.begin(); it != byLevel.end(); ++it) {
        const QString level = order.value(it.key());
        // Within 5 % two levels are the same figure as far as this machine's noise goes, and the
        // measurement says nothing (measure/plateau_labels.cpp); beyond that it must warn.
        if (it.value() > previous * 1.05) {
            const QString said = allThreads + level + " (";
            const QString faster = "measures faster than " + previousLevel + " (";
            QVERIFY2(
                std::any_of(warnings.begin(), warnings.end(),
                    [&](const QString &w) { return w.startsWith(said) && w.contains(faster); }),
                qPrintable(
                    level + " above " + previousLevel + " unwarned: " + warnings.join(" | ")));
        }
        previous = it.value();
        previousLevel = level;
    }
    const QJsonArray compute = m_machine.value("compute").toArray();
    QVERIFY(!compute.isEmpty());
    QVERIFY(!m_machine.value("default_compute").toString().isEmpty());
}

void TestCliMeasure::fileIsAHardwareFile()
{
    const Run run = runCli({ "analyze", "--hardware", m_file, "--example", "--json" });
    QVERIFY2(run.status == 0, run.err.constData());
    const QJsonObject hardware
        = QJsonDocument::fromJson(run.out).object().value("hardware").toObject();
    QCOMPARE(hardware.value("name").toString(), m_machine.value("name").toString());
    QVERIFY(!QJsonDocument::fromJson(run.out).object().value("points").toArray().isEmpty());
    // No "unknown key" warning for the measurement.
    QVERIFY2(!run.err.contains("unknown key"), run.err.constData());
}

QTEST_GUILESS_MAIN(TestCliMeasure)
#include "tst_cli_measure.moc"
