// Nsight Compute CSV: details page, raw page, per-kernel summary and roofline section; units,
// noise, locale, FLOP formulas (counters and roofline rates), ceilings.
#include "core/io/file_io.h"
#include "core/io/formats/ncu_reader.h"
#include "tests/support/core_test_support.h"
#include "tests/support/reader_test_support.h"
#include "tests/support/testpaths.h"

#include <QTest>

#include <cmath>

using namespace ridgepoint;

namespace {

std::string fixture(const char *name)
{
    auto text = readTextFile(test::fixturePath(QLatin1String(name)).toStdString());
    if (!text)
        qFatal("%s", text.error().c_str());
    return *text;
}

std::string testData(const std::string &path)
{
    auto text = readTextFile(test::sourceFile("tests/data/" + path));
    if (!text)
        qFatal("%s", text.error().c_str());
    return *text;
}

double bytesAt(const KernelPoint &point, std::optional<MemoryLevel> level)
{
    for (const auto &b : point.bytes) {
        if (b.level == level)
            return b.bytes;
    }
    return -1.0;
}

} // namespace

class TestNcuReader : public QObject
{
    Q_OBJECT

private slots:
    void convertsUnits_data();
    void convertsUnits();
    void detectsTheShape_data();
    void detectsTheShape();
    void readsTheBaseUnitFixtureAfterItsPreamble();
    void findsTheHeaderAfterLinesThatNameTheKernel();
    void readsTheAutoScaledFixture();
    void computesFlopsFromTheSassCounters();
    void tellsTensorFromCudaCoreWork_data();
    void tellsTensorFromCudaCoreWork();
    void readsTheRawPageWithItsUnitsRow();
    void readsCeilingsFromTheRooflineSection();
    void readsAchievedValuesOfTheRooflineSection();
    void readsThePerKernelSummary_data();
    void readsThePerKernelSummary();
    void readsNumbersWithADecimalComma();
    void readsTheRooflineRatesOfARawPage();
    void readsPeaksFromTheRawPage();
    void placesRatesWithoutATimeByIntensity();
    void sumsTheLaunchesOfAKernel();
    void countsHalfPrecisionFmaAsConfigured_data();
    void countsHalfPrecisionFmaAsConfigured();
    void reportsBrokenFiles_data();
    void reportsBrokenFiles();
};

void TestNcuReader::convertsUnits_data()
{
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("scale"); // -1: unknown
    QTest::newRow("empty") << "" << 1.0;
    QTest::newRow("byte") << "byte" << 1.0;
    QTest::newRow("Kbyte is decimal") << "Kbyte" << 1e3;
    QTest::newRow("Mbyte") << "Mbyte" << 1e6;
    QTest::newRow("Gbyte") << "Gbyte" << 1e9;
    QTest::newRow("nsecond") << "nsecond" << 1e-9;
    QTest::newRow("usecond") << "usecond" << 1e-6;
    QTest::newRow("msecond") << "msecond" << 1e-3;
    QTest::newRow("ns") << "ns" << 1e-9;
    QTest::newRow("us") << "us" << 1e-6;
    QTest::newRow("ms") << "ms" << 1e-3;
    QTest::newRow("second") << "second" << 1.0;
    QTest::newRow("cycle/nsecond") << "cycle/nsecond" << 1e9;
    QTest::newRow("cycle/usecond") << "cycle/usecond" << 1e6;
    QTest::newRow("cycle/second") << "cycle/second" << 1.0;
    QTest::newRow("Ghz") << "Ghz" << 1e9;
    QTest::newRow("hz") << "hz" << 1.0;
    QTest::newRow("Gbyte/s") << "Gbyte/s" << 1e9;
    QTest::newRow("Tbyte/second") << "Tbyte/second" << 1e12;
    QTest::newRow("inst") << "inst" << 1.0;
    QTest::newRow("inst/cycle") << "inst/cycle" << 1.0;
    QTest::newRow("byte/cycle") << "byte/cycle" << 1.0;
    QTest::newRow("Msector") << "Msector" << 1e6;
    QTest::newRow("sectors") << "sectors" << 1.0;
    QTest::newRow("percent") << "%" << 1.0;
    QTest::newRow("percent per register") << "%/register" << 1.0;
    QTest::newRow("percent per byte") << "%/byte" << 1.0;
    QTest::newRow("Khz") << "Khz" << 1e3;
    QTest::newRow("Mhz") << "Mhz" << 1e6;
    QTest::newRow("Tbyte") << "Tbyte" << 1e12;
    QTest::newRow("byte/second") << "byte/second" << 1.0;
    QTest::newRow("bits are unknown") << "Mbit" << -1.0;
    QTest::newRow("binary prefix unknown") << "Kibyte" << -1.0;
}

void TestNcuReader::convertsUnits()
{
    QFETCH(QString, unit);
    QFETCH(double, scale);
    const auto got = ncuUnitScale(unit.toStdString());
    if (scale < 0) {
        QVERIFY(!got);
    } else {
        QVERIFY(got);
        QCOMPARE(*got, scale);
    }
}

void TestNcuReader::detectsTheShape_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("shape");
    QTest::newRow("details, base units")
        << "real:ncu_details_metrics_gemm_tiled_rtx5070.csv" << static_cast<int>(NcuShape::Details);
    QTest::newRow("details, auto units")
        << "real:ncu_details_autounits_cublas_gemv.csv" << static_cast<int>(NcuShape::Details);
    QTest::newRow("roofline section") << "real:ncu_section_roofline_chart_cublas_gemv.csv"
                                      << static_cast<int>(NcuShape::RooflineSection);
    QTest::newRow("raw page") << "ncu/ncu_raw_page.csv" << static_cast<int>(NcuShape::Raw);
    QTest::newRow("raw page with roofline metrics after ==ERROR== lines")
        << "ncu/ncu_raw_roofline_metrics.csv" << static_cast<int>(NcuShape::Raw);
    QTest::newRow("per-kernel summary")
        << "ncu/ncu_summary_per_kernel.csv" << static_cast<int>(NcuShape::Summary);
    QTest::newRow("only ncu's error lines")
        << "bad/ncu_errors_only.csv" << static_cast<int>(NcuShape::None);
    QTest::newRow("not ncu") << "bad/csv_ragged_row.csv" << static_cast<int>(NcuShape::None);
}

void TestNcuReader::detectsTheShape()
{
    QFETCH(QString, path);
    QFETCH(int, shape);
    const std::string text = path.startsWith("real:") ? fixture(path.mid(5).toStdString().c_str())
                                                      : testData(path.toStdString());
    QCOMPARE(static_cast<int>(detectNcuShape(text)), shape);
}

void TestNcuReader::readsTheBaseUnitFixtureAfterItsPreamble()
{
    // BOM, CRLF, 8 lines of ==PROF== and application output, thousands separators.
    const auto result
        = readNcuCsv(fixture("ncu_details_metrics_gemm_tiled_rtx5070.csv"), "gemm.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 1 });
    const KernelPoint &p = result.points.front();
    QCOMPARE(p.name,
        std::string("void unnamed>::gemm_tiled_kernel<32>(const float *, const float *, float *, "
                    "int, int, int)"));
    QCOMPARE(p.source.line, 10); // the header is on line 9
    // dram__bytes_op_read.sum "53,261,312" byte + dram__bytes_op_write.sum "3,377,920" byte
    QCOMPARE(bytesAt(p, std::nullopt), 53261312.0 + 3377920.0);
    QCOMPARE(p.bytes.size(), std::size_t { 1 });
    // gpu__time_duration.sum "10,195,552" ns
    QCOMPARE(*p.seconds, 10195552e-9);
    // This metric list has no FLOP counter: said once, the point kept with 0 FLOPs.
    QCOMPARE(p.flops, 0.0);
    QVERIFY(test::joined(result.diagnostics)
                .contains("gemm.csv:10: warning: no FLOP counters for launch 0 (expected "
                          "sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum"));
}

void TestNcuReader::findsTheHeaderAfterLinesThatNameTheKernel()
{
    // Application output that mentions "Kernel Name" (not a header: no ID first) before the
    // fixture's preamble: the header is found two lines further down, and said so.
    std::string text = fixture("ncu_details_metrics_gemm_tiled_rtx5070.csv");
    const std::string bom = "\xEF\xBB\xBF";
    QVERIFY(text.starts_with(bom));
    text = bom + "Kernel Name: gemm_tiled, \"ID\" follows\r\nrun 1 of 1\r\n" + text.substr(3);
    const auto result = readNcuCsv(text, "gemm.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 1 });
    QCOMPARE(result.points.front().source.line, 12); // the header is on line 11
    QCOMPARE(static_cast<int>(detectNcuShape(text)), static_cast<int>(NcuShape::Details));
}

void TestNcuReader::readsTheAutoScaledFixture()
{
    // Units change per row (Mbyte, byte, us), n/a values, rule rows, 16- and 20-field rows.
    const auto result = readNcuCsv(fixture("ncu_details_autounits_cublas_gemv.csv"), "gemv.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 1 });
    const KernelPoint &p = result.points.front();
    QVERIFY(p.name.starts_with("enable_if<!T7, void>::type kernel<int, int, __nv_bfloat16,"));
    QCOMPARE(p.name.size(), std::size_t { 303 });
    // dram__bytes_read.sum "2.33" Mbyte + dram__bytes_write.sum "0" byte
    QCOMPARE(bytesAt(p, std::nullopt), 2.33e6 + 0.0);
    // gpu__time_duration.sum "6.75" us
    QCOMPARE(*p.seconds, 6.75e-6);
    // sm__ops_path_tensor_src_bf16_dst_fp32.sum is "0": a FLOP counter that counted nothing.
    QCOMPARE(p.flops, 0.0);
    QVERIFY(!test::joined(result.diagnostics).contains("no FLOP counters"));
}

void TestNcuReader::computesFlopsFromTheSassCounters()
{
    // Shaped like NERSC's example output (docs/FORMATS.md §1.3: ncu 2020, NERSC metric set, no
    // quotes), with the other SASS counters added and a second launch of the same kernel.
    NcuOptions options;
    const auto result = readNcuCsv(testData("ncu/ncu_details_nersc_v100.csv"), "v100.csv", options);
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 2 });
    const KernelPoint &a = result.points[0];
    QCOMPARE(a.name, std::string("ComputeCurrent (ID 0)"));
    const double fp64 = 2.0 * 2097152 + 1048576 + 524288; // 2·dfma + dadd + dmul
    const double fp32 = 2.0 * 7913209121.0 + 1209437184.0 + 2415919104.0; // 2·ffma + fadd + fmul
    QCOMPARE(a.flops, fp64 + fp32);
    QCOMPARE(*a.precision, Precision::FP32);
    QCOMPARE(bytesAt(a, std::nullopt), 556472832.0);
    QCOMPARE(bytesAt(a, MemoryLevel::L2), 642768064.0);
    QCOMPARE(bytesAt(a, MemoryLevel::L1), 1501159616.0);
    QCOMPARE(*a.seconds, 11382720e-9); // Duration in nsecond
    QCOMPARE(a.source.line, 2);

    const KernelPoint &b = result.points[1];
    QCOMPARE(b.name, std::string("ComputeCurrent (ID 1)"));
    // No gpu__time_duration / Duration: cycles / cycles per second.
    QCOMPARE(*b.seconds, 14915000.0 / 1310393221.0);
    // 2·ffma + 512 FLOP per tensor-pipe instruction (NERSC's method); the tensor work wins.
    QCOMPARE(b.flops, 2.0 * 7913209000.0 + 1000.0 * 512.0);
    options.tensorFlopsPerInstruction = 1024.0;
    const auto a100 = readNcuCsv(testData("ncu/ncu_details_nersc_v100.csv"), "v100.csv", options);
    QCOMPARE(a100.points[1].flops, 2.0 * 7913209000.0 + 1000.0 * 1024.0);
}

// The units a launch's FLOPs ran on (point.h ComputeUnit): tensor when most FLOPs of its
// precision came from the tensor pipes, else CUDA cores; unknown without FLOPs.
void TestNcuReader::tellsTensorFromCudaCoreWork_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("flopsPerTensorInstruction"); // 0: the default
    QTest::addColumn<int>("point");
    QTest::addColumn<QString>("precision");
    QTest::addColumn<QString>("unit");
    // 2·ffma + fadd + fmul = 1.9e10 FP32 FLOPs on the SASS counters, no tensor work.
    QTest::newRow("FP32 on CUDA cores") << "ncu/ncu_details_nersc_v100.csv" << 0.0 << 0 << "fp32"
                                        << "core";
    // 1000 tensor-pipe instructions × 1e9 = 1e12 FP16 FLOPs over 1.6e10 FP32 ones.
    QTest::newRow("FP16 on tensor cores") << "ncu/ncu_details_nersc_v100.csv" << 1e9 << 1 << "fp16"
                                          << "tensor";
    QTest::newRow("FP64 daxpy on CUDA cores")
        << "ncu/ncu_levels_daxpy_stencil.csv" << 0.0 << 0 << "fp64"
        << "core";
    // The BF16 ops-path counter is "0": no FLOPs, so no units either.
    QTest::newRow("no FLOPs") << "real/ncu_details_autounits_cublas_gemv.csv" << 0.0 << 0 << ""
                              << "";
}

void TestNcuReader::tellsTensorFromCudaCoreWork()
{
    QFETCH(QString, file);
    QFETCH(double, flopsPerTensorInstruction);
    QFETCH(int, point);
    QFETCH(QString, precision);
    QFETCH(QString, unit);
    NcuOptions options;
    if (flopsPerTensorInstruction > 0.0)
        options.tensorFlopsPerInstruction = flopsPerTensorInstruction;
    const auto result = readNcuCsv(testData(file.toStdString()), "ncu.csv", options);
    QVERIFY(result.points.size() > static_cast<std::size_t>(point));
    const KernelPoint &p = result.points[static_cast<std::size_t>(point)];
    QCOMPARE(
        p.precision ? QString::fromUtf8(precisionName(*p.precision).data()) : QString(), precision);
    QCOMPARE(QString::fromUtf8(computeUnitName(p.unit).data(),
                 static_cast<qsizetype>(computeUnitName(p.unit).size())),
        unit);
}

void TestNcuReader::readsTheRawPageWithItsUnitsRow()
{
    // Shaped like a raw page (docs/FORMATS.md §1.4): ==PROF== lines, a units row, thousands
    // separators, "no data", "nan" and a failed launch.
    const auto result = readNcuCsv(testData("ncu/ncu_raw_page.csv"), "raw.csv");
    QCOMPARE(result.points.size(), std::size_t { 1 });
    const KernelPoint &p = result.points.front();
    QCOMPARE(p.name, std::string("void calc_energy<256>(int, int, const float *, float *) (ID 0)"));
    QCOMPARE(p.source.line, 5);
    QCOMPARE(bytesAt(p, std::nullopt), 12.50e6); // "12.50" Mbyte
    QCOMPARE(bytesAt(p, MemoryLevel::L1), 55150962625.03);
    QCOMPARE(bytesAt(p, MemoryLevel::L2), 122495714.75);
    QCOMPARE(*p.seconds, 9898.83e-6); // "9,898.83" usecond
    // 2·ffma + fadd (fmul is "no data") + 1,048,576 BF16 ops-path operations.
    QCOMPARE(p.flops, 2.0 * 8888993 + 1158 + 1048576);
    QCOMPARE(*p.precision, Precision::FP32);
    // The failed launch (ID 1, all nan) cannot be a point.
    QCOMPARE(result.rowsSkipped, 1);
    QCOMPARE(test::joined(result.diagnostics),
        QString("raw.csv:6: launch 1 (\"void calc_energy<256>(int, int, const float *, float "
                "*)\"): no byte counters (expected dram__bytes.sum, dram__bytes_read.sum + "
                "dram__bytes_write.sum, lts__t_bytes.sum or l1tex__t_bytes.sum)"));
}

void TestNcuReader::readsCeilingsFromTheRooflineSection()
{
    const auto result = readNcuRooflineSection(
        fixture("ncu_section_roofline_chart_cublas_gemv.csv"), "section.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.machines.size(), std::size_t { 1 });
    const Hardware &h = result.machines.front();
    QCOMPARE(h.name, std::string("Nsight Compute roofline (device 0, CC 12.0)"));
    QCOMPARE(h.compute.size(), std::size_t { 2 });
    // "Theoretical Predicated-On FFMA Operations" "43,520" per cycle × "SM Frequency" 2.15 Ghz
    QCOMPARE(h.computeFor(Precision::FP32)->peak, 43520.0 * 2.15e9);
    // DFMA: "680" × 2.15 GHz
    QCOMPARE(h.computeFor(Precision::FP64)->peak, 680.0 * 2.15e9);
    // "Theoretical DRAM Bytes Accessible" 128 byte/cycle × "DRAM Frequency" 13.72 Ghz
    QCOMPARE(h.memory.size(), std::size_t { 1 });
    QCOMPARE(h.memory.front().level, MemoryLevel::DRAM);
    QCOMPARE(h.memory.front().bandwidth, 128.0 * 13.72e9);
}

void TestNcuReader::readsAchievedValuesOfTheRooflineSection()
{
    const auto result
        = readNcuCsv(fixture("ncu_section_roofline_chart_cublas_gemv.csv"), "section.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    // FP64 achieved is 0: only the FP32 point.
    QCOMPARE(result.points.size(), std::size_t { 1 });
    const KernelPoint &p = result.points.front();
    QVERIFY(p.name.ends_with(" (fp32 achieved)"));
    // (FFMA operations 158.12 + FADD 1.97 + FMUL 0 per cycle) × 2.15 GHz; DRAM 345.14 Gbyte/s
    const double rate = (158.12 + 1.97 + 0.0) * 2.15e9;
    QCOMPARE(*p.measuredRate, rate);
    QCOMPARE(*p.intensity, rate / 345.14e9);
    QVERIFY(p.bytes.empty());
    QCOMPARE(*p.precision, Precision::FP32);
}

void TestNcuReader::readsThePerKernelSummary_data()
{
    // tests/data/ncu/ncu_summary_per_kernel.csv, shaped like docs/FORMATS.md §1.5 (the header
    // and Occupancy row, hibagus's dram__bytes.sum and gpu__time_duration.avg values): one row
    // per kernel, launch shape and metric with Minimum, Maximum, Average.
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("invocations");
    QTest::addColumn<double>("ffma"); // Average of …ffma_pred_on.sum
    QTest::addColumn<double>("dram"); // Average of dram__bytes.sum, in bytes
    QTest::addColumn<double>("l2"); // Average of lts__t_bytes.sum; -1 when absent
    QTest::addColumn<double>("average"); // of the time metric, s
    QTest::addColumn<double>("minimum");
    QTest::addColumn<double>("maximum");
    const QString saxpy("unnamed>::saxpyKernel(float, const float *, float *, unsigned long)");
    QTest::newRow("saxpy, 14 launches, ns")
        << 0 << saxpy + " (block (256, 1, 1), grid (4096, 1, 1))" << 14.0 << 1048576.0 << 12582960.0
        << -1.0 << 7131.43e-9 << 6912e-9 << 7808e-9;
    QTest::newRow("saxpy, another grid, auto units (Mbyte, us)")
        << 1 << saxpy + " (block (256, 1, 1), grid (1024, 1, 1))" << 2.0 << 262144.0 << 3.15e6
        << -1.0 << 2.05e-6 << 2.02e-6 << 2.08e-6;
    QTest::newRow("gemm, gpu__time_duration.avg in nsecond")
        << 2 << "void gemm_kernel<128>(const float *, const float *, float *, int, int, int)" << 3.0
        << 8589934592.0 << 23990083863.04 << 68719651498.67 << 17490005.33e-9 << 17466880e-9
        << 17520128e-9;
}

void TestNcuReader::readsThePerKernelSummary()
{
    QFETCH(int, index);
    QFETCH(QString, name);
    QFETCH(double, invocations);
    QFETCH(double, ffma);
    QFETCH(double, dram);
    QFETCH(double, l2);
    QFETCH(double, average);
    QFETCH(double, minimum);
    QFETCH(double, maximum);
    const auto result = readNcuCsv(testData("ncu/ncu_summary_per_kernel.csv"), "summary.csv");
    QVERIFY2(result.diagnostics.empty(), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 3 });
    const KernelPoint &p = result.points[static_cast<std::size_t>(index)];
    QCOMPARE(QString::fromStdString(p.name), name);
    // The point is the kernel's total over its launches: Average × Invocations for FLOPs
    // (2·ffma per launch), bytes and time; the fastest and slowest launch scale the same way.
    QCOMPARE(p.flops, 2.0 * ffma * invocations);
    QCOMPARE(bytesAt(p, std::nullopt), dram * invocations);
    QCOMPARE(bytesAt(p, MemoryLevel::L2), l2 < 0 ? -1.0 : l2 * invocations);
    QVERIFY(test::close(*p.seconds, average * invocations));
    QVERIFY(test::close(*p.timeStatistics.min, minimum * invocations));
    QVERIFY(test::close(*p.timeStatistics.max, maximum * invocations));
    QVERIFY(!p.timeStatistics.median && !p.timeStatistics.stddev);
    QCOMPARE(*p.precision, Precision::FP32);
}

void TestNcuReader::readsNumbersWithADecimalComma()
{
    // docs/FORMATS.md §1.8: a European Windows locale writes "2.508.800" and "27.595.520" (dots
    // between thousands) and "65,77" (a decimal comma). The dotted values show the convention,
    // so the whole file is read with it, and a warning says so.
    const auto result = readNcuCsv(testData("ncu/ncu_details_decimal_comma.csv"), "comma.csv");
    QCOMPARE(test::joined(result.diagnostics),
        QString("comma.csv:2:191: warning: numbers are read with a decimal comma and '.' between "
                "thousands, as \"2.508.800\" is written"));
    QCOMPARE(result.points.size(), std::size_t { 1 });
    const KernelPoint &p = result.points.front();
    QCOMPARE(bytesAt(p, std::nullopt), 2508800.0); // "2.508.800" byte
    QCOMPARE(bytesAt(p, MemoryLevel::L2), 7340.03e3); // "7.340,03" Kbyte
    QCOMPARE(*p.seconds, 65.77e-6); // "65,77" us
    QCOMPARE(p.flops, 2.0 * 27595520.0); // 2 × "27.595.520" FFMA
    // Without the evidence "65,77" stays ambiguous (tests/data/bad/ncu_decimal_comma_value.csv);
    // a caller can also force the usual convention, and then the dotted values are refused.
    NcuOptions usual;
    usual.decimalComma = false;
    const auto forced
        = readNcuCsv(testData("ncu/ncu_details_decimal_comma.csv"), "comma.csv", usual);
    QVERIFY(forced.points.empty());
    QVERIFY(test::joined(forced.diagnostics)
                .contains("comma.csv:2:191: metric \"dram__bytes.sum\": \"2.508.800\" is not a "
                          "number\n"));
}

void TestNcuReader::readsTheRooflineRatesOfARawPage()
{
    // A raw page holding only the metrics of ncu's roofline (docs/FORMATS.md §1.4, §1.9
    // method 2): rates, no totals. FLOP/s = (add + mul + fma operations) per cycle elapsed × SM
    // cycles per second; the FFMA operations are the derived …ffma_pred_on_x2 metric (already
    // ×2), the DFMA ones 2 × dfma per cycle. FLOPs and bytes are rate × gpu__time_duration.
    const auto result = readNcuCsv(testData("ncu/ncu_raw_roofline_metrics.csv"), "raw.csv");
    QCOMPARE(result.points.size(), std::size_t { 1 });
    const KernelPoint &p = result.points.front();
    const double seconds = 2496000e-9;
    const double smsp = 1544392801.33;
    const double fp32 = (25.28 + 1.08 + 0.50) * smsp;
    const double fp64 = (2.0 * 0.25 + 0.0 + 0.0) * smsp;
    QCOMPARE(*p.seconds, seconds);
    QVERIFY(test::close(p.flops, (fp32 + fp64) * seconds));
    QCOMPARE(*p.precision, Precision::FP32);
    QVERIFY(test::close(bytesAt(p, std::nullopt), 55150962625.03 * seconds));
    QVERIFY(test::close(bytesAt(p, MemoryLevel::L2), 122495714750.21 * seconds));
    QCOMPARE(bytesAt(p, MemoryLevel::L1), -1.0);
    // ncu's ==ERROR== lines before the table are passed on; the failed launch (ID 1) is skipped.
    QCOMPARE(test::joined(result.diagnostics),
        QString(
            "raw.csv:2: warning: ncu reported: \"==ERROR== LaunchFailed\"\n"
            "raw.csv:4: warning: ncu reported: \"==ERROR== The application returned an error "
            "code (9).\"\n"
            "raw.csv:8: launch 1 (\"void calc_energy<256>(int, int, const float *, float *)\"): "
            "no byte counters (expected dram__bytes.sum, dram__bytes_read.sum + "
            "dram__bytes_write.sum, lts__t_bytes.sum or l1tex__t_bytes.sum)"));
}

void TestNcuReader::readsPeaksFromTheRawPage()
{
    // The same raw page as ceilings: peak per cycle × cycles per second (docs/FORMATS.md §1.9).
    const auto result
        = readNcuRooflineSection(testData("ncu/ncu_raw_roofline_metrics.csv"), "raw.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.machines.size(), std::size_t { 1 });
    const Hardware &h = result.machines.front();
    QCOMPARE(h.name, std::string("Nsight Compute peaks (device 0, CC 7.5)"));
    const double sm = 1559373442.07;
    // derived__sm__…ffma_pred_on_x2 "1,792" operations per cycle (= 2 × 896 FFMA).
    QCOMPARE(h.computeFor(Precision::FP32)->peak, 1792.0 * sm);
    QCOMPARE(h.computeFor(Precision::FP64)->peak, 2.0 * 28.0 * sm); // 2 × dfma peak_sustained
    QCOMPARE(h.memoryFor(MemoryLevel::DRAM)->bandwidth, 32.0 * 4000794701.52);
    QCOMPARE(h.memoryFor(MemoryLevel::L2)->bandwidth, 512.0 * 1559373442.07);
    QVERIFY(!h.memoryFor(MemoryLevel::L1));
    // A details page without peak metrics gives points, not ceilings.
    const auto none = readNcuRooflineSection(testData("ncu/ncu_details_nersc_v100.csv"), "v.csv");
    QVERIFY(none.machines.empty());
    QVERIFY(test::joined(none.diagnostics)
                .startsWith("v.csv:1: no peak metrics in this Nsight Compute file: it gives "
                            "points, not ceilings"));
}

void TestNcuReader::placesRatesWithoutATimeByIntensity()
{
    // Roofline rates and no duration metric: no counts to give, so the point is known by its
    // rate and its intensity against DRAM (FLOP/s ÷ dram__bytes.sum.per_second).
    const std::string text
        = "ID,Kernel Name,Metric Name,Metric Unit,Metric Value\n"
          "0,k,smsp__cycles_elapsed.avg.per_second,Ghz,1.5\n"
          "0,k,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed,inst/cycle,"
          "100\n"
          "0,k,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed,inst/cycle,"
          "10\n"
          "0,k,dram__bytes.sum.per_second,Gbyte/s,300\n";
    const auto result = readNcuCsv(text, "rates.csv");
    QVERIFY2(result.diagnostics.empty(), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 1 });
    const KernelPoint &p = result.points.front();
    const double rate = (2.0 * 100 + 10) * 1.5e9;
    QCOMPARE(*p.measuredRate, rate);
    QCOMPARE(*p.intensity, rate / 300e9);
    QVERIFY(p.bytes.empty() && !p.seconds);
    QCOMPARE(p.flops, 0.0);
}

void TestNcuReader::sumsTheLaunchesOfAKernel()
{
    // docs/FORMATS.md §1.9, §7.5: "aggregated by kernel name (sum FLOP, bytes and time)". The two
    // launches of ComputeCurrent in the NERSC excerpt become one point.
    const auto each = readNcuCsv(testData("ncu/ncu_details_nersc_v100.csv"), "v100.csv");
    NcuOptions options;
    options.sumLaunchesOfAKernel = true;
    const auto result = readNcuCsv(testData("ncu/ncu_details_nersc_v100.csv"), "v100.csv", options);
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(test::joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 1 });
    const KernelPoint &a = each.points[0];
    const KernelPoint &b = each.points[1];
    const KernelPoint &p = result.points.front();
    QCOMPARE(p.name, std::string("ComputeCurrent"));
    QCOMPARE(p.source.line, 2);
    QCOMPARE(p.flops, a.flops + b.flops);
    QCOMPARE(bytesAt(p, std::nullopt), 556472832.0 + 556472000.0); // dram__bytes.sum
    QCOMPARE(bytesAt(p, MemoryLevel::L2), 642768064.0 + 642768000.0); // lts__t_bytes.sum
    QCOMPARE(bytesAt(p, MemoryLevel::L1), 1501159616.0 + 1501159000.0); // l1tex__t_bytes.sum
    const double ta = 11382720e-9; // Duration, nsecond
    const double tb = 14915000.0 / 1310393221.0; // cycles / cycles per second
    QCOMPARE(*p.seconds, ta + tb);
    // The spread, scaled to the total of two launches.
    QCOMPARE(*p.timeStatistics.min, std::min(ta, tb) * 2);
    QCOMPARE(*p.timeStatistics.max, std::max(ta, tb) * 2);
    QCOMPARE(*p.timeStatistics.median, (ta + tb) / 2 * 2);
    const double mean = (ta + tb) / 2;
    const double sampleStddev
        = std::sqrt(((ta - mean) * (ta - mean) + (tb - mean) * (tb - mean)) / (2 - 1));
    QVERIFY(test::close(*p.timeStatistics.stddev, sampleStddev * std::sqrt(2.0)));
}

void TestNcuReader::countsHalfPrecisionFmaAsConfigured_data()
{
    QTest::addColumn<double>("flopsPerFma");
    QTest::newRow("NERSC: 2 per hfma") << 2.0;
    QTest::newRow("ncu's roofline: 4 per packed HFMA2") << 4.0;
}

void TestNcuReader::countsHalfPrecisionFmaAsConfigured()
{
    QFETCH(double, flopsPerFma);
    const std::string text = "ID,Kernel Name,Metric Name,Metric Unit,Metric Value\n"
                             "0,h,sm__sass_thread_inst_executed_op_hfma_pred_on.sum,inst,1000\n"
                             "0,h,sm__sass_thread_inst_executed_op_hadd_pred_on.sum,inst,30\n"
                             "0,h,sm__sass_thread_inst_executed_op_ffma_pred_on.sum,inst,7\n"
                             "0,h,dram__bytes.sum,byte,4096\n";
    NcuOptions options;
    options.halfFlopsPerFma = flopsPerFma;
    const auto result = readNcuCsv(text, "half.csv", options);
    QCOMPARE(result.points.size(), std::size_t { 1 });
    // flopsPerFma·hfma + hadd, plus 2·ffma at single precision.
    QCOMPARE(result.points.front().flops, flopsPerFma * 1000 + 30 + 2.0 * 7);
    QCOMPARE(*result.points.front().precision, Precision::FP16);
}

void TestNcuReader::reportsBrokenFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    QTest::newRow("rule rows only")
        << "ncu_rule_rows_only.csv"
        << "ncu_rule_rows_only.csv:1: only rule rows (advice text) and no metric values after the "
           "header (expected rows with a Metric Name)";
    QTest::newRow("raw page without its units row")
        << "ncu_raw_without_units_row.csv"
        << "ncu_raw_without_units_row.csv:2:1: the line after the Nsight Compute raw-page header "
           "is not its units row (expected empty units under \"ID\", \"Kernel Name\", ...)";
    QTest::newRow("decimal comma")
        << "ncu_decimal_comma_value.csv"
        << "ncu_decimal_comma_value.csv:2:137: metric \"dram__bytes.sum\": \"65,77\" is not a "
           "number: a comma that does not group thousands is ambiguous (decimal comma?)\n"
           "ncu_decimal_comma_value.csv:2: launch 0 (\"axpy\"): no byte counters (expected "
           "dram__bytes.sum, dram__bytes_read.sum + dram__bytes_write.sum, lts__t_bytes.sum or "
           "l1tex__t_bytes.sum)";
    QTest::newRow("unknown unit")
        << "ncu_unknown_unit.csv"
        << "ncu_unknown_unit.csv:2:136: metric \"dram__bytes.sum\": unknown unit \"Mbit\" "
           "(expected an ncu unit such as byte, Mbyte, ns, usecond, Ghz)\n"
           "ncu_unknown_unit.csv:2: launch 0 (\"axpy\"): no byte counters (expected "
           "dram__bytes.sum, dram__bytes_read.sum + dram__bytes_write.sum, lts__t_bytes.sum or "
           "l1tex__t_bytes.sum)";
    // Found by fuzzing: a launch without a name, a value that overflows in its unit.
    QTest::newRow("empty kernel name")
        << "ncu_empty_kernel_name.csv"
        << "ncu_empty_kernel_name.csv:2: launch 0: empty kernel name (expected the Kernel Name "
           "column)";
    QTest::newRow("overflowing value")
        << "ncu_overflowing_value.csv"
        << "ncu_overflowing_value.csv:2:137: metric \"dram__bytes.sum\": \"1e300\" Tbyte is out "
           "of range (expected a finite value)\n"
           "ncu_overflowing_value.csv:2: launch 0 (\"axpy\"): no byte counters (expected "
           "dram__bytes.sum, dram__bytes_read.sum + dram__bytes_write.sum, lts__t_bytes.sum or "
           "l1tex__t_bytes.sum)";
    // docs/FORMATS.md §1.2: a file holding only ncu's errors.
    QTest::newRow("only ncu's error lines")
        << "ncu_errors_only.csv"
        << "ncu_errors_only.csv:1: ncu wrote no table, only its own messages: \"==ERROR== Option "
           "'--section .*SpeedOfLight.*' did not match any section.\" (expected a header line "
           "starting \"ID\",... or \"Process ID\",... after them)";
    QTest::newRow("summary with 0 invocations")
        << "ncu_summary_zero_invocations.csv"
        << "ncu_summary_zero_invocations.csv:2:166: column \"Invocations\": \"0\" is not a "
           "number of launches (expected a whole number, 1 or more)";
}

void TestNcuReader::reportsBrokenFiles()
{
    QFETCH(QString, file);
    QFETCH(QString, message);
    const auto result = readNcuCsv(testData("bad/" + file.toStdString()), file.toStdString());
    QVERIFY(result.points.empty());
    QCOMPARE(test::joined(result.diagnostics), message);
}

QTEST_GUILESS_MAIN(TestNcuReader)
#include "tst_ncureader.moc"
