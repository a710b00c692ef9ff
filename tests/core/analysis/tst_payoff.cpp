// Payoff (docs/MODEL.md §2.2): time share × (1 − utilization), checked against the arithmetic
// written beside each row.
#include "core/analysis/payoff.h"

#include <QTest>

#include <optional>

using namespace ridgepoint;

namespace {

AnalyzedPoint timed(std::optional<double> seconds, std::optional<double> rate, double flops,
    std::optional<double> utilization)
{
    AnalyzedPoint p;
    p.point.flops = flops;
    p.point.seconds = seconds;
    p.point.measuredRate = rate;
    p.analysis.utilization = utilization;
    return p;
}

} // namespace

class TestPayoff : public QObject
{
    Q_OBJECT
private slots:
    void payoffOfOnePoint_data();
    void payoffOfOnePoint();
    void topThree();
    void largestMatchesAWholeSort_data();
    void largestMatchesAWholeSort();
};

void TestPayoff::payoffOfOnePoint_data()
{
    QTest::addColumn<double>("seconds"); // < 0: unknown
    QTest::addColumn<double>("rate"); // < 0: unknown
    QTest::addColumn<double>("utilization"); // < 0: unknown
    QTest::addColumn<double>("total");
    QTest::addColumn<double>("expected"); // < 0: no payoff
    // 2 s of 10 s at 25 % of the roof: 0.2 × 0.75 = 0.15.
    QTest::newRow("share times headroom") << 2.0 << -1.0 << 0.25 << 10.0 << 0.15;
    // 1e12 FLOP at 1e11 FLOP/s = 10 s of 40 s, at 90 %: 0.25 × 0.1 = 0.025.
    QTest::newRow("time from the rate") << -1.0 << 1e11 << 0.9 << 40.0 << 0.025;
    // Above its roof (utilization 1.3): it saves nothing.
    QTest::newRow("above the roof") << 5.0 << -1.0 << 1.3 << 10.0 << 0.0;
    QTest::newRow("planned point") << -1.0 << -1.0 << -1.0 << 10.0 << -1.0;
    QTest::newRow("no total") << 2.0 << -1.0 << 0.5 << 0.0 << -1.0;
}

void TestPayoff::payoffOfOnePoint()
{
    QFETCH(double, seconds);
    QFETCH(double, rate);
    QFETCH(double, utilization);
    QFETCH(double, total);
    QFETCH(double, expected);
    const auto opt = [](double v) { return v < 0 ? std::nullopt : std::optional<double>(v); };
    const auto value = payoff(timed(opt(seconds), opt(rate), 1e12, opt(utilization)), total);
    if (expected < 0) {
        QVERIFY(!value.has_value());
        return;
    }
    QVERIFY(value.has_value());
    QVERIFY(qAbs(*value - expected) < 1e-12);
}

void TestPayoff::topThree()
{
    // Times 1, 2, 3, 4 s (total 10) at utilizations 0.5, 0.9, 0.2, unknown:
    // payoffs 0.05, 0.02, 0.24, none → order 2, 0, 1.
    std::vector<AnalyzedPoint> points { timed(1.0, std::nullopt, 1e9, 0.5),
        timed(2.0, std::nullopt, 1e9, 0.9), timed(3.0, std::nullopt, 1e9, 0.2),
        timed(4.0, std::nullopt, 1e9, std::nullopt) };
    QCOMPARE(totalSeconds(points), 10.0);
    QCOMPARE(topPayoff(points, 3), (std::vector<std::size_t> { 2, 0, 1 }));
    QCOMPARE(topPayoff(points, 1), (std::vector<std::size_t> { 2 }));
    QCOMPARE(topPayoff({}, 3), std::vector<std::size_t> {});
}

void TestPayoff::largestMatchesAWholeSort_data()
{
    QTest::addColumn<std::vector<double>>("values");
    QTest::addColumn<int>("n");
    QTest::addColumn<std::vector<std::size_t>>("expected");
    // Written out by hand: larger first, ties by the lower index.
    QTest::newRow("ties keep the lower index")
        << std::vector<double> { 1, 3, 2, 3, 1 } << 3 << std::vector<std::size_t> { 1, 3, 2 };
    QTest::newRow("n over the count keeps all")
        << std::vector<double> { 0.5, 2, 1 } << 10 << std::vector<std::size_t> { 1, 2, 0 };
    QTest::newRow("n = 0 keeps none")
        << std::vector<double> { 1, 2 } << 0 << std::vector<std::size_t> {};
    QTest::newRow("nothing offered") << std::vector<double> {} << 4 << std::vector<std::size_t> {};
    QTest::newRow("a later larger value displaces the least")
        << std::vector<double> { 1, 2, 3, 4, 5, 0, 6 } << 2 << std::vector<std::size_t> { 6, 4 };
    QTest::newRow("all equal: the first n")
        << std::vector<double> { 7, 7, 7, 7 } << 2 << std::vector<std::size_t> { 0, 1 };
}

void TestPayoff::largestMatchesAWholeSort()
{
    QFETCH(std::vector<double>, values);
    QFETCH(int, n);
    QFETCH(std::vector<std::size_t>, expected);
    LargestN largest(static_cast<std::size_t>(n));
    std::vector<std::pair<double, std::size_t>> ranked;
    for (std::size_t i = 0; i < values.size(); ++i) {
        largest.offer(values[i], i);
        ranked.emplace_back(values[i], i);
    }
    QCOMPARE(largest.take(), expected);
    QCOMPARE(largest.take(), std::vector<std::size_t> {}); // taken once
    QCOMPARE(largestFirst(ranked, static_cast<std::size_t>(n)), expected);
}

QTEST_APPLESS_MAIN(TestPayoff)
#include "tst_payoff.moc"
