// `ridgepoint measure` end to end: a quick run on whatever machine runs the tests, checked for
// sanity only (no machine-specific numbers), its file read back by `analyze`, bad options.
#include "tests/support/cli_run.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>

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
    void quickRunWithoutAvx512();
    void sweepStaysWithinTheGivenWorkingSets();
    void fileIsAHardwareFile();
    void checksTheOutputBeforeWorking_data();
    void checksTheOutputBeforeWorking();
    void writesThroughCharacterDevices_data();
    void writesThroughCharacterDevices();
    void rejectsBadOptions_data();
    void rejectsBadOptions();

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

void TestCliMeasure::quickRunWithoutAvx512()
{
    // The same binary, limited to AVX2 (or less, if that is all there is): what a machine without
    // AVX-512 runs. Compute only matters here, so the budget is tiny.
    const Run run = runCli({ "measure", "--budget", "1", "--max-isa", "avx2", "--json" });
    QVERIFY2(run.status == 0, run.err.constData());
    const QJsonObject m = QJsonDocument::fromJson(run.out).object().value("measurement").toObject();
    QVERIFY(m.value("isa").toString() != "avx512");
    for (const auto &entry : m.value("compute").toArray())
        QVERIFY(entry.toObject().value("isa").toString() != "avx512");
}

void TestCliMeasure::sweepStaysWithinTheGivenWorkingSets()
{
    // bench/compare_likwid.sh puts a sweep point on likwid-bench's working set this way.
    const Run run = runCli(
        { "measure", "--budget", "1", "--sweep-from", "16KiB", "--sweep-to", "4 MiB", "--json" });
    QVERIFY2(run.status == 0, run.err.constData());
    const QJsonObject m = QJsonDocument::fromJson(run.out).object().value("measurement").toObject();
    const QJsonArray sweep = m.value("sweep").toArray();
    QVERIFY(!sweep.isEmpty());
    double smallest = INFINITY, largest = 0.0;
    for (const auto &entry : sweep) {
        const double size = entry.toObject().value("working_set").toDouble();
        smallest = std::min(smallest, size);
        largest = std::max(largest, size);
    }
    // Each thread's share is a whole number of 512-byte blocks: at most that much below.
    QVERIFY2(smallest >= 16 * 1024 - 3 * 2 * 512 && smallest <= 16 * 1024,
        qPrintable(QString::number(smallest)));
    QVERIFY2(largest <= 4 * 1024 * 1024 && largest > 3.9 * 1024 * 1024,
        qPrintable(QString::number(largest)));
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

    const Run table = runCli({ "measure", "--quick", "--budget", "1" });
    QCOMPARE(table.status, 0);
    QVERIFY(table.out.contains("Bytes counted"));
    QVERIFY(table.out.contains("write-allocate"));
    QVERIFY(table.out.contains("Reported caches"));
}

void TestCliMeasure::checksTheOutputBeforeWorking_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("output"); // relative to a temporary folder
    QTest::addColumn<QString>("message");
    QTest::newRow("measure, missing folder") << "measure"
                                             << "no/such/machine.json"
                                             << "does not exist";
    QTest::newRow("measure, a folder") << "measure"
                                       << "."
                                       << "is a directory";
    QTest::newRow("measure, a socket") << "measure"
                                       << "socket"
                                       << "is a socket";
    QTest::newRow("measure, a block device") << "measure"
                                             << "block"
                                             << "is a block device";
    QTest::newRow("render, missing folder") << "render"
                                            << "no/such/roof.svg"
                                            << "does not exist";
    QTest::newRow("render, a block device") << "render"
                                            << "block.svg"
                                            << "is a block device";
}

// A missing or unwritable output is found before the 10-60 s measurement (no progress lines),
// and an existing file there is left untouched.
void TestCliMeasure::checksTheOutputBeforeWorking()
{
    QFETCH(QString, command);
    QFETCH(QString, output);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = output == "." ? dir.path() : dir.filePath(output);
    const QByteArray name = QFile::encodeName(path);
    int socket = -1;
    if (output.startsWith("block")) {
        if (geteuid() != 0)
            QSKIP("mknod needs root (the tests run as root in CI)");
        QCOMPARE(::mknod(name.constData(), S_IFBLK | 0600, makedev(7, 200)), 0);
    } else if (output == "socket") {
        socket = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un address {};
        address.sun_family = AF_UNIX;
        std::strncpy(address.sun_path, name.constData(), sizeof address.sun_path - 1);
        QVERIFY(::bind(socket, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0);
    }
    const QStringList arguments = command == "measure"
        ? QStringList { "measure", "--quick", "--budget", "1", "-o", path }
        : QStringList { "render", "--hardware", "h100", "--example", "-o", path };
    const Run run = runCli(arguments);
    QCOMPARE(run.status, 2);
    QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
    QVERIFY2(!run.err.contains("%]"), run.err.constData()); // nothing was measured
    QVERIFY(run.out.isEmpty());
    if (socket >= 0)
        ::close(socket);
}

void TestCliMeasure::writesThroughCharacterDevices_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<int>("minorNumber"); // of the copy of /dev/null (3) or /dev/full (7)
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");
    QTest::newRow("render to /dev/null") << "render" << 3 << 0 << "";
    QTest::newRow("render to /dev/full") << "render" << 7 << 1 << "No space left on device";
    QTest::newRow("measure to /dev/full") << "measure" << 7 << 1 << "No space left on device";
}

// A character device is written through (not replaced by a file, as the rename over it did):
// the write's error is the command's, and the device is still a device.
void TestCliMeasure::writesThroughCharacterDevices()
{
    QFETCH(QString, command);
    QFETCH(int, minorNumber);
    QFETCH(int, status);
    QFETCH(QString, message);
    if (geteuid() != 0)
        QSKIP("mknod needs root (the tests run as root in CI)");
    QTemporaryDir dir;
    const QString path = dir.filePath(command == "render" ? "device.svg" : "device.json");
    const QByteArray name = QFile::encodeName(path);
    QCOMPARE(
        ::mknod(name.constData(), S_IFCHR | 0666, makedev(1, static_cast<unsigned>(minorNumber))),
        0);
    const QStringList arguments = command == "measure"
        ? QStringList { "measure", "--quick", "--budget", "1", "--json", "-o", path }
        : QStringList { "render", "--hardware", "h100", "--example", "-o", path };
    const Run run = runCli(arguments);
    QCOMPARE(run.status, status);
    if (!message.isEmpty())
        QVERIFY2(
            run.err.contains((path + ": cannot write: " + message).toUtf8()), run.err.constData());
    if (command == "measure") // the run is not lost: the results are on stdout
        QVERIFY(run.out.contains("ridgepoint-hardware"));
    struct stat after {
    };
    QCOMPARE(::stat(name.constData(), &after), 0);
    QVERIFY(S_ISCHR(after.st_mode));
    QCOMPARE(major(after.st_rdev), 1U);
    QCOMPARE(minor(after.st_rdev), static_cast<unsigned>(minorNumber));
}

void TestCliMeasure::rejectsBadOptions_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("threads 0") << QStringList { "measure", "--threads", "0" };
    QTest::newRow("threads word") << QStringList { "measure", "--threads", "many" };
    QTest::newRow("budget negative") << QStringList { "measure", "--budget", "-1" };
    QTest::newRow("unknown isa") << QStringList { "measure", "--budget", "1", "--max-isa", "neon" };
    QTest::newRow("positional") << QStringList { "measure", "file.json" };
    QTest::newRow("sweep-from below 1 KiB") << QStringList { "measure", "--sweep-from", "512" };
    QTest::newRow("sweep-to not a size") << QStringList { "measure", "--sweep-to", "big" };
    QTest::newRow("sweep-to in seconds") << QStringList { "measure", "--sweep-to", "2 s" };
    QTest::newRow("sweep-to below sweep-from")
        << QStringList { "measure", "--sweep-from", "1MiB", "--sweep-to", "64KiB" };
}

void TestCliMeasure::rejectsBadOptions()
{
    QFETCH(QStringList, arguments);
    const Run run = runCli(arguments);
    QCOMPARE(run.status, 2);
    QVERIFY(!run.err.isEmpty());
}

QTEST_GUILESS_MAIN(TestCliMeasure)
#include "tst_cli_measure.moc"
