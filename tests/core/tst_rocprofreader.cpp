// rocprof-compute: roofline.csv ceilings (header typos) and pmc_perf.csv points (MI200 formulas).
#include "core/rocprof_reader.h"
#include "tst_common_reader.h"

#include <QTest>

using namespace ridgepoint;

class TestRocprofReader : public QObject
{
    Q_OBJECT

private slots:
    void readsCeilingsOfEveryGpu_data();
    void readsCeilingsOfEveryGpu();
    void readsDispatchesWithTheMi200Formulas();
    void refusesOtherFiles();
    void writesANameThatIsNotUtf8();
    void refusesNegativeCounters();
};

void TestRocprofReader::readsCeilingsOfEveryGpu_data()
{
    QTest::addColumn<int>("gpu");
    QTest::addColumn<double>("hbm"); // GB/s, from the fixture's HBMBw column
    QTest::addColumn<double>("fp64"); // GFLOP/s, FP64Flops
    QTest::addColumn<double>("bf16"); // GFLOP/s, MFMABF16Flops
    QTest::addColumn<double>("int8"); // GOP/s, MFMAI8Ops
    QTest::newRow("GPU 0") << 0 << 1388.9282 << 20273.305 << 170494.08 << 166407.34;
    QTest::newRow("GPU 3") << 3 << 1389.2573 << 20304.945 << 171032.27 << 166934.39;
}

void TestRocprofReader::readsCeilingsOfEveryGpu()
{
    QFETCH(int, gpu);
    QFETCH(double, hbm);
    QFETCH(double, fp64);
    QFETCH(double, bf16);
    QFETCH(double, int8);
    const auto result
        = readRocprofRoofline(readFixture("rocprof_compute_roofline_MI200.csv"), "roofline.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(joined(result.diagnostics)));
    QCOMPARE(result.machines.size(), std::size_t { 4 });
    const Hardware &h = result.machines[static_cast<std::size_t>(gpu)];
    QCOMPARE(h.name, "rocprof-compute roofline (GPU " + std::to_string(gpu) + ")");
    QCOMPARE(h.memoryFor(MemoryLevel::HBM)->bandwidth, hbm * 1e9);
    QCOMPARE(h.findCompute("FP64 vector")->peak, fp64 * 1e9);
    QCOMPARE(h.computeFor(Precision::BF16)->peak, bf16 * 1e9);
    QCOMPARE(h.computeFor(Precision::INT8)->peak, int8 * 1e9);
    QCOMPARE(h.memory.size(), std::size_t { 3 }); // HBM, L2, L1 (LDS has no level here)
    QCOMPARE(h.compute.size(), std::size_t { 7 });
    // The typo'd spread columns (hbmBwHigh, MFMAFI8OpsLow) are spread, not unknown columns;
    // only LDSBw is left out.
    QCOMPARE(joined(result.diagnostics),
        QString("roofline.csv:1: warning: columns not used: \"LDSBw\""));
}

void TestRocprofReader::readsDispatchesWithTheMi200Formulas()
{
    const auto result
        = readRocprofPmcPerf(readFixture("rocprof_compute_pmc_perf_MI200.csv"), "pmc_perf.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 3 });
    const KernelPoint &p = result.points[0];
    QCOMPARE(p.name,
        std::string("vecCopy(double*, double*, double*, int, int) [clone .kd] (dispatch 0)"));
    QCOMPARE(p.flops, 0.0); // a copy kernel: every SQ_INSTS_VALU counter is 0
    // Dispatch 0: TCP_TOTAL_CACHE_ACCESSES_sum 524288.0; TCP_TCC_READ_REQ_sum 131072.0,
    // TCP_TCC_WRITE_REQ_sum 131072.0, atomics 0.0; TCC_EA_RDREQ_32B_sum 0.0,
    // TCC_EA_RDREQ_sum 131080.0, TCC_EA_WRREQ_64B_sum 131072.0, TCC_EA_WRREQ_sum 131072.0.
    QCOMPARE(p.bytes.size(), std::size_t { 3 });
    QCOMPARE(p.bytes[0].bytes, 524288.0 * 64);
    QCOMPARE(*p.bytes[0].level, MemoryLevel::L1);
    QCOMPARE(p.bytes[1].bytes, (131072.0 + 131072.0) * 64);
    QCOMPARE(*p.bytes[2].level, MemoryLevel::HBM);
    QCOMPARE(p.bytes[2].bytes,
        0.0 * 32 + (131080.0 - 0.0) * 64 + 131072.0 * 64 + (131072.0 - 131072.0) * 32);
    QCOMPARE(*p.seconds, (1412081937524933.0 - 1412081937504773.0) * 1e-9);
    // Dispatch 1 wrote less: TCC_EA_WRREQ_64B_sum 91142.0 = TCC_EA_WRREQ_sum.
    QCOMPARE(result.points[1].bytes[2].bytes, 131073.0 * 64 + 91142.0 * 64);
    QCOMPARE(joined(result.diagnostics),
        QString("pmc_perf.csv:1: warning: 3 of 3 dispatches count 0 FLOPs (all SQ_INSTS_VALU "
                "counters are 0): kept, but an intensity of 0 has no place on a log-log roofline"));
}

void TestRocprofReader::refusesOtherFiles()
{
    const auto roofline = readRocprofRoofline("name,flops\na,1\n", "x.csv");
    QCOMPARE(joined(roofline.diagnostics),
        QString("x.csv:1:1: not a rocprof-compute roofline.csv (expected a header starting "
                "device,HBMBw,...)"));
    const auto perf = readRocprofPmcPerf("Dispatch_ID,Kernel_Name\n0,k\n", "y.csv");
    QCOMPARE(joined(perf.diagnostics),
        QString("y.csv:1: not a rocprof-compute pmc_perf.csv: no \"start_timestamp\" column "
                "(expected Dispatch_ID,Kernel_Name,...,Start_Timestamp,End_Timestamp)"));
}

void TestRocprofReader::writesANameThatIsNotUtf8()
{
    // Found by fuzzing: the device name is not UTF-8 (the reader called without the input check)
    // and writing the machine as JSON threw type_error.316. The bad byte becomes U+FFFD.
    const auto result = readRocprofRoofline("device,HBMBw,FP32Flops\nmi\xFF,1600,40000\n", "r.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(joined(result.diagnostics)));
    QCOMPARE(result.machines.size(), std::size_t { 1 });
    const std::string json = writeHardwareJson(result.machines.front());
    QVERIFY(json.find("mi\xEF\xBF\xBD") != std::string::npos);
    const auto again = readHardwareJson(json, "again.json");
    QVERIFY2(!hasErrors(again.diagnostics), qPrintable(joined(again.diagnostics)));
    QCOMPARE(
        again.machines.front().name, std::string("rocprof-compute roofline (GPU mi\xEF\xBF\xBD)"));
}

void TestRocprofReader::refusesNegativeCounters()
{
    const auto result = readRocprofPmcPerf("Dispatch_ID,Kernel_Name,Start_Timestamp,End_Timestamp,"
                                           "SQ_INSTS_VALU_ADD_F32,TCP_TCC_READ_REQ_sum\n"
                                           "0,k,0,1000,-5,100\n",
        "p.csv");
    QVERIFY(result.points.empty());
    QCOMPARE(joined(result.diagnostics),
        QString("p.csv:2:12: dispatch 0: column \"SQ_INSTS_VALU_ADD_F32\": \"-5\" is negative "
                "(expected a counter or timestamp of zero or more)"));
}

QTEST_GUILESS_MAIN(TestRocprofReader)
#include "tst_rocprofreader.moc"
