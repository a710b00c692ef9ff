// Reports written as the points come (`analyze` on files of any length): the table's widths from
// a bounded look-ahead, names cut with an ellipsis past it, the running bound tally, and that
// no writer holds more than its look-ahead of rows.
#include "core/analysis/payoff.h"
#include "core/report/level_columns.h"
#include "core/report/report.h"
#include "core/report/report_stream.h"

#include <QTest>

#include <algorithm>
#include <string>
#include <vector>

using namespace ridgepoint;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(ridgepoint::ReportFormat)

namespace {

using Rows = std::vector<std::vector<std::string>>;

KernelPoint point(const std::string &name, double flops, double bytes, double seconds)
{
    KernelPoint p;
    p.name = name;
    p.flops = flops;
    p.bytes.push_back({ std::nullopt, bytes });
    p.seconds = seconds;
    return p;
}

std::string written(StreamedTable &table, const std::string &text)
{
    table.finish();
    return text;
}

// The lines of `text` (the last, empty one after the final newline dropped).
std::vector<std::string> linesOf(const std::string &text)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t end = text.find('\n'); end != std::string::npos;
         start = end + 1, end = text.find('\n', start))
        lines.push_back(text.substr(start, end - start));
    return lines;
}

} // namespace

class TestReportStream : public QObject
{
    Q_OBJECT

private slots:
    void cutsToAWidth_data();
    void cutsToAWidth();
    void laysOutRowsFromTheLookAhead_data();
    void laysOutRowsFromTheLookAhead();
    void keepsTheColumnsOfALongTableAligned();
    void holdsNoMoreThanItsLookAhead_data();
    void holdsNoMoreThanItsLookAhead();
    void talliesTheBoundClasses_data();
    void talliesTheBoundClasses();
    void streamsTheSameTextAsTheWholeReport_data();
    void streamsTheSameTextAsTheWholeReport();
    void partsJoinToTheWholeReport_data();
    void partsJoinToTheWholeReport();
};

void TestReportStream::cutsToAWidth_data()
{
    QTest::addColumn<std::string>("text");
    QTest::addColumn<int>("width");
    QTest::addColumn<std::string>("expected");
    QTest::newRow("fits") << std::string("gemm") << 4 << std::string("gemm");
    QTest::newRow("fits with room") << std::string("gemm") << 10 << std::string("gemm");
    QTest::newRow("cut") << std::string("flash_attention") << 6 << std::string("flash…");
    QTest::newRow("one left") << std::string("abc") << 1 << std::string("…");
    QTest::newRow("nothing") << std::string("abc") << 0 << std::string();
    // Two-byte characters count once and are never split.
    QTest::newRow("utf-8") << std::string("µµµµ") << 3 << std::string("µµ…");
    QTest::newRow("utf-8 fits") << std::string("µµµ") << 3 << std::string("µµµ");
}

void TestReportStream::cutsToAWidth()
{
    QFETCH(std::string, text);
    QFETCH(int, width);
    QFETCH(std::string, expected);
    const std::string cut = truncatedToWidth(text, static_cast<std::size_t>(width));
    QCOMPARE(cut, expected);
    QVERIFY(displayWidth(cut) <= static_cast<std::size_t>(width));
}

void TestReportStream::laysOutRowsFromTheLookAhead_data()
{
    QTest::addColumn<int>("lookAhead");
    QTest::addColumn<int>("maxWidth");
    QTest::addColumn<std::string>("expected");
    // Columns: a name cut past its width (at least 4), a number (at least 3), a last note.
    // Rows: header, "a 1 x", "abcdefgh 12345 y".
    // All rows seen: exact widths 8 and 5, as alignedTable lays them out.
    QTest::newRow("whole table") << 10 << 0
                                 << std::string("name          n  note\n"
                                                "a             1  x\n"
                                                "abcdefgh  12345  y\n");
    // Two rows seen: widths max(4, 4) and max(1, 3); the long name is cut, the number kept whole.
    QTest::newRow("two rows ahead") << 2 << 0
                                    << std::string("name    n  note\n"
                                                   "a       1  x\n"
                                                   "abc…  12345  y\n");
    // One row seen: the header alone decides, then the minimums.
    QTest::newRow("one row ahead") << 1 << 0
                                   << std::string("name    n  note\n"
                                                  "a       1  x\n"
                                                  "abc…  12345  y\n");
    // The name column never wider than 5, even with every row seen: widths 5 and 5.
    QTest::newRow("whole table, names capped") << 10 << 5
                                               << "name" + std::string(7, ' ') + "n  note\n" + "a"
            + std::string(10, ' ') + "1  x\n" + "abcd…  12345  y\n";
    // Capped below what the look-ahead measured (4): widths 3 and 3.
    QTest::newRow("two rows ahead, names capped") << 2 << 3
                                                  << "na…" + std::string(4, ' ') + "n  note\n" + "a"
            + std::string(6, ' ') + "1  x\n" + "ab…  12345  y\n";
}

void TestReportStream::laysOutRowsFromTheLookAhead()
{
    QFETCH(int, lookAhead);
    QFETCH(int, maxWidth);
    QFETCH(std::string, expected);
    std::string text;
    StreamedTable table({ { false, true, 4, static_cast<std::size_t>(maxWidth) },
                            { true, false, 3, 0 }, { false, false, 0, 0 } },
        TableStyle::Aligned, static_cast<std::size_t>(lookAhead),
        [&](std::string_view piece) { text += piece; });
    const Rows rows { { "name", "n", "note" }, { "a", "1", "x" }, { "abcdefgh", "12345", "y" } };
    for (const auto &row : rows)
        table.addRow(row);
    QCOMPARE(written(table, text), expected);
    if (static_cast<std::size_t>(lookAhead) >= rows.size() && maxWidth == 0)
        QCOMPARE(text, alignedTable(rows, { false, true, false })); // the independent layout
}

// 300 points, 20 rows of look-ahead: names grow past the width the first rows gave. Each line's
// name is the whole name or a prefix of it ending in "…", and every column after it starts where
// the header's does.
void TestReportStream::keepsTheColumnsOfALongTableAligned()
{
    const Hardware hw = makeSimpleMachine(1e12, 1e11);
    std::string text;
    ReportWriterOptions options;
    options.lookAhead = 20;
    auto writer = makeReportWriter(
        ReportFormat::Table, hw, [&](std::string_view piece) { text += piece; }, options);
    std::vector<std::string> names;
    for (int i = 0; i < 300; ++i) {
        names.push_back(
            "kernel_" + std::string(static_cast<std::size_t>(i / 10), 'x') + std::to_string(i));
        const auto a = analyzePoint(point(names.back(), 1e9, 1e8 * (1 + i % 7), 1.0), hw);
        QVERIFY(a);
        writer->add(point(names.back(), 1e9, 1e8 * (1 + i % 7), 1.0), *a);
    }
    writer->finish();
    QCOMPARE(writer->mostRowsHeld(), std::size_t { 20 });

    const auto lines = linesOf(text);
    const auto header = std::find_if(lines.begin(), lines.end(),
        [](const std::string &l) { return l.rfind("kernel ", 0) == 0; });
    QVERIFY(header != lines.end());
    const std::size_t bound = header->find("bound");
    QCOMPARE(static_cast<std::size_t>(lines.end() - header), names.size() + 1);
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string &line = *(header + 1 + static_cast<std::ptrdiff_t>(i));
        const std::string shown = line.substr(0, line.find(' '));
        const bool whole = shown == names[i];
        const bool cut = shown.size() > 3 && shown.ends_with("…")
            && names[i].rfind(shown.substr(0, shown.size() - 3), 0) == 0;
        // No name in the look-ahead is longer than the column's minimum of 24 characters, so
        // exactly the longer ones are cut.
        QVERIFY2(whole != cut, line.c_str());
        QVERIFY2(cut == (names[i].size() > 24), line.c_str());
        // Column offsets are in characters: "…" is one character of three bytes.
        const std::size_t extra = cut ? 2 : 0;
        QVERIFY2(
            line.substr(bound + extra, 6) == "memory" || line.substr(bound + extra, 7) == "compute",
            line.c_str());
    }
}

void TestReportStream::holdsNoMoreThanItsLookAhead_data()
{
    QTest::addColumn<ReportFormat>("format");
    QTest::addColumn<int>("lookAhead");
    QTest::addColumn<int>("mostHeld");
    QTest::newRow("table") << ReportFormat::Table << 50 << 50;
    QTest::newRow("table, small") << ReportFormat::Table << 3 << 3;
    QTest::newRow("markdown") << ReportFormat::Markdown << 50 << 50;
    QTest::newRow("csv") << ReportFormat::Csv << 50 << 0;
    QTest::newRow("json") << ReportFormat::Json << 50 << 0;
}

// 8000 points: the writer holds at most its look-ahead of rows and has handed most of the text
// to the sink before the last point arrives.
void TestReportStream::holdsNoMoreThanItsLookAhead()
{
    QFETCH(ReportFormat, format);
    QFETCH(int, lookAhead);
    QFETCH(int, mostHeld);
    const Hardware hw = makeSimpleMachine(1e12, 1e11);
    std::size_t bytes = 0;
    ReportWriterOptions options;
    options.lookAhead = static_cast<std::size_t>(lookAhead);
    auto writer = makeReportWriter(
        format, hw, [&](std::string_view piece) { bytes += piece.size(); }, options);
    constexpr int kPoints = 8000;
    const KernelPoint p = point("a_kernel_of_some_length", 1e9, 3e8, 2e-3);
    const auto a = analyzePoint(p, hw);
    QVERIFY(a);
    for (int i = 0; i < kPoints; ++i)
        writer->add(p, *a);
    const std::size_t before = bytes;
    writer->finish();
    QCOMPARE(writer->mostRowsHeld(), static_cast<std::size_t>(mostHeld));
    // At most a last buffer of 1 MB (JSON) was still held at the end.
    QVERIFY2(bytes - before <= (1U << 20) + 4096, std::to_string(bytes - before).c_str());
    QVERIFY(before > bytes / 2);
}

void TestReportStream::talliesTheBoundClasses_data()
{
    QTest::addColumn<std::vector<double>>("intensities");
    QTest::addColumn<std::vector<double>>("fractionsOfRoof");
    // The machine's ridge is at π/β = 10 FLOP/B; a fraction above 1 breaks the roof.
    QTest::newRow("one memory") << std::vector<double> { 0.5 } << std::vector<double> { 0.5 };
    QTest::newRow("both") << std::vector<double> { 0.1, 100, 3, 9.9, 11 }
                          << std::vector<double> { 0.2, 0.9, 0.99, 0.5, 0.1 };
    QTest::newRow("two too fast") << std::vector<double> { 1, 50, 20 }
                                  << std::vector<double> { 1.5, 0.3, 2.0 };
    QTest::newRow("none") << std::vector<double> {} << std::vector<double> {};
}

// Checked against the classes and counts worked out here from the ridge, not by the analysis.
void TestReportStream::talliesTheBoundClasses()
{
    QFETCH(std::vector<double>, intensities);
    QFETCH(std::vector<double>, fractionsOfRoof);
    constexpr double kPeak = 1e12;
    constexpr double kBandwidth = 1e11;
    const Hardware hw = makeSimpleMachine(kPeak, kBandwidth);
    std::string text;
    ReportWriterOptions options;
    options.summary = true;
    auto writer = makeReportWriter(
        ReportFormat::Table, hw, [&](std::string_view piece) { text += piece; }, options);
    std::size_t memory = 0;
    std::size_t compute = 0;
    std::size_t tooFast = 0;
    for (std::size_t i = 0; i < intensities.size(); ++i) {
        const double flops = 1e9;
        const double roof = std::min(kPeak, kBandwidth * intensities[i]);
        const KernelPoint p = point("k" + std::to_string(i), flops, flops / intensities[i],
            flops / (roof * fractionsOfRoof[i]));
        ++(intensities[i] < kPeak / kBandwidth ? memory : compute);
        tooFast += fractionsOfRoof[i] > 1.0 ? 1 : 0;
        const auto a = analyzePoint(p, hw);
        QVERIFY(a);
        writer->add(p, *a);
    }
    writer->finish();
    std::string expected = std::to_string(intensities.size())
        + (intensities.size() == 1 ? " point: " : " points: ") + std::to_string(memory)
        + " memory-bound, " + std::to_string(compute) + " compute-bound";
    if (tooFast > 0)
        expected += ", " + std::to_string(tooFast) + " faster than the roofline allows";
    // Points faster than the roof are followed by the doctor's notes
    // (core/report/diagnosis_report.h).
    const std::string tail = tooFast > 0 ? "\nnotes: likely causes" : "";
    QVERIFY2(text.find("\n\n" + expected + "\n" + tail) != std::string::npos, text.c_str());
    if (tooFast == 0)
        QVERIFY2(text.ends_with("\n\n" + expected + "\n"), text.c_str());
}

void TestReportStream::streamsTheSameTextAsTheWholeReport_data()
{
    QTest::addColumn<ReportFormat>("format");
    QTest::newRow("table") << ReportFormat::Table;
    QTest::newRow("csv") << ReportFormat::Csv;
    QTest::newRow("markdown") << ReportFormat::Markdown;
    QTest::newRow("json") << ReportFormat::Json;
}

// Within the look-ahead the streamed text is the whole-vector report's, piece by piece.
void TestReportStream::streamsTheSameTextAsTheWholeReport()
{
    QFETCH(ReportFormat, format);
    const Hardware hw = makeSimpleMachine(1e12, 1e11);
    std::vector<AnalyzedPoint> points;
    for (const auto &[name, intensity] : std::vector<std::pair<std::string, double>> {
             { "stream", 0.25 }, { "gemm, \"tiled\"", 40.0 }, { "µ-kernel|x", 3.0 } }) {
        const KernelPoint p = point(name, 1e9, 1e9 / intensity, 1e-3);
        auto a = analyzePoint(p, hw);
        QVERIFY(a);
        points.push_back({ p, *a });
    }
    std::string text;
    int pieces = 0;
    // The whole-vector reports share out the points' own total time (3 × 1 ms) as payoff.
    ReportWriterOptions options;
    options.totalSeconds = totalSeconds(points);
    auto writer = makeReportWriter(
        format, hw,
        [&](std::string_view piece) {
            text += piece;
            ++pieces;
        },
        options);
    for (const auto &[p, a] : points)
        writer->add(p, a);
    writer->finish();
    QVERIFY(pieces >= 1);
    switch (format) {
    case ReportFormat::Table:
        QCOMPARE(text, analysisTable(hw, points));
        break;
    case ReportFormat::Csv:
        QCOMPARE(text, tableCsv(points));
        break;
    case ReportFormat::Markdown:
        QCOMPARE(text, tableMarkdown(points));
        break;
    case ReportFormat::Json:
        QCOMPARE(text, analysisJson(hw, points));
        break;
    }
}

void TestReportStream::partsJoinToTheWholeReport_data()
{
    QTest::addColumn<ReportFormat>("format");
    QTest::addColumn<bool>("compact");
    QTest::addColumn<int>("points");
    QTest::newRow("csv") << ReportFormat::Csv << false << 7;
    QTest::newRow("json") << ReportFormat::Json << false << 7;
    QTest::newRow("compact") << ReportFormat::Json << true << 7;
    QTest::newRow("csv, one point") << ReportFormat::Csv << false << 1;
    QTest::newRow("json, one point") << ReportFormat::Json << false << 1;
}

// The report made as analyze makes a big file's on two threads: its Start, the Rows of two runs
// of points (cut after every point in turn, the first run empty too), its End; joined, they are
// the whole report's bytes. The CSV's level columns are given as the look-ahead would find them
// (HBM for every point, L2 on every third: both columns). Rows written into a string
// (ReportWriterOptions::into) are the same as those given to the sink.
void TestReportStream::partsJoinToTheWholeReport()
{
    QFETCH(ReportFormat, format);
    QFETCH(bool, compact);
    QFETCH(int, points);
    const Hardware hw = makeSimpleMachine(1e12, 1e11);
    std::vector<AnalyzedPoint> analysed;
    LevelColumns columns;
    for (int i = 0; i < points; ++i) {
        KernelPoint p = point("k" + std::to_string(i), 1e9 * (i + 1), 3e8, 2e-3 * (i + 1));
        if (i % 3 == 0)
            p.bytes.push_back({ MemoryLevel::L2, 9e8 });
        const auto a = analyzePoint(p, hw);
        QVERIFY(a);
        columns.see(*a);
        analysed.push_back({ p, *a });
    }
    ReportWriterOptions options;
    options.totalSeconds = totalSeconds(analysed);
    options.compact = compact;
    const auto write = [&](const ReportWriterOptions &parts, std::size_t from, std::size_t to) {
        std::string text;
        auto writer = makeReportWriter(
            format, hw, [&](std::string_view piece) { text += piece; }, parts);
        for (std::size_t i = from; i < to; ++i)
            writer->add(analysed[i].point, analysed[i].analysis);
        writer->finish();
        return text;
    };
    // The same through options.into: a string holding an earlier piece, replaced and reused;
    // the sink is not called.
    ReportText reused { "stale text of an earlier piece", 5 };
    const auto writeInto = [&](ReportWriterOptions parts, std::size_t from, std::size_t to) {
        parts.into = &reused;
        bool sinkCalled = false;
        auto writer = makeReportWriter(
            format, hw, [&](std::string_view) { sinkCalled = true; }, parts);
        for (std::size_t i = from; i < to; ++i)
            writer->add(analysed[i].point, analysed[i].analysis);
        writer->finish();
        return sinkCalled ? std::string("(the sink was called)") : std::string(reused.text());
    };
    const std::size_t n = analysed.size();
    const std::string whole = write(options, 0, n);
    QVERIFY(whole.find("k0") != std::string::npos);
    options.levels = columns.levels();
    QCOMPARE(columns.levels().size(), std::size_t { 2 });
    for (std::size_t cut = 0; cut <= n; ++cut) {
        ReportWriterOptions part = options;
        part.part = ReportPart::Start;
        std::string joined = write(part, 0, 0);
        part.part = ReportPart::Rows;
        const std::string rows = write(part, 0, cut);
        QCOMPARE(writeInto(part, 0, cut), rows);
        part.rowsBefore = cut > 0;
        const std::string rest = write(part, cut, n);
        QCOMPARE(writeInto(part, cut, n), rest);
        joined += rows + rest;
        part.part = ReportPart::End;
        part.rowsBefore = true;
        joined += write(part, 0, 0);
        QCOMPARE(joined, whole);
    }
}

QTEST_GUILESS_MAIN(TestReportStream)
#include "tst_reportstream.moc"
