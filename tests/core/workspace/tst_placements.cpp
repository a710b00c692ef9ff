// The compact analysis a Workspace keeps per point (core/workspace/placements.h): the same numbers
// as analyzePoint for every kind of point, the whole analysis made on demand equal to
// analyzePoint's, and the level table kept right through moves, insertions and removals.
#include "core/analysis/levels.h"
#include "core/workspace/placements.h"
#include "core/workspace/workspace.h"

#include "tests/support/testmachine.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace ridgepoint;

Q_DECLARE_METATYPE(ridgepoint::KernelPoint)
Q_DECLARE_METATYPE(ridgepoint::WhatIf)

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

// The test machine (π = 1 TFLOP/s FP32, DRAM 100 GB/s, L2 1 TB/s, no L1) with a launch latency
// of 10 µs, so that a tiny kernel is latency-bound.
Hardware machine()
{
    Hardware hw = test::machine();
    hw.limits.launchLatency = LatencyFigure { MemoryLevel::HBM, 1e-5, {} };
    return hw;
}

// A 64×64×64 FP32 matmul planned on the machine: no time, placed at its roof.
Workload matmul()
{
    Workload w;
    w.model = MatmulWorkload { MatmulSpec { 64, 64, 64, Precision::FP32, {} }, {}, {} };
    w.group = "planned";
    return w;
}

// The workspace of one point: `point` measured and moved by `move`, or the matmul when `planned`.
Workspace oneOf(const KernelPoint &point, const WhatIf &move, bool planned)
{
    Workspace workspace;
    workspace.setHardware(machine());
    if (planned) {
        const auto rows = workspace.workloadRows({ matmul() });
        if (rows)
            workspace.insertRows(*rows);
    } else {
        workspace.setPoints({ point });
        workspace.setWhatIf(0, move);
    }
    return workspace;
}

bool sameLevels(std::span<const LevelPlacement> placed, const PointAnalysis &a)
{
    const std::vector<LevelPlacement> expected = levelPlacements(a);
    if (placed.size() != a.levels.size() + a.unbounded.size() || expected.size() != placed.size())
        return false;
    for (std::size_t k = 0; k < placed.size(); ++k) {
        const LevelAnalysis &level
            = k < a.levels.size() ? a.levels[k] : a.unbounded[k - a.levels.size()];
        if (placed[k].intensity != level.intensity || placed[k].attainable != level.attainable
            || placed[k].bytes != level.bytes || placed[k].level != level.level
            || placed[k].bounded != level.bounded)
            return false;
    }
    return true;
}

// Every field of the placement against analyzePoint's analysis of the same point.
void compareWithAnalysis(const Workspace &workspace, std::size_t i, const PointResult &expected)
{
    const PointPlacement &p = workspace.placement(i);
    QCOMPARE(p.placed, expected.has_value());
    if (!expected)
        return;
    const PointAnalysis &a = *expected;
    QCOMPARE(p.y, a.performance.value_or(a.attainable));
    QCOMPARE(p.attainable, a.attainable);
    QCOMPARE(p.performance(), a.performance);
    QCOMPARE(p.utilization(), a.utilization);
    QCOMPARE(p.bound, a.bound);
    QCOMPARE(p.consistent, a.consistent);
    QCOMPARE(p.boundedLevels, static_cast<std::uint32_t>(a.levels.size()));
    QCOMPARE(p.unboundedLevels, static_cast<std::uint32_t>(a.unbounded.size()));
    QVERIFY(sameLevels(workspace.placements().levels(i), a));
    const LevelPlacement *main = workspace.placements().mainLevel(i);
    const LevelAnalysis *expectedMain = mainLevel(a);
    QCOMPARE(main != nullptr, expectedMain != nullptr);
    if (main) {
        QCOMPARE(main->level, expectedMain->level);
        QCOMPARE(main->intensity, expectedMain->intensity);
    }
    // The table's Bound and Consistency cells read these instead of the whole analysis.
    const std::string *limiting = workspace.placements().limitingCeiling(i);
    QVERIFY(limiting);
    QCOMPARE(*limiting, a.limitingCeiling);
    QCOMPARE(p.diagnosed, !a.diagnosis.empty());
    const ComputeCeiling *ceiling = workspace.hardware().findCompute(a.computeCeiling);
    QVERIFY(ceiling);
    QCOMPARE(p.computeCeiling,
        static_cast<std::uint32_t>(ceiling - workspace.hardware().compute.data()));
}

// The whole analysis made on demand against analyzePoint's: every number and word.
void compareDetails(const PointResult &actual, const PointResult &expected)
{
    QCOMPARE(actual.has_value(), expected.has_value());
    if (!expected) {
        QCOMPARE(actual.error(), expected.error());
        return;
    }
    QCOMPARE(actual->computeCeiling, expected->computeCeiling);
    QCOMPARE(actual->tMin, expected->tMin);
    QCOMPARE(actual->tMax, expected->tMax);
    QCOMPARE(actual->limitingCeiling, expected->limitingCeiling);
    QCOMPARE(actual->note, expected->note);
    QCOMPARE(actual->diagnosis.size(), expected->diagnosis.size());
    for (std::size_t k = 0; k < expected->diagnosis.size(); ++k)
        QCOMPARE(actual->diagnosis[k].cause, expected->diagnosis[k].cause);
    QCOMPARE(actual->levels.size(), expected->levels.size());
    for (std::size_t k = 0; k < expected->levels.size(); ++k) {
        QCOMPARE(actual->levels[k].memory, expected->levels[k].memory);
        QCOMPARE(actual->levels[k].tMem, expected->levels[k].tMem);
        QCOMPARE(actual->levels[k].bandwidthUtilization, expected->levels[k].bandwidthUtilization);
    }
    QCOMPARE(actual->unbounded.size(), expected->unbounded.size());
}

} // namespace

class TestPlacements : public QObject
{
    Q_OBJECT

private slots:
    void placementMatchesAnalyzePoint_data();
    void placementMatchesAnalyzePoint();
    void detailsFollowEveryChange();
    void levelsSurviveInsertionsAndRemovals();
};

// The hand-worked columns (NaN: not worked by hand) on machine(): I = F/B at the main level,
// y = F/t measured else the attainable F/T_min, T_min = max(F/π, B_l/β_l, 10 µs).
void TestPlacements::placementMatchesAnalyzePoint_data()
{
    QTest::addColumn<KernelPoint>("point");
    QTest::addColumn<WhatIf>("move");
    QTest::addColumn<bool>("planned");
    QTest::addColumn<bool>("placed");
    QTest::addColumn<double>("intensity");
    QTest::addColumn<double>("y");
    QTest::addColumn<double>("attainable");
    QTest::addColumn<int>("bound");
    QTest::addColumn<bool>("consistent");

    const auto memory = static_cast<int>(Bound::Memory);
    const auto latency = static_cast<int>(Bound::Latency);
    // 1 GFLOP, 1 GB in 20 ms: I = 1, T_min = 10 ms (DRAM), attainable 100 GFLOP/s, y 50 GFLOP/s.
    QTest::newRow("measured") << test::point("stream", "g", 1e9, 1e9, 0.02) << WhatIf {} << false
                              << true << 1.0 << 5e10 << 1e11 << memory << true;

    // DRAM 1 GB (I = 1), L2 0.1 GB (I = 10, roof 1 TFLOP/s), L1 10 MB with no ceiling
    // (I = 100, unbounded): T_min = 10 ms, y = 1e9 / 0.1 s.
    KernelPoint levels = test::point("tiled", "g", 1e9, 1e9, 0.1);
    levels.bytes
        = { { MemoryLevel::DRAM, 1e9 }, { MemoryLevel::L2, 1e8 }, { MemoryLevel::L1, 1e7 } };
    QTest::newRow("multi-level") << levels << WhatIf {} << false << true << 1.0 << 1e10 << 1e11
                                 << memory << true;
    // 1 ms for what takes at least 10 ms: 1 TFLOP/s, ten times the roof.
    QTest::newRow("inconsistent") << test::point("fast", "g", 1e9, 1e9, 0.001) << WhatIf {} << false
                                  << true << 1.0 << 1e12 << 1e11 << memory << false;
    // 1 kFLOP, 1 kB: F/π = 1 ns, B/β = 10 ns, both under the 10 µs launch: 1e3 / 1e-5 = 1e8.
    QTest::newRow("latency-bound") << test::point("tiny", "g", 1e3, 1e3, 1e-4) << WhatIf {} << false
                                   << true << 1.0 << 1e7 << 1e8 << latency << true;
    // Bytes halved (I = 2, T_min 5 ms, roof 200 GFLOP/s) and time halved (10 ms: 100 GFLOP/s).
    QTest::newRow("moved") << test::point("stream", "g", 1e9, 1e9, 0.02) << WhatIf { 0.5, 0.5 }
                           << false << true << 2.0 << 1e11 << 2e11 << memory << true;
    // Known by intensities and rate: main memory 5 FLOP/B (roof 100 GB/s × 5), L2 0.5 FLOP/B
    // (1 TB/s × 0.5): attainable 500 GFLOP/s; L1 has no ceiling. 50 GFLOP/s measured.
    KernelPoint nersc;
    nersc.name = "nersc";
    nersc.measuredRate = 5e10;
    nersc.intensity = 5.0;
    nersc.levelIntensities = { { MemoryLevel::L1, 50.0 }, { MemoryLevel::L2, 0.5 } };
    QTest::newRow("by intensity") << nersc << WhatIf {} << false << true << 5.0 << 5e10 << 5e11
                                  << memory << true;
    QTest::newRow("workload") << KernelPoint {} << WhatIf {} << true << true << kNone << kNone
                              << kNone << -1 << true;
    QTest::newRow("unplaceable") << test::point("negative", "g", -1.0, 1e9, 0.02) << WhatIf {}
                                 << false << false << kNone << kNone << kNone << -1 << true;
    KernelPoint fp16 = test::point("half", "g", 1e9, 1e9, 0.02);
    fp16.precision = Precision::FP16; // the machine has no FP16 ceiling
    QTest::newRow("no ceiling") << fp16 << WhatIf {} << false << false << kNone << kNone << kNone
                                << -1 << true;
}

void TestPlacements::placementMatchesAnalyzePoint()
{
    QFETCH(KernelPoint, point);
    QFETCH(WhatIf, move);
    QFETCH(bool, planned);
    QFETCH(bool, placed);
    QFETCH(double, intensity);
    QFETCH(double, y);
    QFETCH(double, attainable);
    QFETCH(int, bound);
    QFETCH(bool, consistent);

    const Workspace workspace = oneOf(point, move, planned);
    QCOMPARE(workspace.pointCount(), std::size_t { 1 });
    // The independent calculation: analyzePoint on the point as moved, on the machine.
    const PointResult expected = analyzePoint(workspace.point(0), machine());
    compareWithAnalysis(workspace, 0, expected);
    compareDetails(workspace.analysis(0), expected);

    const PointPlacement &p = workspace.placement(0);
    QCOMPARE(p.placed, placed);
    if (!placed)
        return;
    QCOMPARE(p.measured, !planned);
    if (!std::isnan(intensity))
        QCOMPARE(workspace.placements().mainLevel(0)->intensity, intensity);
    if (!std::isnan(y))
        QCOMPARE(p.y, y);
    if (!std::isnan(attainable))
        QCOMPARE(p.attainable, attainable);
    if (bound >= 0)
        QCOMPARE(static_cast<int>(p.bound), bound);
    QCOMPARE(p.consistent, consistent);
}

// The details asked for after a move, a machine change and a removal are the new ones, not the
// last ones kept.
void TestPlacements::detailsFollowEveryChange()
{
    Workspace workspace;
    workspace.setHardware(machine());
    workspace.setPoints(test::points());
    QCOMPARE(workspace.analysis(0)->attainable, 1e11);
    workspace.setWhatIf(0, WhatIf { 0.5, 1.0 });
    QCOMPARE(workspace.analysis(0)->attainable, 2e11);
    compareDetails(workspace.analysis(0), analyzePoint(workspace.point(0), machine()));

    Hardware faster = machine();
    faster.memory.front().bandwidth = 2e11;
    workspace.setHardware(faster);
    QCOMPARE(workspace.analysis(0)->attainable, 4e11);
    QCOMPARE(workspace.placement(0).attainable, 4e11);

    workspace.removeRows({ 0 });
    QCOMPARE(workspace.analysis(0)->computeCeiling, std::string("FP32 vector"));
    QCOMPARE(workspace.placement(0).attainable, 1e12); // gemm: compute-bound at I = 100
    compareDetails(workspace.analysis(0), analyzePoint(workspace.point(0), faster));
}

// Rows removed and put back many times (undo and redo), and moved, keep every point's levels its
// own: the level table is compacted on the way (Placements::compactLevels).
void TestPlacements::levelsSurviveInsertionsAndRemovals()
{
    Workspace workspace;
    workspace.setHardware(machine());
    std::vector<KernelPoint> points = test::points();
    KernelPoint levels = test::point("tiled", "g", 1e9, 1e9, 0.1);
    levels.bytes
        = { { MemoryLevel::DRAM, 1e9 }, { MemoryLevel::L2, 1e8 }, { MemoryLevel::L1, 1e7 } };
    points.insert(points.begin() + 1, levels);
    workspace.setPoints(points);
    for (int round = 0; round < 200; ++round) {
        const PointRows rows = workspace.rowsAt({ 1, 2 });
        workspace.removeRows(rows.indices);
        workspace.insertRows(rows);
        workspace.setWhatIf(1, WhatIf { 1.0 + round % 3, 1.0 });
    }
    for (std::size_t i = 0; i < workspace.pointCount(); ++i)
        compareWithAnalysis(workspace, i, analyzePoint(workspace.point(i), machine()));
    QCOMPARE(workspace.placements().levels(1).size(), std::size_t { 3 });
}

QTEST_GUILESS_MAIN(TestPlacements)
#include "tst_placements.moc"
