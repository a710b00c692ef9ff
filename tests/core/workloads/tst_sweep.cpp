// Sweeps of a workload parameter: parsing PARAM=A:B[:STEP], the values, and the crossing of
// the ridge.
#include "core/presets/presets.h"
#include "core/workloads/sweep.h"
#include "core/workloads/workloads.h"

#include <QTest>

#include <cmath>

using namespace ridgepoint;

namespace {

const Hardware &v5e()
{
    static const PresetDatabase presets = PresetDatabase::builtin();
    return **presets.find("TPU v5e");
}

ridgepoint::Expected<AnalyzedPoint, std::string> matmulAtBatch(
    double b, std::int64_t d, std::int64_t f)
{
    auto r = modelMatmul(
        { static_cast<std::int64_t>(b), d, f, Precision::BF16, QuantMode::None }, v5e());
    if (!r)
        return ridgepoint::Unexpected(r.error());
    return AnalyzedPoint { r->point, r->analysis };
}

} // namespace

class TestSweep : public QObject
{
    Q_OBJECT

private slots:
    void parsesRanges_data();
    void parsesRanges();
    void rejectsBadRanges_data();
    void rejectsBadRanges();
    void refusesEndlessSweeps();
    void batchSweepCrossesAtTheCriticalBatch_data();
    void batchSweepCrossesAtTheCriticalBatch();
    void reportsNoCrossingWhenTheBoundHolds();
    void namesTheValueThatFailed();
};

void TestSweep::parsesRanges_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("parameter");
    QTest::addColumn<QList<double>>("values");
    QTest::newRow("default doubles") << "b=1:16"
                                     << "b" << QList<double> { 1, 2, 4, 8, 16 };
    QTest::newRow("x4") << "seq=128:8192:x4"
                        << "seq" << QList<double> { 128, 512, 2048, 8192 };
    QTest::newRow("*3 stops below B") << "d=1:100:*3"
                                      << "d" << QList<double> { 1, 3, 9, 27, 81 };
    QTest::newRow("+64") << "b=64:320:+64"
                         << "b" << QList<double> { 64, 128, 192, 256, 320 };
    QTest::newRow("bare step adds") << "f=10:13:1"
                                    << "f" << QList<double> { 10, 11, 12, 13 };
    QTest::newRow("one value") << "b=7:7"
                               << "b" << QList<double> { 7 };
    QTest::newRow("fractional") << "x=0.5:2:+0.5"
                                << "x" << QList<double> { 0.5, 1, 1.5, 2 };
}

void TestSweep::parsesRanges()
{
    QFETCH(QString, text);
    QFETCH(QString, parameter);
    QFETCH(QList<double>, values);
    const auto range = parseSweep(text.toStdString());
    QVERIFY2(range, range ? "" : range.error().c_str());
    QCOMPARE(QString::fromStdString(range->parameter), parameter);
    const auto got = sweepValues(*range);
    QVERIFY(got);
    QCOMPARE(QList<double>(got->begin(), got->end()), values);
}

void TestSweep::rejectsBadRanges_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("no parameter") << "1:8"
                                  << "sweep \"1:8\" is not PARAM=A:B[:xSTEP|:+STEP]";
    QTest::newRow("one bound") << "b=8"
                               << "sweep \"b=8\" is not PARAM=A:B[:xSTEP|:+STEP]";
    QTest::newRow("words") << "b=one:8"
                           << "sweep \"b=one:8\": the bounds A and B must be numbers";
    QTest::newRow("reversed") << "b=8:1"
                              << "sweep \"b=8:1\": needs 0 < A <= B";
    QTest::newRow("zero start") << "b=0:8"
                                << "sweep \"b=0:8\": needs 0 < A <= B";
    QTest::newRow("x1") << "b=1:8:x1"
                        << "sweep \"b=1:8:x1\": a multiplicative step must exceed 1";
    QTest::newRow("+0") << "b=1:8:+0"
                        << "sweep \"b=1:8:+0\": an additive step must be positive";
    QTest::newRow("bad step") << "b=1:8:xx"
                              << "sweep \"b=1:8:xx\": the step must be xK, +K or K";
}

void TestSweep::rejectsBadRanges()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    const auto range = parseSweep(text.toStdString());
    QVERIFY(!range);
    QCOMPARE(QString::fromStdString(range.error()), message);
}

void TestSweep::refusesEndlessSweeps()
{
    const auto range = parseSweep("b=1:1e9:+1");
    QVERIFY(range);
    const auto values = sweepValues(*range, 1000);
    QVERIFY(!values);
    QVERIFY(QString::fromStdString(values.error()).contains("more than 1000 values"));
}

void TestSweep::batchSweepCrossesAtTheCriticalBatch_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("d");
    QTest::addColumn<double>("before");
    QTest::addColumn<double>("after");
    // D = F = 8192 on v5e bf16: compute-bound from the smallest B with
    // 2·B·8192² / (2·8192·B·2 + 2·8192²) >= 1.97e14/8.2e11, i.e. B >= 255.2 -> 256.
    QTest::newRow("doubling") << "b=1:1024" << qint64(8192) << 128.0 << 256.0;
    QTest::newRow("unit steps") << "b=250:260:+1" << qint64(8192) << 255.0 << 256.0;
    // D = F = 4096: B >= 240.24/(1 − 240.24·2/4096) = 272.2 -> 273.
    QTest::newRow("D=4096 unit steps") << "b=265:280:+1" << qint64(4096) << 272.0 << 273.0;
}

void TestSweep::batchSweepCrossesAtTheCriticalBatch()
{
    QFETCH(QString, text);
    QFETCH(qint64, d);
    QFETCH(double, before);
    QFETCH(double, after);
    const double ridge = 1.97e14 / 8.2e11;
    const double dd = static_cast<double>(d);
    QCOMPARE(std::ceil(ridge * 2 * dd * dd / (2 * dd * dd - ridge * 4 * dd)), after);

    const auto range = parseSweep(text.toStdString());
    QVERIFY(range);
    const auto values = sweepValues(*range);
    QVERIFY(values);
    const auto sweep = runSweep("b", *values, [&](double b) { return matmulAtBatch(b, d, d); });
    QVERIFY2(sweep, sweep ? "" : sweep.error().c_str());
    QCOMPARE(sweep->samples.size(), values->size());
    for (std::size_t i = 1; i < sweep->samples.size(); ++i) {
        QVERIFY(sweep->samples[i].value > sweep->samples[i - 1].value);
        QVERIFY(sweep->samples[i].point.analysis.levels.front().intensity
            > sweep->samples[i - 1].point.analysis.levels.front().intensity);
    }
    QCOMPARE(sweep->crossings.size(), std::size_t(1));
    QCOMPARE(sweep->crossings.front().before, before);
    QCOMPARE(sweep->crossings.front().after, after);
    QCOMPARE(sweep->crossings.front().from, Bound::Memory);
    QCOMPARE(sweep->crossings.front().to, Bound::Compute);
    // The same number the matmul model reports as its exact critical batch.
    const auto model = modelMatmul({ 1, d, d, Precision::BF16, QuantMode::None }, v5e());
    QVERIFY(model && model->criticalBatch);
    QCOMPARE(static_cast<double>(*model->criticalBatch), after);
}

void TestSweep::reportsNoCrossingWhenTheBoundHolds()
{
    // D = F = 256 never gets past 128 FLOP/B: memory-bound throughout.
    const auto sweep = runSweep(
        "b", { 1, 10, 100, 1000, 10000 }, [](double b) { return matmulAtBatch(b, 256, 256); });
    QVERIFY(sweep);
    QVERIFY(sweep->crossings.empty());
    for (const auto &s : sweep->samples)
        QCOMPARE(s.point.analysis.bound, Bound::Memory);
}

void TestSweep::namesTheValueThatFailed()
{
    const auto sweep = runSweep("b", { 4, 2, 0 }, [](double b) { return matmulAtBatch(b, 8, 8); });
    QVERIFY(!sweep);
    QCOMPARE(QString::fromStdString(sweep.error()),
        QString("b = 0: B must be a positive integer (got 0)"));
}

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
