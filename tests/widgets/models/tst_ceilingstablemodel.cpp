// CeilingsTableModel: editing π/β with units, renaming, visibility, add/remove, undo.
#include "core/presets/presets.h"
#include "core/session/session.h"
#include "tests/support/testmachine.h"
#include "widgets/document/document.h"
#include "widgets/models/ceilingstablemodel.h"

#include <QAbstractItemModelTester>
#include <QPalette>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using namespace ridgepoint;

class TestCeilingsTableModel : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        tester.reset();
        doc = std::make_unique<Document>();
        doc->resetHardware(test::machine());
        doc->resetPoints(test::points());
        model = std::make_unique<CeilingsTableModel>(doc.get());
        // Qt's own checks of the model's contract (indexes, parents, row and column signals)
        // on every change the test makes.
        tester = std::make_unique<QAbstractItemModelTester>(
            model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    void listsComputeThenMemory()
    {
        QCOMPARE(model->rowCount(), 4);
        QVERIFY(model->isComputeRow(1));
        QVERIFY(!model->isComputeRow(2));
        QCOMPARE(model->data(model->index(2, CeilingsTableModel::Value)).toString(),
            QString("100 GB/s"));
        QCOMPARE(model->data(model->index(0, CeilingsTableModel::Value)).toString(),
            QString("1 TFLOP/s"));
    }

    void parsesUnitStrings_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("value");
        QTest::newRow("TB/s") << 2 << "3.35 TB/s" << 3.35e12;
        QTest::newRow("binary prefix") << 2 << "1 GiB/s" << 1073741824.0;
        QTest::newRow("bare number in B/s") << 3 << "2e12" << 2e12;
        QTest::newRow("TFLOP/s") << 0 << "989 TFLOP/s" << 989e12;
        QTest::newRow("TFLOPS") << 1 << "65 TFLOPS" << 65e12;
    }

    void parsesUnitStrings()
    {
        QFETCH(int, row);
        QFETCH(QString, text);
        QFETCH(double, value);
        QVERIFY(model->setData(model->index(row, CeilingsTableModel::Value), text));
        const Hardware &hw = doc->hardware();
        const double got = model->isComputeRow(row)
            ? hw.compute[static_cast<std::size_t>(row)].peak
            : hw.memory[static_cast<std::size_t>(row) - hw.compute.size()].bandwidth;
        QCOMPARE(got, value);
        QCOMPARE(QString::fromStdString(hw.name), QString("Custom (from TM)"));
        QCOMPARE(doc->undoStack()->count(), 1);
    }

    void rejectsBadValues_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("text");
        QTest::newRow("wrong dimension") << 2 << "5 TFLOP/s";
        QTest::newRow("negative") << 0 << "-3 TFLOP/s";
        QTest::newRow("words") << 0 << "fast";
        QTest::newRow("binary prefix on FLOP/s") << 0 << "1 TiFLOP/s";
    }

    void rejectsBadValues()
    {
        QFETCH(int, row);
        QFETCH(QString, text);
        QSignalSpy rejected(model.get(), &CeilingsTableModel::editRejected);
        QVERIFY(!model->setData(model->index(row, CeilingsTableModel::Value), text));
        QCOMPARE(rejected.count(), 1);
        QVERIFY(!model->lastError().isEmpty());
        QCOMPARE(doc->undoStack()->count(), 0);
        QCOMPARE(QString::fromStdString(doc->hardware().name), QString("Test machine"));
    }

    void bandwidthEditMovesTheRidgeAndTheBound()
    {
        // stencil: I = 4 FLOP/B, memory-bound at 100 GB/s (ridge 10); at 500 GB/s the ridge is 2.
        QCOMPARE(doc->analysis(2)->bound, Bound::Memory);
        QVERIFY(model->setData(model->index(2, CeilingsTableModel::Value), "500 GB/s"));
        QCOMPARE(ridgeIntensity(doc->hardware().compute[0], doc->hardware().memory[0]), 2.0);
        QCOMPARE(doc->analysis(2)->bound, Bound::Compute);
        doc->undoStack()->undo();
        QCOMPARE(doc->analysis(2)->bound, Bound::Memory);
    }

    void renamesAndKeepsTheDefault()
    {
        QVERIFY(model->setData(model->index(0, CeilingsTableModel::Name), "SIMD"));
        QCOMPARE(QString::fromStdString(doc->hardware().defaultCompute), QString("SIMD"));
        QCOMPARE(QString::fromStdString(doc->analysis(1)->limitingCeiling), QString("SIMD"));
        QVERIFY(!model->setData(model->index(1, CeilingsTableModel::Name), "dram")); // taken
        QVERIFY(!model->setData(model->index(1, CeilingsTableModel::Name), "  "));
    }

    void togglesVisibility()
    {
        const QModelIndex shown = model->index(3, CeilingsTableModel::Shown);
        QCOMPARE(model->data(shown, Qt::CheckStateRole).toInt(), int(Qt::Checked));
        QVERIFY(model->setData(shown, Qt::Unchecked, Qt::CheckStateRole));
        QVERIFY(!doc->hardware().memory[1].visible);
        doc->undoStack()->undo();
        QVERIFY(doc->hardware().memory[1].visible);
    }

    void addsAndRemovesButKeepsOneOfEach()
    {
        const int row = model->addMemoryCeiling();
        QCOMPARE(row, 4);
        QCOMPARE(model->rowCount(), 5);
        QVERIFY(model->removeCeiling(row));
        QVERIFY(model->removeCeiling(1));
        QVERIFY(!model->removeCeiling(0)); // the last compute ceiling
        QCOMPARE(doc->hardware().compute.size(), std::size_t(1));
        QCOMPARE(doc->undoStack()->count(), 3);
        while (doc->undoStack()->canUndo())
            doc->undoStack()->undo();
        QCOMPARE(model->rowCount(), 4);
    }

    // The rows of roofs the chart leaves out (no point of their precision, or sparse) are
    // greyed, and "Show all roofs" brings them back (widgets/chart/roofselection.h).
    void greysRoofsTheChartLeavesOut_data()
    {
        QTest::addColumn<int>("precision");
        QTest::addColumn<bool>("all");
        QTest::addColumn<QStringList>("greyed");
        // A100 40GB: FP64 points draw FP64 tensor and FP64 CUDA only.
        QTest::newRow("fp64 points")
            << int(Precision::FP64) << false
            << QStringList { "FP16 tensor", "BF16 tensor", "TF32 tensor", "FP32 CUDA",
                   "INT8 tensor", "INT4 tensor", "FP16 tensor 2:4 sparse", "INT8 tensor 2:4 sparse",
                   "BF16 tensor 2:4 sparse" };
        // FP16 points: FP16 tensor only; the sparse FP16 figure stays hidden.
        QTest::newRow("fp16 points")
            << int(Precision::FP16) << false
            << QStringList { "BF16 tensor", "TF32 tensor", "FP32 CUDA", "FP64 tensor", "FP64 CUDA",
                   "INT8 tensor", "INT4 tensor", "FP16 tensor 2:4 sparse", "INT8 tensor 2:4 sparse",
                   "BF16 tensor 2:4 sparse" };
        QTest::newRow("show all roofs") << int(Precision::FP64) << true << QStringList {};
    }

    void greysRoofsTheChartLeavesOut()
    {
        QFETCH(int, precision);
        QFETCH(bool, all);
        QFETCH(QStringList, greyed);
        doc->resetHardware(**PresetDatabase::builtin().find("A100 40GB"));
        doc->resetPoints({ pointOf(static_cast<Precision>(precision)) });
        doc->setRoofsShown(all ? RoofsShown::All : RoofsShown::Data);
        expectGreyed(greyed);
    }

    // The greyed rows follow the points without a change of machine: an import replaces the
    // points, a deletion resets them (the table once kept the old greying until the machine
    // changed).
    void greyingFollowsThePoints_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QStringList>("greyed");
        const QStringList fp64Only { "FP16 tensor", "BF16 tensor", "TF32 tensor", "FP32 CUDA",
            "INT8 tensor", "INT4 tensor", "FP16 tensor 2:4 sparse", "INT8 tensor 2:4 sparse",
            "BF16 tensor 2:4 sparse" };
        const QStringList fp16Only { "BF16 tensor", "TF32 tensor", "FP32 CUDA", "FP64 tensor",
            "FP64 CUDA", "INT8 tensor", "INT4 tensor", "FP16 tensor 2:4 sparse",
            "INT8 tensor 2:4 sparse", "BF16 tensor 2:4 sparse" };
        QTest::newRow("an import replaces both by fp64") << "import" << fp64Only;
        QTest::newRow("the fp16 point deleted") << "delete fp16" << fp64Only;
        QTest::newRow("the fp64 point deleted") << "delete fp64" << fp16Only;
    }

    void greyingFollowsThePoints()
    {
        QFETCH(QString, change);
        QFETCH(QStringList, greyed);
        doc->resetHardware(**PresetDatabase::builtin().find("A100 40GB"));
        doc->resetPoints({ pointOf(Precision::FP16), pointOf(Precision::FP64) });
        // Let the first look happen, so the change below is what the table must follow.
        QTest::qWait(300);
        if (change == "import")
            doc->resetPoints({ pointOf(Precision::FP64) });
        else
            doc->removePoints({ change == "delete fp16" ? 0U : 1U });
        expectGreyed(greyed);
    }

private:
    static KernelPoint pointOf(Precision precision)
    {
        KernelPoint p;
        p.name = std::string(precisionName(precision)) + " kernel";
        p.flops = 1e9;
        p.bytes.push_back({ std::nullopt, 1e9 });
        p.seconds = 1e-3;
        p.precision = precision;
        return p;
    }

    // The names of the greyed rows become `greyed`: the model looks again a moment after a
    // change (not on every drag step).
    void expectGreyed(const QStringList &greyed)
    {
        const QColor grey = QPalette().color(QPalette::Disabled, QPalette::Text);
        QStringList got;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                got.clear();
                for (int row = 0; row < model->rowCount(); ++row) {
                    const QModelIndex name = model->index(row, CeilingsTableModel::Name);
                    if (model->data(name, Qt::ForegroundRole).value<QColor>() == grey)
                        got << model->data(name).toString();
                }
                return got == greyed;
            }(),
            5000);
        QCOMPARE(got, greyed);
    }

    std::unique_ptr<Document> doc;
    std::unique_ptr<CeilingsTableModel> model;
    std::unique_ptr<QAbstractItemModelTester> tester;
};

QTEST_MAIN(TestCeilingsTableModel)
#include "tst_ceilingstablemodel.moc"
