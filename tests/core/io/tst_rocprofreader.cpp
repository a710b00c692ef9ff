// rocprof-compute: roofline.csv ceilings (header typos, newer MFMA columns) and pmc_perf.csv points
// (MI200 and MI300 HBM formulas, LDS traffic).
#include "core/io/formats/hardware_json.h"
#include "core/io/formats/rocprof_reader.h"
#include "tests/support/reader_test_support.h"

#include <QTest>

using namespace ridgepoint;

class TestRocprofReader : public QObject
{
    Q_OBJECT

private slots:
    void readsCeilingsOfEveryGpu_data();
    void readsCeilingsOfEveryGpu();
    void readsDispatchesWithTheMi200Formulas();
    void readsDispatchesWithTheMi300Formulas_data();
    void readsDispatchesWithTheMi300Formulas();
    void scalesLdsBytesWithTheBanksPerCu();
    void sumsTheDispatchesOfAKernel();
    void readsTheCeilingsOfANewerBuild();
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
    const auto result = readRocprofRoofline(
        test::readFixture("rocprof_compute_roofline_MI200.csv"), "roofline.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.machines.size(), std::size_t { 4 });
    const Hardware &h = result.machines[static_cast<std::size_t>(gpu)];
    QCOMPARE(h.name, "rocprof-compute roofline (GPU " + std::to_string(gpu) + ")");
    QCOMPARE(h.memoryFor(MemoryLevel::HBM)->bandwidth, hbm * 1e9);
    QCOMPARE(h.findCompute("FP64 vector")->peak, fp64 * 1e9);
    QCOMPARE(h.computeFor(Precision::BF16)->peak, bf16 * 1e9);
    QCOMPARE(h.computeFor(Precision::INT8)->peak, int8 * 1e9);
    QCOMPARE(h.memory.size(), std::size_t { 4 }); // HBM, L2, L1, LDS
    QCOMPARE(h.memory.front().level, MemoryLevel::HBM); // plain bytes meet HBM
    QCOMPARE(h.compute.size(), std::size_t { 7 });
    // The typo'd spread columns (hbmBwHigh, MFMAFI8OpsLow) are spread, not unknown columns.
    QVERIFY2(result.diagnostics.empty(), qPrintable(test::joined(result.diagnostics)));
}

void TestRocprofReader::readsDispatchesWithTheMi200Formulas()
{
    const auto result = readRocprofPmcPerf(
        test::readFixture("rocprof_compute_pmc_perf_MI200.csv"), "pmc_perf.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
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
    // SQ_LDS_IDX_ACTIVE and SQ_LDS_BANK_CONFLICT are 0: no LDS level.
    QCOMPARE(p.bytes.size(), std::size_t { 3 });
    QCOMPARE(test::joined(result.diagnostics),
        QString("pmc_perf.csv:1: warning: 3 of 3 dispatches count 0 FLOPs (all SQ_INSTS_VALU "
                "counters are 0): kept, but an intensity of 0 has no place on a log-log roofline"));
}

void TestRocprofReader::readsDispatchesWithTheMi300Formulas_data()
{
    // Counter values copied from tests/data/rocprof/pmc_perf_mi300.csv (TCC_EA0_* and
    // TCC_BUBBLE_sum columns, as MI300 writes them).
    QTest::addColumn<int>("dispatch");
    QTest::addColumn<double>("mfmaBf16"); // SQ_INSTS_VALU_MFMA_MOPS_BF16
    QTest::addColumn<double>("addF32"); // SQ_INSTS_VALU_ADD_F32
    QTest::addColumn<double>("fmaF32"); // SQ_INSTS_VALU_FMA_F32
    QTest::addColumn<double>("fmaF64"); // SQ_INSTS_VALU_FMA_F64
    QTest::addColumn<double>("ldsActive"); // SQ_LDS_IDX_ACTIVE
    QTest::addColumn<double>("ldsConflict"); // SQ_LDS_BANK_CONFLICT
    QTest::addColumn<double>("l1Accesses"); // TCP_TOTAL_CACHE_ACCESSES_sum
    QTest::addColumn<double>("l2Read"); // TCP_TCC_READ_REQ_sum
    QTest::addColumn<double>("l2Write"); // TCP_TCC_WRITE_REQ_sum
    QTest::addColumn<double>("rd32"); // TCC_EA0_RDREQ_32B_sum
    QTest::addColumn<double>("rd"); // TCC_EA0_RDREQ_sum
    QTest::addColumn<double>("wr64"); // TCC_EA0_WRREQ_64B_sum
    QTest::addColumn<double>("wr"); // TCC_EA0_WRREQ_sum
    QTest::addColumn<double>("bubble"); // TCC_BUBBLE_sum (128-byte reads)
    QTest::addColumn<double>("nanoseconds"); // End_Timestamp - Start_Timestamp
    QTest::newRow("gemm, dispatch 0")
        << 0 << 4194304.0 << 32768.0 << 16384.0 << 0.0 << 1048576.0 << 65536.0 << 262144.0
        << 131072.0 << 65536.0 << 1024.0 << 40960.0 << 16384.0 << 16384.0 << 32768.0
        << (2318540937754000.0 - 2318540937504000.0);
    QTest::newRow("gemm, dispatch 1: 32- and 64-byte writes")
        << 1 << 4194304.0 << 32768.0 << 16384.0 << 0.0 << 1050624.0 << 67584.0 << 262144.0
        << 131072.0 << 65536.0 << 512.0 << 41472.0 << 16000.0 << 16768.0 << 32768.0
        << (2318540938002000.0 - 2318540937760000.0);
    QTest::newRow("daxpy: no LDS, no 128-byte reads")
        << 2 << 0.0 << 0.0 << 0.0 << 16384.0 << 0.0 << 0.0 << 393216.0 << 262144.0 << 131072.0
        << 0.0 << 131072.0 << 131072.0 << 131072.0 << 0.0
        << (2318540938031000.0 - 2318540938010000.0);
}

void TestRocprofReader::readsDispatchesWithTheMi300Formulas()
{
    QFETCH(int, dispatch);
    QFETCH(double, mfmaBf16);
    QFETCH(double, addF32);
    QFETCH(double, fmaF32);
    QFETCH(double, fmaF64);
    QFETCH(double, ldsActive);
    QFETCH(double, ldsConflict);
    QFETCH(double, l1Accesses);
    QFETCH(double, l2Read);
    QFETCH(double, l2Write);
    QFETCH(double, rd32);
    QFETCH(double, rd);
    QFETCH(double, wr64);
    QFETCH(double, wr);
    QFETCH(double, bubble);
    QFETCH(double, nanoseconds);
    const auto result
        = readRocprofPmcPerf(test::readTestData("rocprof/pmc_perf_mi300.csv"), "pmc_perf.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QVERIFY2(result.diagnostics.empty(), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 3 });
    const KernelPoint &p = result.points[static_cast<std::size_t>(dispatch)];
    // FLOP = 64 lanes × (ADD + MUL + 2·FMA + TRANS) + 512 × MFMA_MOPS (roofline_calc.py).
    QCOMPARE(p.flops, 512.0 * mfmaBf16 + 64.0 * (addF32 + 2.0 * fmaF32) + 64.0 * 2.0 * fmaF64);
    const auto at = [&](MemoryLevel level) {
        for (const auto &b : p.bytes) {
            if (b.level == level)
                return b.bytes;
        }
        return -1.0;
    };
    QCOMPARE(at(MemoryLevel::L1), 64.0 * l1Accesses);
    QCOMPARE(at(MemoryLevel::L2), 64.0 * (l2Read + l2Write));
    // MI300 HBM: 128-byte reads counted by TCC_BUBBLE_sum, the rest 32 or 64 bytes; writes 64
    // or 32 bytes.
    QCOMPARE(at(MemoryLevel::HBM),
        128.0 * bubble + 32.0 * rd32 + 64.0 * (rd - bubble - rd32) + 64.0 * wr64
            + 32.0 * (wr - wr64));
    // LDS: (active − bank-conflict cycles) × 4 bytes × 32 banks per CU.
    const double lds = (ldsActive - ldsConflict) * 4.0 * 32.0;
    QCOMPARE(at(MemoryLevel::LDS), lds > 0.0 ? lds : -1.0);
    QCOMPARE(p.bytes.size(), std::size_t { lds > 0.0 ? 4U : 3U });
    QCOMPARE(*p.seconds, nanoseconds * 1e-9);
    QCOMPARE(*p.precision, mfmaBf16 > 0.0 ? Precision::BF16 : Precision::FP64);
}

void TestRocprofReader::scalesLdsBytesWithTheBanksPerCu()
{
    RocprofOptions options;
    options.ldsBanksPerCu = 64.0;
    const auto result
        = readRocprofPmcPerf(test::readTestData("rocprof/pmc_perf_mi300.csv"), "p.csv", options);
    QCOMPARE(result.points.front().bytes.back().level, MemoryLevel::LDS);
    // Dispatch 0: (1048576 − 65536) × 4 bytes × 64 banks.
    QCOMPARE(result.points.front().bytes.back().bytes, (1048576.0 - 65536.0) * 4.0 * 64.0);
}

void TestRocprofReader::sumsTheDispatchesOfAKernel()
{
    // docs/FORMATS.md §4.2 "per-kernel aggregation": the two gemm dispatches become one point;
    // daxpy ran once and stays as it was.
    RocprofOptions options;
    options.sumDispatchesOfAKernel = true;
    const auto each = readRocprofPmcPerf(test::readTestData("rocprof/pmc_perf_mi300.csv"), "p.csv");
    const auto result
        = readRocprofPmcPerf(test::readTestData("rocprof/pmc_perf_mi300.csv"), "p.csv", options);
    QVERIFY2(result.diagnostics.empty(), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 2 });
    const KernelPoint &gemm = result.points[0];
    QCOMPARE(gemm.name,
        std::string("gemm_bf16(__hip_bfloat16 const*, __hip_bfloat16 const*, float*, int) [clone "
                    ".kd]"));
    QCOMPARE(gemm.flops, each.points[0].flops + each.points[1].flops);
    QCOMPARE(gemm.bytes.size(), std::size_t { 4 });
    for (std::size_t level = 0; level < 4; ++level) {
        QCOMPARE(gemm.bytes[level].level, each.points[0].bytes[level].level);
        QCOMPARE(gemm.bytes[level].bytes,
            each.points[0].bytes[level].bytes + each.points[1].bytes[level].bytes);
    }
    // (754000 − 504000) ns and (2002000 − 1760000) ns.
    QCOMPARE(*gemm.seconds, 250000e-9 + 242000e-9);
    QCOMPARE(*gemm.timeStatistics.min, 242000e-9 * 2);
    QCOMPARE(*gemm.timeStatistics.max, 250000e-9 * 2);
    QCOMPARE(result.points[1].name, each.points[2].name);
    QCOMPARE(result.points[1].flops, each.points[2].flops);
}

void TestRocprofReader::readsTheCeilingsOfANewerBuild()
{
    // A newer build's header (docs/FORMATS.md §4.1): MFMAF8Flops with its spread, MFMAF6Flops and
    // MFMAF4Flops without; LDSBw is the LDS roof.
    const auto result
        = readRocprofRoofline(test::readTestData("rocprof/roofline_mi300.csv"), "roofline.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.machines.size(), std::size_t { 1 });
    const Hardware &h = result.machines.front();
    QCOMPARE(h.memoryFor(MemoryLevel::HBM)->bandwidth, 4312.5806e9); // HBMBw, GB/s
    QCOMPARE(h.memoryFor(MemoryLevel::LDS)->bandwidth, 60251.35e9); // LDSBw, GB/s
    QCOMPARE(h.computeFor(Precision::FP8)->peak, 2071534.6e9); // MFMAF8Flops, GFLOP/s
    QCOMPARE(h.computeFor(Precision::BF16)->peak, 1038421.8e9); // MFMABF16Flops
    // FP6 and FP4 have no Ridgepoint precision: named, not mislabelled.
    QCOMPARE(test::joined(result.diagnostics),
        QString("roofline.csv:1: warning: columns not used: \"MFMAF6Flops\", \"MFMAF4Flops\""));
}

void TestRocprofReader::refusesOtherFiles()
{
    const auto roofline = readRocprofRoofline("name,flops\na,1\n", "x.csv");
    QCOMPARE(test::joined(roofline.diagnostics),
        QString("x.csv:1:1: not a rocprof-compute roofline.csv (expected a header starting "
                "device,HBMBw,...)"));
    const auto perf = readRocprofPmcPerf("Dispatch_ID,Kernel_Name\n0,k\n", "y.csv");
    QCOMPARE(test::joined(perf.diagnostics),
        QString("y.csv:1: not a rocprof-compute pmc_perf.csv: no \"start_timestamp\" column "
                "(expected Dispatch_ID,Kernel_Name,...,Start_Timestamp,End_Timestamp)"));
}

void TestRocprofReader::writesANameThatIsNotUtf8()
{
    // Found by fuzzing: the device name is not UTF-8 (the reader called without the input check)
    // and writing the machine as JSON threw type_error.316. The bad byte becomes U+FFFD.
    const auto result = readRocprofRoofline("device,HBMBw,FP32Flops\nmi\xFF,1600,40000\n", "r.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.machines.size(), std::size_t { 1 });
    const std::string json = writeHardwareJson(result.machines.front());
    QVERIFY(json.find("mi\xEF\xBF\xBD") != std::string::npos);
    const auto again = readHardwareJson(json, "again.json");
    QVERIFY2(!hasErrors(again.diagnostics), qPrintable(test::joined(again.diagnostics)));
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
    QCOMPARE(test::joined(result.diagnostics),
        QString("p.csv:2:12: dispatch 0: column \"SQ_INSTS_VALU_ADD_F32\": \"-5\" is negative "
                "(expected a counter or timestamp of zero or more)"));
}

QTEST_GUILESS_MAIN(TestRocprofReader)
#include "tst_rocprofreader.moc"
