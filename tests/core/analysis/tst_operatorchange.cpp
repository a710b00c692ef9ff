// A trace against its baseline (docs/MODEL.md §11.7): points matched by operator and shapes,
// not kernel name; several kernels of one operator summed on either side; an operator only one
// run has listed, never dropped; the real A100 and V100 fixtures against a count made apart
// from Ridgepoint (tests/data/traces/operator_times.py).
#include "core/analysis/operator_change.h"
#include "core/io/formats/kineto_trace.h"
#include "core/io/readers.h"
#include "core/report/change_report.h"
#include "tests/support/reader_test_support.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace ridgepoint;
using ridgepoint::test::joined;
using ridgepoint::test::readTestData;

class TestOperatorChange : public QObject
{
    Q_OBJECT

private slots:
    void matchesHandMadeTraces_data();
    void matchesHandMadeTraces();
    void summarisesTheRuns();
    void kernelNamesAloneMatchNothing();
    void pairsEachPointWithItsOperator();
    void writesTheChangeInReports();
    void matchesTheRealFixtures_data();
    void matchesTheRealFixtures();
};

namespace {

const QString kMm = R"("Input Dims": [[64, 32], [32, 16]], "Input type": ["float", "float"])";
const QString kMmTall = R"("Input Dims": [[128, 32], [32, 16]], "Input type": ["float", "float"])";
const QString kSmall = R"("Input Dims": [[4, 16]], "Input type": ["float"])";

// One operator at `ts` (each 50 µs long, on thread 10) launching `kernels`: name and µs each.
QStringList call(const QString &op, const QString &shapes, int ts,
    const std::vector<std::pair<QString, double>> &kernels, int &correlation)
{
    QStringList events { QString(R"({"ph": "X", "cat": "cpu_op", "name": "%1", "pid": 10,
        "tid": 10, "ts": %2, "dur": 50, "args": {%3}})")
                             .arg(op)
                             .arg(ts)
                             .arg(shapes) };
    for (const auto &[name, dur] : kernels) {
        ++correlation;
        events << QString(R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
            "pid": 10, "tid": 10, "ts": %1, "dur": 2, "args": {"correlation": %2}})")
                      .arg(ts + correlation % 40 + 1)
                      .arg(correlation)
               << QString(R"({"ph": "X", "cat": "kernel", "name": "%1", "pid": 0, "tid": 7,
            "ts": %2, "dur": %3, "args": {"stream": 7, "correlation": %4}})")
                      .arg(name)
                      .arg(ts + 10)
                      .arg(dur)
                      .arg(correlation);
    }
    return events;
}

std::vector<KernelPoint> pointsOf(const QStringList &events)
{
    const std::string text = QString(R"({"schemaVersion": 1, "deviceProperties": [{"id": 0,
        "name": "NVIDIA A100-PG509-200"}], "traceEvents": [%1]})")
                                 .arg(events.join(",\n"))
                                 .toStdString();
    auto read = readKinetoTrace(text, "t.json");
    if (!read.diagnostics.empty())
        qWarning() << joined(read.diagnostics);
    return std::move(read.points);
}

// The "before": an A100's kernel names. mm on two shapes, relu, and a sigmoid the "after" lacks.
std::vector<KernelPoint> before()
{
    int c = 0;
    QStringList e = call("aten::mm", kMm, 100, { { "ampere_sgemm_64x32", 10 } }, c);
    e << call("aten::mm", kMmTall, 200, { { "ampere_sgemm_64x32", 20 } }, c);
    e << call("aten::relu", kSmall, 300, { { "relu_a100", 4 } }, c);
    e << call("aten::sigmoid", kSmall, 400, { { "sigmoid_a100", 3 } }, c);
    return pointsOf(e);
}

// The "after": a V100's names; the tall mm split in two kernels; a tanh the "before" lacks.
std::vector<KernelPoint> after()
{
    int c = 0;
    QStringList e = call("aten::mm", kMm, 100, { { "volta_sgemm_128x64", 20 } }, c);
    e << call("aten::mm", kMmTall, 200, { { "volta_gemm_splitk", 8 }, { "splitk_reduce", 2 } }, c);
    e << call("aten::relu", kSmall, 300, { { "relu_v100", 2 } }, c);
    e << call("aten::tanh", kSmall, 400, { { "tanh_v100", 5 } }, c);
    return pointsOf(e);
}

bool near(double a, double b, double relative = 1e-12)
{
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
}

} // namespace

void TestOperatorChange::matchesHandMadeTraces_data()
{
    QTest::addColumn<int>("row"); // in the table's order
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("baselineMicroseconds"); // < 0: not in the baseline
    QTest::addColumn<double>("currentMicroseconds"); // < 0: not in this run
    QTest::addColumn<double>("speedup"); // < 0: none
    QTest::addColumn<QString>("status");
    // Matched rows by the baseline's time: the tall mm 20 µs ÷ (8 + 2) µs = 2; mm 10 ÷ 20 = 0.5;
    // relu 4 ÷ 2 = 2. Then the tanh only here, then the sigmoid only in the baseline.
    QTest::newRow("one operator on two shapes: the tall one, two kernels here")
        << 0 << "aten::mm(float[128, 32], float[32, 16])" << 20.0 << 10.0 << 2.0 << "matched";
    QTest::newRow("same operator and shapes, other kernel names")
        << 1 << "aten::mm(float[64, 32], float[32, 16])" << 10.0 << 20.0 << 0.5 << "matched";
    QTest::newRow("relu") << 2 << "aten::relu(float[4, 16])" << 4.0 << 2.0 << 2.0 << "matched";
    QTest::newRow("only in this run")
        << 3 << "aten::tanh(float[4, 16])" << -1.0 << 5.0 << -1.0 << "only in this run";
    QTest::newRow("only in the baseline")
        << 4 << "aten::sigmoid(float[4, 16])" << 3.0 << -1.0 << -1.0 << "only in the baseline";
}

void TestOperatorChange::matchesHandMadeTraces()
{
    QFETCH(int, row);
    QFETCH(QString, key);
    QFETCH(double, baselineMicroseconds);
    QFETCH(double, currentMicroseconds);
    QFETCH(double, speedup);
    QFETCH(QString, status);
    const OperatorChanges changes = compareOperators(before(), after(), MatchBy::Operator);
    QCOMPARE(changes.rows.size(), std::size_t { 5 });
    const OperatorChange &c = changes.rows[static_cast<std::size_t>(row)];
    QCOMPARE(QString::fromStdString(c.key), key);
    QCOMPARE(c.baselinePoints > 0, baselineMicroseconds >= 0.0);
    QCOMPARE(c.currentPoints > 0, currentMicroseconds >= 0.0);
    if (baselineMicroseconds >= 0.0)
        QVERIFY(near(c.baselineSeconds, baselineMicroseconds * 1e-6));
    if (currentMicroseconds >= 0.0)
        QVERIFY(near(c.currentSeconds, currentMicroseconds * 1e-6));
    QCOMPARE(c.speedup().has_value(), speedup > 0.0);
    if (speedup > 0.0)
        QVERIFY2(near(*c.speedup(), speedup), qPrintable(QString::number(*c.speedup())));
    QCOMPARE(QString::fromUtf8(changeStatus(c)), status);
}

void TestOperatorChange::summarisesTheRuns()
{
    const OperatorChanges changes = compareOperators(before(), after(), MatchBy::Operator);
    QCOMPARE(changes.matched, std::size_t { 3 });
    QCOMPARE(changes.onlyCurrent, std::size_t { 1 });
    QCOMPARE(changes.onlyBaseline, std::size_t { 1 });
    // Matched: 20 + 10 + 4 = 34 µs before, 10 + 20 + 2 = 32 µs after: 34 / 32 = 1.0625. Every
    // point: 37 µs before (the sigmoid's 3 added), 37 after (the tanh's 5): 1.
    QVERIFY(near(changes.matchedBaselineSeconds, 34e-6));
    QVERIFY(near(changes.matchedCurrentSeconds, 32e-6));
    QVERIFY(near(*changes.matchedSpeedup(), 34.0 / 32.0));
    QVERIFY(near(*changes.totalSpeedup(), 1.0));
    // 32 of this run's 37 µs are operators the baseline also ran.
    QVERIFY(near(changes.matchedShare(), 32.0 / 37.0));
}

void TestOperatorChange::kernelNamesAloneMatchNothing()
{
    // Every kernel name differs between the two machines: by name nothing pairs, and every
    // point is listed on its own side.
    const OperatorChanges changes = compareOperators(before(), after(), MatchBy::Name);
    QCOMPARE(changes.matched, std::size_t { 0 });
    QCOMPARE(changes.onlyBaseline, std::size_t { 3 }); // ampere_sgemm (both shapes), relu, sigmoid
    QCOMPARE(changes.onlyCurrent, std::size_t { 5 });
    QCOMPARE(changes.matchedShare(), 0.0);
}

void TestOperatorChange::pairsEachPointWithItsOperator()
{
    const std::vector<KernelPoint> baseline = before();
    const std::vector<KernelPoint> current = after();
    BaselineOperators index(baseline, MatchBy::Operator);
    index.setCurrent(current);
    const auto at = [&](const std::string &name) {
        return *std::find_if(
            current.begin(), current.end(), [&](const KernelPoint &p) { return p.name == name; });
    };
    // Both kernels of the split mm get the operator's speed-up, 20 ÷ (8 + 2) = 2, and the same
    // baseline point: its FLOPs 2·128·16·32 and its 20 µs.
    for (const char *name : { "volta_gemm_splitk", "splitk_reduce" }) {
        const KernelPoint point = at(name);
        QVERIFY(near(*index.speedupOf(point), 2.0));
        const KernelPoint *base = index.find(point);
        QVERIFY(base != nullptr);
        QCOMPARE(base->flops, 2.0 * 128 * 16 * 32);
        QVERIFY(near(*base->seconds, 20e-6));
    }
    QVERIFY(near(*index.speedupOf(at("volta_sgemm_128x64")), 0.5));
    QVERIFY(!index.speedupOf(at("tanh_v100")));
    QVERIFY(index.find(at("tanh_v100")) == nullptr);
}

void TestOperatorChange::writesTheChangeInReports()
{
    const OperatorChanges changes = compareOperators(before(), after(), MatchBy::Operator);
    const auto json = changesJson(changes, "a100.json");
    QCOMPARE(json["match"].get<std::string>(), std::string("operator"));
    QVERIFY(near(json["matched_share"].get<double>(), 32.0 / 37.0));
    QCOMPARE(json["operators"].size(), std::size_t { 5 });
    QCOMPARE(json["operators"][0]["key"].get<std::string>(),
        std::string("aten::mm(float[128, 32], float[32, 16])"));
    QVERIFY(near(json["operators"][0]["speedup"].get<double>(), 2.0));
    QVERIFY(json["operators"][4]["speedup"].is_null()); // only in the baseline
    // CSV: a header and one row per operator; a shape's comma quotes its key.
    const std::string csv = changesCsv(changes);
    QVERIFY(csv.starts_with("operator and shapes,status,baseline time [s],time [s],speed-up [1],"
                            "baseline kernels,kernels\r\n\"aten::mm(float[128, 32], float[32, "
                            "16])\",matched,"));
    // Its speed-up, then the kernels: one in the baseline, the split two here.
    QVERIFY(csv.find(",2,1,2\r\n") != std::string::npos);
    QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), 6);
    const std::string table = changesTable(changes, "a100.json");
    QVERIFY2(table.find("Against a100.json (matched by operator and shapes; speed-up = baseline "
                        "time ÷ this run's time): 3 operators in both runs (86.5 % of this run's "
                        "time), 1 only here, 1 only in the baseline")
            != std::string::npos,
        table.c_str());
    QVERIFY(table.find("only in the baseline") != std::string::npos);
}

void TestOperatorChange::matchesTheRealFixtures_data()
{
    // Times per operator and shapes from tests/data/traces/operator_times.py, which links the
    // fixtures' kernels to their operators itself (json + bisect, no Ridgepoint code):
    //   cd tests/data/traces
    //   python3 operator_times.py diff_control_a100.json.gz diff_test_v100.json.gz
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("a100Milliseconds");
    QTest::addColumn<double>("v100Milliseconds");
    QTest::newRow("addmm 1024×512 · 512×96")
        << "aten::addmm(float[96], float[1024, 512], float[512, 96])" << 3.043 << 2.993;
    QTest::newRow("mul 1024×512") << "aten::mul(float[1024, 512], float[1024, 512])" << 3.524
                                  << 3.628;
    // One kernel on the A100, two on the V100 (a split GEMM), and the reverse for the add.
    QTest::newRow("addmm 1024×64 · 64×512, 1 → 2 kernels")
        << "aten::addmm(float[512], float[1024, 64], float[64, 512])" << 1.476 << 2.021;
    QTest::newRow("add 1024×512, 2 → 1 kernels")
        << "aten::add(float[1024, 512], float[1024, 512])" << 1.045 << 1.270;
    QTest::newRow("sigmoid, faster on the V100")
        << "aten::sigmoid(float[1024, 512])" << 1.425 << 0.647;
    QTest::newRow("layer norm backward")
        << "aten::native_layer_norm_backward(float[1024, 512], float[1024, 512], float[1024, 1], "
           "float[1024, 1], float[512], float[512])"
        << 2.780 << 2.994;
}

void TestOperatorChange::matchesTheRealFixtures()
{
    QFETCH(QString, key);
    QFETCH(double, a100Milliseconds);
    QFETCH(double, v100Milliseconds);
    // Read once for every row: a Debug build takes seconds per fixture.
    static const OperatorChanges changes = [] {
        const auto a100 = readPointsFile(readTestData("traces/diff_control_a100.json.gz"), "a");
        const auto v100 = readPointsFile(readTestData("traces/diff_test_v100.json.gz"), "v");
        return compareOperators(a100.points.points, v100.points.points, MatchBy::Operator);
    }();
    // Measured (99.4 %), rounded down: nearly all of the V100's placed time is in operators the
    // A100 ran with the same shapes (the V100's own work, torch.compile's regions, is unplaced
    // and so in neither). 128 keys match, 3 are only on the V100, 240 only on the A100.
    QVERIFY2(changes.matchedShare() >= 0.99, qPrintable(QString::number(changes.matchedShare())));
    QCOMPARE(changes.matched, std::size_t { 128 });
    const auto row = std::find_if(changes.rows.begin(), changes.rows.end(),
        [&](const OperatorChange &c) { return c.key == key.toStdString(); });
    QVERIFY2(row != changes.rows.end(), qPrintable(key));
    QVERIFY(row->matched());
    // The script prints times to 1 µs: 0.05 % of these.
    QVERIFY2(near(row->baselineSeconds, a100Milliseconds * 1e-3, 5e-4),
        qPrintable(QString::number(row->baselineSeconds * 1e3, 'f', 4)));
    QVERIFY2(near(row->currentSeconds, v100Milliseconds * 1e-3, 5e-4),
        qPrintable(QString::number(row->currentSeconds * 1e3, 'f', 4)));
    QVERIFY(near(*row->speedup(), a100Milliseconds / v100Milliseconds, 1e-3));
}

QTEST_APPLESS_MAIN(TestOperatorChange)
#include "tst_operatorchange.moc"
