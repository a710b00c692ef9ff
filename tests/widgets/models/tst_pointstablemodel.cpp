// PointsTableModel through a QSortFilterProxyModel: sorting, filtering, live updates.
#include "core/io/formats/hardware_json.h"
#include "core/io/formats/ncu_reader.h"
#include "core/model/units.h"
#include "tests/support/testfiles.h"
#include "tests/support/testmachine.h"
#include "tests/support/testpaths.h"
#include "widgets/chart/charttooltip.h"
#include "widgets/document/document.h"
#include "widgets/models/pointstablemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace ridgepoint;

namespace {

std::string data(const QString &path)
{
    return test::readAll(test::dataPath(path)).toStdString();
}

// tests/data/ncu/ncu_levels_daxpy_stencil.csv on tests/data/json/<machine>.json.
void loadLevels(Document &document, const QString &machine)
{
    document.resetHardware(
        readHardwareJson(data("json/" + machine + ".json"), "m").machines.front());
    document.resetPoints(readNcuCsv(data("ncu/ncu_levels_daxpy_stencil.csv"), "levels.csv").points);
}

} // namespace

class TestPointsTableModel : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        proxyTester.reset();
        tester.reset();
        doc = std::make_unique<Document>();
        doc->resetHardware(test::machine());
        doc->resetPoints(test::points());
        model = std::make_unique<PointsTableModel>(doc.get());
        proxy = std::make_unique<QSortFilterProxyModel>();
        proxy->setSourceModel(model.get());
        proxy->setSortRole(PointsTableModel::kSortRole);
        proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
        proxy->setFilterKeyColumn(-1);
        // Qt's own checks of the model's contract, on the model and through the proxy.
        tester = std::make_unique<QAbstractItemModelTester>(
            model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxyTester = std::make_unique<QAbstractItemModelTester>(
            proxy.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
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

    // tests/data/ncu/ncu_levels_daxpy_stencil.csv (tests/data/ncu/README.md): one bytes column
    // per level (HBM in Bytes, L1 and L2 after the fixed columns), never their sum; the
    // intensity column names its level.
    void oneBytesColumnPerLevel_data()
    {
        QTest::addColumn<QString>("machine");
        QTest::addColumn<int>("column"); // past the fixed columns: k-th extra level
        QTest::addColumn<QString>("header");
        QTest::addColumn<int>("row");
        QTest::addColumn<double>("bytes"); // -1: the cell is the intensity text below
        QTest::addColumn<QString>("text");
        const int extra = int(PointsTableModel::SpeedupVsBaseline);
        for (const QString machine : { "a100_hbm_only", "a100_levels" }) {
            const QByteArray m = machine.toUtf8();
            QTest::addRow("%s daxpy HBM", m.data()) << machine << int(PointsTableModel::Bytes)
                                                    << "HBM bytes" << 0 << 6443499520.0 << "";
            QTest::addRow("%s daxpy L1", m.data())
                << machine << extra << "L1 bytes" << 0 << 6442450944.0 << "";
            QTest::addRow("%s stencil L2", m.data())
                << machine << extra + 1 << "L2 bytes" << 1 << 3221225472.0 << "";
            // 53 FLOP per cell over 9 B per cell at HBM: 5.889 FLOP/B.
            QTest::addRow("%s stencil intensity", m.data())
                << machine << int(PointsTableModel::Intensity) << "HBM intensity" << 1 << -1.0
                << "5.889";
        }
    }

    void oneBytesColumnPerLevel()
    {
        QFETCH(QString, machine);
        QFETCH(int, column);
        QFETCH(QString, header);
        QFETCH(int, row);
        QFETCH(double, bytes);
        QFETCH(QString, text);
        Document levels;
        loadLevels(levels, machine);
        PointsTableModel table(&levels);
        QCOMPARE(table.columnCount(), int(PointsTableModel::SpeedupVsBaseline) + 2);
        QCOMPARE(table.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString(), header);
        const QString cell = table.data(table.index(row, column)).toString();
        if (bytes >= 0.0) {
            QCOMPARE(cell, QString::fromStdString(formatQuantity(bytes, Dimension::Bytes)));
            QCOMPARE(table.data(table.index(row, column), PointsTableModel::kSortRole).toDouble(),
                bytes);
        } else {
            QCOMPARE(cell, text);
        }
    }

    // The chart's tooltip lists every level of the file: its bytes, intensity and roof, or that
    // the machine has no ceiling for it. daxpy: F = 536870912, L1 24n = 6442450944 B, so
    // I_L1 = 1/12 = 0.08333; its roof on a100_levels is 19.5 TB/s / 12 = 1.625 TFLOP/s.
    void tooltipListsEveryLevel_data()
    {
        QTest::addColumn<QString>("machine");
        QTest::addColumn<QString>("line");
        const QString bytes
            = QString::fromStdString(formatQuantity(6442450944.0, Dimension::Bytes));
        QTest::newRow("no L1 roof")
            << "a100_hbm_only"
            << "L1: " + bytes + ", intensity 0.08333 FLOP/B, no L1 ceiling on this machine";
        QTest::newRow("L1 roof") << "a100_levels"
                                 << "L1 (L1): " + bytes + ", intensity 0.08333 FLOP/B, roof "
                + QString::fromStdString(formatQuantity(19.5e12 / 12.0, Dimension::FlopRate));
    }

    void tooltipListsEveryLevel()
    {
        QFETCH(QString, machine);
        QFETCH(QString, line);
        Document levels;
        loadLevels(levels, machine);
        const QString tip = chart::ChartTooltip::describe(levels, 0);
        QVERIFY2(tip.contains(line), qPrintable(tip));
        QVERIFY2(tip.contains("HBM (HBM2): "), qPrintable(tip));
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
    std::unique_ptr<QAbstractItemModelTester> tester;
    std::unique_ptr<QAbstractItemModelTester> proxyTester;
};

QTEST_MAIN(TestPointsTableModel)
#include "tst_pointstablemodel.moc"
