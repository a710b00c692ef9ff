// Workspace: what-if moves, re-analysis, quantization of workload points, workload slots through
// insertions and removals, and sessions — the model under the widgets' Document, without Qt's
// GUI (QtCore only).
#include "core/presets/presets.h"
#include "core/session/session_workspace.h"
#include "core/workspace/workspace.h"

#include "tests/support/core_test_support.h"
#include "tests/support/testmachine.h"

#include <QStringList>
#include <QTest>

#include <algorithm>

using namespace ridgepoint;

Q_DECLARE_METATYPE(ridgepoint::QuantMode)
Q_DECLARE_METATYPE(ridgepoint::Precision)
Q_DECLARE_METATYPE(std::vector<std::size_t>)

namespace {

// Every number and word of two analyses, compared exactly: the same inputs through the same
// code give the same bits.
bool sameAnalysis(const PointResult &a, const PointResult &b, QString &why)
{
    if (a.has_value() != b.has_value()) {
        why = "one placed, one not";
        return false;
    }
    if (!a) {
        why = QString::fromStdString(a.error() + " / " + b.error());
        return a.error() == b.error();
    }
    const bool levels = a->levels.size() == b->levels.size()
        && std::equal(a->levels.begin(), a->levels.end(), b->levels.begin(),
            [](const LevelAnalysis &x, const LevelAnalysis &y) {
                return x.memory == y.memory && x.level == y.level && x.bandwidth == y.bandwidth
                    && x.bytes == y.bytes && x.intensity == y.intensity
                    && x.attainable == y.attainable && x.tMem == y.tMem
                    && x.achievedBandwidth == y.achievedBandwidth
                    && x.bandwidthUtilization == y.bandwidthUtilization;
            });
    why = QString::fromStdString(
        a->computeCeiling + " " + a->note + " / " + b->computeCeiling + " " + b->note);
    return levels && a->computeCeiling == b->computeCeiling && a->peak == b->peak
        && a->tMath == b->tMath && a->tMin == b->tMin && a->tMax == b->tMax
        && a->attainable == b->attainable && a->bound == b->bound
        && a->limitingCeiling == b->limitingCeiling && a->performance == b->performance
        && a->utilization == b->utilization && a->consistent == b->consistent && a->note == b->note;
}

#define COMPARE_ANALYSIS(actual, expected)                                                         \
    do {                                                                                           \
        QString why;                                                                               \
        QVERIFY2(sameAnalysis(actual, expected, why), qPrintable(why));                            \
    } while (false)

Workload matmul(const char *group, bool inSweep = false)
{
    Workload w;
    w.model = MatmulWorkload { MatmulSpec { 64, 4096, 4096, Precision::BF16, {} }, {}, {} };
    w.group = group;
    if (inSweep)
        w.sweep = SweepMembership { 1, "b", 64.0 };
    return w;
}

// The workload point of a group, or "-" for a measured point, in order.
QStringList groups(const Workspace &workspace)
{
    QStringList list;
    for (std::size_t i = 0; i < workspace.pointCount(); ++i) {
        const Workload *w = workspace.workload(i);
        list << (w ? QString::fromStdString(w->group) : QStringLiteral("-"));
    }
    return list;
}

// The three test points, then the workloads "a" and "b" on the H100.
Workspace measuredAndTwoWorkloads()
{
    Workspace workspace;
    workspace.setHardware(::test::preset("H100"));
    workspace.setPoints(ridgepoint::test::points());
    auto rows = workspace.workloadRows({ matmul("a", true), matmul("b") });
    if (!rows)
        qFatal("workloads cannot be placed: %s", rows.error().c_str());
    workspace.insertRows(*rows);
    return workspace;
}

// What the Document did when it loaded a session, written out step by step: each workload
// re-derived on the session's machine under its mode (keeping its saved point when it cannot
// be placed), the move applied, and the result analysed.
std::vector<PointResult> expectedAnalyses(const Session &session, const AnalysisOptions &options)
{
    std::vector<PointResult> out;
    for (const SessionPoint &p : session.points) {
        KernelPoint point = p.point;
        if (p.workload) {
            auto derived = workloadPoint(*p.workload, session.quantMode, session.hardware);
            if (!derived) {
                out.emplace_back(ridgepoint::Unexpected(derived.error()));
                continue;
            }
            point = *derived;
        }
        out.push_back(analyzePoint(
            applyWhatIf(point, WhatIf { p.bytesFactor, p.timeFactor }), session.hardware, options));
    }
    return out;
}

} // namespace

class TestWorkspace : public QObject
{
    Q_OBJECT

private slots:
    void sessionWorkloadsUseTheirOwnParameters_data();
    void sessionWorkloadsUseTheirOwnParameters();
    void whatIfScalesTheByteCounts_data();
    void whatIfScalesTheByteCounts();
    void reanalysisMatchesAnalyzePoint_data();
    void reanalysisMatchesAnalyzePoint();
    void quantModeMovesWorkloadPoints_data();
    void quantModeMovesWorkloadPoints();
    void workloadSlotsFollowTheirPoints_data();
    void workloadSlotsFollowTheirPoints();
    void duplicatesLeaveTheirSweep();
    void unplaceableWorkloadsKeepTheirErrors();
    void loadsSessionsAsTheDocumentDid_data();
    void loadsSessionsAsTheDocumentDid();
    void readsAndWritesSessionFilesDirectly();
};

// ---- what-if moves

void TestWorkspace::whatIfScalesTheByteCounts_data()
{
    QTest::addColumn<double>("bytesFactor");
    QTest::addColumn<double>("timeFactor");
    QTest::addColumn<double>("dramBytes");
    QTest::addColumn<double>("l2Bytes");
    QTest::addColumn<double>("seconds");
    // Measured: 1e9 FLOP, 1e9 B from DRAM, 4e9 B from L2, in 20 ms.
    QTest::newRow("identity") << 1.0 << 1.0 << 1e9 << 4e9 << 0.02;
    QTest::newRow("half the bytes") << 0.5 << 1.0 << 5e8 << 2e9 << 0.02;
    QTest::newRow("a quarter of the time") << 1.0 << 0.25 << 1e9 << 4e9 << 0.005;
    QTest::newRow("both") << 0.1 << 2.0 << 1e8 << 4e8 << 0.04;
}

void TestWorkspace::whatIfScalesTheByteCounts()
{
    QFETCH(double, bytesFactor);
    QFETCH(double, timeFactor);
    QFETCH(double, dramBytes);
    QFETCH(double, l2Bytes);
    QFETCH(double, seconds);
    KernelPoint measured = ridgepoint::test::point("two levels", "g", 1e9, 1e9, 0.02);
    measured.bytes.push_back({ MemoryLevel::L2, 4e9 });
    Workspace workspace;
    workspace.setHardware(ridgepoint::test::machine());
    workspace.setPoints({ measured, ridgepoint::test::point("still", "g", 1e9, 1e9, 0.02) });
    workspace.setWhatIf(0, { bytesFactor, timeFactor });

    const KernelPoint moved = workspace.point(0);
    QCOMPARE(moved.flops, 1e9); // FLOPs never move
    QCOMPARE(moved.bytes.size(), std::size_t { 2 });
    QVERIFY(::test::close(moved.bytes[0].bytes, dramBytes));
    QVERIFY(::test::close(moved.bytes[1].bytes, l2Bytes));
    QVERIFY(::test::close(*moved.seconds, seconds));
    // The measurement is kept; the other point does not move.
    QCOMPARE(workspace.measuredPoint(0).bytes[0].bytes, 1e9);
    QCOMPARE(workspace.point(1).bytes[0].bytes, 1e9);
    QCOMPARE(workspace.hasWhatIfs(), bytesFactor != 1.0 || timeFactor != 1.0);

    // Re-analysis: the moved point placed as analyzePoint places it; the ghost where it was.
    const auto &a = workspace.analysis(0);
    QVERIFY(a.has_value());
    COMPARE_ANALYSIS(a, analyzePoint(moved, ridgepoint::test::machine()));
    QVERIFY(::test::close(a->levels[0].intensity, 1e9 / dramBytes));
    QVERIFY(::test::close(*a->performance, 1e9 / seconds));
    COMPARE_ANALYSIS(
        workspace.measuredAnalysis(0), analyzePoint(measured, ridgepoint::test::machine()));

    workspace.setWhatIfs(std::vector<WhatIf>(2));
    QVERIFY(!workspace.hasWhatIfs());
    COMPARE_ANALYSIS(workspace.analysis(0), analyzePoint(measured, ridgepoint::test::machine()));
}

// ---- re-analysis

void TestWorkspace::reanalysisMatchesAnalyzePoint_data()
{
    QTest::addColumn<QString>("machine");
    QTest::addColumn<QString>("computeCeiling");
    QTest::addColumn<double>("bytesFactor");
    QTest::newRow("test machine") << ""
                                  << "" << 1.0;
    QTest::newRow("test machine, moved") << ""
                                         << "" << 0.3;
    QTest::newRow("test machine, FP64 ceiling") << ""
                                                << "FP64 vector" << 1.0;
    QTest::newRow("H100") << "H100"
                          << "" << 1.0;
    QTest::newRow("H100, moved") << "H100"
                                 << "" << 2.5;
    QTest::newRow("H100, FP32 CUDA") << "H100"
                                     << "FP32 CUDA" << 0.5;
    QTest::newRow("TPU v5e") << "TPU v5e"
                             << "" << 1.0;
}

void TestWorkspace::reanalysisMatchesAnalyzePoint()
{
    QFETCH(QString, machine);
    QFETCH(QString, computeCeiling);
    QFETCH(double, bytesFactor);
    const Hardware hardware = machine.isEmpty() ? ridgepoint::test::machine()
                                                : ::test::preset(machine.toUtf8().constData());
    AnalysisOptions options;
    options.computeCeiling = computeCeiling.toStdString();

    Workspace workspace = measuredAndTwoWorkloads();
    for (std::size_t i = 0; i < workspace.pointCount(); i += 2)
        workspace.setWhatIf(i, { bytesFactor, 1.0 });
    workspace.setHardware(hardware);
    workspace.setAnalysisOptions(options);
    QCOMPARE(workspace.pointCount(), std::size_t { 5 });
    const std::vector<KernelPoint> shown = workspace.points();
    for (std::size_t i = 0; i < workspace.pointCount(); ++i) {
        if (workspace.workloadError(i))
            continue; // a workload the machine cannot hold: covered below
        COMPARE_ANALYSIS(workspace.analysis(i), analyzePoint(shown[i], hardware, options));
    }
    // The comparison machine with its own ceiling for each point's precision.
    workspace.setCompareHardware(::test::preset("H100"));
    AnalysisOptions own = options;
    own.computeCeiling.clear();
    for (std::size_t i = 0; i < workspace.pointCount(); ++i)
        COMPARE_ANALYSIS(
            workspace.compareAnalysis(i), analyzePoint(shown[i], ::test::preset("H100"), own));
}

// ---- quantization

void TestWorkspace::quantModeMovesWorkloadPoints_data()
{
    QTest::addColumn<QuantMode>("mode");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<Precision>("compute");
    // X[64, 4096] · Y[4096, 4096] -> Z[64, 4096]: 2·64·4096·4096 FLOP whatever the mode;
    // bytes = bx·64·4096 + by·4096·4096 + bz·64·4096 (docs/MODEL.md §5.2, §6).
    constexpr double bd = 64.0 * 4096.0;
    constexpr double df = 4096.0 * 4096.0;
    QTest::newRow("none (bf16)") << QuantMode::None << 2.0 * bd + 2.0 * df + 2.0 * bd
                                 << Precision::BF16;
    QTest::newRow("int8") << QuantMode::Int8 << bd + df + bd << Precision::INT8;
    QTest::newRow("w8a16") << QuantMode::W8A16 << 2.0 * bd + df + 2.0 * bd << Precision::BF16;
    QTest::newRow("w4a16") << QuantMode::W4A16 << 2.0 * bd + 0.5 * df + 2.0 * bd << Precision::BF16;
}

void TestWorkspace::quantModeMovesWorkloadPoints()
{
    QFETCH(QuantMode, mode);
    QFETCH(double, bytes);
    QFETCH(Precision, compute);
    Workspace workspace = measuredAndTwoWorkloads();
    const std::vector<KernelPoint> measured = ridgepoint::test::points();
    workspace.setQuantMode(mode);
    QCOMPARE(workspace.quantMode(), mode);
    const Hardware &h100 = workspace.hardware();
    for (std::size_t i : { std::size_t { 3 }, std::size_t { 4 } }) {
        const KernelPoint &p = workspace.measuredPoint(i);
        QCOMPARE(p.flops, 2.0 * 64.0 * 4096.0 * 4096.0);
        QCOMPARE(p.bytes.size(), std::size_t { 1 });
        QCOMPARE(p.bytes.front().bytes, bytes);
        QCOMPARE(p.precision, std::optional<Precision>(compute));
        const auto &a = workspace.analysis(i);
        QVERIFY2(a, a ? "" : a.error().c_str());
        QCOMPARE(a->computeCeiling, h100.computeFor(compute)->name);
        COMPARE_ANALYSIS(a, analyzePoint(p, h100));
    }
    // Measured points keep their place; the roofline follows the workloads' ceiling.
    for (std::size_t i = 0; i < measured.size(); ++i)
        QCOMPARE(workspace.measuredPoint(i).bytes.front().bytes, measured[i].bytes.front().bytes);
    QCOMPARE(workspace.activeComputeCeiling(), h100.computeFor(compute));
    // Back to none: the points are those of the workloads' own dtype again.
    workspace.setQuantMode(QuantMode::None);
    QCOMPARE(workspace.measuredPoint(3).bytes.front().bytes,
        2.0 * 64.0 * 4096.0 + 2.0 * 4096.0 * 4096.0 + 2.0 * 64.0 * 4096.0);
}

// ---- workload slots

void TestWorkspace::workloadSlotsFollowTheirPoints_data()
{
    QTest::addColumn<std::vector<std::size_t>>("removed");
    QTest::addColumn<QStringList>("left");
    // Before: stream, gemm, stencil, then workloads a and b.
    QTest::newRow("a measured point before them")
        << std::vector<std::size_t> { 0 } << QStringList { "-", "-", "a", "b" };
    QTest::newRow("one of each") << std::vector<std::size_t> { 1, 3 }
                                 << QStringList { "-", "-", "b" };
    QTest::newRow("the last") << std::vector<std::size_t> { 4 }
                              << QStringList { "-", "-", "-", "a" };
    QTest::newRow("every measured point")
        << std::vector<std::size_t> { 0, 1, 2 } << QStringList { "a", "b" };
    QTest::newRow("both workloads")
        << std::vector<std::size_t> { 3, 4 } << QStringList { "-", "-", "-" };
    QTest::newRow("everything") << std::vector<std::size_t> { 0, 1, 2, 3, 4 } << QStringList {};
}

void TestWorkspace::workloadSlotsFollowTheirPoints()
{
    QFETCH(std::vector<std::size_t>, removed);
    QFETCH(QStringList, left);
    Workspace workspace = measuredAndTwoWorkloads();
    const QStringList before = groups(workspace);
    QCOMPARE(before, QStringList({ "-", "-", "-", "a", "b" }));
    const std::vector<std::size_t> indices = workspace.validIndices(removed);
    const PointRows rows = workspace.rowsAt(indices);
    workspace.removeRows(indices);
    QCOMPARE(groups(workspace), left);
    for (std::size_t i = 0; i < workspace.pointCount(); ++i)
        COMPARE_ANALYSIS(
            workspace.analysis(i), analyzePoint(workspace.point(i), ::test::preset("H100")));

    // Putting the rows back (an undo) puts each workload back with its point.
    workspace.insertRows(rows);
    QCOMPARE(groups(workspace), before);
    QCOMPARE(workspace.measuredPoint(1).name, std::string("gemm"));
    QVERIFY(workspace.workload(3)->sweep.has_value());
    QVERIFY(!workspace.workload(99));
}

void TestWorkspace::duplicatesLeaveTheirSweep()
{
    Workspace workspace = measuredAndTwoWorkloads();
    const std::vector<std::size_t> indices = workspace.validIndices({ 3, 0, 3, 42 });
    QCOMPARE(indices, (std::vector<std::size_t> { 0, 3 }));
    const PointRows copies = workspace.duplicateRows(indices);
    QCOMPARE(copies.indices, (std::vector<std::size_t> { 5, 6 }));
    workspace.insertRows(copies);
    QCOMPARE(groups(workspace), QStringList({ "-", "-", "-", "a", "b", "-", "a" }));
    QCOMPARE(workspace.measuredPoint(5).name, std::string("stream (copy)"));
    QVERIFY(workspace.workload(3)->sweep.has_value());
    QVERIFY(!workspace.workload(6)->sweep.has_value()); // a copy leaves the sweep
    QCOMPARE(*workspace.findPoint("stream (copy)"), std::size_t { 5 });
    QVERIFY(!workspace.findPoint("nothing"));
}

void TestWorkspace::unplaceableWorkloadsKeepTheirErrors()
{
    Workspace workspace = measuredAndTwoWorkloads();
    const KernelPoint placed = workspace.measuredPoint(3);
    // The test machine has no bf16 ceiling: the workloads fail and keep their last point, the
    // measured points do not.
    workspace.setHardware(ridgepoint::test::machine());
    QVERIFY(workspace.workloadError(3));
    QVERIFY(!workspace.analysis(3).has_value());
    QCOMPARE(workspace.analysis(3).error(), *workspace.workloadError(3));
    QCOMPARE(workspace.measuredPoint(3).bytes.front().bytes, placed.bytes.front().bytes);
    QVERIFY(workspace.analysis(0).has_value());
    QVERIFY(!workspace.workloadError(0));
    // Removing a measured point before them keeps each error with its workload.
    workspace.removeRows({ 0 });
    QVERIFY(!workspace.analysis(2).has_value());
    QVERIFY(workspace.analysis(1).has_value());
    // A workload that cannot be placed is refused before anything is added.
    QVERIFY(!workspace.workloadRows({ matmul("c") }));
    // Back on the H100 they are placed again.
    workspace.setHardware(::test::preset("H100"));
    QVERIFY(!workspace.workloadError(2));
    COMPARE_ANALYSIS(workspace.analysis(2), analyzePoint(placed, ::test::preset("H100")));
}

// ---- sessions

void TestWorkspace::loadsSessionsAsTheDocumentDid_data()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("measured points") << 0;
    QTest::newRow("moved points") << 1;
    QTest::newRow("workloads under w8a16") << 2;
    QTest::newRow("workloads the machine cannot hold") << 3;
    QTest::newRow("review layers and a compared machine") << 4;
}

void TestWorkspace::loadsSessionsAsTheDocumentDid()
{
    QFETCH(int, kind);
    Session session;
    session.hardware = kind == 3 ? ridgepoint::test::machine() : ::test::preset("H100");
    for (const KernelPoint &p : ridgepoint::test::points())
        session.points.push_back({ p, 1.0, 1.0, {} });
    if (kind == 1) {
        session.points[0].bytesFactor = 0.25;
        session.points[2].timeFactor = 0.5;
    }
    if (kind >= 2) {
        // Saved with stale points (gemm's, stream's): loading re-derives them.
        session.points.push_back({ ridgepoint::test::points()[1], 0.5, 1.0, matmul("a", true) });
        session.points.push_back({ ridgepoint::test::points()[0], 1.0, 1.0, matmul("b") });
        session.quantMode = kind == 2 ? QuantMode::W8A16 : QuantMode::None;
        session.lastSweepId = 1;
    }
    if (kind == 4) {
        session.compare = ridgepoint::test::machine();
        session.annotations = { { "slow", "stream", 0.0, 0.0 }, { "here", "", 3.0, 1e12 } };
        session.targets = { { "HBM3", 0.6, "" } };
        session.baseline = Baseline { "before.csv", ridgepoint::test::points() };
    }
    const Session saved = session;
    AnalysisOptions options;

    Workspace workspace;
    workspace.loadSession(session);
    const std::vector<PointResult> expected = expectedAnalyses(saved, options);
    QCOMPARE(workspace.pointCount(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
        COMPARE_ANALYSIS(workspace.analysis(i), expected[i]);
    QCOMPARE(workspace.quantMode(), saved.quantMode);
    QCOMPARE(workspace.lastSweepId(), saved.lastSweepId);
    QCOMPARE(workspace.newSweepId(), saved.lastSweepId + 1);
    QCOMPARE(workspace.compareHardware() != nullptr, saved.compare.has_value());
    QCOMPARE(workspace.annotations(), saved.annotations);
    QCOMPARE(workspace.targets(), saved.targets);
    QCOMPARE(workspace.baseline().has_value(), saved.baseline.has_value());

    // Saved again, the session is the one loaded, but for the workload points, which are
    // re-derived (a session saved elsewhere may hold stale ones).
    Session again = workspace.toSession();
    again.lastSweepId = saved.lastSweepId;
    for (std::size_t i = 0; i < again.points.size(); ++i) {
        if (again.points[i].workload)
            again.points[i].point = saved.points[i].point;
    }
    QCOMPARE(writeSessionJson(again), writeSessionJson(saved));
}

void TestWorkspace::readsAndWritesSessionFilesDirectly()
{
    Workspace original = measuredAndTwoWorkloads();
    original.setWhatIf(1, { 0.5, 2.0 });
    original.setQuantMode(QuantMode::Int8);
    original.setAnnotations({ { "look", "gemm", 0.0, 0.0 } });
    const ViewRange view { 0.1, 1e4, 1e9, 1e16 };
    const std::string text = writeSessionJson(original, view, "dark");
    QCOMPARE(text, [&] {
        Session session = original.toSession();
        session.view = view;
        session.theme = "dark";
        return writeSessionJson(session);
    }());

    Workspace read;
    const WorkspaceReadResult result = readSessionJson(text, "s.ridgepoint.json", read);
    QVERIFY(result.loaded);
    QVERIFY(result.diagnostics.empty());
    QCOMPARE(result.version, kSessionVersion);
    QCOMPARE(*result.view, view);
    QCOMPARE(result.theme, std::string("dark"));
    QCOMPARE(groups(read), groups(original));
    QCOMPARE(read.pointCount(), original.pointCount());
    for (std::size_t i = 0; i < read.pointCount(); ++i)
        COMPARE_ANALYSIS(read.analysis(i), original.analysis(i));
    QCOMPARE(writeSessionJson(read, view, "dark"), text);

    // A file with errors leaves the workspace as it was.
    const WorkspaceReadResult bad = readSessionJson("{\"format\": 1}", "bad.json", read);
    QVERIFY(!bad.loaded);
    QVERIFY(!bad.diagnostics.empty());
    QCOMPARE(read.pointCount(), original.pointCount());
}

void TestWorkspace::sessionWorkloadsUseTheirOwnParameters_data()
{
    QTest::addColumn<double>("machineLink"); // 0: the machine has no link
    QTest::addColumn<QString>("network");
    QTest::addColumn<double>("networkBandwidth");
    QTest::addColumn<QString>("refusal"); // empty: placed
    QTest::newRow("own bandwidth, machine without a link") << 0.0 << "" << 1e9 << "";
    QTest::newRow("own bandwidth beats the machine's link") << 1e11 << "" << 1e9 << "";
    QTest::newRow("unknown network")
        << 1e11 << "Warp" << 1e9 << "no network ceiling or level named \"Warp\"";
}

// A session's sharded matmul is recomputed with its own networkBandwidth, not the machine's
// link, and one that cannot be recomputed is refused with why, not shown with its saved point.
// The session is written and read back here, as a file would be.
void TestWorkspace::sessionWorkloadsUseTheirOwnParameters()
{
    QFETCH(double, machineLink);
    QFETCH(QString, network);
    QFETCH(double, networkBandwidth);
    QFETCH(QString, refusal);

    Session session;
    session.hardware = ridgepoint::test::machine();
    if (machineLink > 0.0)
        session.hardware.memory.push_back({ "ICI", MemoryLevel::ICI, machineLink, {}, true });
    const std::int64_t b = 256, d = 1024, f = 512;
    MatmulWorkload matmul;
    matmul.spec = { b, d, f, Precision::FP32, QuantMode::None };
    matmul.shards = ShardSpec { 2, network.toStdString(), networkBandwidth };
    Workload workload;
    workload.model = matmul;
    // A stale saved point that must not survive: 1 FLOP, 1 byte.
    session.points.push_back(
        { ridgepoint::test::point("stale", "matmul", 1.0, 1.0, 1.0), 1.0, 1.0, workload });
    const auto read = readSessionJson(writeSessionJson(session), "generated.ridgepoint.json");
    QVERIFY(read.session);

    Workspace workspace;
    workspace.loadSession(*read.session);
    const PointResult &result = workspace.analysis(0);
    if (!refusal.isEmpty()) {
        QVERIFY(!result);
        QVERIFY2(QString::fromStdString(result.error()).contains(refusal), result.error().c_str());
        QVERIFY(workspace.workloadError(0));
        return;
    }
    QVERIFY2(result, result ? "" : result.error().c_str());
    // Per chip: D/2 of the reduction; FP32 is 4 bytes; a ring all-reduce over 2 chips sends
    // B·F elements of partial sums (docs/MODEL.md §5.3).
    const double localD = double(d) / 2.0;
    const double flops = 2.0 * double(b) * localD * double(f);
    const double bytes = 4.0 * (double(b) * localD + localD * double(f) + double(b) * double(f));
    const double networkBytes = 4.0 * double(b) * double(f);
    const double tMin = std::max({ flops / 1e12, bytes / 1e11, networkBytes / networkBandwidth });
    QVERIFY(::test::close(result->tMin, tMin, 1e-9));
    QCOMPARE(result->tMin, networkBytes / networkBandwidth); // the link bounds this one
}

QTEST_GUILESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
