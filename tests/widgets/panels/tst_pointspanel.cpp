// PointsPanel with a RooflinePlot on the same Document: the table and the chart select the same
// point both ways; the filter box; Delete and duplicate.
#include "tests/support/testmachine.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/models/pointstablemodel.h"
#include "widgets/panels/pointspanel.h"

#include <QHBoxLayout>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <QUndoStack>

using namespace ridgepoint;

class TestPointsPanel : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        window = std::make_unique<QWidget>();
        doc = new Document(window.get());
        doc->resetHardware(test::machine());
        doc->resetPoints(test::points());
        plot = new RooflinePlot(window.get());
        plot->setDocument(doc);
        panel = new PointsPanel(doc, window.get());
        auto *layout = new QHBoxLayout(window.get());
        layout->addWidget(plot, 2);
        layout->addWidget(panel, 1);
        window->resize(1400, 700);
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        plot->replot();
    }

    void cleanup() { window.reset(); }

    void clickingAPointOnTheChartSelectsItsRow()
    {
        const QPointF at = plot->pointPosition(2);
        QTest::mouseClick(plot, Qt::LeftButton, {}, at.toPoint());
        const QModelIndexList rows = panel->view()->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(panel->proxy()->mapToSource(rows.front()).row(), 2);
    }

    void clickingARowSelectsThePointOnTheChart()
    {
        panel->view()->sortByColumn(PointsTableModel::Intensity, Qt::DescendingOrder);
        // Sorted by intensity, descending: gemm (100), stencil (4), stream (1).
        const QRect cell = panel->view()->visualRect(panel->proxy()->index(2, 0));
        QTest::mouseClick(panel->view()->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(doc->selection(), std::vector<std::size_t> { 0 });
        // Three points are all named on the chart; the selected one is placed first.
        plot->replot();
        QCOMPARE(plot->inspect().pointLabels().front(), QStringLiteral("stream"));
    }

    void filterHidesRowsButKeepsIndices()
    {
        QTest::keyClicks(panel->filterEdit(), "stencil");
        QCOMPARE(panel->proxy()->rowCount(), 1);
        panel->view()->selectRow(0);
        QCOMPARE(doc->selection(), std::vector<std::size_t> { 2 });
    }

    void deleteKeyRemovesTheSelectionAndUndoRestoresIt()
    {
        doc->setSelection({ 0, 1 });
        panel->view()->setFocus();
        QTest::keyClick(panel->view(), Qt::Key_Delete);
        QCOMPARE(doc->pointCount(), std::size_t(1));
        QCOMPARE(panel->proxy()->rowCount(), 1);
        doc->undoStack()->undo();
        QCOMPARE(doc->pointCount(), std::size_t(3));
        QCOMPARE(panel->view()->selectionModel()->selectedRows().size(), 2);
    }

    void duplicateSelectsTheCopy()
    {
        doc->setSelection({ 1 });
        panel->duplicateSelected();
        QCOMPARE(doc->pointCount(), std::size_t(4));
        const QModelIndexList rows = panel->view()->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        // Column 0 is "#": the copy is the document's fourth point.
        QCOMPARE(rows.front().data().toString(), QString("4"));
        QCOMPARE(rows.front().siblingAtColumn(PointsTableModel::Name).data().toString(),
            QString("gemm (copy)"));
    }

private:
    std::unique_ptr<QWidget> window;
    Document *doc = nullptr;
    RooflinePlot *plot = nullptr;
    PointsPanel *panel = nullptr;
};

QTEST_MAIN(TestPointsPanel)
#include "tst_pointspanel.moc"
