// One quantization vocabulary (issue 27, item 13), on a real MainWindow (offscreen): the
// toolbar's switch is the one place the mode is chosen (Alt+Q reaches it; the Workloads dock has
// no second copy), and its item, the dock's note and the LLM form's type boxes, the Kernels
// table's Group cell, the chart's legend and the status bar all name the mode in the same
// words. Switching with the keyboard moves the workload points by the model's bytes; measured
// points keep their place and their group.
#include "app/gui/mainwindow.h"
#include "app/gui/sessioncontroller.h"

#include "core/presets/presets.h"
#include "tests/support/settingssandbox.h"
#include "tests/support/testmachine.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/document/settings.h"
#include "widgets/export/chartexporter.h"
#include "widgets/export/exportoptions.h"
#include "widgets/models/pointstablemodel.h"
#include "widgets/panels/pointspanel.h"
#include "widgets/panels/quantmodebox.h"
#include "widgets/panels/workloadpanel.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <memory>

using namespace ridgepoint;

namespace {

// The matmul the Workloads dock adds by default: X[1,8192]·Y[8192,8192] in bf16.
constexpr double kB = 1;
constexpr double kD = 8192;
constexpr double kF = 8192;
const QString kMatmulGroup = QStringLiteral("matmul 1×8192×8192 bf16");

// Bytes of X, Y and Z with element sizes bx, by, bz (docs/WORKLOADS.md, "Matmul").
double matmulBytes(double bx, double by, double bz)
{
    return bx * kB * kD + by * kD * kF + bz * kB * kF;
}

QStringList legendNames(const RooflinePlot *plot)
{
    QStringList names;
    for (int i = 0; i < plot->legend->itemCount(); ++i) {
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot->legend->item(i)))
            names << item->plottable()->name();
    }
    return names;
}

// The Group cell of the row whose Name cell is `name`, as the Kernels table shows it.
QString groupCell(const QTableView *view, const QString &name)
{
    const QAbstractItemModel *model = view->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, PointsTableModel::Name).data().toString() == name)
            return model->index(row, PointsTableModel::Group).data().toString();
    }
    return QStringLiteral("<no row %1>").arg(name);
}

} // namespace

class TestMainWindowQuant : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void everyPlaceNamesTheModeInOneVocabulary_data();
    void everyPlaceNamesTheModeInOneVocabulary();
    void sessionReopensInItsModeAndThePictureSaysSo_data();
    void sessionReopensInItsModeAndThePictureSaysSo();
    void workloadsDockHasNoSecondSwitch();
    void altQReachesTheSwitch();

private:
    std::unique_ptr<MainWindow> makeWindow();

    std::unique_ptr<test::SettingsSandbox> m_dir;
};

void TestMainWindowQuant::init()
{
    m_dir = std::make_unique<test::SettingsSandbox>();
    QVERIFY(m_dir->isValid());
    Settings::store().clear();
}

void TestMainWindowQuant::cleanup()
{
    m_dir.reset();
}

std::unique_ptr<MainWindow> TestMainWindowQuant::makeWindow()
{
    auto window = std::make_unique<MainWindow>();
    const PresetDatabase presets = PresetDatabase::builtin();
    const auto h100 = presets.find("H100");
    if (!h100)
        qFatal("no H100 preset");
    window->setHardware(**h100);
    window->setPoints(test::points(), "test points");
    return window;
}

void TestMainWindowQuant::everyPlaceNamesTheModeInOneVocabulary_data()
{
    // The words are written out here, not taken from the table under test.
    QTest::addColumn<QList<int>>("keys"); // pressed on the toolbar's switch, from "none"
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("label"); // the switch's item and the status bar's words
    QTest::addColumn<QString>("suffix"); // after the group, in the table and the legend
    QTest::addColumn<QString>("weights"); // the LLM form's type boxes under the mode
    QTest::addColumn<QString>("activations");
    QTest::addColumn<double>("bytes"); // the matmul's, by the model
    QTest::newRow("none") << QList<int> { Qt::Key_End, Qt::Key_Home } << int(QuantMode::None)
                          << "none — weights and activations as each workload sets them"
                          << ""
                          << "bf16"
                          << "bf16" << matmulBytes(2, 2, 2);
    QTest::newRow("int8") << QList<int> { Qt::Key_Down } << int(QuantMode::Int8)
                          << "int8 — int8 weights and activations, int8 ceiling"
                          << " · int8"
                          << "int8"
                          << "int8" << matmulBytes(1, 1, 1);
    QTest::newRow("w8a16") << QList<int> { Qt::Key_Down, Qt::Key_Down } << int(QuantMode::W8A16)
                           << "w8a16 — int8 weights, bf16 activations"
                           << " · w8a16"
                           << "int8"
                           << "bf16" << matmulBytes(2, 1, 2);
    QTest::newRow("w4a16") << QList<int> { Qt::Key_End } << int(QuantMode::W4A16)
                           << "w4a16 — int4 weights, bf16 activations"
                           << " · w4a16"
                           << "int4"
                           << "bf16" << matmulBytes(2, 0.5, 2);
}

void TestMainWindowQuant::everyPlaceNamesTheModeInOneVocabulary()
{
    QFETCH(QList<int>, keys);
    QFETCH(int, mode);
    QFETCH(QString, label);
    QFETCH(QString, suffix);
    QFETCH(QString, weights);
    QFETCH(QString, activations);
    QFETCH(double, bytes);
    auto window = makeWindow();
    window->show();
    Document *doc = window->document();
    QVERIFY(window->workloadPanel()->addToChart()); // the dock's default matmul, under none
    const std::size_t matmul = doc->pointCount() - 1;
    QVERIFY(doc->workload(matmul));
    const double stream = doc->point(0).bytes.front().bytes;

    auto *toolbar = window->findChild<QComboBox *>("toolbarQuantMode");
    QVERIFY(toolbar);
    toolbar->setFocus();
    for (int key : keys)
        QTest::keyClick(toolbar, static_cast<Qt::Key>(key));
    QCOMPARE(static_cast<int>(doc->quantMode()), mode);
    QCOMPARE(toolbar->currentText(), label);
    QVERIFY2(window->statusBar()->currentMessage().startsWith("Quantization " + label + ":"),
        qPrintable(window->statusBar()->currentMessage()));

    const QString name = QString::fromStdString(doc->point(matmul).name);

    // The workload point moved by the model's bytes; the measured one kept its own.
    QCOMPARE(doc->point(matmul).bytes.front().bytes, bytes);
    QCOMPARE(doc->point(0).bytes.front().bytes, stream);

    // The Group cell and the legend name the mode of the workload, never of a measured point.
    const auto *view = window->findChild<PointsPanel *>()->view();
    QCOMPARE(groupCell(view, name), kMatmulGroup + suffix);
    QCOMPARE(groupCell(view, "stream"), QString("memory"));
    const QStringList legend = legendNames(window->plot());
    QVERIFY2(legend.contains(kMatmulGroup + suffix), qPrintable(legend.join(" | ")));
    QVERIFY2(legend.contains("memory") && legend.contains("math"), qPrintable(legend.join(" | ")));

    // The dock names the mode in the same words, and the LLM form's type boxes show the types
    // the label names.
    auto *note = window->workloadPanel()->findChild<QLabel *>("quantModeNote");
    QVERIFY(note);
    QCOMPARE(note->isVisible(), mode != int(QuantMode::None));
    if (mode != int(QuantMode::None))
        QVERIFY2(note->text().contains(label), qPrintable(note->text()));
    auto *weightBox = window->workloadPanel()->findChild<QComboBox *>("weights");
    auto *activationBox = window->workloadPanel()->findChild<QComboBox *>("activations");
    QCOMPARE(weightBox->currentText(), weights);
    QCOMPARE(activationBox->currentText(), activations);
    if (mode != int(QuantMode::None))
        QVERIFY(label.contains(weights + " weights"));
    QCOMPARE(weightBox->isEnabled(), mode == int(QuantMode::None));
}

void TestMainWindowQuant::sessionReopensInItsModeAndThePictureSaysSo_data()
{
    QTest::addColumn<int>("downs"); // Down keys on the toolbar's switch, from "none"
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("suffix");
    QTest::newRow("none") << 0 << int(QuantMode::None) << "";
    QTest::newRow("int8") << 1 << int(QuantMode::Int8) << " · int8";
    QTest::newRow("w8a16") << 2 << int(QuantMode::W8A16) << " · w8a16";
    QTest::newRow("w4a16") << 3 << int(QuantMode::W4A16) << " · w4a16";
}

void TestMainWindowQuant::sessionReopensInItsModeAndThePictureSaysSo()
{
    QFETCH(int, downs);
    QFETCH(int, mode);
    QFETCH(QString, suffix);
    auto window = makeWindow();
    QVERIFY(window->workloadPanel()->addMatmulSweep(8192, 8192, 1, 64));
    auto *toolbar = window->findChild<QComboBox *>("toolbarQuantMode");
    toolbar->setFocus();
    for (int i = 0; i < downs; ++i)
        QTest::keyClick(toolbar, Qt::Key_Down);
    QCOMPARE(static_cast<int>(window->document()->quantMode()), mode);
    const std::size_t last = window->document()->pointCount() - 1;
    const KernelPoint saved = window->document()->point(last);
    const QString path = m_dir->filePath("quant.ridgepoint.json");
    QVERIFY(window->sessions()->saveTo(path));

    auto other = std::make_unique<MainWindow>();
    QVERIFY(other->sessions()->open(path));
    Document *doc = other->document();
    QCOMPARE(static_cast<int>(doc->quantMode()), mode);
    auto *reopened = other->findChild<QComboBox *>("toolbarQuantMode");
    QCOMPARE(reopened->currentText(), toolbar->currentText());
    QCOMPARE(doc->pointCount(), last + 1);
    QCOMPARE(doc->point(last).bytes.front().bytes, saved.bytes.front().bytes);
    QCOMPARE(doc->point(last).flops, saved.flops);
    // The workload keeps its own group: the mode is named once, not once per save.
    const QString group = kMatmulGroup + ", b swept 1…64" + suffix;
    QCOMPARE(QString::fromStdString(doc->point(last).group), group);
    const auto *view = other->findChild<PointsPanel *>()->view();
    QCOMPARE(groupCell(view, QString::fromStdString(saved.name)), group);
    QVERIFY2(legendNames(other->plot()).contains(group),
        qPrintable(legendNames(other->plot()).join(" | ")));

    // An exported picture names the mode in its legend.
    ExportOptions options;
    options.width = 1200;
    options.height = 800;
    const QString svg
        = QString::fromUtf8(ChartExporter(*other->plot()).renderToBytes("svg", options));
    QVERIFY(!svg.isEmpty());
    QVERIFY2(svg.contains(group.toHtmlEscaped()), qPrintable(group));
}

void TestMainWindowQuant::workloadsDockHasNoSecondSwitch()
{
    auto window = makeWindow();
    QCOMPARE(window->findChildren<QuantModeBox *>().size(), 1);
    QVERIFY(!window->workloadPanel()->findChild<QuantModeBox *>());
    // A switch made anywhere (here: undo) shows in the one switch and in the dock's boxes.
    Document *doc = window->document();
    doc->setQuantMode(QuantMode::Int8);
    auto *toolbar = window->findChild<QComboBox *>("toolbarQuantMode");
    auto *dtype = window->workloadPanel()->findChild<QComboBox *>("dtype");
    QCOMPARE(dtype->currentText(), QString("int8"));
    QVERIFY(!dtype->isEnabled());
    QVERIFY2(dtype->toolTip().contains("int8 — int8 weights and activations, int8 ceiling"),
        qPrintable(dtype->toolTip()));
    doc->undoStack()->undo();
    QCOMPARE(toolbar->currentIndex(), 0);
    QCOMPARE(dtype->currentText(), QString("bf16"));
    QVERIFY(dtype->isEnabled());
}

void TestMainWindowQuant::altQReachesTheSwitch()
{
    auto window = makeWindow();
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window.get()));
    auto *toolbar = window->findChild<QComboBox *>("toolbarQuantMode");
    window->plot()->setFocus();
    QTest::keyClick(window.get(), Qt::Key_Q, Qt::AltModifier);
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(toolbar));
    QTest::keyClick(toolbar, Qt::Key_Down);
    QCOMPARE(window->document()->quantMode(), QuantMode::Int8);
}

QTEST_MAIN(TestMainWindowQuant)
#include "tst_mainwindow_quant.moc"
