// The one bounded reader and the capped picture extraction (issue 16, "holds under abuse"):
// FIFOs and devices refused by type before they are opened, reads stopped at the limit + 1
// whatever size the file reports, chunk and stream lengths checked against the file, sessions
// inflated only up to their cap, and a session nested 80,000 levels deep refused with its
// position, as JSON and embedded in PNG, SVG and PDF. The pictures are built byte by byte here,
// and the compressed data with qCompress, so the expected output is known independently.
#include "core/io/file_io.h"
#include "core/io/inflate.h"
#include "core/io/picture_session.h"
#include "core/session/session.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/types.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <fcntl.h>
#include <thread>

using namespace ridgepoint;

namespace {

// A zlib stream (RFC 1950) of `data`: qCompress adds a 4-byte length before it.
std::string zlibStream(const QByteArray &data)
{
    return qCompress(data, 9).mid(4).toStdString();
}

std::string bigEndian(std::uint32_t value)
{
    std::string out(4, '\0');
    for (int i = 0; i < 4; ++i)
        out[static_cast<std::size_t>(i)] = static_cast<char>((value >> (24 - 8 * i)) & 0xFFU);
    return out;
}

// A PNG chunk with a zero CRC (the session search does not check CRCs; a viewer would).
std::string chunk(const std::string &type, const std::string &data)
{
    return bigEndian(static_cast<std::uint32_t>(data.size())) + type + data + std::string(4, '\0');
}

const std::string kPngSignature = "\x89PNG\r\n\x1a\n";
const std::string kKey = kPictureSessionKey;

std::string png(const std::string &textChunk)
{
    return kPngSignature + chunk("IHDR", std::string(13, '\0')) + textChunk + chunk("IEND", "");
}

std::string pngWith(const std::string &kind, const std::string &json)
{
    if (kind == "tEXt")
        return png(chunk("tEXt", kKey + '\0' + json));
    if (kind == "zTXt")
        return png(chunk("zTXt", kKey + '\0' + '\0' + zlibStream(QByteArray::fromStdString(json))));
    // iTXt, compressed: flag 1, method 0, empty language and translated keyword.
    return png(chunk("iTXt",
        kKey + '\0' + '\1' + '\0' + '\0' + '\0' + zlibStream(QByteArray::fromStdString(json))));
}

std::string pdfWith(const std::string &stream, bool flate)
{
    return "%PDF-1.4\n1 0 obj\n<< /Type /Filespec /F (" + std::string(kPictureSessionAttachment)
        + ") /EF << /F 2 0 R >> >>\nendobj\n2 0 obj\n<< /Type /EmbeddedFile"
        + (flate ? " /Filter /FlateDecode" : "") + " /Length " + std::to_string(stream.size())
        + " >>\nstream\n" + stream + "\nendstream\nendobj\n%%EOF\n";
}

std::string svgWith(const std::string &json)
{
    std::string escaped;
    for (const char c : json)
        escaped += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : std::string(1, c);
    return "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\">\n<metadata>\n"
           "<ridgepoint:"
        + kKey + " xmlns:ridgepoint=\"" + kPictureSessionNamespace + "\">" + escaped
        + "</ridgepoint:" + kKey + ">\n</metadata>\n</svg>\n";
}

std::string embedded(const std::string &kind, const std::string &json)
{
    if (kind == "svg")
        return svgWith(json);
    if (kind == "pdf")
        return pdfWith(zlibStream(QByteArray::fromStdString(json)), true);
    return pngWith(kind, json);
}

// A session whose machine holds an unknown key with `depth` nested arrays: the attacker's
// input, 80,000 levels in a few hundred compressed bytes.
std::string deepSession(int depth)
{
    return R"({"format": "ridgepoint-session", "version": 1, "hardware": {"name": "x", "x": )"
        + std::string(static_cast<std::size_t>(depth), '[')
        + std::string(static_cast<std::size_t>(depth), ']') + "}}";
}

const std::string kSmallSession = R"({"format": "ridgepoint-session", "version": 1, "points": []})";

} // namespace

class TestBoundedReading : public QObject
{
    Q_OBJECT

private slots:
    void refusesWhatIsNotARegularFile_data();
    void refusesWhatIsNotARegularFile();
    void refusesAFifoWithoutBlocking();
    void refusesAFifoSwappedInWhileOpening();
    void readsAtOffsets();
    void stopsReadingAtTheLimit();
    void readsTheHeadOfALargerFile();
    void capsAFileThatReportsNoSize();
    void inflatesUpToTheCap_data();
    void inflatesUpToTheCap();
    void capsTheInflatedSession_data();
    void capsTheInflatedSession();
    void refusesTheRealSixteenMibBomb();
    void refusesLengthsPastTheFile_data();
    void refusesLengthsPastTheFile();
    void refusesDeepNesting_data();
    void refusesDeepNesting();
    void readsSvgEntities();
};

void TestBoundedReading::refusesWhatIsNotARegularFile_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("message");
    QTest::newRow("/dev/zero") << "/dev/zero"
                               << "/dev/zero: is a character device, not a regular file";
    QTest::newRow("/dev/urandom") << "/dev/urandom"
                                  << "/dev/urandom: is a character device, not a regular file";
    QTest::newRow("/dev/null") << "/dev/null"
                               << "/dev/null: is a character device, not a regular file";
    QTest::newRow("directory") << "/tmp"
                               << "/tmp: is a directory, not a file";
    QTest::newRow("missing") << "/nonexistent/x.json"
                             << "/nonexistent/x.json: not found";
}

void TestBoundedReading::refusesWhatIsNotARegularFile()
{
    QFETCH(QString, path);
    QFETCH(QString, message);
    if (!QFile::exists(path) && !path.startsWith("/nonexistent"))
        QSKIP("no such device here");
    const auto text = readTextFile(path.toStdString());
    QVERIFY(!text);
    QCOMPARE(QString::fromStdString(text.error()), message);
    const auto head = readFileHead(path.toStdString(), 64);
    QVERIFY(!head);
    QCOMPARE(QString::fromStdString(head.error()), message);
}

void TestBoundedReading::refusesAFifoWithoutBlocking()
{
    // Opening a FIFO for reading blocks until a writer comes: a regression hangs here, and
    // ctest's timeout fails it.
    QTemporaryDir dir;
    const std::string fifo = dir.filePath("points.csv").toStdString();
    QCOMPARE(mkfifo(fifo.c_str(), 0600), 0);
    const auto text = readTextFile(fifo);
    QVERIFY(!text);
    QCOMPARE(text.error(), fifo + ": is a FIFO, not a regular file");
    QCOMPARE(regularFileProblem(fifo), fifo + ": is a FIFO, not a regular file");
}

void TestBoundedReading::refusesAFifoSwappedInWhileOpening()
{
    // Between the check by path and the open, another process may put a FIFO in the file's
    // place: an open for reading would then block until a writer came. Here a thread swaps the
    // file and a FIFO (atomically, over and over) while it is read; every read gives the text
    // or the FIFO message, and a regression hangs (ctest's timeout fails it).
    QTemporaryDir dir;
    const std::string path = dir.filePath("points.csv").toStdString();
    const std::string other = dir.filePath("other").toStdString();
    {
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("name,flops\n");
    }
    QCOMPARE(mkfifo(other.c_str(), 0600), 0);
    if (renameat2(AT_FDCWD, path.c_str(), AT_FDCWD, other.c_str(), RENAME_EXCHANGE) != 0)
        QSKIP("this file system cannot exchange two names");
    std::atomic<bool> stop = false;
    std::thread swapper([&] {
        while (!stop)
            renameat2(AT_FDCWD, path.c_str(), AT_FDCWD, other.c_str(), RENAME_EXCHANGE);
    });
    struct Join {
        std::atomic<bool> &stop;
        std::thread &thread;
        ~Join()
        {
            stop = true;
            thread.join();
        }
    } join { stop, swapper };
    int texts = 0;
    int fifos = 0;
    for (int i = 0; i < 20000; ++i) {
        const auto text = readTextFile(path);
        if (text) {
            QCOMPARE(*text, std::string("name,flops\n"));
            ++texts;
        } else {
            QCOMPARE(text.error(), path + ": is a FIFO, not a regular file");
            ++fifos;
        }
    }
    QVERIFY(texts > 0);
    QVERIFY(fifos > 0);
}

void TestBoundedReading::readsAtOffsets()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("ten.csv").toStdString();
    {
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("0123456789");
    }
    auto opened = RegularFile::open(path);
    QVERIFY(opened);
    RegularFile file = std::move(*opened); // moved: the descriptor goes along
    QCOMPARE(file.size(), std::uintmax_t { 10 });
    std::array<char, 8> buffer {};
    QCOMPARE(*file.readAt(3, buffer.data(), 4), std::size_t { 4 });
    QCOMPARE(std::string(buffer.data(), 4), std::string("3456"));
    QCOMPARE(*file.readAt(7, buffer.data(), 8), std::size_t { 3 }); // fewer at the end
    QCOMPARE(std::string(buffer.data(), 3), std::string("789"));
    QCOMPARE(*file.readAt(20, buffer.data(), 8), std::size_t { 0 });
    QCOMPARE(file.currentSize(), std::optional<std::uintmax_t> { 10 });
    QCOMPARE(RegularFile::open("/tmp").error(), std::string("/tmp: is a directory, not a file"));
}

void TestBoundedReading::stopsReadingAtTheLimit()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("ten.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("0123456789");
    file.close();
    QCOMPARE(*readTextFile(path.toStdString(), 10), std::string("0123456789"));
    const auto over = readTextFile(path.toStdString(), 9);
    QVERIFY(!over);
    QCOMPARE(over.error(), path.toStdString() + ": too large (10 bytes; the limit is 9)");
}

void TestBoundedReading::readsTheHeadOfALargerFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("ten.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("0123456789");
    file.close();
    QCOMPARE(*readFileHead(path.toStdString(), 4), std::string("0123"));
    QCOMPARE(*readFileHead(path.toStdString(), 64), std::string("0123456789"));
}

void TestBoundedReading::capsAFileThatReportsNoSize()
{
    // /proc files are regular but report a size of 0: the read itself must stop at the limit.
    const std::string path = "/proc/self/status";
    if (!QFile::exists(QString::fromStdString(path)))
        QSKIP("no /proc here");
    const auto whole = readTextFile(path);
    QVERIFY(whole);
    QVERIFY(whole->size() > 10);
    const auto capped = readTextFile(path, 10);
    QVERIFY(!capped);
    QCOMPARE(capped.error(), path + ": too large (more than 10 bytes, the limit)");
}

void TestBoundedReading::inflatesUpToTheCap_data()
{
    QTest::addColumn<int>("size");
    QTest::addColumn<int>("cap");
    QTest::addColumn<bool>("fits");
    QTest::newRow("below") << 999 << 1000 << true;
    QTest::newRow("at the cap") << 1000 << 1000 << true;
    QTest::newRow("one past") << 1001 << 1000 << false;
    QTest::newRow("many chunks, at") << 300'000 << 300'000 << true;
    QTest::newRow("many chunks, past") << 300'001 << 300'000 << false;
}

void TestBoundedReading::inflatesUpToTheCap()
{
    QFETCH(int, size);
    QFETCH(int, cap);
    QFETCH(bool, fits);
    const QByteArray data(size, 'a');
    const auto inflated = inflateCapped(zlibStream(data), static_cast<std::size_t>(cap));
    QCOMPARE(bool(inflated), fits);
    if (fits)
        QCOMPARE(*inflated, data.toStdString());
    else
        QCOMPARE(inflated.error(), "inflates to more than " + std::to_string(cap) + " bytes");
}

void TestBoundedReading::capsTheInflatedSession_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("padding");
    QTest::addColumn<bool>("fits");
    for (const char *kind : { "tEXt", "zTXt", "iTXt", "pdf", "svg" }) {
        // The session padded with spaces to exactly the cap, then one past it.
        QTest::addRow("%s at the cap", kind) << kind << 0 << true;
        QTest::addRow("%s one past", kind) << kind << 1 << false;
    }
}

void TestBoundedReading::capsTheInflatedSession()
{
    QFETCH(QString, kind);
    QFETCH(int, padding);
    QFETCH(bool, fits);
    const std::size_t cap = 4096;
    std::string json = kSmallSession;
    json += std::string(cap - json.size() + static_cast<std::size_t>(padding), ' ');
    const auto found = sessionFromPictureBytes(embedded(kind.toStdString(), json), "f", cap);
    QCOMPARE(bool(found), fits);
    if (fits)
        QCOMPARE(*found, json);
    else
        QCOMPARE(found.error(),
            std::string("f: the embedded session is larger than 4096 bytes once inflated "
                        "(expected at most the limit for a session in a picture)"));
}

void TestBoundedReading::refusesTheRealSixteenMibBomb()
{
    // 16 MiB + 1 of spaces compresses to about 16 KB; the attacker's PDF inflated to 1 GiB.
    const QByteArray bomb(static_cast<qsizetype>(kMaxEmbeddedSessionBytes) + 1, ' ');
    const std::string deflated = zlibStream(bomb);
    QVERIFY(deflated.size() < 100'000);
    for (const std::string &picture :
        { pdfWith(deflated, true), png(chunk("zTXt", kKey + '\0' + '\0' + deflated)) }) {
        const auto found = sessionFromPictureBytes(picture, "bomb");
        QVERIFY(!found);
        QCOMPARE(found.error(),
            std::string("bomb: the embedded session is larger than 16777216 bytes once "
                        "inflated (expected at most the limit for a session in a picture)"));
    }
}

void TestBoundedReading::refusesLengthsPastTheFile_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    // A zTXt chunk claiming 2 GiB after a 33-byte signature and header, with 20 bytes after.
    const std::string claim = kPngSignature + chunk("IHDR", std::string(13, '\0'))
        + bigEndian(0x7FFFFFFFU) + "zTXt" + std::string(20, 'x');
    QTest::newRow("png chunk") << QByteArray::fromStdString(claim)
                               << "f: PNG chunk zTXt at byte 33 claims 2147483647 bytes, but only "
                                  "16 follow (expected a chunk that ends inside the file)";
    const std::string cut = kPngSignature + std::string(5, '\0');
    QTest::newRow("png header cut") << QByteArray::fromStdString(cut)
                                    << "f: PNG chunk at byte 8 cut short (expected a length, a "
                                       "type and a CRC: 12 bytes, found 5)";
    std::string pdf = pdfWith("abc", true);
    pdf.replace(pdf.find("/Length 3"), 9, "/Length 1073741824");
    QTest::newRow("pdf stream") << QByteArray::fromStdString(pdf)
                                << "f: PDF stream of the session claims /Length 1073741824 bytes, "
                                   "but only 27 follow (expected a stream that ends inside the "
                                   "file)";
    const std::string cutStream = zlibStream(QByteArray(1000, 'a')).substr(0, 6);
    for (const std::string &stream : { std::string(), cutStream })
        QTest::addRow("pdf stream of %zu bytes", stream.size())
            << QByteArray::fromStdString(pdfWith(stream, true))
            << "f: the embedded session cannot be inflated: the compressed data ends early "
               "(expected a zlib stream)";
    QTest::newRow("pdf corrupt")
        << QByteArray::fromStdString(pdfWith("not zlib", true))
        << "f: the embedded session cannot be inflated: corrupt compressed data (zlib: incorrect "
           "header check) (expected a zlib stream)";
}

void TestBoundedReading::refusesLengthsPastTheFile()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    const auto found = sessionFromPictureBytes(bytes.toStdString(), "f");
    QVERIFY(!found);
    QCOMPARE(QString::fromStdString(found.error()), message);
}

void TestBoundedReading::refusesDeepNesting_data()
{
    QTest::addColumn<QString>("kind");
    for (const char *kind : { "json", "zTXt", "iTXt", "svg", "pdf" })
        QTest::newRow(kind) << kind;
}

void TestBoundedReading::refusesDeepNesting()
{
    QFETCH(QString, kind);
    const std::string json = deepSession(80'000);
    std::string text = json;
    if (kind != "json") {
        const std::string picture = embedded(kind.toStdString(), json);
        const auto found = sessionFromPictureBytes(picture, "deep");
        QVERIFY2(found, found ? "" : found.error().c_str());
        text = *found;
    }
    const SessionReadResult result = readSessionJson(text, "deep");
    QVERIFY(!result.session);
    QCOMPARE(result.diagnostics.size(), std::size_t { 1 });
    // The document and the machine are levels 1 and 2, so the 511th '[' opens level 513; the
    // column is one-based.
    const std::size_t column = json.find('[') + 510 + 1;
    QCOMPARE(QString::fromStdString(result.diagnostics.front().toString()),
        QString("deep:1:%1: invalid JSON: nested deeper than 512 levels (expected a Ridgepoint, "
                "ERT or hardware file)")
            .arg(column));
}

void TestBoundedReading::readsSvgEntities()
{
    const std::string svg = "<svg><metadata><r:" + kKey + " xmlns:r=\"" + kPictureSessionNamespace
        + "\">&#x7B;&quot;a&quot;: &lt;&amp;&gt;<![CDATA[<b>]]>&#233;&apos;}</r:" + kKey
        + "></metadata></svg>";
    const auto found = sessionFromPictureBytes(svg, "f");
    QVERIFY(found);
    QCOMPARE(*found, std::string("{\"a\": <&><b>\xC3\xA9'}"));
    const auto bad = sessionFromPictureBytes("<svg><r:" + kKey + " xmlns:r=\""
            + kPictureSessionNamespace + "\">&bogus;</r:" + kKey + "></svg>",
        "f");
    QVERIFY(!bad);
    QVERIFY(bad.error().starts_with("f: the session in the SVG has a bad XML entity"));
}

QTEST_GUILESS_MAIN(TestBoundedReading)
#include "tst_boundedreading.moc"
