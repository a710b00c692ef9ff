// The generic points CSV read in pieces (core/io/formats/points_csv_pieces.h) against the whole
// file read at once: the same points, with the same source lines, and the same row messages,
// wherever the pieces are cut.
#include "core/io/formats/csv.h"
#include "core/io/formats/points_csv_pieces.h"
#include "core/io/formats/points_csv_tape.h"

#include <QTest>

#include <algorithm>
#include <string>
#include <vector>

using namespace ridgepoint;

namespace {

QString optionalText(const std::optional<double> &value)
{
    return value ? QString::number(*value, 'g', 17) : QStringLiteral("-");
}

// Every field the reader fills, as text, so two points compare as one string.
QString describe(const KernelPoint &p)
{
    QString text = QString::fromStdString(p.name) + "|" + QString::number(p.flops, 'g', 17) + "|";
    for (const LevelBytes &level : p.bytes)
        text += QString::number(level.level ? static_cast<int>(*level.level) : -1) + ":"
            + QString::number(level.bytes, 'g', 17) + ";";
    text += "|" + optionalText(p.seconds) + "|" + optionalText(p.measuredRate) + "|"
        + optionalText(p.intensity) + "|" + optionalText(p.timeStatistics.median) + "|"
        + optionalText(p.timeStatistics.min) + "|" + optionalText(p.timeStatistics.max) + "|"
        + optionalText(p.timeStatistics.stddev) + "|"
        + QString::number(p.precision ? static_cast<int>(*p.precision) : -1) + "|"
        + QString::fromStdString(p.group) + "|" + QString::fromStdString(p.source.file) + ":"
        + QString::number(p.source.line);
    return text;
}

struct Read {
    QStringList points;
    QStringList messages;
    int rowsRead = 0;
    int rowsSkipped = 0;
    int zeroFlopRows = 0; // pieces only
    int firstZeroFlopLine = 0;
};

Read whole(const std::string &text)
{
    Read read;
    const auto result = readPointsCsv(
        text, "f.csv", [&](KernelPoint &&point) { read.points << describe(point); }, 1000);
    for (const Diagnostic &d : result.diagnostics)
        read.messages << QString::fromStdString(d.toString());
    read.rowsRead = result.rowsRead;
    read.rowsSkipped = result.rowsSkipped;
    return read;
}

// The rows read piece by piece, a piece ending after each line end in `cuts`.
Read inPieces(
    const std::string &text, const PointsCsvLayout &layout, const std::vector<std::size_t> &cuts)
{
    Read read;
    std::size_t begin = layout.rowsBegin;
    int line = layout.rowsLine;
    std::vector<std::size_t> ends = cuts;
    ends.push_back(text.size());
    for (const std::size_t end : ends) {
        const std::string_view piece = std::string_view(text).substr(begin, end - begin);
        const auto result = readPointsCsvPiece(
            layout, piece, line, "f.csv",
            [&](KernelPoint &&point) { read.points << describe(point); }, 1000);
        for (const Diagnostic &d : result.diagnostics)
            read.messages << QString::fromStdString(d.toString());
        read.rowsRead += result.rowsRead;
        read.rowsSkipped += result.rowsSkipped;
        if (read.zeroFlopRows == 0)
            read.firstZeroFlopLine = result.firstZeroFlopLine;
        read.zeroFlopRows += result.zeroFlopRows;
        line += static_cast<int>(std::count(piece.begin(), piece.end(), '\n'));
        begin = end;
    }
    return read;
}

// The points of the pieces as analyze on every core gets them: each piece read on a tape (its
// first line not known yet: 1), then replayed with its line; a piece whose tape gave up is read
// again. `complete`: whether every tape held its piece.
QStringList replayed(const std::string &text, const PointsCsvLayout &layout,
    const std::vector<std::size_t> &cuts, bool &complete, std::size_t budget = 1U << 30)
{
    QStringList points;
    complete = true;
    std::size_t begin = layout.rowsBegin;
    int line = layout.rowsLine;
    std::vector<std::size_t> ends = cuts;
    ends.push_back(text.size());
    const PointSink collect = [&](KernelPoint &&point) { points << describe(point); };
    for (const std::size_t end : ends) {
        const std::string_view piece = std::string_view(text).substr(begin, end - begin);
        PointsCsvTape tape(layout, 2, budget);
        readPointsCsvPiece(
            layout, piece, 1, "f.csv", [](KernelPoint &&) {}, 0, &tape);
        if (tape.complete()) {
            tape.shrink();
            // Replayed twice, as analyze does (the CSV's look-ahead, then the report): the
            // second gives what the first gave.
            QStringList first;
            tape.replay(line, "f.csv", [&](KernelPoint &&point) { first << describe(point); });
            const qsizetype before = points.size();
            tape.replay(line, "f.csv", collect);
            if (points.mid(before) != first)
                points << "a second replay differs";
        } else {
            complete = false;
            readPointsCsvPiece(layout, piece, line, "f.csv", collect);
        }
        line += static_cast<int>(std::count(piece.begin(), piece.end(), '\n'));
        begin = end;
    }
    return points;
}

} // namespace

class TestCsvPieces : public QObject
{
    Q_OBJECT

private slots:
    void piecesReadAsTheWholeFile_data();
    void piecesReadAsTheWholeFile();
    void layoutOnlyForAQuietHeader_data();
    void layoutOnlyForAQuietHeader();
    void tapesReplayThePieces_data();
    void tapesReplayThePieces();
    void tapeKeepsToItsBudget();
};

void TestCsvPieces::piecesReadAsTheWholeFile_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("rowsLine"); // the line after the header, counted by hand
    QTest::newRow("LF") << QByteArray("name,flops,bytes,seconds\na,1,2,3\nb,4,5,6\nc,7,8,9\n") << 2;
    QTest::newRow("CRLF") << QByteArray(
        "name,flops,bytes,seconds\r\na,1,2,3\r\nb,4,5,6\r\nc,7,8,9\r\n")
                          << 2;
    QTest::newRow("no line end at the end")
        << QByteArray("name,flops,bytes,seconds\na,1,2,3\nb,4,5,6\nc,7,8,9") << 2;
    QTest::newRow("empty lines and a comment")
        << QByteArray("name,flops,bytes,seconds\n\na,1,2,3\n\n# note\nb,4,5,6\n\n\nc,7,8,9\n\n")
        << 2;
    QTest::newRow("preamble, BOM, semicolons") << QByteArray(
        "\xEF\xBB\xBF# tool v1\nrun;2\nname;flops;bytes;time_ms;group\na;1;2;3;x\r\n"
        "b;4;5;6;y\nc;7;8;9;\n") << 4;
    // Rows without a name column are named after their lines ("line 3"): the piece must know
    // the file's line numbers.
    QTest::newRow("no name column")
        << QByteArray("flops,bytes,seconds\n1,2,3\n\n4,5,6\n7,8,9\n") << 2;
    // Row errors keep their line and column; a delimiter ending the input gives one more field.
    QTest::newRow("bad rows") << QByteArray(
        "name,flops,bytes,seconds\na,1,2,3\nb,x,5,6\nc,7\nd,1,2,3,4\ne,0,8,9\n"
        "f,1,-2,3\ng,1,2,") << 2;
    QTest::newRow("levels and precision") << QByteArray(
        "kernel,flops,bytes_l2,bytes_hbm,seconds,precision\nk1,1e9,2e6,3e6,1e-3,fp32\n"
        "k2,2e9,4e6,5e6,2e-3,bf16\r\nk3,3 GFLOP,6e6,7e6,3e-3,\n")
                                          << 2;
    QTest::newRow("header only") << QByteArray("name,flops,bytes,seconds\n") << 2;
    QTest::newRow("header without line end") << QByteArray("name,flops,bytes,seconds") << 2;
}

void TestCsvPieces::piecesReadAsTheWholeFile()
{
    QFETCH(QByteArray, text);
    QFETCH(int, rowsLine);
    const std::string file = text.toStdString();
    const auto layout = pointsCsvLayout(file, "f.csv");
    QVERIFY(layout);
    QCOMPARE(layout->rowsLine, rowsLine);
    const Read expected = whole(file);
    // The whole reader's messages but its summaries (the zero-FLOP warning, "no data rows"),
    // which the pieces leave to their caller.
    QStringList rowMessages;
    QString zeroFlops;
    for (const QString &message : expected.messages) {
        if (message.contains("0 FLOPs (pure data movement)"))
            zeroFlops = message;
        else if (!message.contains("the header has no data rows"))
            rowMessages << message;
    }
    // Every line end after the header, each alone as the end of the first piece, then all at
    // once (one line a piece).
    std::vector<std::size_t> lineEnds;
    for (std::size_t at = file.find('\n', layout->rowsBegin); at != std::string::npos;
         at = file.find('\n', at + 1))
        lineEnds.push_back(at + 1);
    std::vector<std::vector<std::size_t>> cuttings { {}, lineEnds };
    for (const std::size_t end : lineEnds)
        cuttings.push_back({ end });
    for (const auto &cuts : cuttings) {
        const Read pieces = inPieces(file, *layout, cuts);
        QCOMPARE(pieces.points, expected.points);
        QCOMPARE(pieces.messages, rowMessages);
        QCOMPARE(pieces.rowsRead, expected.rowsRead);
        QCOMPARE(pieces.rowsSkipped, expected.rowsSkipped);
        const QString said = pieces.zeroFlopRows == 0 ? QString()
                                                      : QString("f.csv:%1: warning: %2 row")
                                                            .arg(pieces.firstZeroFlopLine)
                                                            .arg(pieces.zeroFlopRows);
        QCOMPARE(zeroFlops.left(said.size()), said);
    }
}

void TestCsvPieces::layoutOnlyForAQuietHeader_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("layout");
    QTest::newRow("clean") << QByteArray("name,flops,bytes,seconds\na,1,2,3\n") << true;
    QTest::newRow("unused column: a warning")
        << QByteArray("name,flops,bytes,seconds,colour\na,1,2,3,red\n") << false;
    QTest::newRow("no header") << QByteArray("a,1,2,3\n") << false;
    QTest::newRow("empty") << QByteArray("") << false;
    QTest::newRow("repeated column")
        << QByteArray("name,flops,bytes,seconds,time_s\na,1,2,3,4\n") << false;
    QTest::newRow("no bytes column") << QByteArray("name,flops,seconds\na,1,3\n") << false;
}

void TestCsvPieces::layoutOnlyForAQuietHeader()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, layout);
    QCOMPARE(pointsCsvLayout(text.toStdString(), "f.csv").has_value(), layout);
}

void TestCsvPieces::tapesReplayThePieces_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("fits"); // PointsCsvTape::fits
    QTest::addColumn<bool>("complete"); // every piece's tape holds its points
    QTest::newRow("LF") << QByteArray("name,flops,bytes,seconds\na,1,2,3\nb,4,5,6\nc,7,8,9\n")
                        << true << true;
    QTest::newRow("no line end at the end, CRLF")
        << QByteArray("name,flops,bytes,seconds\r\na,1,2,3\r\nb,4,5,6\r\nc,7,8,9") << true << true;
    QTest::newRow("empty lines and a comment")
        << QByteArray("name,flops,bytes,seconds\n\na,1,2,3\n\n# note\nb,4,5,6\n\n\nc,7,8,9\n\n")
        << true << true;
    QTest::newRow("preamble, BOM, semicolons, unit, group") << QByteArray(
        "\xEF\xBB\xBF# tool v1\nrun;2\nname;flops;bytes;time_ms;group\na;1;2;3;x\r\n"
        "b;4;5;6;y\nc;7;8;9;\n") << true << true;
    QTest::newRow("no name column")
        << QByteArray("flops,bytes,seconds\n1,2,3\n\n4,5,6\n7,8,9\n") << true << true;
    QTest::newRow("bad rows: only the points kept") << QByteArray(
        "name,flops,bytes,seconds\na,1,2,3\nb,x,5,6\nc,7\nd,1,2,3,4\ne,0,8,9\n"
        "f,1,-2,3\ng,1,2,") << true << true;
    QTest::newRow("a level, precisions, no time, blanks around cells") << QByteArray(
        "kernel,flops,bytes_l2,seconds,precision,group\n k1 ,1e9,2e6,1e-3,fp32, g \n"
        "k2,2 GFLOP,4e6,,bf16,\nk3,3e9,6e6,3e-3,,h\n") << true << true;
    QTest::newRow("a name of 64 KiB") << QByteArray(
        "name,flops,bytes,seconds\na,1,2,3\n" + QByteArray(65536, 'n') + ",4,5,6\nc,7,8,9\n")
                                      << true << false;
    QTest::newRow("a name just under") << QByteArray(
        "name,flops,bytes,seconds\na,1,2,3\n" + QByteArray(65535, 'n') + ",4,5,6\nc,7,8,9\n")
                                       << true << true;
    QByteArray farApart("name,flops,bytes,seconds\na,1,2,3\n");
    farApart += QByteArray(65536, '\n') + "b,4,5,6\n";
    QTest::newRow("rows 64 Ki lines apart") << farApart << true << false;
    QByteArray justApart("name,flops,bytes,seconds\na,1,2,3\n");
    justApart += QByteArray(65534, '\n') + "b,4,5,6\n"; // b 65535 lines after a
    QTest::newRow("rows 64 Ki - 1 lines apart") << justApart << true << true;
    QTest::newRow("a group of 64 KiB") << QByteArray("name,flops,bytes,seconds,group\na,1,2,3,g\n"
                                                     "b,4,5,6,"
        + QByteArray(65536, 'g') + "\n")
                                       << true << false;
    QTest::newRow("two levels") << QByteArray("kernel,flops,bytes_l2,bytes_hbm,seconds\n"
                                              "k1,1e9,2e6,3e6,1e-3\nk2,2e9,4e6,5e6,2e-3\n")
                                << false << false;
    QTest::newRow("a median time") << QByteArray("name,flops,bytes,median\na,1,2,3\n") << true
                                   << true; // the median is the time then
    QTest::newRow("time statistics")
        << QByteArray("name,flops,bytes,seconds,min_ms\na,1,2,3,2\n") << false << false;
    QTest::newRow("intensity") << QByteArray("name,ai,gflops\na,1,2\n") << false << false;
}

// A tape gives the points the text gives (PointsCsvTape, analyze on every core's second pass).
void TestCsvPieces::tapesReplayThePieces()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, fits);
    QFETCH(bool, complete);
    const std::string file = text.toStdString();
    const auto layout = pointsCsvLayout(file, "f.csv");
    QVERIFY(layout);
    QCOMPARE(PointsCsvTape::fits(*layout), fits);
    if (!fits)
        return;
    const QStringList expected = whole(file).points;
    QVERIFY(!expected.isEmpty());
    std::vector<std::size_t> lineEnds;
    for (std::size_t at = file.find('\n', layout->rowsBegin); at != std::string::npos;
         at = file.find('\n', at + 1))
        lineEnds.push_back(at + 1);
    bool onePiece = false; // whether the tape of the file in one piece held it
    QCOMPARE(replayed(file, *layout, {}, onePiece), expected);
    QCOMPARE(onePiece, complete);
    for (const auto &cuts : { lineEnds, std::vector<std::size_t> { lineEnds.front() } }) {
        bool all = false;
        QCOMPARE(replayed(file, *layout, cuts, all), expected);
    }
}

// A tape takes at most its budget: 32 bytes a point and its name's and group's bytes.
void TestCsvPieces::tapeKeepsToItsBudget()
{
    const std::string file = "name,flops,bytes,seconds,group\na,1,2,3,xy\nbb,4,5,6,z\nc,7,8,9,\n";
    const auto layout = pointsCsvLayout(file, "f.csv");
    QVERIFY(layout);
    const QStringList expected = whole(file).points;
    QCOMPARE(expected.size(), 3);
    const std::size_t needed = 3 * PointsCsvTape::kRowBytes + 7; // a xy, bb z, c: 7 bytes
    bool complete = false;
    QCOMPARE(replayed(file, *layout, {}, complete, needed), expected);
    QVERIFY(complete);
    QCOMPARE(replayed(file, *layout, {}, complete, needed - 1), expected);
    QVERIFY(!complete);
}

QTEST_APPLESS_MAIN(TestCsvPieces)
#include "tst_csvpieces.moc"
