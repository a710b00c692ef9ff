// HardwarePanel and its CeilingsTableModel: each ceiling's basis in a short column, its whole
// provenance in the row's tooltip, the selected ceiling's in the details pane (its address a
// link), and an edited figure marked as such. An edited machine is the picker's current entry,
// drawn as any other; unticking Show hides a roof without making the machine "Custom", and an
// unticked row stays grey, whatever happens next, until it is ticked (issue 27, item 15).
#include "tests/support/provenancemachine.h"
#include "widgets/document/document.h"
#include "widgets/models/ceilingstablemodel.h"
#include "widgets/panels/hardwarepanel.h"

#include "core/session/session.h"
#include "tests/support/testmachine.h"

#include <QApplication>
#include <QComboBox>
#include <QPalette>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QUndoStack>

using namespace ridgepoint;

namespace {

// The ceilings' rows (test::provenanceMachine): FP16 tensor, FP16 tensor 2:4 (never drawn by
// default: a sparse figure), FP32 vector, L2, HBM2.
constexpr int kSparseRow = 1;

bool grey(const QModelIndex &index)
{
    return index.data(Qt::ForegroundRole).value<QColor>()
        == QPalette().color(QPalette::Disabled, QPalette::Text);
}

// Every cell of the row grey (Show's box included).
bool rowGrey(const QAbstractItemModel &model, int row)
{
    for (int column = 0; column < model.columnCount(); ++column) {
        if (!grey(model.index(row, column)))
            return false;
    }
    return true;
}

// The darkest pixel of the text at the picker's left: near black for a chosen entry, grey for a
// placeholder.
int darkestText(QComboBox *box)
{
    const QImage image = box->grab().toImage();
    int darkest = 255;
    for (int y = 4; y < image.height() - 4; ++y) {
        for (int x = 6; x < image.width() / 2; ++x)
            darkest = std::min(darkest, qGray(image.pixel(x, y)));
    }
    return darkest;
}

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

    // A figure typed in the table makes the machine "Custom (from …)": that entry is the
    // picker's current one, drawn like the presets (it was a greyed placeholder, as if the
    // picker were disabled). Picking the preset again removes it; undo brings it back.
    void editedMachineIsANormalChoice()
    {
        HardwarePanel panel(doc.get(), { test::provenanceMachine() });
        panel.resize(500, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QComboBox *box = panel.presetBox();
        QCOMPARE(box->count(), 1);
        QCOMPARE(box->currentIndex(), 0);
        const int presetInk = darkestText(box);
        QTableView *view = panel.ceilingsView();
        view->setFocus();
        view->setCurrentIndex(view->model()->index(2, CeilingsTableModel::Value));
        QTest::keyClick(view, Qt::Key_F2);
        QWidget *editor = QApplication::focusWidget();
        QVERIFY(editor && editor != view);
        QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(editor, "20 TFLOP/s");
        QTest::keyClick(editor, Qt::Key_Return);
        QApplication::processEvents(); // the delegate commits and closes the editor queued
        const QString custom = QString::fromStdString(doc->hardware().name);
        QCOMPARE(custom, QString("Custom (from Provenance machine)"));
        QCOMPARE(box->currentIndex(), 1);
        QCOMPARE(box->currentText(), custom);
        QVERIFY(box->model()->flags(box->model()->index(1, 0)) & Qt::ItemIsEnabled);
        QVERIFY2(darkestText(box) <= presetInk + 30,
            qPrintable(QStringLiteral("custom text %1, preset text %2")
                           .arg(darkestText(box))
                           .arg(presetInk)));
        // Picking the same entry again changes nothing.
        box->setFocus();
        QTest::keyClick(box, Qt::Key_End);
        QCOMPARE(doc->undoStack()->count(), 1);
        // The preset, from the keyboard: the Custom entry goes.
        QTest::keyClick(box, Qt::Key_Home);
        QCOMPARE(doc->hardware().name, test::provenanceMachine().name);
        QCOMPARE(box->count(), 1);
        QCOMPARE(box->currentIndex(), 0);
        doc->undoStack()->undo();
        QCOMPARE(box->count(), 2);
        QCOMPARE(box->currentText(), custom);
    }

    // Unticking Show (Space on the box, as a user would) hides the roof: the machine keeps its
    // name (the picker its preset), the step undoes, and a session keeps the roof hidden.
    // The compared machine set other than by the picker (a session, a picture's embedded
    // session) shows in the picker: a preset by its entry, a machine no preset names as a new
    // entry; none as "No comparison".
    void comparePickerFollowsTheDocument_data()
    {
        QTest::addColumn<QString>("compared");
        QTest::addColumn<QString>("shown");
        QTest::newRow("a preset") << "preset"
                                  << "Test GPU";
        QTest::newRow("a machine of its own") << "own"
                                              << "Session GPU";
        QTest::newRow("none") << "none"
                              << "No comparison";
    }

    void comparePickerFollowsTheDocument()
    {
        QFETCH(QString, compared);
        QFETCH(QString, shown);
        Hardware preset = test::machine();
        preset.name = "Test GPU";
        HardwarePanel panel(doc.get(), { preset });
        auto *picker = panel.findChildren<QComboBox *>().back();
        QCOMPARE(picker->accessibleName(), QString("Compare with"));
        Hardware other = preset;
        if (compared == "own")
            other.name = "Session GPU";
        doc->setCompareHardware(other); // as a session does
        if (compared == "none")
            doc->setCompareHardware(std::nullopt);
        QCOMPARE(picker->currentText(), shown);
        // Picking it again keeps the same comparison.
        if (compared != "none") {
            QTest::keyClick(picker, Qt::Key_Up);
            QTest::keyClick(picker, Qt::Key_Down);
            QVERIFY(doc->compareHardware());
            QCOMPARE(QString::fromStdString(doc->compareHardware()->name), shown);
        }
    }

    void untickingShowKeepsTheMachine_data()
    {
        QTest::addColumn<int>("row");
        QTest::newRow("drawn compute roof") << 0;
        QTest::newRow("sparse, not drawn") << kSparseRow;
        QTest::newRow("memory roof") << 4;
    }

    void untickingShowKeepsTheMachine()
    {
        QFETCH(int, row);
        const Hardware preset = test::provenanceMachine();
        HardwarePanel panel(doc.get(), { preset });
        panel.resize(500, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTableView *view = panel.ceilingsView();
        view->setFocus();
        view->setCurrentIndex(view->model()->index(row, CeilingsTableModel::Shown));
        QTest::keyClick(view, Qt::Key_Space);
        const auto visible = [&] {
            const Hardware &hw = doc->hardware();
            return row < 3 ? hw.compute[std::size_t(row)].visible
                           : hw.memory[std::size_t(row - 3)].visible;
        };
        QVERIFY(!visible());
        QCOMPARE(doc->hardware().name, preset.name);
        QCOMPARE(doc->hardware().aliases, preset.aliases);
        QCOMPARE(doc->hardware().source, preset.source);
        QCOMPARE(panel.presetBox()->currentText(), QString::fromStdString(preset.name));
        QCOMPARE(panel.presetBox()->count(), 1);
        QCOMPARE(doc->undoStack()->count(), 1);
        QVERIFY(doc->undoStack()->text(0).startsWith("Hide "));
        // Saved and read back: still hidden, still the preset's name.
        const auto read = readSessionJson(writeSessionJson(doc->toSession()), "hidden.json");
        QVERIFY(read.session);
        Document reopened;
        reopened.loadSession(*read.session);
        QCOMPARE(reopened.hardware().name, preset.name);
        QCOMPARE(row < 3 ? reopened.hardware().compute[std::size_t(row)].visible
                         : reopened.hardware().memory[std::size_t(row - 3)].visible,
            false);
        doc->undoStack()->undo();
        QVERIFY(visible());
        QCOMPARE(doc->hardware().name, preset.name);
    }

    // A row the user unticked is grey and stays grey through what used to turn it black (the
    // "not drawn" flags, recomputed a moment later, counted only ticked rows), until ticked.
    void untickedRowStaysGrey_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("action");
        // FP16 tensor is the roofline (the machine's default ceiling); FP32 vector is not drawn
        // (no point is FP32).
        for (const int row : { 0, 2, kSparseRow, 4 }) {
            for (const char *action :
                { "wait", "new points", "show all roofs", "other figure edited", "undo, redo" })
                QTest::addRow("row %d, %s", row, action) << row << QString(action);
        }
    }

    void untickedRowStaysGrey()
    {
        QFETCH(int, row);
        QFETCH(QString, action);
        doc->resetPoints(test::points());
        HardwarePanel panel(doc.get(), { test::provenanceMachine() });
        panel.resize(500, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTableView *view = panel.ceilingsView();
        const QAbstractItemModel &model = *view->model();
        QTest::qWait(250); // the "not drawn" flags settle
        const bool before = rowGrey(model, row);
        QCOMPARE(before, row == 2 || row == kSparseRow);
        view->setFocus();
        view->setCurrentIndex(model.index(row, CeilingsTableModel::Shown));
        QTest::keyClick(view, Qt::Key_Space);
        QCOMPARE(model.index(row, CeilingsTableModel::Shown).data(Qt::CheckStateRole).toInt(),
            int(Qt::Unchecked));
        QVERIFY(rowGrey(model, row));
        QVERIFY(model.index(row, CeilingsTableModel::Name)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains("Hidden: tick Show to draw it."));
        if (action == "new points") {
            doc->resetPoints({ test::points().front() });
        } else if (action == "show all roofs") {
            doc->setRoofsShown(RoofsShown::All);
        } else if (action == "other figure edited") {
            QVERIFY(view->model()->setData(model.index(3, CeilingsTableModel::Value), "5 TB/s"));
        } else if (action == "undo, redo") {
            doc->undoStack()->undo();
            doc->undoStack()->redo();
        }
        QTest::qWait(250); // the "not drawn" flags are recomputed 150 ms after a change
        QVERIFY2(rowGrey(model, row), qPrintable(action));
        view->setCurrentIndex(model.index(row, CeilingsTableModel::Shown));
        QTest::keyClick(view, Qt::Key_Space);
        QTest::qWait(250);
        QCOMPARE(model.index(row, CeilingsTableModel::Shown).data(Qt::CheckStateRole).toInt(),
            int(Qt::Checked));
        QCOMPARE(rowGrey(model, row), before && action != "show all roofs");
    }

private:
    std::unique_ptr<Document> doc;
};

QTEST_MAIN(TestHardwarePanel)
#include "tst_hardwarepanel.moc"
