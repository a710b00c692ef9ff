// The generic points CSV: columns by name and unit, quoting, line endings, row errors.
#include "core/io/file_io.h"
#include "core/io/formats/csv.h"
#include "tests/support/reader_test_support.h"
#include "tests/support/testpaths.h"

#include <QTest>

#include <algorithm>

using namespace ridgepoint;

class TestCsvReader : public QObject
{
    Q_OBJECT

private slots:
    void readsValidFiles_data();
    void readsValidFiles();
    void readsLevelsUnitsAndOptionalColumns();
    void reportsBadRows_data();
    void reportsBadRows();
    void refusesFilesWithoutAUsableHeader_data();
    void refusesFilesWithoutAUsableHeader();
    void capsTheNumberOfMessages();
    void tokenizerKeepsLineAndColumn();
    void readsTheShippedExample();
    void readTextFileTellsFailuresApart();
    void readsTheRealTimingFixture();
    void matchesColumnAliases_data();
    void matchesColumnAliases();
    void readsThousandsSeparatorsOnlyWhenGroupedByThree_data();
    void readsThousandsSeparatorsOnlyWhenGroupedByThree();
    void keepsRepeatStatistics();
    void reportsBrokenFiles_data();
    void reportsBrokenFiles();
    void streamsWhatItWouldKeep_data();
    void streamsWhatItWouldKeep();
    void tokenizerPlacesFieldsAroundQuotesAndLineEnds();
};

void TestCsvReader::readsValidFiles_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("points");
    QTest::addColumn<QString>("firstName");
    QTest::addColumn<double>("firstSeconds");

    QTest::newRow("plain") << QByteArray(
        "name,flops,bytes,seconds\ngemm,2e12,1e9,0.03\nnorm,1e6,4e6,1e-5\n")
                           << 2 << "gemm" << 0.03;
    QTest::newRow("CRLF and BOM") << QByteArray(
        "\xEF\xBB\xBFname,flops,bytes,seconds\r\ngemm,2e12,1e9,0.03\r\n")
                                  << 1 << "gemm" << 0.03;
    QTest::newRow("no final newline")
        << QByteArray("name,flops,bytes,seconds\ngemm,2e12,1e9,0.03") << 1 << "gemm" << 0.03;
    QTest::newRow("quoted name with comma and newline") << QByteArray(
        "name,flops,bytes,seconds\n\"gemm, \"\"tiled\"\"\nv2\",2e12,1e9,0.03\nx,1,1,1\n")
                                                        << 2 << "gemm, \"tiled\"\nv2" << 0.03;
    QTest::newRow("semicolons") << QByteArray("name;flops;bytes;seconds\ngemm;2e12;1e9;0.03\n") << 1
                                << "gemm" << 0.03;
    QTest::newRow("tabs") << QByteArray("name\tflops\tbytes\tseconds\ngemm\t2e12\t1e9\t0.03\n") << 1
                          << "gemm" << 0.03;
    QTest::newRow("preamble and comments")
        << QByteArray("# exported by a script\nrun 7 on node12\n\nname,flops,bytes,seconds\n# "
                      "skipped\ngemm,2e12,1e9,0.03\n")
        << 1 << "gemm" << 0.03;
    QTest::newRow("time in ms") << QByteArray("kernel,flops,bytes,time_ms\ngemm,2e12,1e9,30\n") << 1
                                << "gemm" << 0.03;
    QTest::newRow("time [us] header")
        << QByteArray("name,flops,bytes,time [us]\ngemm,2e12,1e9,30000\n") << 1 << "gemm" << 0.03;
    QTest::newRow("unit strings in cells")
        << QByteArray("name,flops,bytes,seconds\ngemm,2 TFLOP,1 GB,30 ms\n") << 1 << "gemm" << 0.03;
    QTest::newRow("planned points have no time")
        << QByteArray("name,flops,bytes\ngemm,2e12,1e9\n") << 1 << "gemm" << -1.0;
    QTest::newRow("blank lines") << QByteArray("name,flops,bytes,seconds\n\ngemm,2e12,1e9,0.03\n\n")
                                 << 1 << "gemm" << 0.03;
}

void TestCsvReader::readsValidFiles()
{
    QFETCH(QByteArray, text);
    QFETCH(int, points);
    QFETCH(QString, firstName);
    QFETCH(double, firstSeconds);
    const auto result = readPointsCsv(text.toStdString(), "in.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(static_cast<int>(result.points.size()), points);
    QCOMPARE(QString::fromStdString(result.points.front().name), firstName);
    if (firstSeconds < 0)
        QVERIFY(!result.points.front().seconds);
    else
        QVERIFY(qFuzzyCompare(*result.points.front().seconds, firstSeconds));
    QCOMPARE(result.points.front().flops, 2e12);
    QCOMPARE(result.points.front().bytes.front().bytes, 1e9);
    QCOMPARE(result.points.front().source.file, std::string("in.csv"));
}

void TestCsvReader::readsLevelsUnitsAndOptionalColumns()
{
    const std::string text = "name,group,precision,flops,bytes_l1,bytes_l2,hbm_bytes,gflops\n"
                             "k1,attention,bf16,1e9,4e9,2e9,1e8,120\n"
                             "k2,,,1e9,,,5e8,\n";
    const auto result = readPointsCsv(text, "levels.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 2 });
    const KernelPoint &k1 = result.points[0];
    QCOMPARE(k1.group, std::string("attention"));
    QCOMPARE(*k1.precision, Precision::BF16);
    QCOMPARE(k1.bytes.size(), std::size_t { 3 });
    QCOMPARE(*k1.bytes[0].level, MemoryLevel::L1);
    QCOMPARE(*k1.bytes[1].level, MemoryLevel::L2);
    QCOMPARE(*k1.bytes[2].level, MemoryLevel::HBM);
    QCOMPARE(*k1.measuredRate, 120e9);
    QCOMPARE(*k1.performance(), 120e9);
    QCOMPARE(k1.source.line, 2);
    const KernelPoint &k2 = result.points[1];
    QCOMPARE(k2.bytes.size(), std::size_t { 1 });
    QVERIFY(!k2.precision);
    QVERIFY(!k2.measuredRate);
    QCOMPARE(k2.source.line, 3);
}

void TestCsvReader::reportsBadRows_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("good");
    QTest::addColumn<QString>("message");

    const QByteArray header = "name,flops,bytes,seconds\n";
    QTest::newRow("not a number")
        << header + "a,1e9,1e9,1\nb,lots,1e9,1\n"
        << 1 << "in.csv:3:3: column \"flops\": \"lots\" is not an operation count";
    QTest::newRow("zero bytes") << header + "a,1e9,0,1\n"
                                << 0
                                << "in.csv:2:7: column \"bytes\": \"0\" must be greater than zero "
                                   "(a log-log roofline cannot show it)";
    QTest::newRow("negative time")
        << header + "a,1e9,1e9,-2\n"
        << 0 << "in.csv:2:11: column \"seconds\": \"-2\" must be greater than zero";
    QTest::newRow("NaN")
        << header + "a,nan,1e9,1\n"
        << 0 << "column \"flops\": \"nan\" is not an operation count: the number is not finite";
    QTest::newRow("decimal comma in quotes")
        << header + "a,\"1,5\",1e9,1\n"
        << 0
        << "in.csv:2:3: column \"flops\": \"1,5\" is not an operation count: a comma inside a "
           "number is ambiguous";
    QTest::newRow("short row") << header + "a,1e9\nb,1e9,1e9,1\n"
                               << 1 << "in.csv:2: expected 4 fields, found 2";
    QTest::newRow("long row") << header + "a,1e9,1e9,1,extra\n"
                              << 0 << "in.csv:2:13: expected 4 fields, found 5";
    QTest::newRow("empty name") << header + ",1e9,1e9,1\n"
                                << 0 << "in.csv:2:1: column \"name\": empty name";
    QTest::newRow("empty flops") << header + "a,,1e9,1\n"
                                 << 0 << "column \"flops\": empty (expected the number of FLOPs)";
    QTest::newRow("unknown precision")
        << QByteArray("name,flops,bytes,precision\na,1,1,fp12\n") << 0
        << "in.csv:2:7: column \"precision\": unknown precision \"fp12\"";
    QTest::newRow("no bytes at all") << QByteArray("name,flops,bytes_l2,bytes_hbm\na,1,,\n") << 0
                                     << "in.csv:2: no bytes in any bytes column";
    QTest::newRow("bits for bytes") << header + "a,1e9,2 Gb,1\n" << 0 << "lower-case b means bits";
    QTest::newRow("unterminated quote") << header + "\"a,1e9,1e9,1\n"
                                        << 0 << "in.csv:2:1: unterminated quoted field";
    // Found by fuzzing: cells that are each valid, but whose arithmetic is not.
    QTest::newRow("bytes from intensity round to zero")
        << QByteArray("name,flops,ai\na,1e-300,1e300\n") << 0
        << "in.csv:2: the bytes at main memory are not a positive finite number (expected bytes "
           "greater than zero)";
    QTest::newRow("header unit overflows")
        << QByteArray("name,flops,bytes [TB]\na,1,1e300\n") << 0
        << "in.csv:2: the bytes at main memory are not a positive finite number";
}

void TestCsvReader::reportsBadRows()
{
    QFETCH(QByteArray, text);
    QFETCH(int, good);
    QFETCH(QString, message);
    const auto result = readPointsCsv(text.toStdString(), "in.csv");
    QCOMPARE(static_cast<int>(result.points.size()), good);
    QVERIFY(hasErrors(result.diagnostics));
    QVERIFY2(test::joined(result.diagnostics).contains(message),
        qPrintable(test::joined(result.diagnostics)));
}

void TestCsvReader::refusesFilesWithoutAUsableHeader_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty file") << QByteArray("") << "in.csv: the file is empty (expected a header";
    QTest::newRow("only blank lines") << QByteArray("\n\r\n\n") << "the file is empty";
    QTest::newRow("header only") << QByteArray("name,flops,bytes,seconds\n")
                                 << "in.csv:1: the header has no data rows after it";
    QTest::newRow("no header") << QByteArray("1,2,3\n4,5,6\n") << "in.csv:1:1: no header row found";
    QTest::newRow("no flops column")
        << QByteArray("name,bytes,seconds\na,1,1\n") << "in.csv:1: no flops column";
    QTest::newRow("no bytes column")
        << QByteArray("name,flops,seconds\na,1,1\n")
        << "in.csv:1: no bytes column (expected \"bytes\" or per-level";
    QTest::newRow("duplicate columns") << QByteArray("name,flops,bytes,bytes\na,1,1,1\n")
                                       << "in.csv:1:18: column \"bytes\" repeats column \"bytes\"";
    QTest::newRow("binary garbage")
        << QByteArray("\x00\x01\x02\xff\xfe", 5) << "no header row found";
}

void TestCsvReader::refusesFilesWithoutAUsableHeader()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    const auto result = readPointsCsv(
        std::string(text.constData(), static_cast<std::size_t>(text.size())), "in.csv");
    QVERIFY(result.points.empty());
    QVERIFY2(test::joined(result.diagnostics).contains(message),
        qPrintable(test::joined(result.diagnostics)));
}

void TestCsvReader::capsTheNumberOfMessages()
{
    std::string text = "name,flops,bytes,seconds\n";
    for (int i = 0; i < 500; ++i)
        text += "k" + std::to_string(i) + ",x,1,1\n";
    text += "good,1,1,1\n";
    const auto result = readPointsCsv(text, "many.csv", 10);
    QCOMPARE(result.points.size(), std::size_t { 1 });
    QCOMPARE(result.rowsRead, 501);
    QCOMPARE(result.rowsSkipped, 500);
    QCOMPARE(result.diagnostics.size(), std::size_t { 11 });
    QCOMPARE(QString::fromStdString(result.diagnostics.back().message),
        QString("... and 490 more problems not shown"));
}

void TestCsvReader::tokenizerKeepsLineAndColumn()
{
    const auto table = tokenizeCsv("a,\"b\nc\",d\r\ne,f,g\n", "t.csv");
    QCOMPARE(table.rows.size(), std::size_t { 2 });
    QCOMPARE(table.rows[0].fields[1].text, std::string("b\nc"));
    QCOMPARE(table.rows[0].fields[2].line, 2);
    QCOMPARE(table.rows[0].fields[2].column, 4);
    QCOMPARE(table.rows[1].line, 3);
    QCOMPARE(table.rows[1].fields[2].column, 5);
    QCOMPARE(table.rows[1].fields[2].text, std::string("g"));
}

void TestCsvReader::readsTheShippedExample()
{
    auto text = readTextFile(test::sourceFile("resources/examples/h100-transformer-kernels.csv"));
    QVERIFY(text);
    const auto result = readPointsCsv(*text, "example.csv");
    QVERIFY2(result.diagnostics.empty(), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 13 });
    for (const auto &p : result.points) {
        QVERIFY(p.precision);
        QVERIFY(p.seconds);
        QVERIFY(!p.group.empty());
    }
}

void TestCsvReader::readTextFileTellsFailuresApart()
{
    const auto missing = readTextFile("/nonexistent/points.csv");
    QVERIFY(!missing);
    QCOMPARE(
        QString::fromStdString(missing.error()), QString("/nonexistent/points.csv: not found"));
    const auto directory = readTextFile(test::sourcePath().toStdString());
    QVERIFY(!directory);
    QVERIFY(QString::fromStdString(directory.error()).endsWith("is a directory, not a file"));
    const auto tooLarge = readTextFile(test::sourceFile("CMakeLists.txt"), 10);
    QVERIFY(!tooLarge);
    QVERIFY(QString::fromStdString(tooLarge.error()).contains("too large"));
}

void TestCsvReader::readsTheRealTimingFixture()
{
    // Issue 4: the real script CSV (kernel, flops, theoretical_bytes, mean_ms, stddev_ms, ...)
    // opens as it is.
    auto text = readTextFile(
        test::fixturePath(QStringLiteral("simple_kernel_timing_rtx5070.csv")).toStdString());
    QVERIFY(text);
    const auto result = readPointsCsv(*text, "timing.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.rowsRead, 62);
    QCOMPARE(result.points.size(), std::size_t { 62 });
    // Line 2: saxpy,base,1048576,0,0,0,128,0,0.019372,0.017152,0.007264,108.256509,649.539056,
    //         2097152.0,12582912.0,...
    const KernelPoint &saxpy = result.points.front();
    QCOMPARE(saxpy.name, std::string("saxpy"));
    QCOMPARE(saxpy.flops, 2097152.0);
    QCOMPARE(saxpy.bytes.size(), std::size_t { 1 });
    QVERIFY(!saxpy.bytes.front().level); // theoretical_bytes: main memory
    QCOMPARE(saxpy.bytes.front().bytes, 12582912.0);
    QVERIFY(qFuzzyCompare(*saxpy.seconds, 0.019372e-3));
    QVERIFY(qFuzzyCompare(*saxpy.timeStatistics.median, 0.017152e-3));
    QVERIFY(qFuzzyCompare(*saxpy.timeStatistics.stddev, 0.007264e-3));
    QVERIFY(qFuzzyCompare(*saxpy.measuredRate, 108.256509e9));
    QCOMPARE(saxpy.source.line, 2);
    // The 16 transpose rows move data and do no arithmetic: kept, with one warning.
    const auto zero = std::count_if(result.points.begin(), result.points.end(),
        [](const KernelPoint &p) { return p.flops == 0.0; });
    QCOMPARE(zero, 16);
    QVERIFY2(
        test::joined(result.diagnostics)
            .contains("timing.csv:22: warning: 16 rows have 0 FLOPs (pure data movement): kept"),
        qPrintable(test::joined(result.diagnostics)));
    QVERIFY(
        test::joined(result.diagnostics)
            .contains(
                "timing.csv:1: warning: columns not used: \"variant\", \"problem_size\", \"m\", "
                "\"n\", \"k\", \"block_size\", \"tile_dim\", \"achieved_gbps\", "
                "\"timestamp\""));
}

void TestCsvReader::matchesColumnAliases_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes"); // -1: no bytes
    QTest::addColumn<double>("seconds"); // -1: no time
    QTest::addColumn<double>("rate"); // -1: no rate
    QTest::addColumn<double>("intensity"); // -1: not an intensity point

    QTest::newRow("label, total_bytes, runtime")
        << QByteArray("label,flops,total_bytes,runtime\nk,100,50,2\n") << 100.0 << 50.0 << 2.0
        << -1.0 << -1.0;
    QTest::newRow("dram_bytes is a level")
        << QByteArray("kernel,flops,dram_bytes,duration [ns]\nk,100,50,2000\n") << 100.0 << 50.0
        << 2e-6 << -1.0 << -1.0;
    QTest::newRow("bytes_moved, avg_us")
        << QByteArray("name,flops,bytes_moved,avg_us\nk,100,50,3\n") << 100.0 << 50.0 << 3e-6
        << -1.0 << -1.0;
    // The unit in brackets keeps its case: [GB] is gigabytes (it was lower-cased to "gb", bits,
    // and the column ignored).
    QTest::newRow("bytes [GB], flops [GFLOP], time [MS]")
        << QByteArray("name,flops [GFLOP],bytes [GB],time [MS]\nk,2,1,3\n") << 2e9 << 1e9 << 3e-3
        << -1.0 << -1.0;
    QTest::newRow("median alone is the time")
        << QByteArray("name,flops,bytes,median_ms\nk,100,50,4\n") << 100.0 << 50.0 << 4e-3 << -1.0
        << -1.0;
    QTest::newRow("intensity with flops gives bytes: 100 / 4")
        << QByteArray("name,flops,ai,time_s\nk,100,4,1\n") << 100.0 << 25.0 << 1.0 << -1.0 << -1.0;
    QTest::newRow("intensity and gflops only")
        << QByteArray("kernel,intensity,gflops\nstream,0.25,80\n") << 0.0 << -1.0 << -1.0 << 80e9
        << 0.25;
    QTest::newRow("flop_per_byte and tflops")
        << QByteArray("name,flop_per_byte,tflops\ngemm,300,500\n") << 0.0 << -1.0 << -1.0 << 500e12
        << 300.0;
    QTest::newRow("arithmetic intensity and achieved_gflops")
        << QByteArray("name,arithmetic intensity,achieved_gflops\nk,2,10\n") << 0.0 << -1.0 << -1.0
        << 10e9 << 2.0;
    QTest::newRow("performance [GFLOP/s]") << QByteArray("name,ai,performance [GFLOP/s]\nk,2,10\n")
                                           << 0.0 << -1.0 << -1.0 << 10e9 << 2.0;
}

void TestCsvReader::matchesColumnAliases()
{
    QFETCH(QByteArray, text);
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(double, seconds);
    QFETCH(double, rate);
    QFETCH(double, intensity);
    const auto result = readPointsCsv(text.toStdString(), "in.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 1 });
    const KernelPoint &p = result.points.front();
    QCOMPARE(p.flops, flops);
    if (bytes < 0) {
        QVERIFY(p.bytes.empty());
    } else {
        QCOMPARE(p.bytes.size(), std::size_t { 1 });
        QCOMPARE(p.bytes.front().bytes, bytes);
    }
    if (seconds < 0)
        QVERIFY(!p.seconds);
    else
        QVERIFY(qFuzzyCompare(*p.seconds, seconds));
    if (rate < 0)
        QVERIFY(!p.measuredRate);
    else
        QVERIFY(qFuzzyCompare(*p.measuredRate, rate));
    if (intensity < 0) {
        QVERIFY(!p.intensity);
    } else {
        QCOMPARE(*p.intensity, intensity);
        QVERIFY(qFuzzyCompare(*p.performance(), rate));
    }
}

void TestCsvReader::readsThousandsSeparatorsOnlyWhenGroupedByThree_data()
{
    QTest::addColumn<QByteArray>("cell");
    QTest::addColumn<char>("delimiter");
    QTest::addColumn<double>("flops"); // -1: refused
    QTest::newRow("1,234,567") << QByteArray("\"1,234,567\"") << ',' << 1234567.0;
    QTest::newRow("1,234 is a thousand, never 1.234") << QByteArray("\"1,234\"") << ',' << 1234.0;
    QTest::newRow("fraction after groups") << QByteArray("\"12,345.5\"") << ',' << 12345.5;
    QTest::newRow("decimal comma refused") << QByteArray("\"1,5\"") << ',' << -1.0;
    QTest::newRow("group of two refused") << QByteArray("\"12,34\"") << ',' << -1.0;
    QTest::newRow("leading group of four refused") << QByteArray("\"1234,567\"") << ',' << -1.0;
    QTest::newRow("comma after the point refused") << QByteArray("\"1.234,5\"") << ',' << -1.0;
    QTest::newRow("semicolon file: a comma may be decimal")
        << QByteArray("\"1,234\"") << ';' << -1.0;
}

void TestCsvReader::readsThousandsSeparatorsOnlyWhenGroupedByThree()
{
    QFETCH(QByteArray, cell);
    QFETCH(char, delimiter);
    QFETCH(double, flops);
    const std::string d(1, delimiter);
    const std::string text
        = "name" + d + "flops" + d + "bytes\nk" + d + cell.toStdString() + d + "10\n";
    const auto result = readPointsCsv(text, "in.csv");
    if (flops < 0) {
        QVERIFY(result.points.empty());
        QVERIFY2(test::joined(result.diagnostics).contains("a comma inside a number is ambiguous"),
            qPrintable(test::joined(result.diagnostics)));
    } else {
        QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
        QCOMPARE(result.points.front().flops, flops);
    }
}

void TestCsvReader::keepsRepeatStatistics()
{
    const auto result = readPointsCsv("name,flops,bytes,mean [ms],min [ms],median [ms],max [ms],"
                                      "stddev [ms]\nk,1,1,2,1,1.5,4,0\n",
        "in.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    const KernelPoint &p = result.points.front();
    QCOMPARE(*p.seconds, 2e-3);
    QCOMPARE(*p.timeStatistics.min, 1e-3);
    QCOMPARE(*p.timeStatistics.median, 1.5e-3);
    QCOMPARE(*p.timeStatistics.max, 4e-3);
    QCOMPARE(*p.timeStatistics.stddev, 0.0);
}

void TestCsvReader::reportsBrokenFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    QTest::newRow("ragged row") << "csv_ragged_row.csv"
                                << "csv_ragged_row.csv:3: expected 4 fields, found 2";
    QTest::newRow("bad grouping")
        << "csv_bad_thousands_grouping.csv"
        << "csv_bad_thousands_grouping.csv:2:6: column \"flops\": \"12,34\" is not an operation "
           "count: a comma inside a number is ambiguous (decimal comma or thousands separator); "
           "write 1234.5 (expected a number with an optional unit in FLOP, e.g. \"2.5 GFLOP\" or "
           "\"2.5e9\")";
    QTest::newRow("group of four")
        << "csv_thousands_group_of_four.csv"
        << "csv_thousands_group_of_four.csv:2:7: column \"bytes\": \"1,0000\" is not a byte "
           "count: a comma inside a number is ambiguous (decimal comma or thousands separator); "
           "write 1234.5 (expected a number with an optional unit in B, e.g. \"512 MB\", \"1 "
           "GiB\" or \"5.12e8\")";
    QTest::newRow("intensity without performance")
        << "csv_intensity_without_performance.csv"
        << "csv_intensity_without_performance.csv:2:8: an intensity needs a FLOP count or a "
           "performance in the same row";
}

void TestCsvReader::reportsBrokenFiles()
{
    QFETCH(QString, file);
    QFETCH(QString, message);
    auto text = readTextFile(test::sourceFile("tests/data/bad/" + file.toStdString()));
    QVERIFY(text);
    const auto result = readPointsCsv(*text, file.toStdString());
    QVERIFY(hasErrors(result.diagnostics));
    QCOMPARE(test::joined(result.diagnostics), message);
}

void TestCsvReader::streamsWhatItWouldKeep_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("plain") << QByteArray(
        "name,flops,bytes,seconds\ngemm,2e12,1e9,0.03\nnorm,1e6,4e6,1e-5\n");
    QTest::newRow("bad rows among good ones")
        << QByteArray("name,flops,bytes,seconds\na,x,1,1\nb,1,1,1\nc,1,-1,1\nd,1,1\ne,0,1,1\n");
    QTest::newRow("quotes, CRLF and a BOM") << QByteArray(
        "\xEF\xBB\xBFname,flops,bytes\r\n\"a, \"\"b\"\"\",\"1,234\",5\r\n\"c\" x,2,3\r\n");
    // The quote is found open only at the end: no row counts, and none may have left.
    QTest::newRow("unterminated quote after good rows")
        << QByteArray("name,flops,bytes,seconds\ngemm,2e12,1e9,0.03\n\"open,1,1,1\n");
    QTest::newRow("no header") << QByteArray("1,2,3\n4,5,6\n");
    QTest::newRow("header errors") << QByteArray("name,flops,flops,bytes\na,1,1,1\n");
}

void TestCsvReader::streamsWhatItWouldKeep()
{
    QFETCH(QByteArray, text);
    const std::string input(text.constData(), static_cast<std::size_t>(text.size()));
    for (int maxDiagnostics : { 50, 2 }) {
        const auto kept = readPointsCsv(input, "in.csv", maxDiagnostics);
        std::vector<KernelPoint> streamed;
        const auto result = readPointsCsv(
            input, "in.csv", [&](KernelPoint &&point) { streamed.push_back(std::move(point)); },
            maxDiagnostics);
        QVERIFY(result.points.empty());
        QCOMPARE(streamed.size(), kept.points.size());
        for (std::size_t i = 0; i < streamed.size(); ++i) {
            QCOMPARE(streamed[i].name, kept.points[i].name);
            QCOMPARE(streamed[i].flops, kept.points[i].flops);
            QCOMPARE(streamed[i].bytes.front().bytes, kept.points[i].bytes.front().bytes);
            QCOMPARE(streamed[i].source.line, kept.points[i].source.line);
        }
        QCOMPARE(test::joined(result.diagnostics), test::joined(kept.diagnostics));
        QCOMPARE(result.rowsRead, kept.rowsRead);
        QCOMPARE(result.rowsSkipped, kept.rowsSkipped);
    }
}

void TestCsvReader::tokenizerPlacesFieldsAroundQuotesAndLineEnds()
{
    // Columns count code points (é is one), a doubled quote is one character, an empty field
    // before CRLF sits at the line end, and text after a closing quote stays with a warning.
    const auto table = tokenizeCsv("\xC3\xA9,\"a\"\"b\",\r\n\"q\"  x,\"\",y\n", "t.csv");
    QCOMPARE(table.rows.size(), std::size_t { 2 });
    QCOMPARE(table.rows[0].fields.size(), std::size_t { 3 });
    QCOMPARE(table.rows[0].fields[1].text, std::string("a\"b"));
    QCOMPARE(table.rows[0].fields[1].column, 3);
    QCOMPARE(table.rows[0].fields[2].text, std::string());
    QCOMPARE(table.rows[0].fields[2].column, 11); // the LF, after the CR at 10
    QCOMPARE(table.rows[1].fields[0].text, std::string("qx"));
    QCOMPARE(table.rows[1].fields[1].column, 8);
    QCOMPARE(table.rows[1].fields[2].text, std::string("y"));
    QCOMPARE(test::joined(table.diagnostics),
        QString("t.csv:2:6: warning: text after a closing quote is kept as part of the field"));
}

QTEST_GUILESS_MAIN(TestCsvReader)
#include "tst_csvreader.moc"
