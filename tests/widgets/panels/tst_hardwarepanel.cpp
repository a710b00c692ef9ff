// HardwarePanel and its CeilingsTableModel: each ceiling's basis in a short column, its whole
// provenance in the row's tooltip, the selected ceiling's in the details pane (its address a
// link), and an edited figure marked as such.
#include "tests/support/provenancemachine.h"
#include "widgets/document/document.h"
#include "widgets/models/ceilingstablemodel.h"
#include "widgets/panels/hardwarepanel.h"

#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QUndoStack>

using namespace ridgepoint;

namespace {

bool containsAll(const QString &text, const QStringList &parts)
{
    for (const QString &part : parts) {
        if (!text.contains(part)) {
            qWarning("missing \"%s\" in \"%s\"", qPrintable(part), qPrintable(text));
            return false;
        }
    }
    return true;
}

} // namespace

class TestHardwarePanel : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        doc = std::make_unique<Document>();
        doc->resetHardware(test::provenanceMachine());
    }

    // Rows: FP16 tensor, FP16 tensor 2:4, FP32 vector, L2, HBM2 (compute first).
    void basisAndTooltip_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("basis");
        QTest::addColumn<QStringList>("tooltip");
        QTest::addColumn<QStringList>("absent");
        QTest::newRow("spec, every key")
            << 0 << "spec"
            << QStringList { "FP16 tensor", "312 TFLOP/s", "Basis: spec",
                   "Source: NVIDIA A100 datasheet, table 1",
                   "URL: https://example.org/a100-datasheet.pdf", "Accessed: 2026-11-26",
                   "Clock: boost, 1410 MHz", "Scope: package",
                   "Notes: the datasheet's 624 is the 2:4-sparse" }
            << QStringList { "Other figure", "Formula" };
        QTest::newRow("sparse") << 1 << "spec 2:4"
                                << QStringList { "624 TFLOP/s", "(2:4 sparse)", "Basis: spec" }
                                << QStringList { "Notes:" };
        QTest::newRow("no provenance")
            << 2 << "unstated" << QStringList { "FP32 vector", "Basis: unstated" }
            << QStringList { "Source:", "URL:", "Clock:" };
        QTest::newRow("derived") << 3 << "derived"
                                 << QStringList { "Basis: derived", "Formula: 2.3 × 2.4 TB/s",
                                        "Source: NVIDIA A100 whitepaper" }
                                 << QStringList { "Measured", "Other figure" };
        // The measured 1.35 TB/s is in use; the datasheet's 1.555 TB/s is the other figure.
        QTest::newRow("measured beside spec")
            << 4 << "measured / spec"
            << QStringList { "HBM2", "1.35 TB/s", "the figure the analysis uses", "Basis: measured",
                   "Measured with ridgepoint measure 0.4 on 2026-11-20 at dgx-07",
                   "Other figure:", "1.555 TB/s", "Basis: spec",
                   "Source: NVIDIA A100 datasheet, table 1" }
            << QStringList { "Formula" };
    }

    void basisAndTooltip()
    {
        QFETCH(int, row);
        QFETCH(QString, basis);
        QFETCH(QStringList, tooltip);
        QFETCH(QStringList, absent);
        CeilingsTableModel model(doc.get());
        QCOMPARE(model.columnCount(), 5);
        QCOMPARE(
            model.headerData(CeilingsTableModel::Basis, Qt::Horizontal, Qt::DisplayRole).toString(),
            QString("Basis"));
        QCOMPARE(model.index(row, CeilingsTableModel::Basis).data().toString(), basis);
        // Every cell of the row carries the same tooltip: the whole provenance.
        for (int column = 0; column < model.columnCount(); ++column) {
            const QString tip = model.index(row, column).data(Qt::ToolTipRole).toString();
            QVERIFY(containsAll(tip, tooltip));
            for (const QString &part : absent)
                QVERIFY2(!tip.contains(part), qPrintable(part));
            QVERIFY2(!tip.contains("<a "), "no links in a tooltip (they cannot be clicked)");
        }
    }

    // The details pane follows the selection, whether set by a click or by the arrow keys.
    void detailsFollowSelection()
    {
        HardwarePanel panel(doc.get(), { test::provenanceMachine() });
        panel.resize(500, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTableView *view = panel.ceilingsView();
        QTextBrowser *details = panel.detailsView();
        QVERIFY(details->isReadOnly());
        QVERIFY(details->openExternalLinks());
        QVERIFY(details->toPlainText().contains("Select a ceiling"));

        const QModelIndex hbm = view->model()->index(4, CeilingsTableModel::Name);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(hbm).center());
        QCOMPARE(view->currentIndex().row(), 4);
        QVERIFY(containsAll(details->toPlainText(),
            { "HBM2", "1.35 TB/s", "dgx-07", "Other figure:", "1.555 TB/s" }));
        QVERIFY(details->toHtml().contains("href=\"https://example.org/a100-datasheet.pdf\""));

        view->setFocus();
        QTest::keyClick(view, Qt::Key_Up); // L2
        QCOMPARE(view->currentIndex().row(), 3);
        QVERIFY(containsAll(details->toPlainText(), { "L2", "Formula: 2.3 × 2.4" }));
        QVERIFY(!details->toPlainText().contains("dgx-07"));

        QTest::keyClick(view, Qt::Key_Home, Qt::ControlModifier); // FP16 tensor
        QCOMPARE(view->currentIndex().row(), 0);
        QVERIFY(containsAll(details->toPlainText(), { "FP16 tensor", "Clock: boost, 1410 MHz" }));
    }

    // A typed figure rests on nothing a file said: basis unstated, "edited in Ridgepoint", and
    // the other figure is dropped (the value typed is the one analysed, whichever is chosen).
    void editedFigure_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("value");
        QTest::newRow("spec compute") << 0 << "300 TFLOP/s" << 300e12;
        QTest::newRow("measured memory with a spec beside") << 4 << "2 TB/s" << 2e12;
    }

    void editedFigure()
    {
        QFETCH(int, row);
        QFETCH(QString, text);
        QFETCH(double, value);
        CeilingsTableModel model(doc.get());
        QVERIFY(model.setData(model.index(row, CeilingsTableModel::Value), text));
        QCOMPARE(
            model.index(row, CeilingsTableModel::Basis).data().toString(), QString("unstated"));
        const QString tip
            = model.index(row, CeilingsTableModel::Name).data(Qt::ToolTipRole).toString();
        QVERIFY(containsAll(tip, { "Basis: unstated", "Source: edited in Ridgepoint" }));
        QVERIFY(!tip.contains("Other figure"));
        const Hardware &hw = doc->hardware();
        const bool compute = row < 3;
        QCOMPARE(compute ? hw.compute[0].peak : hw.memory[1].bandwidth, value);
        QVERIFY(!(compute ? hw.compute[0].alternate : hw.memory[1].alternate));
        // The other ceilings keep theirs.
        QCOMPARE(model.index(3, CeilingsTableModel::Basis).data().toString(), QString("derived"));
        // Undo gives the figure and its provenance back.
        doc->undoStack()->undo();
        QCOMPARE(model.index(row, CeilingsTableModel::Basis).data().toString(),
            QString(row == 0 ? "spec" : "measured / spec"));
    }

    // Renaming and hiding change no figure: the provenance stays.
    void renameKeepsProvenance()
    {
        CeilingsTableModel model(doc.get());
        QVERIFY(model.setData(model.index(4, CeilingsTableModel::Name), "HBM2e"));
        QVERIFY(model.setData(
            model.index(4, CeilingsTableModel::Shown), Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(model.index(4, CeilingsTableModel::Basis).data().toString(),
            QString("measured / spec"));
    }

private:
    std::unique_ptr<Document> doc;
};

QTEST_MAIN(TestHardwarePanel)
#include "tst_hardwarepanel.moc"
