// The achievable band of a calibrated machine on the chart (docs/MODEL.md §15.6): its dotted
// roofs at fraction × the fitted figure, one legend entry per class, the tooltip, the classes
// of the points on screen; nothing on a machine without a calibration. On the real RooflinePlot,
// offscreen, with every figure worked out by hand from the test machine (FP32 vector 1 TFLOP/s,
// DRAM 100 GB/s).
#include "tests/support/testmachine.h"

#include "widgets/chart/achievableband.h"
#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/rooflayer.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"

#include <QTest>

#include <memory>

using namespace ridgepoint;

namespace {

KernelFit classFit(OperatorClass kind, double c, double mu, std::size_t rows)
{
    KernelFit f;
    f.name = std::string(operatorClassName(kind));
    f.kind = kind;
    f.computeFraction = c;
    f.memoryFraction = mu;
    f.floorSeconds = 2e-6;
    f.error.rows = rows;
    return f;
}

// GEMMs at 50 % of the compute roof and 25 % of the memory roof (48 rows); elementwise
// operators at 50 % of the memory roof (their 90 % of the compute roof is never drawn; 30 rows).
Hardware calibrated()
{
    Hardware hw = test::machine();
    Calibration cal;
    cal.computeCeiling = "FP32 vector";
    cal.peak = 1e12;
    cal.memoryCeiling = "DRAM";
    cal.bandwidth = 1e11;
    cal.classes = { classFit(OperatorClass::Gemm, 0.5, 0.25, 48),
        classFit(OperatorClass::Elementwise, 0.9, 0.5, 30) };
    hw.calibration = cal;
    return hw;
}

QStringList legendNames(const RooflinePlot &plot)
{
    QStringList names;
    for (int i = 0; i < plot.legend->itemCount(); ++i) {
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot.legend->item(i)))
            names << item->plottable()->name();
    }
    return names;
}

} // namespace

class TestAchievableBand : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup() { plot.reset(); }
    void roofsAtTheCalibratedFigures_data();
    void roofsAtTheCalibratedFigures();
    void tooltipGivesFractionTimesSpec();
    void plainMachineDrawsNoBand();

private:
    std::unique_ptr<RooflinePlot> plot;
};

void TestAchievableBand::init()
{
    plot = std::make_unique<RooflinePlot>();
    plot->resize(900, 620);
    plot->show();
    QVERIFY(QTest::qWaitForWindowExposed(plot.get()));
}

void TestAchievableBand::roofsAtTheCalibratedFigures_data()
{
    QTest::addColumn<QString>("group"); // of the one point; empty: no point
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<QStringList>("legend");
    const QString gemm = "GEMM achievable (calibrated on 48 rows)";
    const QString elementwise = "Elementwise/norm achievable (calibrated on 30 rows)";
    // No point: every class. GEMM: 0.5 × 1 TFLOP/s, 0.25 × 100 GB/s; elementwise 0.5 × 100 GB/s.
    QTest::newRow("no point") << QString() << QList<double> { 5e11, 2.5e10, 5e10 }
                              << QStringList { gemm, elementwise };
    QTest::newRow("a GEMM point") << QString("gemm") << QList<double> { 5e11, 2.5e10 }
                                  << QStringList { gemm };
    QTest::newRow("an elementwise point")
        << QString("elementwise") << QList<double> { 5e10 } << QStringList { elementwise };
}

void TestAchievableBand::roofsAtTheCalibratedFigures()
{
    QFETCH(QString, group);
    QFETCH(QList<double>, values);
    QFETCH(QStringList, legend);
    plot->document()->resetHardware(calibrated());
    if (!group.isEmpty())
        plot->document()->resetPoints({ test::point("k", group.toStdString(), 1e9, 1e9, 0.02) });
    plot->replot();
    const auto &lines = plot->roofLayer().bands().lines();
    QCOMPARE(static_cast<qsizetype>(lines.size()), values.size());
    for (qsizetype i = 0; i < values.size(); ++i)
        QCOMPARE(lines[static_cast<std::size_t>(i)]->value(), values[i]);
    QStringList shown;
    for (const QString &name : legendNames(*plot)) {
        if (name.contains("achievable"))
            shown << name;
    }
    QCOMPARE(shown, legend);
}

void TestAchievableBand::tooltipGivesFractionTimesSpec()
{
    plot->document()->resetHardware(calibrated());
    plot->resetToHardwareFrame();
    plot->replot();
    // On the GEMM compute roof (500 GFLOP/s, from 0.5 FLOP/B to the right) at 20 FLOP/B.
    const QPointF on(plot->xAxis->coordToPixel(20.0), plot->yAxis->coordToPixel(5e11));
    const QString text = plot->roofLayer().bands().descriptionAt(on);
    QVERIFY2(text.contains("GEMM achievable, 50 % of FP32 vector, calibrated on 48 rows"),
        qPrintable(text));
    QVERIFY2(text.contains("500 GFLOP/s = 0.5 × 1 TFLOP/s"), qPrintable(text));
    // 20 pixels above it: nothing.
    QVERIFY(plot->roofLayer().bands().descriptionAt(on - QPointF(0.0, 20.0)).isEmpty());
}

void TestAchievableBand::plainMachineDrawsNoBand()
{
    plot->document()->resetHardware(test::machine());
    plot->replot();
    QVERIFY(plot->roofLayer().bands().lines().empty());
    for (const QString &name : legendNames(*plot))
        QVERIFY2(!name.contains("achievable"), qPrintable(name));
}

QTEST_MAIN(TestAchievableBand)
#include "tst_achievableband.moc"
