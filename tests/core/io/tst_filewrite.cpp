// The one writer (core/io/file_write.h, issue 27): what happens to each kind of target, made in
// a temporary folder — files replaced atomically with their mode and links kept, character
// devices and FIFOs written through and still what they were, the rest refused — and that the
// check before a long run (outputTargetProblem) judges each the same way. The device rows make
// copies of /dev/null and /dev/full with mknod, so they need root (as in CI).
#include "core/io/file_write.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

using namespace ridgepoint;

namespace {

const std::string kOld = "old contents\n";

std::string readAll(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeAll(const std::string &path, const std::string &bytes)
{
    std::ofstream(path, std::ios::binary) << bytes;
}

// Every name in the folder, hidden ones included (a temporary file left behind shows here).
QStringList entries(const QString &folder)
{
    QStringList names = QDir(folder).entryList(
        QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
    return names;
}

// A unix socket bound at `path`; its descriptor (kept open while the test runs).
int bindSocket(const std::string &path)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0)
        return -1;
    return fd;
}

// Reads a FIFO opened (for reading, without blocking) before the writer came, until the writer
// has written and closed it, or 10 s pass.
std::string readFifo(int fd)
{
    std::string got;
    bool started = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
        pollfd wanted { fd, POLLIN, 0 };
        ::poll(&wanted, 1, 100);
        char buffer[4096];
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0) {
            got.append(buffer, static_cast<std::size_t>(n));
            started = true;
        } else if (n == 0 && started) {
            break;
        }
    }
    return got;
}

} // namespace

class TestFileWrite : public QObject
{
    Q_OBJECT

private slots:
    void eachKindOfTarget_data();
    void eachKindOfTarget();
    void fifoWithAReaderGetsEveryByte();
    void failedWriteKeepsTheOldFile();
};

void TestFileWrite::eachKindOfTarget_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("written");
    QTest::addColumn<QString>("message"); // in writeOutputFile's refusal
    QTest::addColumn<QString>("checked"); // in outputTargetProblem's (empty: accepted)
    QTest::newRow("new file") << "new" << true << ""
                              << "";
    QTest::newRow("existing file, mode 0600 kept") << "mode0600" << true << ""
                                                   << "";
    QTest::newRow("link to a file: link kept, file replaced") << "link" << true << ""
                                                              << "";
    QTest::newRow("link to no file yet: link kept, file made") << "dangling" << true << ""
                                                               << "";
    QTest::newRow("missing folder") << "nofolder" << false << "/no/such does not exist"
                                    << "/no/such does not exist";
    QTest::newRow("copy of /dev/null: written through") << "devnull" << true << ""
                                                        << "";
    QTest::newRow("copy of /dev/full: the reason, still a device")
        << "devfull" << false << ": cannot write: No space left on device"
        << "";
    QTest::newRow("link to a copy of /dev/full")
        << "linkfull" << false << ": cannot write: No space left on device"
        << "";
    QTest::newRow("FIFO without a reader: refused at once")
        << "fifo" << false << ": no process is reading this FIFO"
        << "";
    QTest::newRow("directory") << "directory" << false << ": is a directory (expected a file name)"
                               << ": is a directory";
    QTest::newRow("socket") << "socket" << false << ": is a socket (expected a file"
                            << ": is a socket";
    QTest::newRow("block device") << "block" << false << ": is a block device (expected a file"
                                  << ": is a block device";
}

void TestFileWrite::eachKindOfTarget()
{
    QFETCH(QString, kind);
    QFETCH(bool, written);
    QFETCH(QString, message);
    QFETCH(QString, checked);
    const bool device
        = kind == "devnull" || kind == "devfull" || kind == "linkfull" || kind == "block";
    if (device && ::geteuid() != 0)
        QSKIP("mknod needs root (the tests run as root in CI)");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string folder = dir.path().toStdString();
    std::string path = folder + "/out.json";
    const std::string target = folder + "/target.json";
    int socket = -1;
    if (kind == "mode0600") {
        writeAll(path, kOld);
        QCOMPARE(::chmod(path.c_str(), 0600), 0);
    } else if (kind == "link" || kind == "dangling") {
        if (kind == "link")
            writeAll(target, kOld);
        QCOMPARE(::symlink("target.json", path.c_str()), 0);
    } else if (kind == "nofolder") {
        path = folder + "/no/such/out.json";
    } else if (kind == "devnull" || kind == "devfull") {
        QCOMPARE(::mknod(path.c_str(), S_IFCHR | 0666, makedev(1, kind == "devnull" ? 3 : 7)), 0);
    } else if (kind == "linkfull") {
        QCOMPARE(::mknod(target.c_str(), S_IFCHR | 0666, makedev(1, 7)), 0);
        QCOMPARE(::symlink(target.c_str(), path.c_str()), 0);
    } else if (kind == "fifo") {
        QCOMPARE(::mkfifo(path.c_str(), 0600), 0);
    } else if (kind == "directory") {
        QCOMPARE(::mkdir(path.c_str(), 0700), 0);
    } else if (kind == "socket") {
        socket = bindSocket(path);
        QVERIFY(socket >= 0);
    } else if (kind == "block") {
        QCOMPARE(::mknod(path.c_str(), S_IFBLK | 0600, makedev(7, 200)), 0);
    }
    struct stat before {
    };
    ::stat(path.c_str(), &before);
    const QStringList namesBefore = entries(dir.path());

    // The check before a long run: the same judgement, and nothing left behind.
    const QString problem = QString::fromStdString(outputTargetProblem(path));
    if (checked.isEmpty())
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    else
        QVERIFY2(problem.startsWith(QString::fromStdString(path)) && problem.contains(checked),
            qPrintable(problem));
    QCOMPARE(entries(dir.path()), namesBefore);

    const std::string bytes = "{\"format\": \"ridgepoint-hardware\"}\n";
    QElapsedTimer timer;
    timer.start();
    const auto result = writeOutputFile(path, bytes);
    QVERIFY2(timer.elapsed() < 2000, "the writer waited"); // a FIFO without reader: no hang
    QCOMPARE(result.has_value(), written);
    if (!written) {
        const QString error = QString::fromStdString(result.error());
        QVERIFY2(error.startsWith(QString::fromStdString(path)) && error.contains(message),
            qPrintable(error));
    }
    if (socket >= 0)
        ::close(socket);

    // What the path is afterwards: the same kind of thing, and no temporary file anywhere.
    struct stat after {
    };
    struct stat link {
    };
    const bool exists = ::stat(path.c_str(), &after) == 0;
    QCOMPARE(exists, kind != "nofolder");
    ::lstat(path.c_str(), &link);
    QStringList namesAfter = entries(dir.path());
    if (kind == "new" || kind == "dangling")
        namesAfter.removeOne(kind == "new" ? "out.json" : "target.json");
    QCOMPARE(namesAfter, namesBefore);
    if (kind == "new" || kind == "mode0600" || kind == "link" || kind == "dangling") {
        QVERIFY(S_ISREG(after.st_mode));
        QCOMPARE(readAll(path), bytes);
    }
    if (kind == "new") {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        QCOMPARE(after.st_mode & 0777, 0666 & ~mask); // as any new file
    }
    if (kind == "mode0600")
        QCOMPARE(after.st_mode & 07777, mode_t { 0600 });
    if (kind == "link" || kind == "dangling" || kind == "linkfull")
        QVERIFY(S_ISLNK(link.st_mode));
    if (kind == "link" || kind == "dangling")
        QCOMPARE(readAll(target), bytes);
    if (device || kind == "fifo" || kind == "directory" || kind == "socket") {
        QCOMPARE(after.st_mode, before.st_mode);
        QCOMPARE(after.st_rdev, before.st_rdev);
    }
}

// Written through with blocking writes: more than a pipe holds (64 KiB), to a reader that was
// there first.
void TestFileWrite::fifoWithAReaderGetsEveryByte()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("fifo").toStdString();
    QCOMPARE(::mkfifo(path.c_str(), 0600), 0);
    const int reader = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);
    QVERIFY(reader >= 0);
    std::string got;
    std::thread thread([&] { got = readFifo(reader); });
    std::string bytes(300000, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = static_cast<char>('a' + i % 26);
    const auto result = writeOutputFile(path, bytes);
    thread.join();
    ::close(reader);
    QVERIFY2(result.has_value(), result ? "" : result.error().c_str());
    QCOMPARE(got.size(), bytes.size());
    QVERIFY(got == bytes);
    struct stat after {
    };
    QCOMPARE(::stat(path.c_str(), &after), 0);
    QVERIFY(S_ISFIFO(after.st_mode));
    QCOMPARE(entries(dir.path()), QStringList { "fifo" });
}

// A write that fails half-way (here the file-size limit, as a full disk would) leaves the old
// file as it was and no temporary file behind.
void TestFileWrite::failedWriteKeepsTheOldFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("kept.json").toStdString();
    writeAll(path, kOld);
    rlimit previous {};
    QCOMPARE(::getrlimit(RLIMIT_FSIZE, &previous), 0);
    rlimit small = previous;
    small.rlim_cur = 4096;
    const auto handler = std::signal(SIGXFSZ, SIG_IGN);
    QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
    const auto result = writeOutputFile(path, std::string(100000, 'x'));
    ::setrlimit(RLIMIT_FSIZE, &previous);
    std::signal(SIGXFSZ, handler);
    QVERIFY(!result.has_value());
    QVERIFY2(result.error().starts_with(path + ": cannot write: File too large"),
        result.error().c_str());
    QCOMPARE(readAll(path), kOld);
    QCOMPARE(entries(dir.path()), QStringList { "kept.json" });
}

QTEST_GUILESS_MAIN(TestFileWrite)
#include "tst_filewrite.moc"
