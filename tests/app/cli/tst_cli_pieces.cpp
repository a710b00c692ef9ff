// analyze on every core (core/stream/pipeline.h): a clean points CSV read, analysed and written
// in pieces gives the bytes of the sequential path (--sequential) on stdout and on stderr, and
// the same exit status, for CSV, JSON and JSON Lines, wherever the pieces are cut and on any
// number of threads (the room's promise); a file with anything to say about its rows takes the
// sequential path.
#include "tests/support/cli_run.h"
#include "tests/support/testpaths.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QTemporaryDir>
#include <QTest>

#include <initializer_list>
#include <utility>

namespace test = ridgepoint::test;

namespace {

using test::Run;
using test::runCli;

QList<QByteArray> generatedLines()
{
    QFile file(test::sourcePath(QStringLiteral("tests/data/cli/unchanged/generated_points.csv")));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read generated_points.csv");
    QList<QByteArray> lines = file.readAll().split('\n');
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.pop_back();
    return lines;
}

// tests/data/cli/unchanged/generated_points.csv (1500 rows; L2 bytes on every 5th row, L1 past
// row 1100, precisions, a unit, no time on one row, a point faster than its roof) without its
// quoted name and its two bad rows: 1497 rows the reader takes without a message.
QList<QByteArray> cleanLines()
{
    QList<QByteArray> clean;
    for (const QByteArray &line : generatedLines()) {
        if (!line.contains('"') && !line.contains(",x1,") && !line.contains(",-5,"))
            clean << line;
    }
    return clean;
}

// The lines without the fields at `columns` (in decreasing order).
void dropColumns(QList<QByteArray> &lines, std::initializer_list<int> columns)
{
    for (QByteArray &line : lines) {
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        QList<QByteArray> fields = line.split(',');
        for (const int column : columns)
            fields.removeAt(column);
        line = fields.join(',');
    }
}

// A variant of the clean file, by name. "one level: " before a name: the same with only the
// main bytes column (the file's points fit a PointsCsvTape, so that the report's pass replays
// them instead of reading the text again).
QByteArray variant(QString name)
{
    const bool oneLevel = name.startsWith("one level: ");
    if (oneLevel)
        name.remove(0, 11);
    QList<QByteArray> lines = cleanLines();
    QByteArray end = "\n";
    if (name == "crlf")
        end = "\r\n";
    // Rows in fp4, which the H100 has no ceiling for: points that cannot be placed, their
    // messages merged from the pieces in file order (30 of them: 20 shown, then a count).
    const auto fp4 = [&](qsizetype row) {
        QList<QByteArray> fields = lines[row].split(',');
        fields[6] = "fp4";
        lines[row] = fields.join(',');
    };
    if (name == "unplaceable") {
        for (qsizetype row = 7; row < lines.size(); row += 50)
            fp4(row);
    }
    // The first 40 rows unplaceable: the first pieces place no point, and JSON's first row is
    // in a later piece than the first.
    if (name == "first rows unplaceable") {
        for (qsizetype row = 1; row <= 40; ++row)
            fp4(row);
    }
    if (name == "all unplaceable") {
        for (qsizetype row = 1; row < lines.size(); ++row)
            fp4(row);
    }
    // Messages from the reader send the file to the sequential path.
    if (name == "bad row deep inside")
        lines.insert(1400, "k_bad,12,zz,,,1e-3,,mlp");
    if (name == "zero FLOPs")
        lines.insert(900, "k_zero,0,1e6,,,1e-3,,mlp");
    if (name == "quote")
        lines.insert(5, "\"k,q\",1e9,1e6,,,1e-3,,mlp");
    if (name == "not UTF-8") // the input check's error, about the whole file
        lines.insert(1300, "k\xff,1e9,1e6,,,1e-3,,mlp");
    if (name == "unused column") {
        for (QByteArray &line : lines)
            line += ",red";
    }
    // Blank lines and comments between rows: lines that are not rows, counted all the same.
    if (name.startsWith("lines between")) {
        for (qsizetype row = lines.size() - 3; row > 1; row -= 7)
            lines.insert(row, row % 2 == 0 ? QByteArray() : QByteArray("# a comment"));
    }
    // A name longer than a tape holds (64 KiB): its piece is read again.
    if (name == "long name")
        lines[700] = QByteArray(70000, 'k') + lines[700].mid(lines[700].indexOf(','));
    if (oneLevel)
        dropColumns(lines, { 4, 3 });
    if (name.endsWith("no name column")) // the points named after their lines
        dropColumns(lines, { 0 });
    QByteArray text = lines.join(end) + end;
    if (name == "no last line end")
        text.chop(1);
    return text;
}

QStringList formatOptions(const QString &format)
{
    if (format == "compact")
        return { "--compact" };
    return { "--format", format };
}

} // namespace

class TestCliPieces : public QObject
{
    Q_OBJECT

private slots:
    void piecesWriteTheSequentialBytes_data();
    void piecesWriteTheSequentialBytes();
};

void TestCliPieces::piecesWriteTheSequentialBytes_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    QTest::addColumn<int>("pieceBytes");
    QTest::addColumn<int>("threads"); // --threads; 0: the default (one per core, up to four)
    QTest::addColumn<bool>("pieced"); // whether the file takes the pipeline
    const QStringList clean { "clean", "crlf", "no last line end", "unplaceable",
        "first rows unplaceable", "all unplaceable" };
    const QStringList sequential { "bad row deep inside", "zero FLOPs", "quote", "unused column",
        "not UTF-8" };
    const QStringList oneLevel { "clean", "crlf", "unplaceable", "first rows unplaceable",
        "lines between", "long name", "no name column", "lines between, no name column" };
    // The pieces and the thread counts they run on: 100 bytes (a piece or two rows each, the
    // rows being 40-70 bytes) on one thread and on four, 4096 (about 70 rows: the CSV's
    // 1000-row look-ahead over many pieces) on three, and the default (one piece, on one tape)
    // on the default count.
    const QList<std::pair<int, int>> runs { { 100, 1 }, { 100, 4 }, { 4096, 3 }, { 0, 0 } };
    for (const QString &format : QStringList { "csv", "json", "compact" }) {
        for (const auto &[bytes, threads] : runs) {
            for (const QString &file : oneLevel)
                QTest::addRow("one level: %s, %s, %d bytes, %d threads", qPrintable(file),
                    qPrintable(format), bytes, threads)
                    << "one level: " + file << format << bytes << threads << true;
        }
        for (const auto &[bytes, threads] : runs) {
            for (const QString &file : clean) {
                if (bytes == 0 && file != "clean")
                    continue;
                QTest::addRow("%s, %s, %d bytes, %d threads", qPrintable(file), qPrintable(format),
                    bytes, threads)
                    << file << format << bytes << threads << true;
            }
        }
        for (const QString &file : sequential)
            QTest::addRow("%s, %s", qPrintable(file), qPrintable(format))
                << file << format << 100 << 4 << false;
    }
}

// The sequential run of a file in a format, made once for all the rows that cut it into pieces
// of different sizes (the rows run one after another in this process).
const Run &sequentialRun(const QString &file, const QString &format, const QString &dir)
{
    static QHash<QString, Run> runs;
    const QString key = file + '\n' + format;
    if (!runs.contains(key)) {
        runs.insert(key,
            runCli(QStringList { "analyze", "--hardware", "h100" } << formatOptions(format)
                                                                   << "points.csv"
                                                                   << "--sequential",
                dir));
    }
    return runs[key];
}

void TestCliPieces::piecesWriteTheSequentialBytes()
{
    QFETCH(QString, file);
    QFETCH(QString, format);
    QFETCH(int, pieceBytes);
    QFETCH(int, threads);
    QFETCH(bool, pieced);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile out(dir.filePath("points.csv"));
    const QByteArray text = variant(file);
    QVERIFY(out.open(QIODevice::WriteOnly) && out.write(text) == text.size());
    out.close();
    const Run &sequential = sequentialRun(file, format, dir.path());
    QStringList options = QStringList { "analyze", "--hardware", "h100" } << formatOptions(format)
                                                                          << "points.csv";
    if (pieceBytes > 0)
        options << "--piece-bytes" << QString::number(pieceBytes);
    if (threads > 0)
        options << "--threads" << QString::number(threads);
    // Which path the file takes: --expect-pieces fails on the sequential path and changes
    // nothing on the pieced one (app/cli/cli_analyze.cpp reads it only after choosing the
    // path), so on a pieced file its run is the plain command's run.
    const Run expecting = runCli(QStringList(options) << "--expect-pieces", dir.path());
    QCOMPARE(expecting.err.contains("not read in pieces"), !pieced);
    const Run run = pieced ? expecting : runCli(options, dir.path());
    QCOMPARE(run.status, sequential.status);
    QCOMPARE(run.err, sequential.err);
    QVERIFY(run.out == sequential.out); // (QCOMPARE would print megabytes)
    // The runs compared did something: a report, or (no point placed) messages and status 2.
    if (file == "all unplaceable" || file == "not UTF-8") {
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.status, 2);
        QVERIFY(!run.err.isEmpty());
    } else {
        QVERIFY(run.out.size() > 100000);
    }
    if (file == "unplaceable")
        QVERIFY(run.err.contains("... and 10 more messages not shown"));
}

QTEST_GUILESS_MAIN(TestCliPieces)
#include "tst_cli_pieces.moc"
