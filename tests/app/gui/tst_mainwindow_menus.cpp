// The window's menus, themes and texts on a real MainWindow (offscreen): outlines that stand out
// on every theme, Tab leaving the tables, the Help menu, File ▸ New and Open example, no
// command-line options in the window's texts, and a tour of the window that must not make Qt
// warn (the quantization switch: tst_mainwindow_quant).
#include "app/gui/helpmenu.h"
#include "app/gui/mainwindow.h"
#include "app/gui/sessioncontroller.h"

#include "core/presets/presets.h"
#include "core/presets/resources.h"
#include "tests/support/provenancemachine.h"
#include "tests/support/settingssandbox.h"
#include "tests/support/testmachine.h"
#include "widgets/chart/themestyle.h"
#include "widgets/dialogs/messagebox.h"
#include "widgets/document/document.h"
#include "widgets/document/settings.h"
#include "widgets/models/ceilingstablemodel.h"
#include "widgets/panels/hardwarepanel.h"
#include "widgets/panels/workloadpanel.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QLabel>
#include <QMenuBar>
#include <QRadioButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QStyleOptionButton>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QUndoStack>

#include <cmath>
#include <memory>

using namespace ridgepoint;

namespace {

// WCAG relative luminance, written out here rather than taken from the code under test.
double luminance(QRgb rgb)
{
    const auto linear = [](int v) {
        const double c = v / 255.0;
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(qRed(rgb)) + 0.7152 * linear(qGreen(rgb)) + 0.0722 * linear(qBlue(rgb));
}

double contrast(QRgb a, QRgb b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QStringList g_warnings;

void collectWarnings(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    // The offscreen platform cannot raise windows or pass size hints; X11 can. Not the app's.
    if (message.startsWith(QLatin1String("This plugin does not support")))
        return;
    if (type == QtWarningMsg || type == QtCriticalMsg || type == QtFatalMsg)
        g_warnings << message;
}

QString plainText(QString text)
{
    return text.remove(QLatin1Char('&'));
}

} // namespace

class TestMainWindowMenus : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void indicatorOutlineStandsOut_data();
    void indicatorOutlineStandsOut();
    void tabLeavesTheTable_data();
    void tabLeavesTheTable();
    void shortcutsDialogListsEveryShortcut();
    void aboutNamesVersionLicenceLibrariesAndSources();
    void documentationSaysWhereTheDocumentsAre();
    void newStartsEmptyAfterAsking();
    void openExampleBringsTheFirstStartBack();
    void roofFiguresSwitch();
    void windowTextsNameNoCommandLineOptions();
    void tourOfTheWindowMakesQtWarnNothing();

private:
    std::unique_ptr<MainWindow> makeWindow();
    std::unique_ptr<test::SettingsSandbox> m_dir;
    std::vector<QMessageBox::StandardButton> m_answers;
    int m_questions = 0;
};

void TestMainWindowMenus::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestMainWindowMenus::init()
{
    m_dir = std::make_unique<test::SettingsSandbox>();
    QVERIFY(m_dir->isValid());
    Settings::store().clear();
    m_answers.clear();
    m_questions = 0;
    MessageBox::setAnswerer([this](const Question &) {
        ++m_questions;
        if (m_answers.empty())
            return QMessageBox::Cancel;
        const auto answer = m_answers.front();
        m_answers.erase(m_answers.begin());
        return answer;
    });
}

void TestMainWindowMenus::cleanup()
{
    MessageBox::setAnswerer(nullptr);
    applyWindowTheme(ChartTheme::light());
}

std::unique_ptr<MainWindow> TestMainWindowMenus::makeWindow()
{
    auto window = std::make_unique<MainWindow>();
    window->setHardware(test::machine());
    window->setPoints(test::points(), "test points");
    return window;
}

void TestMainWindowMenus::indicatorOutlineStandsOut_data()
{
    QTest::addColumn<int>("theme");
    QTest::addColumn<bool>("radio");
    QTest::newRow("dark check box") << int(ChartTheme::Kind::Dark) << false;
    QTest::newRow("dark radio button") << int(ChartTheme::Kind::Dark) << true;
    QTest::newRow("light check box") << int(ChartTheme::Kind::Light) << false;
    QTest::newRow("print radio button") << int(ChartTheme::Kind::Print) << true;
}

void TestMainWindowMenus::indicatorOutlineStandsOut()
{
    QFETCH(int, theme);
    QFETCH(bool, radio);
    const ChartTheme chosen = ChartTheme::of(ChartTheme::Kind(theme));
    applyWindowTheme(chosen);
    std::unique_ptr<QAbstractButton> button;
    if (radio)
        button = std::make_unique<QRadioButton>("unticked");
    else
        button = std::make_unique<QCheckBox>("unticked");
    button->resize(button->sizeHint());
    const QImage image = button->grab().toImage();
    QStyleOptionButton option;
    option.initFrom(button.get());
    const QRect indicator = button->style()->subElementRect(
        radio ? QStyle::SE_RadioButtonIndicator : QStyle::SE_CheckBoxIndicator, &option,
        button.get());
    QVERIFY(indicator.width() > 4 && indicator.height() > 4);
    const QRgb background = chosen.windowPalette().color(QPalette::Window).rgb();
    // The strongest pixel on the left edge of the unticked indicator, around its middle.
    double best = 1.0;
    for (int x = indicator.left(); x <= indicator.left() + 2; ++x) {
        for (int y = indicator.center().y() - 1; y <= indicator.center().y() + 1; ++y)
            best = std::max(best, contrast(image.pixel(x, y), background));
    }
    QVERIFY2(
        best >= 3.0, qPrintable(QString("outline contrast %1 (expected at least 3)").arg(best)));
}

void TestMainWindowMenus::tabLeavesTheTable_data()
{
    QTest::addColumn<QString>("table");
    QTest::newRow("ceilings") << "ceilings";
    QTest::newRow("kernels") << "kernels";
}

void TestMainWindowMenus::tabLeavesTheTable()
{
    QFETCH(QString, table);
    auto window = makeWindow();
    window->show();
    QApplication::setActiveWindow(window.get());
    QVERIFY(QTest::qWaitForWindowActive(window.get()));
    QTableView *view = nullptr;
    for (QTableView *candidate : window->findChildren<QTableView *>()) {
        const bool ceilings = qobject_cast<CeilingsTableModel *>(candidate->model()) != nullptr;
        if ((table == "ceilings") == ceilings && candidate->isVisible())
            view = candidate;
    }
    QVERIFY(view);
    view->setFocus(Qt::TabFocusReason);
    view->setCurrentIndex(view->model()->index(0, 1));
    QCOMPARE(QApplication::focusWidget(), view);
    const QModelIndex before = view->currentIndex();
    QTest::keyClick(view, Qt::Key_Tab);
    QVERIFY2(QApplication::focusWidget() != view, "Tab stayed in the table");
    QCOMPARE(view->currentIndex(), before);
}

void TestMainWindowMenus::shortcutsDialogListsEveryShortcut()
{
    auto window = makeWindow();
    auto *action = window->findChild<QAction *>("helpShortcuts");
    QVERIFY(action);
    action->trigger();
    auto *dialog = window->findChild<QDialog *>("shortcutsDialog");
    QVERIFY(dialog);
    auto *table = dialog->findChild<QTableWidget *>("shortcuts");
    QVERIFY(table);
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r)
        rows << table->item(r, 0)->text() + " = " + table->item(r, 1)->text();
    // Every action of the window that has a shortcut, found here without the dialog's code.
    int expected = 0;
    for (const QAction *each : window->findChildren<QAction *>()) {
        if (each->shortcuts().isEmpty() || each->text().isEmpty())
            continue;
        ++expected;
        const QString keys = each->shortcut().toString(QKeySequence::NativeText);
        const QString name = plainText(each->text());
        QVERIFY2(!rows.filter(name).filter(keys).isEmpty(),
            qPrintable(name + " (" + keys + ") missing from:\n" + rows.join('\n')));
    }
    // And every label whose Alt+letter reaches its control (the toolbar's quantization switch).
    for (const QLabel *label : window->findChildren<QLabel *>()) {
        if (label->buddy() && label->text().contains(QRegularExpression("&[^&]")))
            ++expected;
    }
    QCOMPARE(table->rowCount(), expected);
    QVERIFY(rows.contains(
        "File ▸ New = " + QKeySequence(QKeySequence::New).toString(QKeySequence::NativeText)));
    QVERIFY2(rows.contains("Toolbar ▸ Quantization = "
                 + QKeySequence(Qt::ALT | Qt::Key_Q).toString(QKeySequence::NativeText)),
        qPrintable(rows.join('\n')));
    dialog->close();
}

void TestMainWindowMenus::aboutNamesVersionLicenceLibrariesAndSources()
{
    auto window = makeWindow();
    window->findChild<QAction *>("helpAbout")->trigger();
    auto *dialog = window->findChild<QDialog *>("aboutDialog");
    QVERIFY(dialog);
    const QString text = dialog->findChild<QTextBrowser *>()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("Ridgepoint " RIDGEPOINT_VERSION)), qPrintable(text));
    QVERIFY(text.contains("GPL-3.0-or-later"));
    QVERIFY(text.contains(QString::fromLatin1(qVersion())));
    QVERIFY(text.contains("QCustomPlot 2.1"));
    const PresetDatabase presets = PresetDatabase::builtin();
    for (const Hardware &machine : presets.machines())
        QVERIFY2(text.contains(QString::fromStdString(machine.name)), machine.name.c_str());
    QVERIFY(!text.contains("http"));
    dialog->close();
    QVERIFY(window->findChild<QAction *>("helpAboutQt"));
}

void TestMainWindowMenus::documentationSaysWhereTheDocumentsAre()
{
    auto window = makeWindow();
    window->findChild<QAction *>("helpDocumentation")->trigger();
    auto *dialog = window->findChild<QDialog *>("documentationDialog");
    QVERIFY(dialog);
    const QString text = dialog->findChild<QTextBrowser *>()->toPlainText();
    const QString folder = documentationFolder();
    QVERIFY2(!folder.isEmpty(), "the build tree's docs/ folder was not found");
    QVERIFY(QFileInfo::exists(folder + "/MODEL.md"));
    QVERIFY2(text.contains(folder), qPrintable(text));
    for (const char *name : { "MODEL.md", "FORMATS.md", "FILES.md", "WORKLOADS.md" })
        QVERIFY2(text.contains(QLatin1String(name)), name);
    QVERIFY(!text.contains("http"));
    dialog->close();
}

// View ▸ Roofs: use measured / spec figures is one state with Document::figures(): "stream"
// (1 FLOP/B on HBM2) is bounded at 1.35e12 B/s · 1 = 1.35 TFLOP/s measured, 1.555 TFLOP/s spec.
void TestMainWindowMenus::roofFiguresSwitch()
{
    auto window = makeWindow();
    window->setHardware(test::provenanceMachine());
    Document *doc = window->document();
    auto *measured = window->findChild<QAction *>("figures-measured");
    auto *spec = window->findChild<QAction *>("figures-spec");
    QVERIFY(measured && spec);
    QVERIFY(measured->isChecked() && !spec->isChecked());
    QCOMPARE(doc->analysis(0)->attainable, 1.35e12);
    spec->trigger();
    QCOMPARE(doc->figures(), FigureChoice::Spec);
    QVERIFY(spec->isChecked() && !measured->isChecked());
    QCOMPARE(doc->analysis(0)->attainable, 1.555e12);
    doc->setFigures(FigureChoice::Measured); // from elsewhere (a session): the menu follows
    QVERIFY(measured->isChecked() && !spec->isChecked());
    QCOMPARE(doc->analysis(0)->attainable, 1.35e12);
}

void TestMainWindowMenus::newStartsEmptyAfterAsking()
{
    auto window = makeWindow();
    Document *doc = window->document();
    doc->setQuantMode(QuantMode::Int8); // an unsaved change
    const std::string machine = doc->hardware().name;
    auto *action = window->findChild<QAction *>("newSession");
    QVERIFY(action);
    m_answers = { QMessageBox::Cancel };
    action->trigger();
    QCOMPARE(m_questions, 1);
    QCOMPARE(doc->pointCount(), test::points().size()); // kept
    m_answers = { QMessageBox::Discard };
    action->trigger();
    QCOMPARE(m_questions, 2);
    QCOMPARE(doc->pointCount(), std::size_t(0));
    QCOMPARE(doc->hardware().name, machine);
    QCOMPARE(doc->quantMode(), QuantMode::None);
    QVERIFY(doc->undoStack()->isClean());
    QVERIFY(window->windowTitle().contains("Untitled"));
}

void TestMainWindowMenus::openExampleBringsTheFirstStartBack()
{
    auto window = makeWindow();
    window->findChild<QAction *>("newSession")->trigger(); // clean: nothing asked
    QCOMPARE(m_questions, 0);
    QCOMPARE(window->document()->pointCount(), std::size_t(0));
    window->findChild<QAction *>("openExample")->trigger();
    // The example file's rows, counted from the embedded file itself.
    const EmbeddedFile *file = embeddedFile("examples/h100-transformer-kernels.csv");
    QVERIFY(file);
    std::size_t rows = 0;
    const QStringList lines = QString::fromStdString(std::string(file->content)).split('\n');
    for (const QString &line : lines) {
        if (!line.trimmed().isEmpty() && !line.startsWith('#'))
            ++rows;
    }
    QCOMPARE(window->document()->pointCount(), rows - 1); // less the header
    QVERIFY2(window->windowTitle().contains("example"), qPrintable(window->windowTitle()));
}

void TestMainWindowMenus::windowTextsNameNoCommandLineOptions()
{
    auto window = makeWindow();
    // A few diagnostics the window shows: a point in a precision the machine lacks, a sharded
    // matmul without a network ceiling, a rejected ceiling value, a machine file as points.
    KernelPoint fp64 = test::points().front();
    fp64.name = "bf16 kernel";
    fp64.precision = Precision::BF16; // the test machine has fp32 and fp64 only
    std::vector<KernelPoint> points = test::points();
    points.push_back(fp64);
    window->setPoints(points, "test points");
    QStringList texts;
    for (std::size_t i = 0; i < window->document()->pointCount(); ++i) {
        if (!window->document()->analysis(i))
            texts << QString::fromStdString(window->document()->analysis(i).error());
    }
    QVERIFY2(!texts.isEmpty(), "the bf16 point was placed on a machine without bf16");
    auto *variant = window->workloadPanel()->findChild<QComboBox *>("variant");
    variant->setCurrentIndex(2); // sharded
    window->workloadPanel()->addToChart();
    texts << window->workloadPanel()->message();
    auto *hardware = window->findChild<HardwarePanel *>();
    hardware->ceilingsModel()->setData(
        hardware->ceilingsModel()->index(0, CeilingsTableModel::Value), "fast");
    texts << hardware->ceilingsModel()->lastError();
    // Every action, tooltip, status tip and label of the window.
    for (const QAction *action : window->findChildren<QAction *>())
        texts << action->text() << action->toolTip() << action->statusTip();
    for (const QWidget *widget : window->findChildren<QWidget *>()) {
        texts << widget->toolTip() << widget->whatsThis() << widget->accessibleName();
        if (const auto *label = qobject_cast<const QLabel *>(widget))
            texts << label->text();
    }
    const QRegularExpression forbidden(QStringLiteral("--[a-z]|reference 0|section [0-9]+ of"),
        QRegularExpression::CaseInsensitiveOption);
    for (const QString &text : texts)
        QVERIFY2(!forbidden.match(text).hasMatch(), qPrintable(text));
}

void TestMainWindowMenus::tourOfTheWindowMakesQtWarnNothing()
{
    g_warnings.clear();
    const QtMessageHandler previous = qInstallMessageHandler(collectWarnings);
    {
        auto window = makeWindow();
        window->show();
        QApplication::setActiveWindow(window.get());
        QVERIFY(QTest::qWaitForWindowActive(window.get()));
        auto *hardware = window->findChild<HardwarePanel *>();
        QTableView *view = hardware->ceilingsView();
        // Edit the first ceiling's value with the keyboard, as a user would.
        view->setFocus();
        view->setCurrentIndex(view->model()->index(0, CeilingsTableModel::Value));
        QTest::keyClick(view, Qt::Key_F2);
        QWidget *editor = QApplication::focusWidget();
        QVERIFY(editor && editor != view);
        QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(editor, "123 TFLOP/s");
        QTest::keyClick(editor, Qt::Key_Return);
        QApplication::processEvents(); // the delegate commits and closes the editor queued
        QVERIFY2(
            view->model()->index(0, CeilingsTableModel::Value).data().toString().startsWith("123"),
            qPrintable(view->model()->index(0, CeilingsTableModel::Value).data().toString()));
        // Untick and tick the first ceiling, switch machine, theme and quantization.
        const QModelIndex shown = view->model()->index(1, CeilingsTableModel::Shown);
        view->model()->setData(shown, Qt::Unchecked, Qt::CheckStateRole);
        view->model()->setData(shown, Qt::Checked, Qt::CheckStateRole);
        hardware->presetBox()->setFocus();
        QTest::keyClick(hardware->presetBox(), Qt::Key_Down);
        for (const char *theme : { "theme-dark", "theme-print", "theme-light" })
            window->findChild<QAction *>(theme)->trigger();
        auto *quant = window->findChild<QComboBox *>("toolbarQuantMode");
        quant->setFocus();
        QTest::keyClick(quant, Qt::Key_Down);
        QTest::keyClick(quant, Qt::Key_Down);
        // The Help dialogs, open and closed again.
        for (const char *action : { "helpShortcuts", "helpDocumentation", "helpAbout" })
            window->findChild<QAction *>(action)->trigger();
        for (QDialog *dialog : window->findChildren<QDialog *>())
            dialog->close();
        QApplication::processEvents();
        m_answers = { QMessageBox::Discard };
        window->findChild<QAction *>("openExample")->trigger();
        QApplication::processEvents();
    }
    qInstallMessageHandler(previous);
    QVERIFY2(g_warnings.isEmpty(), qPrintable(g_warnings.join('\n')));
}

QTEST_MAIN(TestMainWindowMenus)
#include "tst_mainwindow_menus.moc"
