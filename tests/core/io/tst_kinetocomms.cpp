// Collectives of a PyTorch profiler trace (docs/MODEL.md §11.6): the bytes one rank sends over
// the link per algorithm and the FLOPs, against counts made by hand in each row; the link level
// within and beyond a node; the refusals; and collectives placed in small hand-made traces, from
// the kernel's own args and from record_param_comms'.
#include "core/analysis/analysis.h"
#include "core/io/formats/kineto_comms.h"
#include "core/io/formats/kineto_trace.h"
#include "tests/support/reader_test_support.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace ridgepoint;
using namespace ridgepoint::kineto;

class TestKinetoComms : public QObject
{
    Q_OBJECT

private slots:
    void countsCollectivesByHand_data();
    void countsCollectivesByHand();
    void refusesWhatItCannotCount_data();
    void refusesWhatItCannotCount();
    void placesCollectivesOfATrace_data();
    void placesCollectivesOfATrace();
    void meetsTheLinkOfTheTracesDevice_data();
    void meetsTheLinkOfTheTracesDevice();
};

namespace {

CollectiveArgs argsOf(const QString &name, const QString &dtype, qint64 in, qint64 out, qint64 n)
{
    CollectiveArgs args;
    args.name = name.toStdString();
    args.dtype = dtype.toStdString();
    if (in >= 0)
        args.inElements = in;
    if (out >= 0)
        args.outElements = out;
    if (n >= 0)
        args.groupSize = n;
    return args;
}

} // namespace

void TestKinetoComms::countsCollectivesByHand_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<qint64>("in");
    QTest::addColumn<qint64>("out");
    QTest::addColumn<qint64>("ranks");
    QTest::addColumn<int>("nodeGpus");
    QTest::addColumn<QString>("nodeLink");
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<QString>("level");
    QTest::addColumn<QString>("precision");
    // Ring all-reduce of 1000 fp32 among 4: each rank sends 2·3/4 of 4000 B = 6000 B and adds
    // 3/4 of the 1000 elements.
    QTest::newRow("allreduce") << "allreduce"
                               << "Float" << 1000LL << 1000LL << 4LL << 8 << "NVLink" << 750.0
                               << 6000.0 << "NVLink"
                               << "fp32";
    // All-gather of 250 → 1000 fp16 elements among 4: 3/4 of the 2000-byte output sent; one
    // FLOP per element received (a convention), 750.
    QTest::newRow("allgather") << "_allgather_base"
                               << "Half" << 250LL << 1000LL << 4LL << 8 << "NVLink" << 750.0
                               << 1500.0 << "NVLink"
                               << "fp16";
    // Reduce-scatter of 1000 → 250 bf16 among 4: 3/4 of the 2000-byte input, 750 additions.
    QTest::newRow("reduce_scatter")
        << "reduce_scatter"
        << "BFloat16" << 1000LL << 250LL << 4LL << 8 << "NVLink" << 750.0 << 1500.0 << "NVLink"
        << "bf16";
    // Send of 100 fp32 to one peer: 400 B once, 100 elements received.
    QTest::newRow("send") << "send"
                          << "Float" << 100LL << 100LL << 2LL << 8 << "NVLink" << 100.0 << 400.0
                          << "NVLink"
                          << "fp32";
    // Broadcast of 10 int64: 80 B once, integer data has no precision.
    QTest::newRow("broadcast") << "broadcast"
                               << "Long" << 10LL << 10LL << 2LL << 8 << "NVLink" << 10.0 << 80.0
                               << "NVLink"
                               << "";
    // 16 ranks on nodes of 8 GPUs: the ring leaves the node, DCN. 2·15/16 of 6400 B = 12000 B;
    // 15/16 of 1600 additions = 1500.
    QTest::newRow("allreduce across nodes")
        << "allreduce"
        << "Float" << 1600LL << 1600LL << 16LL << 8 << "NVLink" << 1500.0 << 12000.0 << "DCN"
        << "fp32";
    // Only the input recorded: the message is the input. Four GPUs on the node, a group of 4.
    QTest::newRow("in only, node of 4")
        << "allreduce"
        << "Double" << 8LL << -1LL << 4LL << 4 << "NVLink" << 6.0 << 2.0 * 0.75 * 64 << "NVLink"
        << "fp64";
    // Within a node the bytes go on the link the caller names: ICI for AMD's Infinity Fabric.
    QTest::newRow("rccl") << "allreduce"
                          << "Float" << 1000LL << 1000LL << 2LL << 8 << "ICI" << 500.0 << 4000.0
                          << "ICI"
                          << "fp32";
    // ... and PCIe for a node without NVLink; beyond the node it stays DCN.
    QTest::newRow("pcie node") << "allreduce"
                               << "Float" << 1000LL << 1000LL << 2LL << 8 << "PCIe" << 500.0
                               << 4000.0 << "PCIe"
                               << "fp32";
    QTest::newRow("pcie nodes, across")
        << "allreduce"
        << "Float" << 1600LL << 1600LL << 16LL << 8 << "PCIe" << 1500.0 << 12000.0 << "DCN"
        << "fp32";
}

void TestKinetoComms::countsCollectivesByHand()
{
    QFETCH(QString, name);
    QFETCH(QString, dtype);
    QFETCH(qint64, in);
    QFETCH(qint64, out);
    QFETCH(qint64, ranks);
    QFETCH(int, nodeGpus);
    QFETCH(QString, nodeLink);
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(QString, level);
    QFETCH(QString, precision);
    const auto cost = collectiveCost(argsOf(name, dtype, in, out, ranks),
        static_cast<std::size_t>(nodeGpus), *memoryLevelFromName(nodeLink.toStdString()));
    QVERIFY2(cost, cost ? "" : cost.error().c_str());
    QCOMPARE(cost->flops, flops);
    QCOMPARE(cost->bytes, bytes);
    QCOMPARE(QString::fromUtf8(memoryLevelName(cost->level).data()), level);
    QCOMPARE(
        cost->precision ? QString::fromUtf8(precisionName(*cost->precision).data()) : QString(),
        precision);
}

void TestKinetoComms::refusesWhatItCannotCount_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<qint64>("ranks");
    QTest::addColumn<QString>("reason");
    QTest::newRow("one rank")
        << "allreduce"
        << "Float" << 1LL << "collective allreduce: no bytes cross a link (a group of one rank)";
    QTest::newRow("no group") << "allreduce"
                              << "Float" << -1LL
                              << "collective allreduce: its message is not recorded in full";
    QTest::newRow("no rank") << "allreduce"
                             << "Float" << 0LL
                             << "collective allreduce: a group of 0 ranks (expected at least 1)";
    QTest::newRow("dtype") << "allreduce"
                           << "ComplexFloat" << 2LL
                           << "collective allreduce: dtype \"ComplexFloat\" has no known element";
    QTest::newRow("no model") << "barrier"
                              << "Float" << 2LL << "collective barrier has no model yet";
}

void TestKinetoComms::refusesWhatItCannotCount()
{
    QFETCH(QString, name);
    QFETCH(QString, dtype);
    QFETCH(qint64, ranks);
    QFETCH(QString, reason);
    const auto cost = collectiveCost(argsOf(name, dtype, 64, 64, ranks), 8, MemoryLevel::NVLink);
    QVERIFY(!cost);
    QVERIFY2(QString::fromStdString(cost.error()).startsWith(reason), cost.error().c_str());
}

namespace {

// A trace of `devices` GPUs named `name` with `extra` events, plus an mm that is placed (so the
// file has a point).
std::string traceWith(const QString &extra, int devices, const QString &name)
{
    QStringList device;
    for (int i = 0; i < devices; ++i)
        device << QString(R"({"id": %1, "name": "%2"})").arg(i).arg(name);
    return QString(R"({"schemaVersion": 1, "deviceProperties": [%1], "traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 500,
         "dur": 10, "args": {"Input Dims": [[4, 4], [4, 4]], "Input type": ["float", "float"]}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
         "ts": 502, "dur": 1, "args": {"correlation": 9}},
        {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 510, "dur": 2,
         "args": {"correlation": 9}},
        %2]})")
        .arg(device.join(", "), extra)
        .toStdString();
}

const QString kComms = R"("Collective name": "%1", "In msg nelems": %2, "Out msg nelems": %2,
    "Group size": %3, "dtype": "Float")";

QString collectiveKernel(const QString &args, double dur)
{
    return QString(R"({"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float",
        "pid": 0, "tid": 40, "ts": 100, "dur": %2, "args": {"correlation": 5, %1}})")
        .arg(args)
        .arg(dur);
}

QString commsOperator(const QString &args)
{
    return QString(R"({"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1,
        "tid": 1, "ts": 10, "dur": 20, "args": {%1}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
         "ts": 12, "dur": 1, "args": {"correlation": 5}})")
        .arg(args);
}

} // namespace

void TestKinetoComms::placesCollectivesOfATrace_data()
{
    QTest::addColumn<QString>("events");
    QTest::addColumn<int>("devices");
    QTest::addColumn<double>("bytes"); // 0: not placed
    QTest::addColumn<QString>("level");
    QTest::addColumn<QString>("reasonOrGroup");
    const QString allreduce = kComms.arg("allreduce").arg(1000).arg(2);
    // 2·1/2 of 4000 B; the kernel carries the args and has no launch: placed all the same.
    QTest::newRow("kernel's own args") << collectiveKernel(allreduce, 30) << 1 << 4000.0 << "NVLink"
                                       << "allreduce(Float[1000], 2 ranks)";
    QTest::newRow("operator's args")
        << commsOperator(allreduce) + ", " + collectiveKernel(R"("stream": 40)", 30) << 1 << 4000.0
        << "NVLink"
        << "record_param_comms: allreduce(Float[1000], 2 ranks)";
    // A group of 16 on a trace that lists 2 GPUs (nodes of 8): beyond the node. 2·15/16 of
    // 4000 B.
    QTest::newRow("beyond the node")
        << collectiveKernel(kComms.arg("allreduce").arg(1000).arg(16), 30) << 2 << 7500.0 << "DCN"
        << "allreduce(Float[1000], 16 ranks)";
    // A trace that lists 16 GPUs has nodes of 16: the same group stays on NVLink.
    QTest::newRow("node of 16") << collectiveKernel(kComms.arg("allreduce").arg(1000).arg(16), 30)
                                << 16 << 7500.0 << "NVLink"
                                << "allreduce(Float[1000], 16 ranks)";
    QTest::newRow("no message") << commsOperator(R"("Trace name": "PyTorch Profiler")") + ", "
            + collectiveKernel(R"("stream": 40)", 30)
                                << 1 << 0.0 << ""
                                << "collective (record_param_comms): its message is not recorded";
    QTest::newRow("wrong type") << collectiveKernel(R"("Collective name": "allreduce",
        "In msg nelems": 1000, "Group size": "2", "dtype": "Float")",
        30) << 1 << 0.0 << ""
                                << "collective allreduce: \"args.Group size\" is a string";
}

void TestKinetoComms::placesCollectivesOfATrace()
{
    QFETCH(QString, events);
    QFETCH(int, devices);
    QFETCH(double, bytes);
    QFETCH(QString, level);
    QFETCH(QString, reasonOrGroup);
    const auto read
        = readKinetoTrace(traceWith(events, devices, "NVIDIA A100-PG509-200"), "t.json");
    QVERIFY2(read.diagnostics.empty(), qPrintable(test::joined(read.diagnostics)));
    const TraceSummary &trace = *read.trace;
    QVERIFY(std::abs(trace.gpuSeconds - 32e-6) < 1e-15);
    if (bytes == 0.0) {
        QCOMPARE(read.points.size(), std::size_t { 1 });
        QCOMPARE(trace.unplaced.size(), std::size_t { 1 });
        QVERIFY2(QString::fromStdString(trace.unplaced[0].reason).startsWith(reasonOrGroup),
            trace.unplaced[0].reason.c_str());
        QVERIFY(std::abs(trace.unplaced[0].seconds - 30e-6) < 1e-15);
        return;
    }
    QCOMPARE(read.points.size(), std::size_t { 2 });
    QVERIFY(trace.unplaced.empty());
    QVERIFY(std::abs(trace.placedSeconds - 32e-6) < 1e-15);
    const auto at = std::find_if(read.points.begin(), read.points.end(),
        [](const KernelPoint &p) { return p.name.starts_with("nccl"); });
    QVERIFY(at != read.points.end());
    QCOMPARE(QString::fromStdString(at->group), reasonOrGroup);
    QCOMPARE(at->bytes.size(), std::size_t { 1 });
    QCOMPARE(at->bytes[0].bytes, bytes);
    QVERIFY(at->bytes[0].level);
    QCOMPARE(QString::fromUtf8(memoryLevelName(*at->bytes[0].level).data()), level);
    QCOMPARE(at->precision, std::optional(Precision::FP32));
}

// Inside a node, a collective crosses the link between the chips of the trace's own device:
// PCIe on a node without NVLink, Infinity Fabric (ICI) on AMD's; a device that is no preset keeps
// NVLink, or ICI when it is AMD's. The point is then bounded by that link on the trace's machine.
void TestKinetoComms::meetsTheLinkOfTheTracesDevice_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<QString>("level");
    QTest::addColumn<QString>("roof"); // the ceiling it meets on the trace's machine; empty: none
    QTest::newRow("A100 (HGX)") << "NVIDIA A100-PG509-200" << 2 << "NVLink"
                                << "NVLink 3";
    QTest::newRow("L40S, PCIe only") << "NVIDIA L40S" << 2 << "PCIe"
                                     << "PCIe Gen4 x16";
    QTest::newRow("RTX 4090, PCIe only") << "NVIDIA GeForce RTX 4090" << 2 << "PCIe"
                                         << "PCIe Gen4 x16";
    QTest::newRow("T4 as CUDA names it") << "Tesla T4" << 4 << "PCIe"
                                         << "PCIe Gen3 x16";
    QTest::newRow("MI300X") << "AMD Instinct MI300X" << 8 << "ICI"
                            << "Infinity Fabric (7 links)";
    QTest::newRow("L40S, beyond the node") << "NVIDIA L40S" << 16 << "DCN"
                                           << "";
    QTest::newRow("unknown NVIDIA") << "NVIDIA Q999" << 2 << "NVLink"
                                    << "";
    QTest::newRow("unknown AMD") << "AMD Radeon Graphics" << 2 << "ICI"
                                 << "";
}

void TestKinetoComms::meetsTheLinkOfTheTracesDevice()
{
    QFETCH(QString, device);
    QFETCH(int, ranks);
    QFETCH(QString, level);
    QFETCH(QString, roof);
    const auto read = readKinetoTrace(
        traceWith(collectiveKernel(kComms.arg("allreduce").arg(1000).arg(ranks), 30), 1, device),
        "t.json");
    QVERIFY2(read.diagnostics.empty(), qPrintable(test::joined(read.diagnostics)));
    const auto at = std::find_if(read.points.begin(), read.points.end(),
        [](const KernelPoint &p) { return p.name.starts_with("nccl"); });
    QVERIFY(at != read.points.end());
    QVERIFY(at->bytes[0].level);
    QCOMPARE(QString::fromUtf8(memoryLevelName(*at->bytes[0].level).data()), level);
    const auto machine = traceMachine(*read.trace);
    if (!machine) {
        QVERIFY(roof.isEmpty());
        return;
    }
    const auto analysis = analyzePoint(*at, *machine);
    if (roof.isEmpty()) {
        QVERIFY(!analysis || analysis->levels.empty());
        return;
    }
    QVERIFY2(analysis, analysis ? "" : analysis.error().c_str());
    QCOMPARE(analysis->levels.size(), std::size_t { 1 });
    QCOMPARE(QString::fromStdString(analysis->levels[0].memory), roof);
}

QTEST_APPLESS_MAIN(TestKinetoComms)
#include "tst_kinetocomms.moc"
