// The accepted ranges of core/model/value_ranges.h over a table of extreme values: a point,
// machine or what-if move outside them is refused with its reason (by the readers' checks and
// by the analysis itself), and every accepted one gives finite intensity, performance,
// attainable, T_min and utilization equal to the model's formulas computed here.
#include "core/analysis/analysis.h"
#include "core/io/read_result.h"
#include "core/model/hardware.h"
#include "core/model/value_ranges.h"
#include "core/workspace/workspace.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace ridgepoint;

class TestValueRanges : public QObject
{
    Q_OBJECT

private slots:
    void extremeValues_data();
    void extremeValues();
    void messagesNameTheRange_data();
    void messagesNameTheRange();
};

void TestValueRanges::extremeValues_data()
{
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("seconds");
    QTest::addColumn<double>("peak");
    QTest::addColumn<double>("bandwidth");
    QTest::addColumn<double>("bytesFactor");
    QTest::addColumn<double>("timeFactor");
    QTest::addColumn<QString>("refusal"); // empty: accepted

    QTest::newRow("ordinary") << 1e12 << 1e9 << 1e-3 << 1e15 << 1e12 << 1.0 << 1.0 << "";
    QTest::newRow("1e308 FLOPs over 1e-308 s")
        << 1e308 << 1e9 << 1e-308 << 1e15 << 1e12 << 1.0 << 1.0
        << "the FLOP count 1e+308 FLOP is outside the accepted range [1e-06, 1e+30] FLOP";
    QTest::newRow("5e-324 everywhere") << 5e-324 << 5e-324 << 5e-324 << 5e-324 << 5e-324 << 1.0
                                       << 1.0 << "the FLOP count 4.94066e-324 FLOP is outside";
    QTest::newRow("5e-324 bytes") << 1e9 << 5e-324 << 1e-3 << 1e15 << 1e12 << 1.0 << 1.0
                                  << "the bytes at main memory: 4.94066e-324 B is outside";
    QTest::newRow("1e-308 s") << 1e9 << 1e9 << 1e-308 << 1e15 << 1e12 << 1.0 << 1.0
                              << "the time 1e-308 s is outside the accepted range [1e-15, 1e+09] s";
    QTest::newRow("peak 1e-300") << 1e9 << 1e9 << 1e-3 << 1e-300 << 1e12 << 1.0 << 1.0
                                 << "peak 1e-300 FLOP/s is outside the accepted range [1, 1e+21]";
    QTest::newRow("bandwidth 1e-300")
        << 1e9 << 1e9 << 1e-3 << 1e15 << 1e-300 << 1.0 << 1.0
        << "bandwidth 1e-300 B/s is outside the accepted range [1, 1e+21] B/s";
    QTest::newRow("peak 1e300") << 1e9 << 1e9 << 1e-3 << 1e300 << 1e12 << 1.0 << 1.0
                                << "peak 1e+300 FLOP/s is outside";
    QTest::newRow("lowest roof, fastest kernel")
        << 1e30 << 1e-6 << 1e-15 << 1.0 << 1.0 << 1.0 << 1.0 << "";
    QTest::newRow("highest roof, slowest kernel")
        << 1e-6 << 1e30 << 1e9 << 1e21 << 1.0 << 1.0 << 1.0 << "";
    QTest::newRow("stacked moves inside")
        << 1e12 << 1e9 << 1e-3 << 1e15 << 1e12 << 0.5 * 0.25 << 0.5 * 0.5 << "";
    QTest::newRow("stacked byte moves overflow")
        << 1e12 << 1e20 << 1e-3 << 1e15 << 1e12 << 1e10 * 1e10 * 1e10 << 1.0
        << "the what-if move makes the bytes at main memory 1e+50 B, outside";
    QTest::newRow("stacked time moves underflow")
        << 1e12 << 1e9 << 1e-10 << 1e15 << 1e12 << 1.0 << 1e-5 * 1e-5
        << "the what-if move makes the time 1e-20 s, outside";
    QTest::newRow("move factor inf") << 1e12 << 1e9 << 1e-3 << 1e15 << 1e12 << HUGE_VAL << 1.0
                                     << "the what-if factor inf is not a positive finite number";
}

void TestValueRanges::extremeValues()
{
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(double, seconds);
    QFETCH(double, peak);
    QFETCH(double, bandwidth);
    QFETCH(double, bytesFactor);
    QFETCH(double, timeFactor);
    QFETCH(QString, refusal);

    KernelPoint point;
    point.name = "k";
    point.flops = flops;
    point.bytes.push_back({ std::nullopt, bytes });
    point.seconds = seconds;
    const Hardware hardware = makeSimpleMachine(peak, bandwidth);
    const WhatIf move { bytesFactor, timeFactor };

    // What the readers, validateHardware and the move check say, in that order.
    std::optional<std::string> problem = pointProblem(point);
    if (!problem) {
        const auto machine = validateHardware(hardware);
        if (!machine.empty())
            problem = machine.front();
    }
    if (!problem)
        problem = moveProblem(point, bytesFactor, timeFactor);

    // The analysis refuses the same things on its own (a point built in code, a session).
    const auto analysis = analyzePoint(applyWhatIf(point, move), hardware);
    if (!refusal.isEmpty()) {
        QVERIFY2(problem, "accepted");
        QVERIFY2(QString::fromStdString(*problem).contains(refusal), problem->c_str());
        if (std::isfinite(bytesFactor))
            QVERIFY2(!analysis, "the analysis placed a point outside the ranges");
        return;
    }
    QVERIFY2(!problem, problem ? problem->c_str() : "");
    QVERIFY2(analysis, analysis ? "" : analysis.error().c_str());

    // docs/MODEL.md: I = F/B, P = F/t, T_min = max(F/π, B/β), attainable = F/T_min.
    const double movedBytes = bytes * bytesFactor;
    const double movedSeconds = seconds * timeFactor;
    const double intensity = flops / movedBytes;
    const double performance = flops / movedSeconds;
    const double tMin = std::max(flops / peak, movedBytes / bandwidth);
    const double attainable = flops / tMin;
    const double utilization = performance / attainable;
    for (const double value : { intensity, performance, tMin, attainable, utilization })
        QVERIFY(std::isfinite(value) && value > 0.0);

    const auto close = [](double a, double b) { return std::abs(a - b) <= 1e-12 * std::abs(b); };
    QVERIFY(analysis->performance && analysis->utilization);
    QVERIFY(close(analysis->levels.front().intensity, intensity));
    QVERIFY(close(*analysis->performance, performance));
    QVERIFY(close(analysis->tMin, tMin));
    QVERIFY(close(analysis->attainable, attainable));
    QVERIFY(close(*analysis->utilization, utilization));
}

void TestValueRanges::messagesNameTheRange_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("quantity");
    QTest::addColumn<QString>("message"); // empty: accepted
    const auto q = [](Quantity what) { return static_cast<int>(what); };
    QTest::newRow("peak 1") << 1.0 << q(Quantity::Peak) << "";
    QTest::newRow("peak 1e21") << 1e21 << q(Quantity::Peak) << "";
    QTest::newRow("peak 0.5") << 0.5 << q(Quantity::Peak)
                              << "0.5 FLOP/s is outside the accepted range [1, 1e+21] FLOP/s";
    QTest::newRow("bandwidth 2e21") << 2e21 << q(Quantity::Bandwidth)
                                    << "2e+21 B/s is outside the accepted range [1, 1e+21] B/s";
    QTest::newRow("FLOPs 0") << 0.0 << q(Quantity::Flops) << "";
    QTest::newRow("bytes 0") << 0.0 << q(Quantity::Bytes)
                             << "0 B is outside the accepted range [1e-06, 1e+30] B";
    QTest::newRow("time 2e9") << 2e9 << q(Quantity::Seconds)
                              << "2e+09 s is outside the accepted range [1e-15, 1e+09] s";
    QTest::newRow("intensity NaN") << std::nan("") << q(Quantity::Intensity)
                                   << "not a number (expected a value in [1e-30, 1e+30] FLOP/B)";
    QTest::newRow("performance inf")
        << HUGE_VAL << q(Quantity::Performance)
        << "inf FLOP/s is outside the accepted range [1e-06, 1e+30] FLOP/s";
}

void TestValueRanges::messagesNameTheRange()
{
    QFETCH(double, value);
    QFETCH(int, quantity);
    QFETCH(QString, message);
    const auto problem = valueProblem(value, static_cast<Quantity>(quantity));
    QCOMPARE(QString::fromStdString(problem.value_or("")), message);
}

QTEST_APPLESS_MAIN(TestValueRanges)
#include "tst_valueranges.moc"
