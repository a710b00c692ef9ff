// `ridgepoint measure`'s options and outputs end to end: a run limited to AVX2, a sweep within
// the working sets given, the table, outputs checked before the measurement starts, character
// devices written through, bad options refused. Only what the runs write is checked, never a
// speed, so it runs beside other tests (the speeds are tst_cli_measure's).
#include "tests/support/cli_run.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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

} // namespace

class TestCliMeasureOptions : public QObject
{
    Q_OBJECT

private slots:
    void quickRunWithoutAvx512();
    void sweepStaysWithinTheGivenWorkingSets();
    void printsATable();
    void checksTheOutputBeforeWorking_data();
    void checksTheOutputBeforeWorking();
    void writesThroughCharacterDevices_data();
    void writesThroughCharacterDevices();
    void rejectsBadOptions_data();
    void rejectsBadOptions();
};

void TestCliMeasureOptions::quickRunWithoutAvx512()
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

void TestCliMeasureOptions::sweepStaysWithinTheGivenWorkingSets()
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

// Without --json: a table that says what was counted and what the machine reports.
void TestCliMeasureOptions::printsATable()
{
    const Run table = runCli({ "measure", "--quick", "--budget", "1" });
    QCOMPARE(table.status, 0);
    QVERIFY(table.out.contains("Bytes counted"));
    QVERIFY(table.out.contains("write-allocate"));
    QVERIFY(table.out.contains("Reported caches"));
}

void TestCliMeasureOptions::checksTheOutputBeforeWorking_data()
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
void TestCliMeasureOptions::checksTheOutputBeforeWorking()
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

void TestCliMeasureOptions::writesThroughCharacterDevices_data()
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
void TestCliMeasureOptions::writesThroughCharacterDevices()
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

void TestCliMeasureOptions::rejectsBadOptions_data()
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

void TestCliMeasureOptions::rejectsBadOptions()
{
    QFETCH(QStringList, arguments);
    const Run run = runCli(arguments);
    QCOMPARE(run.status, 2);
    QVERIFY(!run.err.isEmpty());
}

QTEST_GUILESS_MAIN(TestCliMeasureOptions)
#include "tst_cli_measure_options.moc"
