// PointsTableModel through a QSortFilterProxyModel: sorting, filtering, live updates.
#include "tests/support/testmachine.h"
#include "widgets/document/document.h"
#include "widgets/models/pointstablemodel.h"

#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace ridgepoint;

class TestPointsTableModel : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        doc = std::make_unique<Document>();
        doc->resetHardware(test::machine());
        doc->resetPoints(test::points());
        model = std::make_unique<PointsTableModel>(doc.get());
        proxy = std::make_unique<QSortFilterProxyModel>();
        proxy->setSourceModel(model.get());
        proxy->setSortRole(PointsTableModel::kSortRole);
        proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
        proxy->setFilterKeyColumn(-1);
    }

    void showsEveryColumnWithUnits()
    {
        QCOMPARE(model->rowCount(), 3);
        // Every column but the speed-up, which only a loaded baseline adds (tst_mainwindow_review).
        QCOMPARE(model->columnCount(), int(PointsTableModel::SpeedupVsBaseline));
        const auto text = [&](int row, int column) {
            return model->data(model->index(row, column)).toString();
        };
        QCOMPARE(text(1, PointsTableModel::Name), QString("gemm"));
        QCOMPARE(text(1, PointsTableModel::Group), QString("math"));
        QCOMPARE(text(1, PointsTableModel::Flops), QString("1 TFLOP"));
        QCOMPARE(text(1, PointsTableModel::Bytes), QString("10 GB"));
        QCOMPARE(text(1, PointsTableModel::Intensity), QString("100"));
        QCOMPARE(text(1, PointsTableModel::Performance), QString("500 GFLOP/s"));
        QCOMPARE(text(1, PointsTableModel::Attainable), QString("1 TFLOP/s"));
        QCOMPARE(text(1, PointsTableModel::Bound), QString("compute (FP32 vector)"));
        QCOMPARE(text(1, PointsTableModel::Utilization), QString("50 %"));
        QCOMPARE(text(1, PointsTableModel::Consistency), QString("ok"));
    }

    void sortsByNumberNotText_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<QStringList>("ascending");
        QTest::newRow("intensity")
            << int(PointsTableModel::Intensity) << QStringList { "stream", "stencil", "gemm" };
        QTest::newRow("performance")
            << int(PointsTableModel::Performance) << QStringList { "stream", "stencil", "gemm" };
        QTest::newRow("flops") << int(PointsTableModel::Flops)
                               << QStringList { "stream", "stencil", "gemm" };
        QTest::newRow("name") << int(PointsTableModel::Name)
                              << QStringList { "gemm", "stencil", "stream" };
    }

    void sortsByNumberNotText()
    {
        QFETCH(int, column);
        QFETCH(QStringList, ascending);
        proxy->sort(column, Qt::AscendingOrder);
        QStringList names;
        for (int row = 0; row < proxy->rowCount(); ++row)
            names << proxy->data(proxy->index(row, PointsTableModel::Name)).toString();
        QCOMPARE(names, ascending);
    }

    void filtersByNameOrGroup()
    {
        proxy->setFilterFixedString("MEMORY");
        QCOMPARE(proxy->rowCount(), 2);
        proxy->setFilterFixedString("gem");
        QCOMPARE(proxy->rowCount(), 1);
    }

    void whatIfUpdatesTheRowLive()
    {
        QSignalSpy changed(model.get(), &QAbstractItemModel::dataChanged);
        doc->setWhatIf(0, { 0.05, 1.0 }, EditPhase::Preview);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.front().at(0).toModelIndex().row(), 0);
        QCOMPARE(
            model->data(model->index(0, PointsTableModel::Intensity)).toString(), QString("20"));
        QCOMPARE(model->data(model->index(0, PointsTableModel::Bound)).toString(),
            QString("compute (FP32 vector)"));
        QVERIFY(
            model->data(model->index(0, PointsTableModel::Name)).toString().contains("what-if"));
    }

    void flagsImpossiblePoints()
    {
        doc->setWhatIf(0, { 1.0, 0.1 }); // 500 GFLOP/s at I = 1: above the 100 GFLOP/s roof
        // The doctor: ×5 the DRAM roof, but under the L2 roof at I = 1, min(1 TFLOP/s, 1 TB/s ×
        // 1 FLOP/B) = 1 TFLOP/s, at 500/1000 = 50 %.
        const QModelIndex status = model->index(0, PointsTableModel::Consistency);
        QCOMPARE(model->data(status).toString(),
            QString("faster than the roof: L2 bytes taken for DRAM bytes?"));
        const QString tip = model->data(status, Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains("×5.00 the DRAM roof"), qPrintable(tip));
        QVERIFY2(tip.contains("fits it at 50 %"), qPrintable(tip));
        QVERIFY2(tip.contains("check: count main-memory traffic"), qPrintable(tip));
    }

    void deletingResetsTheRows()
    {
        QSignalSpy reset(model.get(), &QAbstractItemModel::modelReset);
        doc->removePoints({ 1 });
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model->rowCount(), 2);
    }

private:
    std::unique_ptr<Document> doc;
    std::unique_ptr<PointsTableModel> model;
    std::unique_ptr<QSortFilterProxyModel> proxy;
};

QTEST_MAIN(TestPointsTableModel)
#include "tst_pointstablemodel.moc"
