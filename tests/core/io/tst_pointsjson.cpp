// Ridgepoint's points JSON: round trip, unit strings, versions, errors with paths.
#include "core/io/formats/points_json.h"
#include "tests/support/reader_test_support.h"

#include <QTest>

using namespace ridgepoint;

class TestPointsJson : public QObject
{
    Q_OBJECT

private slots:
    void roundTripsEveryField();
    void readsUnitStrings();
    void refusesBadFiles_data();
    void refusesBadFiles();
};

void TestPointsJson::roundTripsEveryField()
{
    KernelPoint a;
    a.name = "gemm \"tiled\"";
    a.flops = 2.0000000000000004e12;
    a.bytes = { { std::nullopt, 1e9 / 3.0 }, { MemoryLevel::L2, 4e9 } };
    a.seconds = 0.1 + 0.2;
    a.precision = Precision::BF16;
    a.unit = ComputeUnit::Tensor;
    a.group = "attention";
    a.timeStatistics.min = 2.9e-3;
    a.timeStatistics.stddev = 1e-5;
    a.source = { "runs/a.csv", 7 };
    KernelPoint b;
    b.name = "stream";
    b.intensity = 0.25;
    b.measuredRate = 8e10;
    const auto result = readPointsJson(writePointsJson({ a, b }), "p.json");
    QVERIFY2(result.diagnostics.empty(), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 2 });
    const KernelPoint &ra = result.points[0];
    QCOMPARE(ra.name, a.name);
    QCOMPARE(ra.flops, a.flops);
    QCOMPARE(ra.bytes.size(), std::size_t { 2 });
    QVERIFY(!ra.bytes[0].level);
    QCOMPARE(ra.bytes[0].bytes, a.bytes[0].bytes);
    QCOMPARE(*ra.bytes[1].level, MemoryLevel::L2);
    QCOMPARE(*ra.seconds, *a.seconds);
    QCOMPARE(*ra.precision, Precision::BF16);
    QCOMPARE(ra.unit, ComputeUnit::Tensor);
    QCOMPARE(ra.group, a.group);
    QCOMPARE(*ra.timeStatistics.min, 2.9e-3);
    QVERIFY(!ra.timeStatistics.max);
    QCOMPARE(*ra.timeStatistics.stddev, 1e-5);
    QCOMPARE(ra.source.file, std::string("runs/a.csv"));
    QCOMPARE(ra.source.line, 7);
    const KernelPoint &rb = result.points[1];
    QCOMPARE(*rb.intensity, 0.25);
    QCOMPARE(*rb.measuredRate, 8e10);
    QVERIFY(rb.bytes.empty());
    QVERIFY(!rb.seconds);
    QCOMPARE(rb.unit, ComputeUnit::Unknown); // written without "unit": read back unknown
    QCOMPARE(rb.source.file, std::string("p.json")); // no source: this file
}

void TestPointsJson::readsUnitStrings()
{
    const auto result = readPointsJson(
        R"({"format": "ridgepoint-points", "version": 1, "points": [
            {"name": "k", "flops": "2 TFLOP", "bytes": [{"level": "HBM", "bytes": "1 GiB"}],
             "seconds": "3 ms"}]})",
        "p.json");
    QVERIFY2(result.diagnostics.empty(), qPrintable(test::joined(result.diagnostics)));
    const KernelPoint &p = result.points.front();
    QCOMPARE(p.flops, 2e12);
    QCOMPARE(p.bytes.front().bytes, 1073741824.0);
    QCOMPARE(*p.seconds, 3e-3);
}

void TestPointsJson::refusesBadFiles_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("newer version")
        << QByteArray(R"({"format": "ridgepoint-points", "version": 2, "points": []})")
        << "p.json: version 2 is newer than this Ridgepoint reads (1): update Ridgepoint";
    QTest::newRow("other format") << QByteArray(R"({"format": "x"})")
                                  << "p.json: not a Ridgepoint points file (expected {\"format\": "
                                     "\"ridgepoint-points\", \"version\": 1, \"points\": [...]})";
    QTest::newRow("syntax error") << QByteArray(
        "{\"format\": \"ridgepoint-points\",\n  \"version\" 1}")
                                  << "p.json:2:13: invalid JSON: ";
    QTest::newRow("bits for bytes")
        << QByteArray(R"({"format": "ridgepoint-points", "version": 1, "points": [
            {"name": "k", "flops": 1, "bytes": [{"bytes": "2 Gb"}]}]})")
        << "p.json: points[0].bytes[0].bytes: \"2 Gb\" is not a byte count: a lower-case b means "
           "bits";
    QTest::newRow("no bytes")
        << QByteArray(R"({"format": "ridgepoint-points", "version": 1, "points": [{"name": "k"}]})")
        << "p.json: points[0]: no \"bytes\" and no \"intensity\" (expected one of them)";
    // Found by fuzzing: each of these returned a point the chart cannot place, or threw.
    const QByteArray start = R"({"format": "ridgepoint-points", "version": 1, "points": [)";
    QTest::newRow("zero bytes") << start
            + R"({"name": "k", "flops": 1, "bytes": [{"level": "HBM", "bytes": 0e9}]}]})"
                                << "p.json: points[0].bytes[0].bytes: must be greater than zero";
    QTest::newRow("zero seconds") << start
            + R"({"name": "k", "flops": 1, "bytes": [{"bytes": 1}], "seconds": 0}]})"
                                  << "p.json: points[0].seconds: must be greater than zero";
    QTest::newRow("level not a string")
        << start + R"({"name": "k", "flops": 1, "bytes": [{"level": 2, "bytes": 1}]}]})"
        << "p.json: points[0].bytes[0].level: unknown level 2";
    QTest::newRow("unknown unit")
        << start + R"({"name": "k", "flops": 1, "bytes": [{"bytes": 1}], "unit": "gpu"}]})"
        << "p.json: points[0].unit: unknown unit \"gpu\" (expected \"tensor\" or \"core\")";
    QTest::newRow("bytes entry not an object")
        << start + R"({"name": "k", "flops": 1, "bytes": [7]}]})"
        << "p.json: points[0].bytes[0]: expected an object";
    QTest::newRow("number overflow") << start + "\n{\"name\": \"k\", \"flops\": 1e999}]}"
                                     << "p.json:2:24: invalid JSON: number overflow parsing "
                                        "'1e999' (expected a number a double can hold";
    QTest::newRow("version past 2^32")
        << QByteArray(R"({"format": "ridgepoint-points", "version": 4294967297, "points": []})")
        << "p.json: version 4294967297 is newer than this Ridgepoint reads";
}

void TestPointsJson::refusesBadFiles()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    const auto result = readPointsJson(text.toStdString(), "p.json");
    QVERIFY(result.points.empty());
    QVERIFY2(test::joined(result.diagnostics).startsWith(message),
        qPrintable(test::joined(result.diagnostics)));
}

QTEST_GUILESS_MAIN(TestPointsJson)
#include "tst_pointsjson.moc"
