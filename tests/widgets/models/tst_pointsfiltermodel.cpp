// PointsFilterModel keeps and orders the rows exactly as a QSortFilterProxyModel with a
// case-insensitive fixed-string filter on every column and the table's sort role does: for
// filter texts typed, narrowed and taken back, for every column in both orders, and after the
// points change under it. Its keptRows() name the rows it keeps.
#include "tests/support/testmachine.h"
#include "widgets/document/document.h"
#include "widgets/models/pointsfiltermodel.h"
#include "widgets/models/pointstablemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QUndoStack>

using namespace ridgepoint;

namespace {

// The source rows a proxy shows, in its order.
std::vector<int> shownRows(const QAbstractProxyModel &proxy)
{
    std::vector<int> rows;
    for (int r = 0; r < proxy.rowCount(); ++r)
        rows.push_back(proxy.mapToSource(proxy.index(r, 0)).row());
    return rows;
}

// The test machine's three points and more, with names that differ in case, accents and
// numbers, some without a time, some moved, so every column has something to sort.
std::vector<KernelPoint> manyPoints()
{
    std::vector<KernelPoint> points = test::points();
    const char *names[] = { "GEMM_fp16", "Straße_copy", "ÉCLAIR_reduce", "éclair_scan", "kernel 12",
        "kernel 120", "Kernel 3", "stream", "softmax (batch 8)", "x" };
    for (int i = 0; i < 30; ++i) {
        const double intensity = 0.05 * (1 + (i * 7) % 23);
        const double flops = 1e9 * (1 + i % 5);
        const double seconds = i % 6 == 0 ? 0.0 : 0.001 * (1 + (i * 5) % 11);
        auto p = test::point(
            names[i % 10], i % 3 == 0 ? "memory" : "Math", flops, flops / intensity, seconds);
        if (seconds == 0.0)
            p.seconds.reset();
        points.push_back(std::move(p));
    }
    return points;
}

} // namespace

class TestPointsFilterModel : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        testers.clear();
        doc = std::make_unique<Document>();
        doc->resetHardware(test::machine());
        doc->resetPoints(manyPoints());
        model = std::make_unique<PointsTableModel>(doc.get());
        filter = std::make_unique<PointsFilterModel>();
        filter->setSourceModel(model.get());
        filter->setSortRole(PointsTableModel::kSortRole);
        reference = std::make_unique<QSortFilterProxyModel>();
        reference->setSourceModel(model.get());
        reference->setSortRole(PointsTableModel::kSortRole);
        reference->setFilterCaseSensitivity(Qt::CaseInsensitive);
        reference->setFilterKeyColumn(-1);
        for (QAbstractItemModel *m : { static_cast<QAbstractItemModel *>(filter.get()),
                 static_cast<QAbstractItemModel *>(reference.get()) })
            testers.push_back(std::make_unique<QAbstractItemModelTester>(
                m, QAbstractItemModelTester::FailureReportingMode::QtTest));
    }

    void cleanup()
    {
        testers.clear();
        filter.reset();
        reference.reset();
        model.reset();
        doc.reset();
    }

    void keepsWhatAFixedStringFilterKeeps_data()
    {
        QTest::addColumn<QStringList>("typed"); // one filter text after the other
        QTest::newRow("nothing") << QStringList { "" };
        QTest::newRow("one name") << QStringList { "gemm" };
        QTest::newRow("upper case") << QStringList { "GEMM" };
        QTest::newRow("a group") << QStringList { "memory" };
        QTest::newRow("a unit") << QStringList { "GFLOP/s" };
        QTest::newRow("a bound") << QStringList { "compute" };
        QTest::newRow("accents either case") << QStringList { "éclair", "ÉCLAIR", "Éc" };
        QTest::newRow("ß") << QStringList { "straße", "STRASSE", "ß" };
        QTest::newRow("nothing matches") << QStringList { "qqq" };
        QTest::newRow("spaces and brackets") << QStringList { " (b", "(batch 8)" };
        QTest::newRow("typed on") << QStringList { "k", "ke", "ker", "kern", "kernel", "kernel ",
            "kernel 1", "kernel 12", "kernel 120" };
        QTest::newRow("taken back")
            << QStringList { "kernel 120", "kernel 12", "kernel 1", "kernel", "k", "" };
        QTest::newRow("replaced") << QStringList { "stream", "math", "x", "", "%" };
    }

    void keepsWhatAFixedStringFilterKeeps()
    {
        QFETCH(QStringList, typed);
        filter->sort(PointsTableModel::Name, Qt::AscendingOrder);
        reference->sort(PointsTableModel::Name, Qt::AscendingOrder);
        for (const QString &text : typed) {
            filter->setFilterText(text);
            reference->setFilterFixedString(text);
            // Against a fresh sort: QSortFilterProxyModel puts rows that come back among their
            // equals wherever its search lands; this model keeps ties in table order.
            reference->invalidate();
            QCOMPARE(shownRows(*filter), shownRows(*reference));
            QCOMPARE(filter->filterText(), text);
            const std::vector<bool> &kept = filter->keptRows();
            if (text.isEmpty()) {
                QVERIFY(kept.empty());
                continue;
            }
            std::vector<bool> shown(doc->pointCount(), false);
            for (const int row : shownRows(*reference))
                shown[static_cast<std::size_t>(row)] = true;
            QCOMPARE(kept, shown);
        }
    }

    void sortsAsTheProxyDoes_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<Qt::SortOrder>("order");
        for (int column = 0; column < PointsTableModel::Payoff + 1; ++column) {
            for (const auto order : { Qt::AscendingOrder, Qt::DescendingOrder }) {
                QTest::addRow("column %d %s", column, order == Qt::AscendingOrder ? "up" : "down")
                    << column << order;
            }
        }
    }

    void sortsAsTheProxyDoes()
    {
        QFETCH(int, column);
        QFETCH(Qt::SortOrder, order);
        filter->sort(column, order);
        reference->sort(column, order);
        QCOMPARE(shownRows(*filter), shownRows(*reference));
        // Filtered and sorted together, and the points moved under both.
        filter->setFilterText("e");
        reference->setFilterFixedString("e");
        QCOMPARE(shownRows(*filter), shownRows(*reference));
        WhatIf move;
        move.bytesFactor = 0.01;
        doc->setWhatIf(3, move, EditPhase::Final);
        // Against a fresh sort: QSortFilterProxyModel puts a changed row among its equals
        // wherever its search lands; this model keeps ties in table order.
        reference->invalidate();
        QCOMPARE(shownRows(*filter), shownRows(*reference));
        doc->undoStack()->undo();
        reference->invalidate();
        QCOMPARE(shownRows(*filter), shownRows(*reference));
    }

    void followsThePointsAsTheyChange()
    {
        QSignalSpy changed(filter.get(), &PointsFilterModel::keptRowsChanged);
        filter->setFilterText("what-if"); // a moved point's name says so
        reference->setFilterFixedString("what-if");
        QCOMPARE(filter->rowCount(), 0);
        QCOMPARE(changed.size(), 1);
        WhatIf move;
        move.bytesFactor = 0.5;
        doc->setWhatIf(1, move, EditPhase::Final);
        QCOMPARE(shownRows(*filter), std::vector<int> { 1 });
        QCOMPARE(shownRows(*filter), shownRows(*reference));
        QVERIFY(filter->keptRows()[1]);
        QCOMPARE(changed.size(), 2);
        doc->undoStack()->undo();
        QCOMPARE(filter->rowCount(), 0);
        QVERIFY(!filter->keptRows()[1]);
        // New points: every row is looked at again.
        doc->resetPoints(test::points());
        QCOMPARE(filter->keptRows(), std::vector<bool>(3, false));
        filter->setFilterText("");
        QVERIFY(filter->keptRows().empty());
        QCOMPARE(filter->rowCount(), 3);
    }

private:
    std::unique_ptr<Document> doc;
    std::unique_ptr<PointsTableModel> model;
    std::unique_ptr<PointsFilterModel> filter;
    std::unique_ptr<QSortFilterProxyModel> reference;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
};

QTEST_MAIN(TestPointsFilterModel)
#include "tst_pointsfiltermodel.moc"
