// ERT roofline.json: empirical and spec ceilings, both generations of the file.
#include "core/io/formats/ert_reader.h"
#include "tests/support/reader_test_support.h"

#include <QTest>

using namespace ridgepoint;

class TestErtReader : public QObject
{
    Q_OBJECT

private slots:
    void readsEmpiricalAndSpecCeilings();
    void readsThePython3Variant();
    void readsEachLabel_data();
    void readsEachLabel();
    void reportsSyntaxErrorsWithLineAndColumn();
    void reportsANumberOverflowWithLineAndColumn();
};

void TestErtReader::readsEmpiricalAndSpecCeilings()
{
    // docs/FORMATS.md §2's example (ERT 1.1.0, P100 run): gbytes before gflops, Python 2 float
    // noise.
    const auto result = readErtJson(test::readTestData("ert/roofline_p100.json"), "roofline.json");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    const Hardware &h = result.machines.front();
    QCOMPARE(h.compute.size(), std::size_t { 2 });
    QCOMPARE(h.compute[0].name, std::string("FP64 (empirical)"));
    QCOMPARE(h.compute[0].peak, 288.33e9);
    QCOMPARE(h.compute[1].name, std::string("FP64 (spec)"));
    QCOMPARE(h.compute[1].peak, 460.39999999999998e9);
    QCOMPARE(h.memory.size(), std::size_t { 6 });
    // The empirical roof of a level is the one used (listed first).
    QCOMPARE(h.memoryFor(MemoryLevel::DRAM)->bandwidth, 68.76e9);
    QCOMPARE(h.memoryFor(MemoryLevel::L1)->bandwidth, 1002.83e9);
    QCOMPARE(h.memoryFor(MemoryLevel::L3)->bandwidth, 290.41e9);
    QCOMPARE(h.findMemory("DRAM (spec)")->bandwidth, 102.40000000000001e9);
    // The roofline is the measured one, compute as memory: its ridge 288.33 / 68.76 FLOP/B, not
    // the spec peak over the measured bandwidth (until 2026-11-30, 460.4 / 68.76).
    QCOMPARE(h.defaultComputeCeiling()->name, std::string("FP64 (empirical)"));
    QCOMPARE(h.compute[0].provenance.basis, Basis::Measured);
    QCOMPARE(h.compute[1].provenance.basis, Basis::Spec);
    QCOMPARE(h.memoryFor(MemoryLevel::DRAM)->provenance.basis, Basis::Measured);
    QCOMPARE(h.findMemory("DRAM (spec)")->provenance.basis, Basis::Spec);
    QVERIFY(validateHardware(h).empty());
}

void TestErtReader::readsThePython3Variant()
{
    const auto result
        = readErtJson(test::readTestData("ert/roofline_python3.json"), "roofline.json");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    const Hardware &h = result.machines.front();
    QCOMPARE(h.compute.size(), std::size_t { 1 });
    QCOMPARE(h.computeFor(Precision::FP64)->peak, 2772.78e9);
    QCOMPARE(h.memoryFor(MemoryLevel::L2)->bandwidth, 3120.85e9);
    QCOMPARE(h.memoryFor(MemoryLevel::DRAM)->bandwidth, 200.3e9);
}

void TestErtReader::readsEachLabel_data()
{
    // docs/FORMATS.md §2: gflops labels "GFLOPs" (ERT 1.1.0, FP64 kernels) or "<precision> GFLOPs";
    // gbytes labels L1, L2, L3, DRAM, and L4 in some `sum` files, which Ridgepoint has no level
    // for.
    QTest::addColumn<QString>("kind"); // gflops or gbytes
    QTest::addColumn<QString>("label");
    QTest::addColumn<QString>("ceiling"); // the name given, or "" when left out
    QTest::addColumn<QString>("warning");
    QTest::newRow("GFLOPs") << "gflops"
                            << "GFLOPs"
                            << "FP64 (empirical)"
                            << "";
    QTest::newRow("FP64 GFLOPs") << "gflops"
                                 << "FP64 GFLOPs"
                                 << "FP64 (empirical)"
                                 << "";
    QTest::newRow("FP32 GFLOPs") << "gflops"
                                 << "FP32 GFLOPs"
                                 << "FP32 (empirical)"
                                 << "";
    QTest::newRow("unknown precision")
        << "gflops"
        << "QP GFLOPs"
        << ""
        << "e.json: warning: empirical.gflops.data[1]: unknown precision in \"QP GFLOPs\"; left "
           "out";
    QTest::newRow("L3") << "gbytes"
                        << "L3"
                        << "L3 (empirical)"
                        << "";
    QTest::newRow("L4")
        << "gbytes"
        << "L4"
        << ""
        << "e.json: warning: empirical.gbytes.data[1]: memory level \"L4\" is not one Ridgepoint "
           "knows (L1, L2, L3, DRAM, HBM); left out";
}

void TestErtReader::readsEachLabel()
{
    QFETCH(QString, kind);
    QFETCH(QString, label);
    QFETCH(QString, ceiling);
    QFETCH(QString, warning);
    // One known roof of each kind first (of another name), so the machine is valid either way.
    const QString gflops = kind == "gflops" ? QString(", [\"%1\", 100.5]").arg(label) : "";
    const QString gbytes = kind == "gbytes" ? QString(", [\"%1\", 50.25]").arg(label) : "";
    const QString json
        = QString("{\"empirical\": {\"gflops\": {\"data\": [[\"FP16 GFLOPs\", 200]%1]}, "
                  "\"gbytes\": {\"data\": [[\"DRAM\", 20]%2]}}}")
              .arg(gflops, gbytes);
    const auto result = readErtJson(json.toStdString(), "e.json");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(test::joined(result.diagnostics), warning);
    const Hardware &h = result.machines.front();
    if (ceiling.isEmpty()) {
        QCOMPARE(h.compute.size() + h.memory.size(), std::size_t { 2 });
    } else if (kind == "gflops") {
        // GFLOP/s and GB/s × 1e9.
        QCOMPARE(h.compute.back().name, ceiling.toStdString());
        QCOMPARE(h.compute.back().peak, 100.5e9);
    } else {
        QCOMPARE(h.memory.back().name, ceiling.toStdString());
        QCOMPARE(h.memory.back().bandwidth, 50.25e9);
    }
}

void TestErtReader::reportsSyntaxErrorsWithLineAndColumn()
{
    const auto result
        = readErtJson(test::readTestData("bad/ert_trailing_comma.json"), "ert_trailing_comma.json");
    QVERIFY(result.machines.empty());
    // Line 4 is `      "gbytes": {"data": [["DRAM", 68.76],]}`: the ']' at column 43.
    QCOMPARE(test::joined(result.diagnostics),
        QString("ert_trailing_comma.json:4:43: invalid JSON: syntax error while parsing value - "
                "unexpected ']'; expected '[', '{', or a literal"));
}

void TestErtReader::reportsANumberOverflowWithLineAndColumn()
{
    // Found by fuzzing: nlohmann throws a number too large for a double as out_of_range, which
    // escaped the reader (it caught parse_error only).
    const auto result = readErtJson(
        "{\"empirical\": {\"gflops\": {\"data\": [[\"FP64 GFLOPs\",\n 1e400]]}}}", "r.json");
    QVERIFY(result.machines.empty());
    QCOMPARE(test::joined(result.diagnostics),
        QString("r.json:2:2: invalid JSON: number overflow parsing '1e400' (expected a number a "
                "double can hold, at most about 1.8e308)"));
}

QTEST_GUILESS_MAIN(TestErtReader)
#include "tst_ertreader.moc"
