// likwid-perfctr -O: a marker region measured with the FLOPS_DP and MEM_DP groups, and a run
// without markers on two threads (STAT tables, padded lines).
#include "core/io/formats/likwid_reader.h"
#include "tests/support/reader_test_support.h"

#include <QTest>

using namespace ridgepoint;

class TestLikwidReader : public QObject
{
    Q_OBJECT

private slots:
    void readsARegionFromTwoGroups();
    void readsAWholeRunOfTwoGroupsOnTwoThreads();
    void reportsBrokenFiles_data();
    void reportsBrokenFiles();
};

void TestLikwidReader::readsARegionFromTwoGroups()
{
    // docs/FORMATS.md §5's example (FLOPS_DP, banner with tabs before the CSV) plus a MEM_DP table.
    const auto result = readLikwidCsv(test::readTestData("likwid/mem_dp_region.csv"), "likwid.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 1 });
    const KernelPoint &p = result.points.front();
    QCOMPARE(p.name, std::string("multMatVet_NAO_OTIM"));
    QCOMPARE(p.source.line, 18);
    QCOMPARE(*p.precision, Precision::FP64);
    QCOMPARE(*p.seconds, 1.548999e-05);
    QCOMPARE(p.flops, 2116.0763e6 * 1.548999e-05); // DP MFLOP/s × runtime
    QCOMPARE(p.bytes.front().bytes, 0.000153e9); // Memory data volume [GBytes]
}

void TestLikwidReader::readsAWholeRunOfTwoGroupsOnTwoThreads()
{
    // docs/FORMATS.md §5: without markers the TABLE lines name no region, and `-g FLOPS_DP -g
    // MEM_DP` gives Group 1 and Group 2 of the same run: one point, not one per group. Two threads:
    // STAT tables (Sum, Min, Max, Avg), memory counted on one thread per socket, every line
    // padded with commas to six fields.
    const auto result
        = readLikwidCsv(test::readTestData("likwid/no_markers_two_groups.csv"), "likwid.csv");
    QVERIFY2(result.diagnostics.empty(), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 1 });
    const KernelPoint &p = result.points.front();
    QCOMPARE(p.name, std::string("whole run"));
    QCOMPARE(p.source.line, 26); // TABLE,Group 1 Metric,FLOPS_DP
    QCOMPARE(*p.precision, Precision::FP64);
    // MEM_DP has the DP rate as well as the memory metrics, so the point is that group's one
    // measurement: "DP [MFLOP/s] STAT" Sum 2560 × "Runtime (RDTSC) [s] STAT" Max 1.25, and
    // "Memory data volume [GBytes] STAT" Sum 25.6 (only HWThread 0 counted it).
    QCOMPARE(*p.seconds, 1.25);
    QCOMPARE(p.flops, 2560.0e6 * 1.25);
    QCOMPARE(p.bytes.size(), std::size_t { 1 });
    QVERIFY(!p.bytes.front().level);
    QCOMPARE(p.bytes.front().bytes, 25.6e9);
    // Its intensity is the group's "Operational intensity STAT" Sum, 0.125.
    QCOMPARE(p.flops / p.bytes.front().bytes, 0.125);
}

void TestLikwidReader::reportsBrokenFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    QTest::newRow("FLOPS group only")
        << "likwid_flops_group_only.csv"
        << "likwid_flops_group_only.csv:3: region \"r1\": no memory metrics (expected a MEM or "
           "MEM_DP group with \"Memory data volume [GBytes]\" or \"Operational intensity\")";
    QTest::newRow("not likwid") << "csv_ragged_row.csv"
                                << "csv_ragged_row.csv: not likwid-perfctr CSV output (expected "
                                   "STRUCT,Info and TABLE,... lines from likwid-perfctr -O)";
}

void TestLikwidReader::reportsBrokenFiles()
{
    QFETCH(QString, file);
    QFETCH(QString, message);
    const auto result
        = readLikwidCsv(test::readTestData("bad/" + file.toStdString()), file.toStdString());
    QVERIFY(result.points.empty());
    QCOMPARE(test::joined(result.diagnostics), message);
}

QTEST_GUILESS_MAIN(TestLikwidReader)
#include "tst_likwidreader.moc"
