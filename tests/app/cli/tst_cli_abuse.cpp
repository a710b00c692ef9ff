// The command line under abuse (issue 16): a FIFO or /dev/zero given as a points file, a
// session or a machine file is refused by type with exit code 2 and never read (a FIFO would
// block, /dev/zero would fill the memory); a session nested 80,000 levels deep is refused with
// its position, as JSON and embedded in each picture kind; with no thread to be had (a process
// limit) analyze still writes its report. Every run has a timeout, so a regression fails here
// instead of hanging.
#include "tests/support/testpaths.h"
#include "widgets/export/picturewriter.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

namespace {

struct Run {
    int status = -1;
    bool finished = false;
    QByteArray out;
    QString err;
};

// `program` (ridgepoint unless given) run with `arguments`, at most 30 s.
Run runCli(
    const QStringList &arguments, const QString &program = ridgepoint::test::ridgepointProgram())
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("QT_QPA_PLATFORM", "offscreen");
    // LeakSanitizer's check at exit needs a thread of its own, which a process limit refuses.
    environment.insert("ASAN_OPTIONS", "detect_leaks=0");
    process.setProcessEnvironment(environment);
    process.start(program, arguments);
    Run run;
    run.finished = process.waitForFinished(30000);
    if (!run.finished) {
        process.kill();
        process.waitForFinished();
    }
    run.status = process.exitCode();
    run.out = process.readAllStandardOutput();
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

QString deepSession(int depth)
{
    return QStringLiteral(R"({"format": "ridgepoint-session", "version": 1, "hardware": {"name": )"
                          R"("x", "x": %1%2}})")
        .arg(QString(depth, '['), QString(depth, ']'));
}

const QString kPoints = ridgepoint::test::sourcePath(
    QStringLiteral("resources/examples/h100-transformer-kernels.csv"));

} // namespace

class TestCliAbuse : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void refusesSpecialFiles_data();
    void refusesSpecialFiles();
    void refusesDeepSessions_data();
    void refusesDeepSessions();
    void refusesPicturesPastTheSizeLimit_data();
    void refusesPicturesPastTheSizeLimit();
    void runsWhenNoThreadCanStart_data();
    void runsWhenNoThreadCanStart();

private:
    QTemporaryDir m_dir;
    QString m_fifo;
};

void TestCliAbuse::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_fifo = m_dir.filePath("kernels.csv");
    QCOMPARE(mkfifo(m_fifo.toLocal8Bit().constData(), 0600), 0);
}

void TestCliAbuse::refusesSpecialFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("use");
    for (const char *use : { "analyze", "render --session", "--hardware" }) {
        QTest::addRow("FIFO, %s", qPrintable(use)) << "fifo"
                                                   << "FIFO" << use;
        QTest::addRow("/dev/zero, %s", qPrintable(use)) << "/dev/zero"
                                                        << "character device" << use;
    }
}

void TestCliAbuse::refusesSpecialFiles()
{
    QFETCH(QString, file);
    QFETCH(QString, kind);
    QFETCH(QString, use);
    if (file == "fifo")
        file = m_fifo;
    QStringList arguments;
    if (use == "analyze")
        arguments = { "analyze", "--hardware", "h100", file };
    else if (use == "render --session")
        arguments = { "render", "--session", file, "-o", m_dir.filePath("out.png") };
    else
        arguments = { "analyze", "--hardware", file, kPoints };
    const Run run = runCli(arguments);
    QVERIFY2(run.finished, "ridgepoint did not finish within 30 s: it is reading the file");
    QCOMPARE(run.status, 2);
    QVERIFY2(
        run.err.contains(file + ": is a " + kind + ", not a regular file"), qPrintable(run.err));
}

void TestCliAbuse::refusesDeepSessions_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("command");
    for (const char *kind : { "json", "png", "svg", "pdf" }) {
        QTest::addRow("%s, analyze", kind) << kind << "analyze";
        QTest::addRow("%s, render --session", kind) << kind << "render";
    }
}

void TestCliAbuse::refusesDeepSessions()
{
    QFETCH(QString, kind);
    QFETCH(QString, command);
    const QByteArray json = deepSession(80'000).toUtf8();
    QByteArray bytes = json;
    if (kind != "json") {
        // The window's and render's own picture writer, with the session embedded.
        ridgepoint::ExportOptions options;
        options.width = 40;
        options.height = 30;
        options.session = json;
        bytes = ridgepoint::writePicture(kind, options, Qt::white, "deep", [](QCPPainter *) {});
        QVERIFY(!bytes.isEmpty());
    }
    const QString path = m_dir.filePath("deep." + kind);
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(bytes);
    out.close();
    const QStringList arguments = command == "analyze"
        ? QStringList { "analyze", path }
        : QStringList { "render", "--session", path, "-o", m_dir.filePath("out.png") };
    const Run run = runCli(arguments);
    QVERIFY(run.finished);
    QCOMPARE(run.status, 2);
    // The document and the machine are levels 1 and 2: the 511th '[' opens level 513.
    const int column = static_cast<int>(json.indexOf('[')) + 511;
    QVERIFY2(
        run.err.contains(
            QString("%1:1:%2: invalid JSON: nested deeper than 512 levels").arg(path).arg(column)),
        qPrintable(run.err));
}

void TestCliAbuse::refusesPicturesPastTheSizeLimit_data()
{
    QTest::addColumn<QString>("command");
    QTest::newRow("analyze") << "analyze";
    QTest::newRow("render --session") << "render";
}

void TestCliAbuse::refusesPicturesPastTheSizeLimit()
{
    // A picture is read under the same 1 GiB limit as any file: a sparse file one byte past it
    // (no disk space used) that starts like a PNG.
    QFETCH(QString, command);
    const QString path = m_dir.filePath("huge.png");
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write("\x89PNG\r\n\x1a\n");
    QVERIFY(out.resize((qint64 { 1 } << 30) + 1));
    out.close();
    const QStringList arguments = command == "analyze"
        ? QStringList { "analyze", path }
        : QStringList { "render", "--session", path, "-o", m_dir.filePath("out.png") };
    const Run run = runCli(arguments);
    QVERIFY(run.finished);
    QCOMPARE(run.status, 2);
    QVERIFY2(run.err.contains(path + ": too large (1073741825 bytes; the limit is 1073741824)"),
        qPrintable(run.err));
}

void TestCliAbuse::runsWhenNoThreadCanStart_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::newRow("pieces on every core")
        << QStringList { "--piece-bytes", "100", "--expect-pieces" };
    QTest::newRow("sequential") << QStringList { "--sequential" };
}

void TestCliAbuse::runsWhenNoThreadCanStart()
{
    // A process limit (RLIMIT_NPROC) leaves no thread to start: analyze writes the same report
    // on its one thread (it aborted: std::system_error from std::thread, uncaught). The limit
    // binds only a user other than root, so the run is nobody's, through setpriv and prlimit.
    QFETCH(QStringList, options);
    const QString setpriv = QStandardPaths::findExecutable("setpriv");
    const QString prlimit = QStandardPaths::findExecutable("prlimit");
    if (geteuid() != 0 || setpriv.isEmpty() || prlimit.isEmpty())
        QSKIP("needs root, setpriv and prlimit (util-linux) to run as nobody under a limit");
    const QStringList asNobody { "--reuid=65534", "--regid=65534", "--clear-groups", prlimit,
        "--nproc=1", ridgepoint::test::ridgepointProgram() };
    if (runCli(asNobody + QStringList { "--version" }, setpriv).status != 0)
        QSKIP("nobody cannot run this build (a directory above it is private)");
    // Forty rows without a quote (a quoted field sends a file to the sequential path), cut
    // into pieces of about four rows, in a folder nobody may read.
    const QString points = m_dir.filePath("plain.csv");
    QFile file(points);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("name,flops,bytes,seconds\n");
    for (int i = 1; i <= 40; ++i)
        file.write(
            QStringLiteral("k%1,%2e9,%3e8,0.00%1\n").arg(i).arg(i % 7 + 1).arg(i % 5 + 1).toUtf8());
    file.close();
    QVERIFY(QFile::setPermissions(m_dir.path(),
        QFile::permissions(m_dir.path()) | QFileDevice::ReadOther | QFileDevice::ExeOther));
    QVERIFY(file.setPermissions(file.permissions() | QFileDevice::ReadOther));
    const QStringList arguments = QStringList { "analyze", "--hardware", "h100", "--format", "csv" }
        + options + QStringList { points };
    const Run free = runCli(arguments);
    QCOMPARE(free.status, 0);
    const Run limited = runCli(asNobody + arguments, setpriv);
    QVERIFY2(limited.finished, "ridgepoint did not finish within 30 s");
    QVERIFY2(limited.status == 0, qPrintable(limited.err));
    QCOMPARE(limited.out, free.out);
}

QTEST_MAIN(TestCliAbuse)
#include "tst_cli_abuse.moc"
