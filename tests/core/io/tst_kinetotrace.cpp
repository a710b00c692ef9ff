// PyTorch profiler (Kineto) traces: linking kernels to their launch and operator, points summed
// per (operator, shapes, kernel), the unplaced kernels and their reasons, the real fixtures'
// placed share and sums, bad input, detection and the machine.
#include "core/io/format_registry.h"
#include "core/io/formats/kineto_trace.h"
#include "core/io/inflate.h"
#include "core/io/readers.h"
#include "core/report/report_stream.h"
#include "core/report/trace_report.h"
#include "tests/support/reader_test_support.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace ridgepoint;
using ridgepoint::test::joined;
using ridgepoint::test::readTestData;

class TestKinetoTrace : public QObject
{
    Q_OBJECT

private slots:
    void readsTheExample();
    void innermostOperatorOnTheLaunchingThreadWins();
    void readsEventsInAnyOrder();
    void sharesAnOperatorsCostAmongItsKernels();
    void namesWhyKernelsAreNotPlaced_data();
    void namesWhyKernelsAreNotPlaced();
    void refusesBadInput_data();
    void refusesBadInput();
    void leavesOutEventsOfTheWrongTypes();
    void stopsAGzipBomb();
    void readsTenMillionEvents();
    void isNeverTakenForAnotherJson();
    void takesTheMachineFromItsDevice();
    void analysesEachFixture_data();
    void analysesEachFixture();
    void writesTheTraceInReports();
};

namespace {

const char *const kDevice = R"("deviceProperties": [{"id": 0, "name": "NVIDIA A100-PG509-200",
    "totalGlobalMem": 42505273344, "numSms": 108}])";

QString kernel(const QString &name, int correlation, double dur, int stream = 7)
{
    return QString(R"({"ph": "X", "cat": "kernel", "name": "%1", "pid": 0, "tid": %4, "ts": 1,
        "dur": %3, "args": {"stream": %4, "correlation": %2}})")
        .arg(name)
        .arg(correlation)
        .arg(dur)
        .arg(stream);
}

QString launch(int correlation, double ts, int tid = 10, const QString &name = "cudaLaunchKernel")
{
    return QString(R"({"ph": "X", "cat": "cuda_runtime", "name": "%4", "pid": 10, "tid": %3,
        "ts": %2, "dur": 2, "args": {"correlation": %1}})")
        .arg(correlation)
        .arg(ts)
        .arg(tid)
        .arg(name);
}

// An operator; `shapes` is its args' text ("" for none recorded).
QString op(const QString &name, double ts, double dur, const QString &shapes, int tid = 10)
{
    return QString(R"({"ph": "X", "cat": "cpu_op", "name": "%1", "pid": 10, "tid": %5,
        "ts": %2, "dur": %3, "args": {%4}})")
        .arg(name)
        .arg(ts)
        .arg(dur)
        .arg(shapes)
        .arg(tid);
}

const QString kMm = R"("Input Dims": [[64, 32], [32, 16]], "Input type": ["float", "float"])";
const QString kRelu = R"("Input Dims": [[4, 16]], "Input type": ["float"])";
constexpr double kMmFlops = 2.0 * 64 * 16 * 32;

std::string traceOf(const QStringList &events)
{
    return QString("{\"schemaVersion\": 1, %1, \"traceEvents\": [\n%2\n]}")
        .arg(kDevice, events.join(",\n"))
        .toStdString();
}

PointsReadResult readTrace(const std::string &text)
{
    return readKinetoTrace(text, "t.json");
}

const UnplacedKernels *unplaced(const PointsReadResult &read, const std::string &name)
{
    const auto &list = read.trace->unplaced;
    const auto at = std::find_if(
        list.begin(), list.end(), [&](const UnplacedKernels &u) { return u.name == name; });
    return at == list.end() ? nullptr : &*at;
}

} // namespace

void TestKinetoTrace::readsTheExample()
{
    const auto read = readPointsFile(readTestData("traces/small/example.json"), "example.json");
    QCOMPARE(*read.format, FileFormat::KinetoTrace);
    const auto &points = read.points.points;
    QVERIFY2(read.points.diagnostics.empty(), qPrintable(joined(read.points.diagnostics)));
    QCOMPARE(points.size(), std::size_t { 2 });
    // addmm inside linear: the innermost operator, bias [16] + [4, 8] × [8, 16].
    QCOMPARE(points[0].name, std::string("gemm_kernel"));
    QCOMPARE(points[0].group, std::string("aten::addmm(float[16], float[4, 8], float[8, 16])"));
    QCOMPARE(points[0].flops, 2.0 * 4 * 16 * 8 + 4 * 16);
    QCOMPARE(points[0].bytes.front().bytes, 4.0 * (16 + 32 + 128 + 64));
    QCOMPARE(*points[0].seconds, 10e-6);
    QCOMPARE(*points[0].precision, Precision::FP32);
    QCOMPARE(points[0].source.line, 7);
    // The relu kernel ran on another stream.
    QCOMPARE(points[1].name, std::string("relu_kernel"));
    QCOMPARE(points[1].flops, 64.0);
    const TraceSummary &trace = *read.points.trace;
    QCOMPARE(trace.kernels, std::size_t { 4 });
    QVERIFY(std::abs(trace.gpuSeconds - 22e-6) < 1e-15);
    QVERIFY(std::abs(trace.placedSeconds - 14e-6) < 1e-15);
    QCOMPARE(trace.unplaced.size(), std::size_t { 2 });
    QCOMPARE(trace.unplaced[0].name, std::string("replayed_kernel")); // largest first
    QVERIFY(trace.unplaced[0].reason.starts_with("no launch in the trace"));
    QCOMPARE(trace.unplaced[1].reason, std::string("operator aten::nonzero has no model yet"));
    QCOMPARE(*trace.device, std::string("NVIDIA A100-PG509-200"));
    QCOMPARE(*trace.multiprocessors, 108);
}

void TestKinetoTrace::innermostOperatorOnTheLaunchingThreadWins()
{
    // Thread 10: mm inside matmul inside linear; thread 11 at the same time: relu. Each launch
    // belongs to the innermost operator of its own thread.
    const auto read
        = readTrace(traceOf({ op("aten::linear", 100, 100, kMm), op("aten::matmul", 105, 50, kMm),
            op("aten::mm", 110, 20, kMm), op("aten::relu", 100, 100, kRelu, 11), launch(1, 115),
            launch(2, 115, 11), kernel("gemm", 1, 3), kernel("relu", 2, 1, 8) }));
    QVERIFY2(read.diagnostics.empty(), qPrintable(joined(read.diagnostics)));
    QCOMPARE(read.points.size(), std::size_t { 2 });
    QVERIFY(read.points[0].group.starts_with("aten::mm("));
    QCOMPARE(read.points[0].flops, kMmFlops);
    QVERIFY(read.points[1].group.starts_with("aten::relu("));
    // A launch after the inner operators ended belongs to the outer one.
    const auto later = readTrace(traceOf({ op("aten::mul", 100, 100, kRelu),
        op("aten::relu", 105, 10, kRelu), launch(1, 150), kernel("mul", 1, 3) }));
    QCOMPARE(later.points.size(), std::size_t { 1 });
    QVERIFY(later.points[0].group.starts_with("aten::mul("));
}

void TestKinetoTrace::readsEventsInAnyOrder()
{
    QStringList events { op("aten::linear", 100, 100, kMm), op("aten::mm", 110, 20, kMm),
        launch(1, 115), kernel("gemm", 1, 3), op("aten::relu", 300, 10, kRelu), launch(2, 302),
        kernel("relu", 2, 1) };
    const auto inOrder = readTrace(traceOf(events));
    std::reverse(events.begin(), events.end());
    const auto reversed = readTrace(traceOf(events));
    QCOMPARE(reversed.points.size(), inOrder.points.size());
    for (const KernelPoint &point : inOrder.points) {
        const auto same = std::find_if(reversed.points.begin(), reversed.points.end(),
            [&](const KernelPoint &p) { return p.name == point.name; });
        QVERIFY(same != reversed.points.end());
        QCOMPARE(same->group, point.group);
        QCOMPARE(same->flops, point.flops);
    }
}

void TestKinetoTrace::sharesAnOperatorsCostAmongItsKernels()
{
    // One mm call, two kernels (3 µs and 1 µs), twice: the FLOPs split 3 : 1; launches add up.
    const auto read = readTrace(traceOf({ op("aten::mm", 100, 20, kMm), launch(1, 101),
        launch(2, 105), kernel("gemm", 1, 3), kernel("reduce", 2, 1), op("aten::mm", 200, 20, kMm),
        launch(3, 201), launch(4, 205), kernel("gemm", 3, 3), kernel("reduce", 4, 1) }));
    QCOMPARE(read.points.size(), std::size_t { 2 });
    QCOMPARE(read.points[0].flops, 2 * kMmFlops * 0.75);
    QCOMPARE(read.points[1].flops, 2 * kMmFlops * 0.25);
    QVERIFY(std::abs(*read.points[0].seconds - 6e-6) < 1e-15);
}

void TestKinetoTrace::namesWhyKernelsAreNotPlaced_data()
{
    QTest::addColumn<QStringList>("events");
    QTest::addColumn<QString>("reason");
    const QString k = kernel("k", 1, 5);
    QTest::newRow("no launch") << QStringList { op("aten::mm", 100, 20, kMm), k }
                               << "no launch in the trace";
    QTest::newRow("repeated correlation")
        << QStringList { op("aten::mm", 100, 20, kMm), launch(1, 101), launch(1, 105), k }
        << "its correlation id 1 is given to several launches";
    QTest::newRow("no operator") << QStringList { op("aten::mm", 100, 20, kMm), launch(1, 150), k }
                                 << "its launch lies inside no CPU operator";
    QTest::newRow("other thread") << QStringList { op("aten::mm", 100, 20, kMm, 11), launch(1, 105),
        k } << "its launch lies inside no CPU operator";
    QTest::newRow("no shapes") << QStringList { op("aten::mm", 100, 20, ""), launch(1, 105), k }
                               << "no shapes recorded: profile with record_shapes=True";
    QTest::newRow("compiled region") << QStringList { op("CompiledFunction", 100, 20, kMm),
        launch(1, 105), k } << "inside a compiled region";
    QTest::newRow("compiled graph") << QStringList { op("CompiledFunctionBackward", 100, 20, ""),
        launch(1, 105, 10, "cudaGraphLaunch"), k }
                                    << "inside a compiled region";
    QTest::newRow("graph") << QStringList { op("aten::mm", 100, 20, kMm),
        launch(1, 105, 10, "cudaGraphLaunch"), k }
                           << "launched by a CUDA graph";
    QTest::newRow("collective") << QStringList { op("record_param_comms", 100, 20, ""),
        launch(1, 105), k } << "collective (record_param_comms): its message is not recorded";
    QTest::newRow("no model") << QStringList { op("aten::nonzero", 100, 20,
                                                   R"("Input Dims": [[64], [], []],
            "Input type": ["float", "Scalar", "Scalar"])"),
        launch(1, 105), k } << "operator aten::nonzero has no model yet";
    QTest::newRow("wrong shapes") << QStringList {
        op("aten::mm", 100, 20,
            R"("Input Dims": [[2, 3], [4, 5]], "Input type": ["float", "float"])"),
        launch(1, 105), k
    } << "aten::mm: shapes [2, 3] and [4, 5] do not multiply";
    QTest::newRow("tensor list size") << QStringList { op("aten::_foreach_add_", 100, 20,
                                                           R"("Input Dims": [[[4, "x"]], [[4, 2]]],
            "Input type": ["TensorList", "TensorList"])"),
        launch(1, 105), k } << "aten::_foreach_add_: a size in its tensor list is not a whole";
    QTest::newRow("copy") << QStringList { op("aten::copy_", 100, 20,
                                               R"("Input Dims": [[8], [8], []],
            "Input type": ["float", "float", "Scalar"])"),
        launch(1, 105), k }
                          << "moves data only (0 FLOPs)";
}

void TestKinetoTrace::namesWhyKernelsAreNotPlaced()
{
    QFETCH(QStringList, events);
    QFETCH(QString, reason);
    // A placed kernel beside it, so the file has a point.
    events << op("aten::relu", 500, 10, kRelu) << launch(9, 505) << kernel("relu", 9, 2);
    const auto read = readTrace(traceOf(events));
    QVERIFY2(read.diagnostics.empty(), qPrintable(joined(read.diagnostics)));
    QCOMPARE(read.points.size(), std::size_t { 1 });
    const UnplacedKernels *k = unplaced(read, "k");
    QVERIFY(k);
    QVERIFY2(QString::fromStdString(k->reason).startsWith(reason), k->reason.c_str());
    QCOMPARE(k->launches, std::size_t { 1 });
    QVERIFY(std::abs(k->seconds - 5e-6) < 1e-15);
    QVERIFY(std::abs(read.trace->gpuSeconds - 7e-6) < 1e-15);
}

void TestKinetoTrace::refusesBadInput_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const std::string gz = readTestData("traces/mi250_minitoy_train.json.gz");
    QTest::newRow("truncated gzip") << QByteArray::fromStdString(gz.substr(0, gz.size() / 2))
                                    << "t.json: gzip file: the compressed data ends early";
    QTest::newRow("cpu only") << QByteArray::fromStdString(
        traceOf({ op("aten::mm", 100, 20, kMm), launch(1, 105) }))
                              << "t.json: no GPU kernels in this trace (1 CPU operators: a "
                                 "CPU-only profile";
    const std::string cut = traceOf({ op("aten::mm", 100, 20, kMm) });
    QTest::newRow("cut JSON") << QByteArray::fromStdString(cut.substr(0, cut.size() - 20))
                              << "t.json:4:93: invalid JSON: syntax error";
    QTest::newRow("nested too deep")
        << QByteArray(R"({"schemaVersion": 1, "traceEvents": [)") + QByteArray(600, '[')
        << "t.json:1:548: invalid JSON: nested deeper than 512 levels (expected a whole PyTorch "
           "profiler trace)";
    QTest::newRow("nothing placed")
        << QByteArray::fromStdString(traceOf({ kernel("k", 1, 5) }))
        << "t.json: none of the 1 kernels could be placed; the most time went to k (no launch";
}

void TestKinetoTrace::refusesBadInput()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    const auto read = readPointsFile(bytes.toStdString(), "t.json");
    QVERIFY(read.points.points.empty());
    QVERIFY2(joined(read.points.diagnostics).contains(message),
        qPrintable(joined(read.points.diagnostics)));
}

void TestKinetoTrace::leavesOutEventsOfTheWrongTypes()
{
    const std::string text
        = traceOf({ op("aten::mm", 100, 20, kMm), launch(1, 101), kernel("k", 1, 3),
            R"({"ph": "X", "cat": "kernel", "name": "bad", "ts": 1, "dur": "5",
            "args": {"correlation": 2}})",
            R"({"ph": "X", "cat": "kernel", "name": "badid", "ts": 1, "dur": 5,
            "args": {"correlation": "x"}})",
            R"({"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 10, "tid": 10, "ts": 1,
            "dur": 5, "args": {"Input Dims": 7}})" });
    const auto read = readTrace(text);
    QCOMPARE(read.points.size(), std::size_t { 1 });
    const QString messages = joined(read.diagnostics);
    QVERIFY2(messages.contains(
                 "t.json:9:1: kernel event \"bad\": \"dur\" is a string (expected a number of "
                 "microseconds); left out"),
        qPrintable(messages));
    QVERIFY2(messages.contains("kernel event \"badid\": \"args.correlation\" is a string"),
        qPrintable(messages));
    QVERIFY2(messages.contains("cpu_op event \"aten::relu\": \"args.Input Dims\" is a number"),
        qPrintable(messages));
    QCOMPARE(read.trace->kernels, std::size_t { 1 });
}

// A gzip trace whose few kilobytes inflate to megabytes of blanks: inflating stops once the output
// passes the cap (the readers' is kMaxInputBytes, 1 GiB; 1 MiB here, to keep the test small).
void TestKinetoTrace::stopsAGzipBomb()
{
    const QByteArray plain = QByteArray::fromStdString(traceOf({ kernel("k", 1, 5) }))
                                 .insert(1, QByteArray(3 << 20, ' '));
    // gzip (RFC 1952): a 10-byte header, the raw deflate data (qCompress's zlib stream without
    // its 4-byte length, 2-byte header and 4-byte check), a CRC-32 (left 0: never reached) and
    // the length.
    const QByteArray zlib = qCompress(plain, 9).mid(4);
    QByteArray gz("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10);
    gz += zlib.mid(2, zlib.size() - 6);
    gz += QByteArray(4, '\0');
    for (int i = 0; i < 4; ++i)
        gz += static_cast<char>((plain.size() >> (8 * i)) & 0xFF);
    QVERIFY(gz.size() < plain.size() / 100);
    const auto inflated = gunzipCapped(gz.toStdString(), std::size_t { 1 } << 20);
    QVERIFY(!inflated);
    QVERIFY2(QString::fromStdString(inflated.error()).contains("more than 1048576 bytes"),
        inflated.error().c_str());
}

// Ten million events, generated: 10,000 mm calls each with its launch and kernel, the rest events
// the reader skips (a real trace's annotations, flows and counters, here as empty objects to keep
// the text at 33 MB). Every kernel is linked and summed into one point.
void TestKinetoTrace::readsTenMillionEvents()
{
    constexpr int kCalls = 10'000;
    constexpr std::size_t kEvents = 10'000'000;
    std::string text = "{\"schemaVersion\": 1, \"traceEvents\": [\n";
    text.reserve(kEvents * 3 + kCalls * 600);
    for (int i = 0; i < kCalls; ++i) {
        const double ts = 100.0 * i;
        text += op("aten::mm", ts, 20, kMm).toStdString() + ",\n"
            + launch(i + 1, ts + 5).toStdString() + ",\n" + kernel("gemm", i + 1, 3).toStdString()
            + ",\n";
    }
    for (std::size_t i = 3 * kCalls; i + 1 < kEvents; ++i)
        text += "{},";
    text += "{}]}";
    const auto read = readTrace(text);
    QVERIFY2(read.diagnostics.empty(), qPrintable(joined(read.diagnostics)));
    QCOMPARE(read.trace->kernels, std::size_t { kCalls });
    QCOMPARE(read.points.size(), std::size_t { 1 });
    QCOMPARE(read.trace->points.front().launches, std::size_t { kCalls });
    // 10,000 × 2·64·16·32 FLOPs and 10,000 × 3 µs; nothing left unplaced.
    QCOMPARE(read.points.front().flops, kCalls * kMmFlops);
    QVERIFY(std::abs(*read.points.front().seconds - 0.03) < 1e-12);
    QVERIFY(std::abs(read.trace->gpuSeconds - 0.03) < 1e-12);
    QVERIFY(read.trace->unplaced.empty());
}

void TestKinetoTrace::isNeverTakenForAnotherJson()
{
    const std::string text = traceOf({ kernel("k", 1, 5) });
    QCOMPARE(*detectFileFormat(text), FileFormat::KinetoTrace);
    // schemaVersion alone, and the gzip of a trace.
    QCOMPARE(
        *detectFileFormat(R"({"schemaVersion": 1, "traceEvents": []})"), FileFormat::KinetoTrace);
    QCOMPARE(*detectFileFormat(readTestData("traces/diff_control_a100.json.gz")),
        FileFormat::KinetoTrace);
    // As a machine file (--hardware trace.json): the device's preset, not a hardware-JSON error.
    const auto machine = readHardwareFile(text, "t.json");
    QCOMPARE(*machine.format, FileFormat::KinetoTrace);
    QVERIFY2(!machine.hardware.machines.empty(), qPrintable(joined(machine.hardware.diagnostics)));
    QCOMPARE(machine.hardware.machines.front().name, std::string("NVIDIA A100 40GB"));
    QVERIFY(formatEntry(FileFormat::KinetoTrace).priority
        < formatEntry(FileFormat::HardwareJson).priority);
    QVERIFY(formatEntry(FileFormat::KinetoTrace).priority
        < formatEntry(FileFormat::PointsJson).priority);
}

void TestKinetoTrace::takesTheMachineFromItsDevice()
{
    TraceSummary trace;
    QVERIFY(traceMachine(trace).error().find("no deviceProperties") != std::string::npos);
    // The reason alone: the command line and the window each say how to give the machine.
    QVERIFY(traceMachine(trace).error().find("--hardware") == std::string::npos);
    trace.device = "AMD Radeon Graphics";
    QVERIFY(traceMachine(trace).error().find("\"AMD Radeon Graphics\" is not a preset")
        != std::string::npos);
    // A name no preset has: the one GPU preset of its vendor with its compute units, if one.
    trace.multiprocessors = 104; // an MI250's die
    const auto gcd = traceMachine(trace);
    QVERIFY(gcd);
    QCOMPARE(gcd->name, std::string("AMD Instinct MI250 (one GCD)"));
    QVERIFY2(gcd->notes.starts_with("The trace's device: AMD Radeon Graphics, 104 CUs (no preset "
                                    "has its name; the one with its CUs)."),
        gcd->notes.c_str());
    trace.multiprocessors = 110; // an MI250X's die
    QCOMPARE(traceMachine(trace)->name, std::string("AMD Instinct MI250X (one GCD)"));
    trace.multiprocessors = 112; // no preset of that count
    QVERIFY(!traceMachine(trace));
    // Named as the package (newer ROCm), counted as one die: the die's preset.
    trace.device = "AMD Instinct MI250X";
    trace.multiprocessors = 110;
    const auto die = traceMachine(trace);
    QVERIFY(die);
    QCOMPARE(die->name, std::string("AMD Instinct MI250X (one GCD)"));
    QVERIFY2(die->notes.starts_with("The trace's device: AMD Instinct MI250X, 110 CUs (its name is "
                                    "the AMD Instinct MI250X preset's, which counts 220 CUs; the "
                                    "preset with its CUs)."),
        die->notes.c_str());
    trace.multiprocessors = 220; // the package's count: the name's preset, silently
    QCOMPARE(traceMachine(trace)->name, std::string("AMD Instinct MI250X"));
    trace.device = "AMD Instinct MI300X";
    trace.multiprocessors = 38; // one XCD of a partitioned MI300X: no preset, said in the notes
    const auto part = traceMachine(trace);
    QVERIFY(part);
    QCOMPARE(part->name, std::string("AMD Instinct MI300X"));
    QVERIFY2(part->notes.find("(the preset counts 304 CUs: a partition, or one die of the "
                              "package? The roofs are the preset's)")
            != std::string::npos,
        part->notes.c_str());
    trace.device = "AMD Radeon Graphics";
    trace.device = "NVIDIA Prototype X";
    trace.multiprocessors = 108; // the two A100 presets: the count does not tell them apart
    QVERIFY(!traceMachine(trace));
    trace.multiprocessors = 104; // the AMD die's count, but not the vendor's
    QVERIFY(!traceMachine(trace));
    trace.multiprocessors.reset();
    trace.device = "Tesla V100-SXM2-16GB";
    trace.multiprocessors = 80;
    const auto v100 = traceMachine(trace);
    QVERIFY(v100);
    QCOMPARE(v100->name, std::string("NVIDIA V100"));
    QVERIFY(v100->notes.starts_with("The trace's device: Tesla V100-SXM2-16GB, 80 SMs"));
}

void TestKinetoTrace::analysesEachFixture_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("placedFloor"); // share of GPU time, measured and rounded down
    QTest::addColumn<QString>("largestReason");
    QTest::newRow("A100") << "diff_control_a100.json.gz" << 0.34 << "collective";
    QTest::newRow("V100") << "diff_test_v100.json.gz" << 0.072 << "collective";
    QTest::newRow("MI250") << "mi250_minitoy_train.json.gz" << 0.94 << "moves data only";
    QTest::newRow("NCCL") << "nccl_allreduce.json.gz" << 0.28 << "no shapes recorded";
}

void TestKinetoTrace::analysesEachFixture()
{
    QFETCH(QString, file);
    QFETCH(double, placedFloor);
    QFETCH(QString, largestReason);
    const auto read = readPointsFile(readTestData("traces/" + file.toStdString()), "f");
    QCOMPARE(*read.format, FileFormat::KinetoTrace);
    const TraceSummary &trace = *read.points.trace;
    QVERIFY(trace.gpuSeconds > 0.0);
    QVERIFY2(trace.placedSeconds >= placedFloor * trace.gpuSeconds,
        qPrintable(QString::number(trace.placedSeconds / trace.gpuSeconds)));
    double points = 0.0;
    for (const KernelPoint &point : read.points.points)
        points += *point.seconds;
    double unplacedSeconds = 0.0;
    for (const UnplacedKernels &u : trace.unplaced)
        unplacedSeconds += u.seconds;
    QVERIFY(std::abs(points - trace.placedSeconds) <= 1e-3 * trace.gpuSeconds);
    QVERIFY(std::abs(trace.placedSeconds + unplacedSeconds - trace.gpuSeconds)
        <= 1e-3 * trace.gpuSeconds);
    QVERIFY2(QString::fromStdString(trace.unplaced.front().reason).startsWith(largestReason),
        trace.unplaced.front().reason.c_str());
}

void TestKinetoTrace::writesTheTraceInReports()
{
    TraceSummary trace;
    trace.gpuSeconds = 0.010;
    trace.placedSeconds = 0.004;
    trace.kernels = 9;
    for (int i = 0; i < 7; ++i)
        trace.unplaced.push_back({ "k" + std::to_string(i), 0.001 - i * 1e-4, 1, "why" });
    QCOMPARE(traceSummaryLine(trace),
        std::string("placed 40.0 % of 10 ms of GPU time (9 kernels); not placed: k0 1 ms (why), "
                    "k1 900 us (why), k2 800 us (why), k3 700 us (why), k4 600 us (why), and 2 "
                    "more"));
    std::string text;
    ReportWriterOptions options;
    options.trace = &trace;
    auto writer = makeReportWriter(
        ReportFormat::Json, makeSimpleMachine(1e12, 1e11),
        [&](std::string_view piece) { text += piece; }, options);
    writer->finish();
    QVERIFY2(QString::fromStdString(text).contains(
                 "\"trace\": {\n    \"gpu_seconds\": 0.01,\n    \"placed_seconds\": 0.004"),
        text.c_str());
    QVERIFY(text.find("\"name\": \"k6\"") != std::string::npos);
    // Markdown: the share in a sentence before the points, the unplaced kernels in a table after
    // them (k0: 1 ms of 10 ms, 10.0 %); CSV: a row per unplaced kernel, its time in "time [s]".
    const auto written = [&](ReportFormat format) {
        std::string out;
        auto report = makeReportWriter(
            format, makeSimpleMachine(1e12, 1e11), [&](std::string_view piece) { out += piece; },
            options);
        report->finish();
        return QString::fromStdString(out);
    };
    const QString markdown = written(ReportFormat::Markdown);
    QVERIFY2(markdown.startsWith("Placed **40.0 %** of 10 ms of GPU time (9 kernels); "),
        qPrintable(markdown));
    QVERIFY2(markdown.contains("| k0 | 1 ms | 10.0 % | 1 | why |\n"), qPrintable(markdown));
    QVERIFY(markdown.contains("| k6 | 400 us | 4.0 % | 1 | why |\n"));
    const QString csv = written(ReportFormat::Csv);
    QVERIFY2(csv.contains("k0,,,,,,,0.001,,,,,not placed,,,,,why (1 launch)\r\n"), qPrintable(csv));
}

QTEST_APPLESS_MAIN(TestKinetoTrace)
#include "tst_kinetotrace.moc"
