// The payoff and compare-machine columns of the points table (docs/MODEL.md §2.2, §2.3), the
// table's default order by payoff, the "what next" text and the tooltip lines, on a real
// PointsPanel (offscreen). Expected values from the arithmetic beside each row.
#include "core/model/hardware.h"
#include "tests/support/testmachine.h"
#include "widgets/chart/charttooltip.h"
#include "widgets/document/document.h"
#include "widgets/document/timeshares.h"
#include "widgets/models/pointstablemodel.h"
#include "widgets/panels/pointspanel.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace ridgepoint;

// test::points() on test::machine() (DRAM 100 GB/s, FP32 1 TFLOP/s), plus a planned point:
//   stream  1e9 FLOP, 1e9 B, 0.02 s: I 1,   roof 100 GFLOP/s, achieved 50 GFLOP/s,  U 0.5
//   gemm    1e12 FLOP, 1e10 B, 2 s:  I 100, roof 1 TFLOP/s,   achieved 500 GFLOP/s, U 0.5
//   stencil 4e9 FLOP, 1e9 B, 0.04 s: I 4,   roof 400 GFLOP/s, achieved 100 GFLOP/s, U 0.25
//   plan    1e9 FLOP, 1e8 B, no time: I 10, roof 1 TFLOP/s
// Total time 2.06 s.
class TestPayoffTable : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        tester.reset();
        panel.reset(); // the old panel's models read the old document until they go
        doc = std::make_unique<Document>();
        doc->resetHardware(test::machine());
        auto points = test::points();
        KernelPoint plan = test::point("plan", "planned", 1e9, 1e8, 1.0);
        plan.seconds.reset();
        points.push_back(plan);
        doc->resetPoints(points);
        panel = std::make_unique<PointsPanel>(doc.get());
        panel->resize(1200, 400);
        panel->show();
        // Qt's own checks of the model's contract on every change the test makes.
        tester = std::make_unique<QAbstractItemModelTester>(
            panel->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    void payoffColumn_data();
    void payoffColumn();
    void opensSortedByPayoffAndTheHeaderResorts();
    void whatNextFollowsAWhatIf();
    void whatNextShortensNames_data();
    void whatNextShortensNames();
    void compareColumns_data();
    void compareColumns();
    void compareColumnsComeAndGo();
    void tooltipGivesShareAndPayoff();

private:
    QString cell(int sourceRow, int column) const
    {
        return panel->model()->index(sourceRow, column).data().toString();
    }
    // The kernel names in the order the view shows them.
    QStringList shownOrder() const
    {
        QStringList names;
        for (int r = 0; r < panel->proxy()->rowCount(); ++r)
            names << panel->proxy()->index(r, PointsTableModel::Name).data().toString();
        return names;
    }

    std::unique_ptr<Document> doc;
    std::unique_ptr<PointsPanel> panel;
    std::unique_ptr<QAbstractItemModelTester> tester;
};

void TestPayoffTable::payoffColumn_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("sortValue"); // -1: none
    // 0.02 / 2.06 × (1 − 0.5) = 0.0048544
    QTest::newRow("stream") << 0 << "0.485 %" << 0.02 / 2.06 * 0.5;
    // 2 / 2.06 × 0.5 = 0.485437
    QTest::newRow("gemm") << 1 << "48.5 %" << 2.0 / 2.06 * 0.5;
    // 0.04 / 2.06 × 0.75 = 0.0145631
    QTest::newRow("stencil") << 2 << "1.46 %" << 0.04 / 2.06 * 0.75;
    QTest::newRow("planned") << 3 << "–" << -1.0;
}

void TestPayoffTable::payoffColumn()
{
    QFETCH(int, row);
    QFETCH(QString, text);
    QFETCH(double, sortValue);
    PointsTableModel *model = panel->model();
    QCOMPARE(model->headerData(PointsTableModel::Payoff, Qt::Horizontal, Qt::DisplayRole),
        QVariant(QString("Payoff")));
    QCOMPARE(cell(row, PointsTableModel::Payoff), text);
    const double value
        = model->index(row, PointsTableModel::Payoff).data(PointsTableModel::kSortRole).toDouble();
    QVERIFY2(qAbs(value - sortValue) < 1e-12, qPrintable(QString::number(value)));
}

void TestPayoffTable::opensSortedByPayoffAndTheHeaderResorts()
{
    QCOMPARE(
        panel->view()->horizontalHeader()->sortIndicatorSection(), int(PointsTableModel::Payoff));
    QCOMPARE(panel->view()->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    QCOMPARE(shownOrder(), (QStringList { "gemm", "stencil", "stream", "plan" }));
    // A click on the Payoff header flips it to ascending: no payoff (−1) first.
    QHeaderView *header = panel->view()->horizontalHeader();
    const int x = header->sectionViewportPosition(PointsTableModel::Payoff)
        + header->sectionSize(PointsTableModel::Payoff) / 2;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    QCOMPARE(shownOrder(), (QStringList { "plan", "stream", "stencil", "gemm" }));
    // Untimed points: session order, no sort indicator on Payoff.
    doc->resetPoints({ test::point("a", "", 1e9, 1e9, 1.0), test::point("b", "", 1e9, 1e9, 1.0) });
    QCOMPARE(header->sortIndicatorSection(), int(PointsTableModel::Payoff));
    auto untimed = test::points();
    for (auto &p : untimed)
        p.seconds.reset();
    doc->resetPoints(untimed);
    QCOMPARE(header->sortIndicatorSection(), -1);
    QCOMPARE(shownOrder(), (QStringList { "stream", "gemm", "stencil" }));
    QCOMPARE(panel->whatNext(), QString());
}

void TestPayoffTable::whatNextFollowsAWhatIf()
{
    // Payoffs 48.5 %, 1.46 %, 0.485 % with two significant digits.
    QCOMPARE(panel->whatNext(), QString("What next: gemm 49 %, stencil 1.5 %, stream 0.49 %"));
    QSignalSpy changed(panel.get(), &PointsPanel::whatNextChanged);
    // gemm twice as fast: 1 s, 1 TFLOP/s = its roof (U 1, payoff 0); total 1.06 s.
    // stencil 0.04 / 1.06 × 0.75 = 0.0283 (2.8 %), stream 0.02 / 1.06 × 0.5 = 0.00943 (0.94 %).
    QVERIFY(doc->setWhatIf(1, WhatIf { 1.0, 0.5 }).isEmpty());
    // gemm on its roof has nothing to gain: it leaves the list.
    QCOMPARE(panel->whatNext(), QString("What next: stencil 2.8 %, stream 0.94 %"));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(cell(0, PointsTableModel::Payoff), QString("0.943 %"));
    // gemm moved above its roof (impossible: 0.5 s, total 0.56 s) stays out too, however large
    // its share; stencil 0.04 / 0.56 × 0.75 = 5.4 %, stream 0.02 / 0.56 × 0.5 = 1.8 %.
    QVERIFY(doc->setWhatIf(1, WhatIf { 1.0, 0.25 }).isEmpty());
    QVERIFY(!doc->analysis(1)->consistent);
    QCOMPARE(panel->whatNext(), QString("What next: stencil 5.4 %, stream 1.8 %"));
}

void TestPayoffTable::whatNextShortensNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("shown");
    QTest::newRow("argument list") << "daxpy(int, double, const double *, double *)"
                                   << "daxpy";
    QTest::newRow("long") << QString(40, 'k') << QString(31, 'k') + "…";
    QTest::newRow("leading paren") << "(anonymous)"
                                   << "(anonymous)";
}

void TestPayoffTable::whatNextShortensNames()
{
    QFETCH(QString, name);
    QFETCH(QString, shown);
    // One timed point alone: share 1, 50 GFLOP/s of a 100 GFLOP/s roof: 1 × (1 − 0.5) = 50 %.
    doc->resetPoints({ test::point(name.toStdString(), "", 1e9, 1e9, 0.02) });
    QCOMPARE(panel->whatNext(), "What next: " + shown + " 50 %");
}

void TestPayoffTable::compareColumns_data()
{
    // The other machine: 10 TFLOP/s and 1 TB/s (makeSimpleMachine).
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("attainable");
    QTest::addColumn<QString>("speedup");
    QTest::addColumn<double>("speedupValue");
    // The speed-up is roof over roof (MODEL.md §2.3); here 1 TFLOP/s and 100 GB/s.
    // min(10 T, 1 T × 1) = 1 TFLOP/s over min(1 T, 100 G × 1) = 100 GFLOP/s: ×10.
    QTest::newRow("stream") << 0 << "1 TFLOP/s"
                            << "×10" << 10.0;
    // min(10 T, 1 T × 100) = 10 TFLOP/s over min(1 T, 100 G × 100) = 1 TFLOP/s: ×10.
    QTest::newRow("gemm") << 1 << "10 TFLOP/s"
                          << "×10" << 10.0;
    // min(10 T, 1 T × 4) = 4 TFLOP/s over min(1 T, 100 G × 4) = 400 GFLOP/s: ×10.
    QTest::newRow("stencil") << 2 << "4 TFLOP/s"
                             << "×10" << 10.0;
    // Planned: min(10 T, 1 T × 10) = 10 TFLOP/s over its roof here, 1 TFLOP/s: ×10.
    QTest::newRow("planned") << 3 << "10 TFLOP/s"
                             << "×10" << 10.0;
}

void TestPayoffTable::compareColumns()
{
    QFETCH(int, row);
    QFETCH(QString, attainable);
    QFETCH(QString, speedup);
    QFETCH(double, speedupValue);
    PointsTableModel *model = panel->model();
    doc->setCompareHardware(makeSimpleMachine(1e13, 1e12));
    const int there = model->columnOf(PointsTableModel::CompareAttainable);
    const int factor = model->columnOf(PointsTableModel::CompareSpeedup);
    // Beside the figures here they are read against, before Consistency and Payoff.
    QCOMPARE(there, int(PointsTableModel::Utilization) + 1);
    QCOMPARE(factor, there + 1);
    QCOMPARE(model->columnOf(PointsTableModel::Consistency), factor + 1);
    QCOMPARE(model->columnOf(PointsTableModel::Payoff), factor + 2);
    const QString name = QString::fromStdString(doc->compareHardware()->name);
    QCOMPARE(model->headerData(there, Qt::Horizontal, Qt::DisplayRole).toString(), name + " roof");
    QCOMPARE(model->headerData(factor, Qt::Horizontal, Qt::DisplayRole).toString(), "× on " + name);
    // The header's tooltip says what the short header means.
    QVERIFY(model->headerData(factor, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .startsWith("Speed-up on " + name + ": the kernel's roof there ÷ its roof here"));
    QVERIFY(model->headerData(there, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .startsWith("Attainable on " + name));
    QCOMPARE(cell(row, there), attainable);
    QCOMPARE(cell(row, factor), speedup);
    QVERIFY(
        qAbs(model->index(row, factor).data(PointsTableModel::kSortRole).toDouble() - speedupValue)
        < 1e-9);
    const QString tip = model->index(row, factor).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains("attainable there ÷ attainable here"), qPrintable(tip));
    // A measured kernel also gets the most the move could give (MODEL.md §2.3).
    QVERIFY2(tip.contains("at its roof there (attainable there ÷ achieved here)") == (row != 3),
        qPrintable(tip));
}

void TestPayoffTable::compareColumnsComeAndGo()
{
    PointsTableModel *model = panel->model();
    const int before = model->columnCount();
    QHeaderView *header = panel->view()->horizontalHeader();
    QCOMPARE(header->sortIndicatorSection(), int(PointsTableModel::Payoff));
    doc->setCompareHardware(makeSimpleMachine(1e13, 1e12));
    QCOMPARE(model->columnCount(), before + 2);
    QCOMPARE(panel->proxy()->columnCount(), before + 2);
    QCOMPARE(model->columnOf(PointsTableModel::SpeedupVsBaseline), -1);
    // Payoff moved two to the right; the table is still sorted by it, and the new columns
    // are as wide as their headers.
    const int payoff = model->columnOf(PointsTableModel::Payoff);
    QCOMPARE(payoff, int(PointsTableModel::Payoff) + 2);
    QCOMPARE(header->sortIndicatorSection(), payoff);
    QCOMPARE(panel->proxy()->headerData(payoff, Qt::Horizontal, Qt::DisplayRole).toString(),
        QString("Payoff"));
    for (const auto kind :
        { PointsTableModel::CompareAttainable, PointsTableModel::CompareSpeedup })
        QVERIFY(header->sectionSize(model->columnOf(kind))
            >= header->sectionSizeHint(model->columnOf(kind)));
    doc->setCompareHardware(std::nullopt);
    QCOMPARE(model->columnCount(), before);
    QCOMPARE(model->columnOf(PointsTableModel::CompareAttainable), -1);
    QCOMPARE(model->columnOf(PointsTableModel::Payoff), int(PointsTableModel::Payoff));
    QCOMPARE(header->sortIndicatorSection(), int(PointsTableModel::Payoff));
}

void TestPayoffTable::tooltipGivesShareAndPayoff()
{
    // gemm: 2 s of 2.06 s = 97.1 %; payoff 48.5 %.
    const QString gemm = chart::ChartTooltip::describe(*doc, 1);
    QVERIFY2(gemm.contains("time 2 s, 97.1 % of the total; payoff 48.5 %"), qPrintable(gemm));
    QVERIFY(!chart::ChartTooltip::describe(*doc, 3).contains("payoff"));
    doc->setCompareHardware(makeSimpleMachine(1e13, 1e12));
    const QString there = chart::ChartTooltip::describe(*doc, 2);
    QVERIFY2(
        there.contains("attainable 4 TFLOP/s") && there.contains("up to ×40 at its roof there"),
        qPrintable(there));
}

QTEST_MAIN(TestPayoffTable)
#include "tst_payofftable.moc"
