// View preferences of the window that outlive a session: the presentation font scale of the
// chart (View → Presentation font size), the machine preset chosen last, and View → Points' mode
// and density threshold. Real MainWindow, offscreen, settings in a temporary INI file.
#include "app/gui/mainwindow.h"

#include "core/presets/presets.h"
#include "tests/support/settingssandbox.h"
#include "tests/support/testmachine.h"
#include "widgets/chart/densitylayer.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/document/settings.h"

#include <QAction>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace ridgepoint;

class TestMainWindowPreferences : public QObject
{
    Q_OBJECT

private slots:
    void init();

    void fontScaleGrowsTheChartTextAndIsRemembered();
    void lastPresetIsRememberedAndReopened();
    void editedMachineIsNotRememberedAsAPreset();
    void unknownLastPresetOpensNothing();
    void pointsModeAndDensityThresholdAreReopened_data();
    void pointsModeAndDensityThresholdAreReopened();

private:
    std::unique_ptr<MainWindow> makeWindow();
    std::unique_ptr<test::SettingsSandbox> m_dir;
};

void TestMainWindowPreferences::init()
{
    m_dir = std::make_unique<test::SettingsSandbox>();
    QVERIFY(m_dir->isValid());
    Settings::store().clear();
}

std::unique_ptr<MainWindow> TestMainWindowPreferences::makeWindow()
{
    auto window = std::make_unique<MainWindow>();
    window->setHardware(test::machine());
    window->setPoints(test::points(), "test points");
    return window;
}

void TestMainWindowPreferences::fontScaleGrowsTheChartTextAndIsRemembered()
{
    double tickSize = 0.0;
    double legendSize = 0.0;
    {
        auto window = makeWindow();
        RooflinePlot *plot = window->plot();
        QCOMPARE(plot->display().fontScale, 1.0);
        tickSize = plot->xAxis->tickLabelFont().pointSizeF();
        legendSize = plot->legend->font().pointSizeF();
        QVERIFY(tickSize > 0.0);

        auto *action200 = window->findChild<QAction *>("fontScale-200");
        QVERIFY(action200);
        QVERIFY(!action200->isChecked());
        QVERIFY(window->findChild<QAction *>("fontScale-100")->isChecked());
        action200->trigger();
        QCOMPARE(plot->display().fontScale, 2.0);
        QVERIFY(action200->isChecked());
        QCOMPARE(plot->xAxis->tickLabelFont().pointSizeF(), 2.0 * tickSize);
        QCOMPARE(plot->legend->font().pointSizeF(), 2.0 * legendSize);
        QCOMPARE(plot->font().pointSizeF(), 2.0 * tickSize);
        QCOMPARE(Settings::get(settings::fontScalePercent), 200);

        // Scales do not compound: 125 % is 125 % of the plain size, not of 200 %.
        window->findChild<QAction *>("fontScale-125")->trigger();
        QCOMPARE(plot->xAxis->tickLabelFont().pointSizeF(), 1.25 * tickSize);
        // Nor does re-applying a theme.
        window->setTheme(ChartTheme::Kind::Dark);
        window->setTheme(ChartTheme::Kind::Light);
        QCOMPARE(plot->xAxis->tickLabelFont().pointSizeF(), 1.25 * tickSize);
        window->findChild<QAction *>("fontScale-150")->trigger();
    }
    // A new window starts at the stored scale.
    auto window = makeWindow();
    QCOMPARE(window->plot()->display().fontScale, 1.5);
    QCOMPARE(window->plot()->xAxis->tickLabelFont().pointSizeF(), 1.5 * tickSize);
    QVERIFY(window->findChild<QAction *>("fontScale-150")->isChecked());

    // A hand-edited value that is no menu entry falls back to 100 %.
    Settings::set(settings::fontScalePercent, 333);
    auto fallback = makeWindow();
    QCOMPARE(fallback->plot()->display().fontScale, 1.0);
}

void TestMainWindowPreferences::lastPresetIsRememberedAndReopened()
{
    const PresetDatabase presets = PresetDatabase::builtin();
    QVERIFY(presets.machines().size() >= 2);
    const Hardware &second = presets.machines()[1];
    {
        auto window = makeWindow();
        QVERIFY(!window->openLastPreset()); // nothing stored yet
        QCOMPARE(window->document()->hardware().name, test::machine().name);
        window->document()->selectHardware(second);
        QCOMPARE(Settings::get(settings::lastPreset), QString::fromStdString(second.name));
    }
    auto window = makeWindow();
    QVERIFY(window->openLastPreset());
    QCOMPARE(window->document()->hardware().name, second.name);
}

void TestMainWindowPreferences::editedMachineIsNotRememberedAsAPreset()
{
    const PresetDatabase presets = PresetDatabase::builtin();
    const Hardware &first = presets.machines().front();
    auto window = makeWindow();
    window->document()->selectHardware(first);
    const QString remembered = Settings::get(settings::lastPreset);
    QCOMPARE(remembered, QString::fromStdString(first.name));

    Hardware edited = first;
    QVERIFY(!edited.memory.empty());
    edited.memory.front().bandwidth *= 2.0;
    window->document()->editHardware(edited, "Double the bandwidth");
    QVERIFY(window->document()->hardware().name != first.name); // "Custom (from …)"
    QCOMPARE(Settings::get(settings::lastPreset), remembered);
}

void TestMainWindowPreferences::unknownLastPresetOpensNothing()
{
    Settings::set(settings::lastPreset, QStringLiteral("No such machine 9000"));
    auto window = makeWindow();
    QVERIFY(!window->openLastPreset());
    QCOMPARE(window->document()->hardware().name, test::machine().name);
}

QTEST_MAIN(TestMainWindowPreferences)
void TestMainWindowPreferences::pointsModeAndDensityThresholdAreReopened_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<int>("threshold");
    QTest::addColumn<chart::PointsMode>("expected");
    QTest::newRow("density, 1234") << "density" << 1234 << chart::PointsMode::Density;
    QTest::newRow("dots, 0") << "dots" << 0 << chart::PointsMode::Dots;
    QTest::newRow("auto, 70000") << "auto" << 70000 << chart::PointsMode::Auto;
    // A hand-edited mode that is none of the three opens in Auto; a negative threshold as 0.
    QTest::newRow("unknown, -5") << "sometimes" << -5 << chart::PointsMode::Auto;
}

void TestMainWindowPreferences::pointsModeAndDensityThresholdAreReopened()
{
    // View → Points: a new window starts with both the saved mode and the saved threshold.
    QFETCH(QString, mode);
    QFETCH(int, threshold);
    QFETCH(chart::PointsMode, expected);
    Settings::set(settings::pointsMode, mode);
    Settings::set(settings::densityThreshold, threshold);
    auto window = makeWindow();
    QCOMPARE(window->plot()->display().points, expected);
    QCOMPARE(window->plot()->display().densityThreshold,
        static_cast<std::size_t>(std::max(0, threshold)));
    const QString key = QLatin1String(chart::pointsModeKey(expected));
    QVERIFY(window->findChild<QAction *>("points-" + key)->isChecked());
}

#include "tst_mainwindow_preferences.moc"
