// Hardware ▸ Measure this machine… on a real MainWindow (offscreen), driven with the mouse and
// the keyboard: the menu opens the dialog, nothing runs until Start, a short real measurement
// (budget and sweep shrunk through the settings) ends with the measured machine in the hardware
// panel and selected in the Document, its measured ceilings and the spec's (when one is
// chosen) drawn on the chart; Cancel, before or during the run, changes nothing (issue 6).
#include "app/gui/mainwindow.h"

#include "core/presets/presets.h"
#include "tests/support/settingssandbox.h"
#include "tests/support/testmachine.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/dialogs/measuredialog.h"
#include "widgets/document/document.h"
#include "widgets/document/settings.h"
#include "widgets/panels/hardwarepanel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

using namespace ridgepoint;

class TestMainWindowMeasure : public QObject
{
    Q_OBJECT

private slots:
    void init();

    void measuredMachineIsAddedAndSelected_data();
    void measuredMachineIsAddedAndSelected();
    void cancelChangesNothing_data();
    void cancelChangesNothing();

private:
    std::unique_ptr<MainWindow> makeWindow();
    // Opens Hardware ▸ Measure this machine… with the mouse and runs `inDialog` on the modal
    // dialog once it is up; returns when the menu action (the dialog's exec) has returned.
    void throughTheMenu(MainWindow &window, const std::function<void(MeasureDialog &)> &inDialog);

    std::unique_ptr<test::SettingsSandbox> m_dir;
};

namespace {

constexpr auto kSpecPreset = "AMD EPYC 9654"; // a CPU preset (resources/hardware)

void click(QAbstractButton *button)
{
    QTest::mouseClick(button, Qt::LeftButton, {}, button->rect().center());
}

// Picks an entry of a combo box with the arrow keys, as a user without a mouse would.
void chooseWithKeys(QComboBox *box, const QString &text)
{
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Home);
    for (int i = 0; i < box->count() && box->currentText() != text; ++i)
        QTest::keyClick(box, Qt::Key_Down);
}

// True when the roof of ceiling `hit` is drawn in the chart's frame: the mouse finds it (or one
// of the same value) in the middle of the stretch the frame shows of it. A memory roof runs up
// to the highest compute roof, a compute roof from the fastest memory roof on.
bool roofDrawn(RooflinePlot *plot, const Hardware &hw, RooflinePlot::CeilingHit hit)
{
    const QCPRange xRange = plot->xAxis->range();
    const QCPRange yRange = plot->yAxis->range();
    double topCompute = 0.0, topMemory = 0.0;
    for (const auto &c : hw.compute)
        topCompute = c.visible ? std::max(topCompute, c.peak) : topCompute;
    for (const auto &m : hw.memory)
        topMemory = m.visible ? std::max(topMemory, m.bandwidth) : topMemory;
    const auto index = static_cast<std::size_t>(hit.index);
    const double value = hit.compute ? hw.compute.at(index).peak : hw.memory.at(index).bandwidth;
    double low = xRange.lower, high = xRange.upper;
    if (hit.compute) {
        if (value < yRange.lower || value > yRange.upper)
            return false;
        low = std::max(low, value / topMemory);
    } else {
        low = std::max(low, yRange.lower / value);
        high = std::min({ high, yRange.upper / value, topCompute / value });
    }
    if (!(low < high))
        return false;
    const auto found = plot->ceilingAt(plot->inspect().ceilingPosition(hit, std::sqrt(low * high)));
    if (!found || found->compute != hit.compute)
        return false;
    const auto at = static_cast<std::size_t>(found->index);
    const double foundValue = hit.compute ? hw.compute.at(at).peak : hw.memory.at(at).bandwidth;
    return std::abs(foundValue / value - 1.0) < 1e-9;
}

} // namespace

void TestMainWindowMeasure::init()
{
    m_dir = std::make_unique<test::SettingsSandbox>();
    QVERIFY(m_dir->isValid());
    Settings::store().clear();
    // A quick run of a second over working sets up to 4 MiB (the defaults are 10 s and several
    // times the last-level cache).
    Settings::set(settings::measureQuickSeconds, 1.0);
    Settings::set(settings::measureMaxWorkingSet, qint64 { 4 } * 1024 * 1024);
}

std::unique_ptr<MainWindow> TestMainWindowMeasure::makeWindow()
{
    auto window = std::make_unique<MainWindow>();
    window->setHardware(test::machine());
    window->setPoints(test::points(), "test points");
    window->show();
    window->activateWindow();
    if (!QTest::qWaitForWindowActive(window.get()))
        qWarning("the window did not become active");
    return window;
}

void TestMainWindowMeasure::throughTheMenu(
    MainWindow &window, const std::function<void(MeasureDialog &)> &inDialog)
{
    QAction *measure = window.findChild<QAction *>("measureMachine");
    QVERIFY(measure);
    QAction *hardwareMenu = nullptr;
    for (QAction *action : window.menuBar()->actions()) {
        if (action->menu() && action->menu()->actions().contains(measure))
            hardwareMenu = action;
    }
    QVERIFY(hardwareMenu);
    QCOMPARE(hardwareMenu->text(), QString("&Hardware"));

    // The dialog is modal: its exec() runs inside the click on the menu entry, so the test
    // acts on it from a timer.
    bool reached = false;
    QTimer poll;
    poll.setInterval(20);
    connect(&poll, &QTimer::timeout, this, [&] {
        auto *dialog = qobject_cast<MeasureDialog *>(QApplication::activeModalWidget());
        if (!dialog || reached)
            return;
        reached = true;
        poll.stop();
        inDialog(*dialog);
        if (dialog->isVisible() && !dialog->isRunning()) // a failed check: do not hang
            static_cast<QDialog *>(dialog)->reject();
    });
    poll.start();

    QMenuBar *bar = window.menuBar();
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->actionGeometry(hardwareMenu).center());
    QMenu *menu = hardwareMenu->menu();
    QTRY_VERIFY(menu->isVisible());
    QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(measure).center());
    poll.stop();
    QVERIFY(reached);
}

void TestMainWindowMeasure::measuredMachineIsAddedAndSelected_data()
{
    QTest::addColumn<bool>("withSpec");
    QTest::newRow("with a spec") << true;
    QTest::newRow("without a spec") << false;
}

void TestMainWindowMeasure::measuredMachineIsAddedAndSelected()
{
    QFETCH(bool, withSpec);
    auto window = makeWindow();
    auto *panel = window->findChild<HardwarePanel *>();
    QVERIFY(panel);
    // The machines offered (the picker also lists the test machine, no preset, as its last
    // entry until another machine is chosen).
    const int machinesBefore = panel->compareBox()->count() - 1;
    const std::size_t pointsBefore = window->document()->pointCount();

    throughTheMenu(*window, [&](MeasureDialog &dialog) {
        QVERIFY(!dialog.isRunning()); // opening does not start
        click(dialog.quickButton());
        chooseWithKeys(dialog.specBox(), withSpec ? kSpecPreset : "None");
        QCOMPARE(dialog.specBox()->currentText(), QString(withSpec ? kSpecPreset : "None"));
        QSignalSpy finished(&dialog, &MeasureDialog::measurementFinished);
        click(dialog.startButton());
        QVERIFY(dialog.isRunning());
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(dialog.acceptButton()->isEnabled());
        click(dialog.acceptButton());
    });

    // The measured machine is in the picker (and the comparison list) and is the Document's.
    const Hardware &hw = window->document()->hardware();
    const QString name = QString::fromStdString(hw.name);
    QVERIFY2(name.startsWith("Measured: "), qPrintable(name));
    QCOMPARE(panel->presetBox()->count(), machinesBefore + 1);
    QCOMPARE(panel->presetBox()->currentText(), name);
    QVERIFY(panel->compareBox()->findText(name) >= 0);
    QVERIFY(window->windowTitle().contains(name));
    QCOMPARE(window->document()->pointCount(), pointsBefore); // the kernels stay

    // Measured ceilings, visible: the default FP64 SIMD roof and at least one load plateau.
    const ComputeCeiling *peak = hw.defaultComputeCeiling();
    QVERIFY(peak && peak->visible);
    QVERIFY2(!QString::fromStdString(peak->name).contains("(spec)"), peak->name.c_str());
    const auto measuredLoad = std::find_if(hw.memory.begin(), hw.memory.end(),
        [](const MemoryCeiling &c) { return c.visible && c.name.ends_with(" load"); });
    QVERIFY(measuredLoad != hw.memory.end());

    // Spec ceilings beside them when a spec was chosen, none otherwise.
    const auto isSpec = [](const std::string &n) { return n.ends_with(" (spec)"); };
    const auto specCompute
        = std::find_if(hw.compute.begin(), hw.compute.end(), [&](const ComputeCeiling &c) {
              return isSpec(c.name) && c.visible && c.precision == Precision::FP64;
          });
    const auto specMemory = std::find_if(hw.memory.begin(), hw.memory.end(),
        [&](const MemoryCeiling &c) { return isSpec(c.name) && c.level == MemoryLevel::DRAM; });
    if (withSpec) {
        const PresetDatabase presets = PresetDatabase::builtin();
        const auto spec = presets.find(kSpecPreset);
        QVERIFY(spec);
        QVERIFY(specCompute != hw.compute.end());
        QVERIFY(specMemory != hw.memory.end() && specMemory->visible);
        QCOMPARE(specCompute->peak, (*spec)->findCompute("FP64 AVX-512 FMA")->peak);
    } else {
        QVERIFY(std::none_of(hw.compute.begin(), hw.compute.end(),
            [&](const ComputeCeiling &c) { return isSpec(c.name); }));
        QVERIFY(std::none_of(hw.memory.begin(), hw.memory.end(),
            [&](const MemoryCeiling &c) { return isSpec(c.name); }));
    }

    // On the chart (View ▸ Fit to hardware, Ctrl+R, frames every visible ceiling).
    RooflinePlot *plot = window->plot();
    // The shortcut reaches the window once it is active again after the modal dialog (without
    // that, the view it had before, framing the kernels, was checked instead).
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window.get()));
    const QCPRange before = plot->yAxis->range();
    QTest::keyClick(window.get(), Qt::Key_R, Qt::ControlModifier);
    QVERIFY(plot->yAxis->range() != before); // the measured machine is far slower than the test one
    plot->replot();
    const auto index = [](const auto &list, auto it) {
        return static_cast<int>(std::distance(list.begin(), it));
    };
    QVERIFY(roofDrawn(plot, hw, { true, static_cast<int>(peak - hw.compute.data()) }));
    QVERIFY(roofDrawn(plot, hw, { false, index(hw.memory, measuredLoad) }));
    if (withSpec) {
        QVERIFY(roofDrawn(plot, hw, { true, index(hw.compute, specCompute) }));
        QVERIFY(roofDrawn(plot, hw, { false, index(hw.memory, specMemory) }));
    }
}

void TestMainWindowMeasure::cancelChangesNothing_data()
{
    QTest::addColumn<bool>("whileMeasuring");
    QTest::newRow("before starting") << false;
    QTest::newRow("while measuring") << true;
}

void TestMainWindowMeasure::cancelChangesNothing()
{
    QFETCH(bool, whileMeasuring);
    auto window = makeWindow();
    auto *panel = window->findChild<HardwarePanel *>();
    QVERIFY(panel);
    const int machinesBefore = panel->presetBox()->count();
    const std::string before = window->document()->hardware().name;
    const int undoSteps = window->document()->undoStack()->count();
    Settings::set(settings::measureBudget, QStringLiteral("quick"));

    throughTheMenu(*window, [&](MeasureDialog &dialog) {
        click(dialog.thoroughButton()); // a minute unless cancelled
        if (whileMeasuring) {
            click(dialog.startButton());
            QVERIFY(dialog.isRunning());
            QTRY_VERIFY_WITH_TIMEOUT(dialog.progressBar()->value() > 0, 20000);
        }
        QSignalSpy finished(&dialog, &MeasureDialog::measurementFinished);
        click(dialog.cancelButton());
        if (whileMeasuring)
            QVERIFY(finished.wait(5000));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isVisible(), 5000);
    });

    QCOMPARE(window->document()->hardware().name, before);
    QCOMPARE(panel->presetBox()->count(), machinesBefore);
    QCOMPARE(window->document()->undoStack()->count(), undoSteps);
    // A choice is remembered once it was started with.
    QCOMPARE(
        Settings::get(settings::measureBudget), QString(whileMeasuring ? "thorough" : "quick"));
}

QTEST_MAIN(TestMainWindowMeasure)
#include "tst_mainwindow_measure.moc"
