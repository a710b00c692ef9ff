// Intel Advisor: roofs CSV (CPU and GPU ceilings) and the survey CSV, legacy and current columns,
// comma or tab delimited, after its preamble (points).
#include "core/io/formats/advisor_reader.h"
#include "tests/support/reader_test_support.h"

#include <QTest>

#include <cmath>

using namespace ridgepoint;

class TestAdvisorReader : public QObject
{
    Q_OBJECT

private slots:
    void readsRoofs();
    void readsGpuRoofs_data();
    void readsGpuRoofs();
    void givesOneMachinePerDevice();
    void readsTheSurveyAfterItsPreamble();
    void readsTheCurrentSurvey_data();
    void readsTheCurrentSurvey();
    void refusesBadSurveyRows_data();
    void refusesBadSurveyRows();
};

void TestAdvisorReader::readsRoofs()
{
    const auto result = readAdvisorRoofs(test::readTestData("advisor/roofs.csv"), "roofs.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    const Hardware &h = result.machines.front();
    QCOMPARE(h.kind, std::string("cpu"));
    QCOMPARE(h.name, std::string("Intel Advisor roofs (CPU)"));
    // "(single node)" is kept but hidden, so DRAM bytes meet the whole-machine roof.
    QCOMPARE(h.memoryFor(MemoryLevel::DRAM)->bandwidth, 175273218366.0);
    QCOMPARE(h.memoryFor(MemoryLevel::L3)->bandwidth, 579993235472.0);
    QCOMPARE(h.computeFor(Precision::FP64)->peak, 1349734446677.0);
    QCOMPARE(h.computeFor(Precision::FP32)->peak, 2699332504425.0);
    QCOMPARE(h.compute.size(), std::size_t { 4 });
}

void TestAdvisorReader::readsGpuRoofs_data()
{
    // tests/data/advisor/roofs_gpu.csv: `advisor --report=roofs --gpu` (docs/FORMATS.md §3.2). The
    // GPU roofs are L3, SLM (shared local memory, Ridgepoint's LDS level) and GTI (the GPU's
    // path to memory: main memory), per Intel's GPU Roofline guide; compute roofs by precision.
    QTest::addColumn<QString>("roof");
    QTest::addColumn<bool>("memory");
    QTest::addColumn<int>("levelOrPrecision");
    QTest::addColumn<QString>("unit"); // compute only
    QTest::addColumn<double>("value"); // B/s or FLOP/s, as written
    QTest::newRow("SLM") << "SLM Bandwidth" << true << static_cast<int>(MemoryLevel::LDS) << ""
                         << 12845056000000.0;
    QTest::newRow("L3") << "L3 Bandwidth" << true << static_cast<int>(MemoryLevel::L3) << ""
                        << 8390000000000.0;
    QTest::newRow("GTI") << "GTI Bandwidth" << true << static_cast<int>(MemoryLevel::DRAM) << ""
                         << 1148000000000.0;
    QTest::newRow("SP") << "SP Vector FMA Peak" << false << static_cast<int>(Precision::FP32)
                        << "vector" << 22220800000000.0;
    QTest::newRow("DP") << "DP Vector FMA Peak" << false << static_cast<int>(Precision::FP64)
                        << "vector" << 22220800000000.0;
    QTest::newRow("HP") << "HP Vector FMA Peak" << false << static_cast<int>(Precision::FP16)
                        << "vector" << 44441600000000.0;
    QTest::newRow("BF16 XMX") << "BF16 XMX Peak" << false << static_cast<int>(Precision::BF16)
                              << "matrix" << 355532800000000.0;
    QTest::newRow("INT8 XMX") << "INT8 XMX Peak" << false << static_cast<int>(Precision::INT8)
                              << "matrix" << 711065600000000.0;
}

void TestAdvisorReader::readsGpuRoofs()
{
    QFETCH(QString, roof);
    QFETCH(bool, memory);
    QFETCH(int, levelOrPrecision);
    QFETCH(QString, unit);
    QFETCH(double, value);
    const auto result = readAdvisorRoofs(test::readTestData("advisor/roofs_gpu.csv"), "roofs.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.machines.size(), std::size_t { 1 });
    const Hardware &h = result.machines.front();
    QCOMPARE(h.name, std::string("Intel Advisor roofs (GPU)"));
    QCOMPARE(h.kind, std::string("gpu"));
    QCOMPARE(h.memory.size(), std::size_t { 3 });
    QCOMPARE(h.compute.size(), std::size_t { 5 });
    if (memory) {
        const MemoryCeiling *m = h.findMemory(roof.toStdString());
        QVERIFY(m);
        QCOMPARE(static_cast<int>(m->level), levelOrPrecision);
        QCOMPARE(m->bandwidth, value);
    } else {
        const ComputeCeiling *c = h.findCompute(roof.toStdString());
        QVERIFY(c);
        QCOMPARE(static_cast<int>(c->precision), levelOrPrecision);
        QCOMPARE(QString::fromStdString(c->unit), unit);
        QCOMPARE(c->peak, value);
    }
    // Integer-operation roofs have no point to meet: named and left out.
    QCOMPARE(test::joined(result.diagnostics),
        QString("roofs.csv:11: warning: roof \"Int32 Vector Add Peak\": integer roofs are left out "
                "(the FLOP roofs are used)"));
}

void TestAdvisorReader::givesOneMachinePerDevice()
{
    const auto result = readAdvisorRoofs("Intel(R) Advisor roofs report\n"
                                         "Name,Bandwidth,Type,Device\n"
                                         "DRAM Bandwidth,175273218366,memory,CPU\n"
                                         "GTI Bandwidth,1148000000000,memory,GPU\n"
                                         "DP Vector FMA Peak,1349734446677,compute,CPU\n"
                                         "SP Vector FMA Peak,22220800000000,compute,GPU\n",
        "both.csv");
    QVERIFY2(result.diagnostics.empty(), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.machines.size(), std::size_t { 2 });
    QCOMPARE(result.machines[0].name, std::string("Intel Advisor roofs (CPU)"));
    QCOMPARE(result.machines[0].mainMemory()->bandwidth, 175273218366.0);
    QCOMPARE(result.machines[0].computeFor(Precision::FP64)->peak, 1349734446677.0);
    QCOMPARE(result.machines[1].name, std::string("Intel Advisor roofs (GPU)"));
    QCOMPARE(result.machines[1].mainMemory()->bandwidth, 1148000000000.0);
    QCOMPARE(result.machines[1].computeFor(Precision::FP32)->peak, 22220800000000.0);
}

void TestAdvisorReader::readsTheSurveyAfterItsPreamble()
{
    // docs/FORMATS.md §3.1: sep=, a two-line quoted banner, "MPI rank:0", then the header.
    const auto result
        = readAdvisorSurvey(test::readTestData("advisor/survey_legacy.csv"), "survey.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 1 });
    const KernelPoint &p = result.points.front();
    QCOMPARE(p.name,
        std::string("[child]-[loop in field_gathering_plus_particle_pusher_1_1_1 at "
                    "particles_push.F90:1295]"));
    QCOMPARE(p.source.line, 11);
    QCOMPARE(p.flops, 0.5235e9); // GFLOP
    QCOMPARE(*p.bytes.front().level, MemoryLevel::L1);
    QCOMPARE(p.bytes.front().bytes, 7.2309e9); // L1 GB
    QCOMPARE(*p.measuredRate, 0.844425e9); // GFLOPS
    QCOMPARE(*p.seconds, 0.6199); // legacy "Elapsed Time", wall time ("0.6199s")
    QCOMPARE(test::joined(result.diagnostics),
        QString("survey.csv:9: warning: 2 rows without FLOP data left out (not executed, or "
                "collected without FLOP counts)"));
}

void TestAdvisorReader::readsTheCurrentSurvey_data()
{
    // tests/data/advisor/survey_current*.csv: the current (2020+) column names of
    // docs/FORMATS.md §3.1, comma and tab (--csv-delimiter=tab) delimited, values consistent with
    // Intel's definitions (Self GFLOPS = Self GFLOP / Self Elapsed Time, Self GB/s = Self Memory GB
    // / Self Elapsed Time).
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("gflop"); // Self GFLOP
    QTest::addColumn<double>("memoryGb"); // Self Memory GB (L1, the CARM traffic)
    QTest::addColumn<double>("l2Gb");
    QTest::addColumn<double>("l3Gb");
    QTest::addColumn<double>("dramGb");
    QTest::addColumn<double>("elapsed"); // Self Elapsed Time, s
    for (const char *file : { "advisor/survey_current.csv", "advisor/survey_current_tab.csv" }) {
        const QString f = QString::fromUtf8(file);
        QTest::addRow("%s triad loop", file) << f << 0 << "[loop in stream_triad at stream.c:212]"
                                             << 2.0130 << 24.16 << 24.16 << 24.16 << 24.16 << 0.31;
        QTest::addRow("%s dgemm loop", file) << f << 1 << "[loop in dgemm_kernel at dgemm.c:88]"
                                             << 274.8779 << 128.0 << 40.0 << 12.0 << 4.5 << 2.0;
        QTest::addRow("%s dgemm function", file)
            << f << 2 << "dgemm_kernel" << 274.8779 << 128.0 << 40.0 << 12.0 << 4.5 << 2.0;
    }
}

void TestAdvisorReader::readsTheCurrentSurvey()
{
    QFETCH(QString, file);
    QFETCH(int, index);
    QFETCH(QString, name);
    QFETCH(double, gflop);
    QFETCH(double, memoryGb);
    QFETCH(double, l2Gb);
    QFETCH(double, l3Gb);
    QFETCH(double, dramGb);
    QFETCH(double, elapsed);
    const auto result = readAdvisorSurvey(test::readTestData(file.toStdString()), "survey.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 3 });
    // The init loop ran for "< 0.0001s" and has no FLOP data.
    QCOMPARE(test::joined(result.diagnostics),
        QString("survey.csv:7: warning: 1 rows without FLOP data left out (not executed, or "
                "collected without FLOP counts)"));
    const KernelPoint &p = result.points[static_cast<std::size_t>(index)];
    QCOMPARE(QString::fromStdString(p.name), name);
    QCOMPARE(p.flops, gflop * 1e9);
    QCOMPARE(*p.seconds, elapsed);
    QCOMPARE(p.bytes.size(), std::size_t { 4 });
    QCOMPARE(*p.bytes[0].level, MemoryLevel::L1);
    QCOMPARE(p.bytes[0].bytes, memoryGb * 1e9);
    QCOMPARE(*p.bytes[1].level, MemoryLevel::L2);
    QCOMPARE(p.bytes[1].bytes, l2Gb * 1e9);
    QCOMPARE(*p.bytes[2].level, MemoryLevel::L3);
    QCOMPARE(p.bytes[2].bytes, l3Gb * 1e9);
    QVERIFY(!p.bytes[3].level); // Self DRAM GB: main memory
    QCOMPARE(p.bytes[3].bytes, dramGb * 1e9);
    // Intel's definition: Self GFLOPS = Self GFLOP / Self Elapsed Time (4 decimals in the file).
    QVERIFY(std::fabs(*p.measuredRate / 1e9 - gflop / elapsed) < 1e-4);
}

void TestAdvisorReader::refusesBadSurveyRows_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    const QByteArray header
        = "\"ID\",\"Function Call Sites and Loops\",\"Self GFLOP\",\"Self AI\"\n";
    // Found by fuzzing: the name was read from the second field of a row that had one.
    QTest::newRow("row with one field") << header + "\"1\"\n"
                                        << "survey.csv:2: expected 4 fields, found 1";
    QTest::newRow("GFLOP overflows")
        << header + "\"1\",\"loop\",\"1e300\",\"0.5\"\n"
        << "survey.csv:2: \"loop\": the FLOP count is not finite (expected zero or more FLOPs)";
}

void TestAdvisorReader::refusesBadSurveyRows()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    const auto result = readAdvisorSurvey(text.toStdString(), "survey.csv");
    QVERIFY(result.points.empty());
    QCOMPARE(result.rowsSkipped, 1);
    QCOMPARE(test::joined(result.diagnostics), message);
}

QTEST_GUILESS_MAIN(TestAdvisorReader)
#include "tst_advisorreader.moc"
