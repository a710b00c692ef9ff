// The chart's default picture for the data on screen: the frame that fits the points and the
// roofs above them, the compute roofs of the points' precisions (and "show all"), the tick
// labels as quantities, and the roof choice saved in sessions.
#include "tests/support/testfiles.h"
#include "tests/support/testmachine.h"

#include "core/io/formats/ncu_reader.h"
#include "core/presets/presets.h"
#include "core/session/session.h"
#include "tests/support/testpaths.h"
#include "widgets/chart/chartaxes.h"
#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/rooflayer.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"

#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace ridgepoint;

namespace {

Hardware a100()
{
    static const PresetDatabase presets = PresetDatabase::builtin();
    const auto found = presets.find("A100 40GB");
    return found ? **found : Hardware {};
}

// tests/data/ncu/ncu_levels_daxpy_stencil.csv: an FP64 daxpy and an FP32 stencil launch,
// bytes at L1, L2 and DRAM (tests/data/ncu/README.md).
std::vector<KernelPoint> ncuPoints()
{
    const QByteArray text = test::readAll(
        test::sourcePath(QStringLiteral("tests/data/ncu/ncu_levels_daxpy_stencil.csv")));
    return readNcuCsv(text.toStdString(), "levels.csv").points;
}

// One point at main memory and L2 on test::machine() (β 100 GB/s DRAM, 1 TB/s L2).
KernelPoint twoLevels()
{
    KernelPoint p = test::point("two", "g", 1e9, 1e9, 0.02); // I = 1 at DRAM, 50 GFLOP/s
    p.bytes.push_back({ MemoryLevel::L2, 1e8 }); // I = 10 at L2
    return p;
}

std::vector<KernelPoint> withPrecision(std::vector<KernelPoint> points, Precision precision)
{
    for (auto &p : points)
        p.precision = precision;
    return points;
}

struct Extremes {
    double xLow = 1e300, xHigh = 0.0, yLow = 1e300, yHigh = 0.0;
};

// Every level's marker and the roof above it, from the analysis (not from the frame code).
Extremes extremesOf(const Document &doc)
{
    Extremes e;
    for (std::size_t i = 0; i < doc.pointCount(); ++i) {
        const auto &a = doc.analysis(i);
        if (!a)
            continue;
        const double y = a->performance.value_or(a->attainable);
        for (const auto &level : a->levels) {
            e.xLow = std::min(e.xLow, level.intensity);
            e.xHigh = std::max(e.xHigh, level.intensity);
            e.yLow = std::min({ e.yLow, y, level.attainable });
            e.yHigh = std::max({ e.yHigh, y, level.attainable });
        }
    }
    return e;
}

QStringList drawnComputeRoofs(const RooflinePlot &plot)
{
    QStringList names;
    const Hardware &hw = plot.hardware();
    for (const auto &roof : plot.roofLayer().ownRoofs()) {
        if (roof->kind() == chart::RoofLine::Kind::Compute)
            names << QString::fromStdString(hw.compute.at(std::size_t(roof->index())).name);
    }
    return names;
}

} // namespace

class TestChartFrame : public QObject
{
    Q_OBJECT

private slots:
    void tickLabels_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<bool>("rate");
        QTest::addColumn<QString>("text");
        QTest::newRow("100 G") << 1e11 << true << "100 GFLOP/s";
        QTest::newRow("1 T") << 1e12 << true << "1 TFLOP/s";
        QTest::newRow("10 P") << 1e16 << true << "10 PFLOP/s";
        QTest::newRow("1 M") << 1e6 << true << "1 MFLOP/s";
        QTest::newRow("1 FLOP/s") << 1.0 << true << "1 FLOP/s";
        QTest::newRow("0.1 FLOP/B") << 0.1 << false << "0.1 FLOP/B";
        QTest::newRow("10 FLOP/B") << 10.0 << false << "10 FLOP/B";
        QTest::newRow("0.001 FLOP/B") << 1e-3 << false << "0.001 FLOP/B";
        QTest::newRow("1e-5 FLOP/B") << 1e-5 << false << "0.00001 FLOP/B";
        QTest::newRow("10000 FLOP/B") << 1e4 << false << "10000 FLOP/B";
        QTest::newRow("1 FLOP/B") << 1.0 << false << "1 FLOP/B";
    }
    void tickLabels()
    {
        QFETCH(double, value);
        QFETCH(bool, rate);
        QFETCH(QString, text);
        using Style = chart::QuantityLogTicker::Style;
        QCOMPARE(chart::QuantityLogTicker::tickLabel(value, rate ? Style::Rate : Style::Intensity),
            text);
    }

    void defaultFrameFitsData_data()
    {
        QTest::addColumn<int>("set");
        // Exact frames (0 = check only the bounds): xLow, xHigh, yLow, yHigh.
        QTest::addColumn<QList<double>>("expected");
        QTest::newRow("ncu file on A100") << 0 << QList<double> {};
        // test::points(): I 1..100 FLOP/B, 50 GFLOP/s..1 TFLOP/s (gemm's roof), ridge 10 FLOP/B
        // inside a decade of them: x 1/2 → 0.1, 100·2 → 1000; y 5e10/2 → 1e10, 1e12·2 → 1e13.
        QTest::newRow("test machine, three points") << 1 << QList<double> { 0.1, 1e3, 1e10, 1e13 };
        // I = 0.01 at 10 MFLOP/s under a 1 GFLOP/s roof (100 GB/s × 0.01); ridge 10 is three
        // decades away: x 0.005 → 0.001, 0.02 → 0.1; y 5e6 → 1e6, 2e9 → 1e10.
        QTest::newRow("one slow point far from the ridge")
            << 2 << QList<double> { 1e-3, 0.1, 1e6, 1e10 };
        // DRAM I = 1 (roof 100 GFLOP/s), L2 I = 10 (roof min(1 T, 1 T·10) = 1 TFLOP/s), 50 GFLOP/s:
        // x 0.5 → 0.1, 20 → 100; y 2.5e10 → 1e10, 2e12 → 1e13.
        QTest::newRow("two levels") << 3 << QList<double> { 0.1, 100.0, 1e10, 1e13 };
    }
    void defaultFrameFitsData()
    {
        QFETCH(int, set);
        QFETCH(QList<double>, expected);
        Document doc;
        if (set == 0) {
            doc.resetHardware(a100());
            doc.resetPoints(ncuPoints());
            QCOMPARE(doc.pointCount(), std::size_t(2)); // daxpy and stencil
        } else {
            doc.resetHardware(test::machine());
            if (set == 1)
                doc.resetPoints(test::points());
            else if (set == 2)
                doc.resetPoints({ test::point("slow", "g", 1e7, 1e9, 1.0) });
            else
                doc.resetPoints({ twoLevels() });
        }
        RooflinePlot plot;
        plot.resize(1000, 700);
        plot.setDocument(&doc); // the default frame
        const QCPRange x = plot.xAxis->range();
        const QCPRange y = plot.yAxis->range();
        const Extremes e = extremesOf(doc);
        QVERIFY(e.xHigh > 0.0);
        // Encloses every marker and the roof above it ...
        QVERIFY(x.lower <= e.xLow && x.upper >= e.xHigh);
        QVERIFY(y.lower <= e.yLow && y.upper >= e.yHigh);
        // ... and spans no more than a decade and the factor-2 margin beyond them (the ridge,
        // when included, lies within a decade of the points: 10 × 20 at most).
        QVERIFY2(x.lower >= e.xLow / 200.0 && x.upper <= e.xHigh * 200.0,
            qPrintable(QString("x %1..%2").arg(x.lower).arg(x.upper)));
        QVERIFY2(
            y.lower >= e.yLow / 20.0, qPrintable(QString("y %1 for %2").arg(y.lower).arg(e.yLow)));
        // Decades.
        for (const double v : { x.lower, x.upper, y.lower, y.upper })
            QVERIFY(std::abs(std::log10(v) - std::round(std::log10(v))) < 1e-9);
        if (!expected.isEmpty()) {
            QCOMPARE(x.lower, expected[0]);
            QCOMPARE(x.upper, expected[1]);
            QCOMPARE(y.lower, expected[2]);
            QCOMPARE(y.upper, expected[3]);
        }
        // Fit to hardware is the old, wider frame; fit to data returns.
        plot.resetToHardwareFrame();
        const chart::AxisFrame hw = chart::hardwareFrame(doc.hardware());
        QCOMPARE(plot.yAxis->range().upper, hw.yUpper);
        plot.fitToData();
        QCOMPARE(plot.xAxis->range(), x);
        QCOMPARE(plot.yAxis->range(), y);
        // One format on each axis: every tick a quantity with its unit, no exponent.
        plot.replot();
        static const QRegularExpression rate(R"(^\d+(\.\d+)? [kMGTPE]?FLOP/s$)");
        static const QRegularExpression intensity(R"(^\d+(\.\d+)? FLOP/B$)");
        for (const QString &label : plot.yAxis->tickVectorLabels())
            QVERIFY2(rate.match(label).hasMatch(), qPrintable(label));
        for (const QString &label : plot.xAxis->tickVectorLabels())
            QVERIFY2(intensity.match(label).hasMatch(), qPrintable(label));
    }

    void withoutPointsTheHardwareFrame()
    {
        Document doc;
        doc.resetHardware(a100());
        RooflinePlot plot;
        plot.setDocument(&doc);
        const chart::AxisFrame hw = chart::hardwareFrame(doc.hardware());
        QCOMPARE(plot.xAxis->range().lower, hw.xLower);
        QCOMPARE(plot.yAxis->range().upper, hw.yUpper);
    }

    void roofsByPrecision_data()
    {
        QTest::addColumn<int>("set");
        QTest::addColumn<bool>("all");
        QTest::addColumn<QStringList>("shown");
        QTest::addColumn<QStringList>("hidden");
        QTest::addColumn<QString>("emphasised");
        const QStringList dense = { "FP16 tensor", "BF16 tensor", "TF32 tensor", "FP32 CUDA",
            "FP64 tensor", "FP64 CUDA", "INT8 tensor", "INT4 tensor" };
        const QStringList sparse
            = { "FP16 tensor 2:4 sparse", "INT8 tensor 2:4 sparse", "BF16 tensor 2:4 sparse" };
        // FP64 points only: both FP64 roofs; the analysis takes the fastest dense FP64 one.
        QTest::newRow("fp64 data")
            << 1 << false << QStringList { "FP64 tensor", "FP64 CUDA" }
            << QStringList { "FP16 tensor", "FP32 CUDA", "INT4 tensor", "FP16 tensor 2:4 sparse" }
            << "FP64 tensor";
        QTest::newRow("fp64 data, show all")
            << 1 << true << dense + sparse << QStringList {} << "FP64 tensor";
        // The ncu file: FP64 daxpy and FP32 stencil; FP16 and sparse roofs hidden.
        QTest::newRow("ncu fp64 + fp32") << 0 << false
                                         << QStringList { "FP64 tensor", "FP64 CUDA", "FP32 CUDA" }
                                         << QStringList { "FP16 tensor", "BF16 tensor",
                                                "TF32 tensor", "INT8 tensor", "INT4 tensor" }
                + sparse << "";
        QTest::newRow("fp16 data")
            << 2 << false << QStringList { "FP16 tensor" }
            << QStringList { "FP64 tensor", "FP16 tensor 2:4 sparse" } << "FP16 tensor";
        // No points: every dense precision (an overview of the machine), sparse hidden.
        QTest::newRow("no points") << 3 << false << dense << sparse << "";
    }
    void roofsByPrecision()
    {
        QFETCH(int, set);
        QFETCH(bool, all);
        QFETCH(QStringList, shown);
        QFETCH(QStringList, hidden);
        QFETCH(QString, emphasised);
        Document doc;
        doc.resetHardware(a100());
        if (set == 0)
            doc.resetPoints(ncuPoints());
        else if (set == 1)
            doc.resetPoints(withPrecision(test::points(), Precision::FP64));
        else if (set == 2)
            doc.resetPoints(withPrecision(test::points(), Precision::FP16));
        RooflinePlot plot;
        plot.setDocument(&doc);
        if (all)
            doc.setRoofsShown(RoofsShown::All);
        const QStringList drawn = drawnComputeRoofs(plot);
        for (const QString &name : shown)
            QVERIFY2(drawn.contains(name), qPrintable(name + " not in " + drawn.join(", ")));
        for (const QString &name : hidden)
            QVERIFY2(!drawn.contains(name), qPrintable(name + " in " + drawn.join(", ")));
        const auto index = plot.roofLayer().emphasised();
        QVERIFY(index);
        if (!emphasised.isEmpty())
            QCOMPARE(QString::fromStdString(doc.hardware().compute.at(*index).name), emphasised);
        // Every point's own ceiling is drawn: it is judged against that roof.
        for (std::size_t i = 0; i < doc.pointCount(); ++i) {
            if (const auto &a = doc.analysis(i))
                QVERIFY(drawn.contains(QString::fromStdString(a->computeCeiling)));
        }
        // The emphasised roof's name is on its label, also when another ceiling has its peak
        // (FP64 tensor and FP32 CUDA both 19.5 TFLOP/s).
        const std::string name = doc.hardware().compute.at(*index).name;
        bool labelled = false;
        for (const auto &roof : plot.roofLayer().ownRoofs()) {
            if (roof->kind() == chart::RoofLine::Kind::Compute && roof->index() == int(*index))
                labelled = roof->text().startsWith(QString::fromStdString(name));
        }
        QVERIFY2(labelled, name.c_str());
    }

    void roofChoiceSurvivesASession_data()
    {
        QTest::addColumn<int>("choice"); // 0 data, 1 all, 2 a session without the key
        QTest::addColumn<int>("loaded");
        QTest::newRow("data") << 0 << 0;
        QTest::newRow("all") << 1 << 1;
        QTest::newRow("older session") << 2 << 0;
    }
    void roofChoiceSurvivesASession()
    {
        QFETCH(int, choice);
        QFETCH(int, loaded);
        Document doc;
        doc.resetHardware(test::machine());
        doc.resetPoints(test::points());
        doc.setRoofsShown(choice == 1 ? RoofsShown::All : RoofsShown::Data);
        std::string json = writeSessionJson(doc.toSession());
        QVERIFY(json.find("\"roofs\"") != std::string::npos);
        if (choice == 2) {
            const auto at = json.find("\"roofs\"");
            const auto end = json.find('\n', at);
            json.erase(at, end - at + 1);
            // The key was last or not: keep the JSON valid either way.
            const auto comma = json.rfind(',', at);
            if (json.find_first_not_of(" \n", at) == json.find('}', at))
                json.erase(comma, 1);
        }
        const auto read = readSessionJson(json, "s.json");
        QVERIFY2(read.session, read.diagnostics.empty() ? "" : read.diagnostics[0].message.c_str());
        Document other;
        other.setRoofsShown(loaded == 1 ? RoofsShown::Data : RoofsShown::All); // the opposite
        other.loadSession(*read.session);
        QCOMPARE(int(other.roofsShown()), loaded);
    }
};

QTEST_MAIN(TestChartFrame)
#include "tst_chartframe.moc"
