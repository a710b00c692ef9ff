// The general path's stage and sink (core/stream/fed_report.h): the report of points pushed by a
// source is, byte for byte, what one writer gives for the same points analysed one by one, on a
// pool of one (all on this thread) as on two or three; the points that cannot be placed are
// counted and named after their input; each input says whether it was read and placed; a point
// brought with its own machine is analysed on it; and nothing is written when nothing is placed.
#include "core/stream/fed_report.h"
#include "core/stream/worker_pool.h"
#include "tests/support/core_test_support.h"

#include <QTest>

#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace ridgepoint;

class TestFedReport : public QObject
{
    Q_OBJECT

private slots:
    void sameBytesAsOneWriter_data();
    void sameBytesAsOneWriter();
    void countsAndNamesPerInput();
    void nothingPlacedWritesNothing();
};

namespace {

// Point `i` of a made-up list: FLOPs and bytes spread over three decades, every 1000th with no
// bytes (it cannot be placed), source lines from 2 in its file.
KernelPoint pointNumber(std::size_t i, const std::string &file)
{
    KernelPoint point;
    point.name = "k" + std::to_string(i);
    point.group = i % 3 == 0 ? "mlp" : "attention";
    point.flops = 1e6 * static_cast<double>(1 + (i * 37) % 1000);
    point.bytes = { { std::nullopt,
        i % 1000 == 999 ? 0.0 : 1e5 * static_cast<double>(1 + (i * 11) % 997) } };
    point.seconds = 1e-5 * static_cast<double>(1 + i % 50);
    point.precision = Precision::BF16;
    point.source = { file, static_cast<int>(i) + 2 };
    return point;
}

std::string written(
    ReportFormat format, const std::vector<AnalyzedPoint> &points, const Hardware &hardware)
{
    std::string text;
    const auto writer = makeReportWriter(
        format, hardware, [&text](std::string_view piece) { text += piece; }, {});
    for (const AnalyzedPoint &point : points)
        writer->add(point.point, point.analysis);
    writer->finish();
    return text;
}

} // namespace

void TestFedReport::sameBytesAsOneWriter_data()
{
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("count");
    for (const auto &[name, format] : { std::pair { "table", ReportFormat::Table },
             std::pair { "csv", ReportFormat::Csv }, std::pair { "json", ReportFormat::Json },
             std::pair { "markdown", ReportFormat::Markdown } }) {
        for (const int threads : { 1, 2, 3 })
            QTest::addRow("%s, %d threads, 9000 points", name, threads)
                << static_cast<int>(format) << threads << 9000;
        QTest::addRow("%s, 2 threads, one batch exactly", name)
            << static_cast<int>(format) << 2 << 4096;
    }
}

void TestFedReport::sameBytesAsOneWriter()
{
    QFETCH(int, format);
    QFETCH(int, threads);
    QFETCH(int, count);
    const Hardware &h100 = test::preset("H100");
    const auto chosen = static_cast<ReportFormat>(format);
    // The expected report: every point analysed here, the placeable ones given to one writer.
    std::vector<AnalyzedPoint> placed;
    for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
        KernelPoint point = pointNumber(i, i < 5000 ? "a.csv" : "b.csv");
        if (auto analysis = analyzePoint(point, h100))
            placed.push_back({ std::move(point), std::move(*analysis) });
    }
    std::string text;
    FedReport report;
    report.format = chosen;
    report.inputNames = { "a.csv", "b.csv" };
    report.problemsShown = 3;
    report.sink = [&text](std::string_view piece) { text += piece; };
    WorkerPool pool(static_cast<std::size_t>(threads));
    const FedOutcome outcome = analyzeFed(
        [&](PointFeed &feed) {
            for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i)
                feed.add(pointNumber(i, i < 5000 ? "a.csv" : "b.csv"), i < 5000 ? 0 : 1);
        },
        h100, {}, std::move(report), pool);
    QCOMPARE(outcome.placed, placed.size());
    QCOMPARE(outcome.problemCount, static_cast<std::size_t>(count) - placed.size());
    QVERIFY(text == written(chosen, placed, h100));
}

void TestFedReport::countsAndNamesPerInput()
{
    const Hardware &h100 = test::preset("H100");
    const Hardware &a100 = test::preset("A100 40GB");
    FedReport report;
    report.format = ReportFormat::Csv;
    report.inputNames = { "all.csv", "none.csv", "unread.csv", "--example" };
    report.problemsShown = 1;
    std::string text;
    report.sink = [&text](std::string_view piece) { text += piece; };
    std::size_t speedups = 0; // asked by the sink, once for each point written
    report.speedup = [&speedups](const KernelPoint &) {
        ++speedups;
        return std::optional<Speedup>();
    };
    WorkerPool pool(2);
    const FedOutcome outcome = analyzeFed(
        [&](PointFeed &feed) {
            feed.add(pointNumber(1, "all.csv"), 0);
            feed.add(pointNumber(2, "all.csv"), 0, &a100); // a session's point on its machine
            feed.add(pointNumber(999, ""), 1); // no bytes, and no file of its own
            feed.add(pointNumber(1999, "none.csv"), 1);
            feed.add(pointNumber(3, ""), 3);
        },
        h100, {}, std::move(report), pool);
    std::vector<AnalyzedPoint> expected;
    for (const auto &[i, machine] : { std::pair { 1, &h100 }, std::pair { 2, &a100 } })
        expected.push_back(
            { pointNumber(i, "all.csv"), *analyzePoint(pointNumber(i, "all.csv"), *machine) });
    expected.push_back({ pointNumber(3, ""), *analyzePoint(pointNumber(3, ""), h100) });
    QVERIFY(text == written(ReportFormat::Csv, expected, h100));
    QCOMPARE(speedups, std::size_t { 3 });
    QCOMPARE(outcome.placed, std::size_t { 3 });
    QCOMPARE(outcome.readAny, (std::vector<bool> { true, true, false, true }));
    QCOMPARE(outcome.placedAny, (std::vector<bool> { true, false, false, true }));
    QCOMPARE(outcome.problemCount, std::size_t { 2 });
    QCOMPARE(outcome.problems.size(), std::size_t { 1 }); // as many as are shown
    QCOMPARE(QString::fromStdString(outcome.problems[0].file), QString("none.csv"));
    QCOMPARE(outcome.problems[0].line, 1001);
}

void TestFedReport::nothingPlacedWritesNothing()
{
    for (const std::size_t threads : { 1, 2 }) {
        std::string text;
        FedReport report;
        report.format = ReportFormat::Json;
        report.inputNames = { "x.csv" };
        report.sink = [&text](std::string_view piece) { text += piece; };
        WorkerPool pool(threads);
        const FedOutcome outcome
            = analyzeFed([&](PointFeed &feed) { feed.add(pointNumber(999, "x.csv"), 0); },
                test::preset("H100"), {}, std::move(report), pool);
        QCOMPARE(outcome.placed, std::size_t { 0 });
        QCOMPARE(outcome.problemCount, std::size_t { 1 });
        QVERIFY(text.empty());
    }
}

QTEST_GUILESS_MAIN(TestFedReport)
#include "tst_fedreport.moc"
