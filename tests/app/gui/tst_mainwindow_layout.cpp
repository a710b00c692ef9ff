// The window's layout and chart in every state (issue 16, part D): a real MainWindow, offscreen,
// driven like a user would. Resized to 1024 × 700 and back, the docks never cover the chart and
// keep their minimum and then their share; at 200 % font with a long legend the plot keeps its
// height and its tick labels do not touch; switching the machine keeps every point in view;
// every legend placement puts the legend where it says, and Auto does not move while zooming.
#include "app/gui/mainwindow.h"

#include "app/gui/docklayout.h"
#include "core/presets/presets.h"
#include "tests/support/settingssandbox.h"
#include "tests/support/testmachine.h"
#include "widgets/chart/labelplacement.h"
#include "widgets/chart/layoutfit.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/document/settings.h"
#include "widgets/panels/hardwarepanel.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

using namespace ridgepoint;

namespace {

// Points without a measured time sit on their roof, so they move with the machine.
std::vector<KernelPoint> roofPoints(int groups)
{
    std::vector<KernelPoint> out;
    for (int i = 0; i < groups * 2; ++i) {
        KernelPoint p = test::point("kernel " + std::to_string(i),
            "a rather long group name number " + std::to_string(i / 2), 1e9 * std::pow(1.6, i % 23),
            1e9, 1.0);
        p.seconds.reset();
        out.push_back(std::move(p));
    }
    return out;
}

// The window's deferred work done: the docks fitted after the resize, and laid out.
void settle()
{
    for (int i = 0; i < 4; ++i)
        QCoreApplication::processEvents();
}

QRect inWindow(const QWidget *widget, const QWidget *window)
{
    return QRect(widget->mapTo(window, QPoint(0, 0)), widget->size());
}

// The boxes of the y axis' tick labels, as QCustomPlot draws them: centred on their tick, as
// high as the label's text in the tick-label font.
std::vector<QRectF> yTickLabelRects(const QCustomPlot &plot)
{
    const QFontMetrics metrics(plot.yAxis->tickLabelFont());
    std::vector<QRectF> rects;
    const QVector<double> ticks = plot.yAxis->tickVector();
    const QVector<QString> labels = plot.yAxis->tickVectorLabels();
    for (int i = 0; i < ticks.size(); ++i) {
        if (!plot.yAxis->range().contains(ticks[i]))
            continue;
        const QRect text = metrics.boundingRect(labels[i]);
        const double y = plot.yAxis->coordToPixel(ticks[i]);
        rects.emplace_back(0.0, y - text.height() / 2.0, text.width(), text.height());
    }
    return rects;
}

} // namespace

class TestMainWindowLayout : public QObject
{
    Q_OBJECT

private slots:
    void init();

    void tickCountLeavesRoomBetweenLabels_data();
    void tickCountLeavesRoomBetweenLabels();
    void smallWindowAndBackKeepsDocksBesideTheChart();
    void brokenSavedStateIsNotRestored();
    void soundStateSurvivesARestart();
    void largeFontWithLongLegendKeepsThePlot_data();
    void largeFontWithLongLegendKeepsThePlot();
    void newPointsAreFramed();
    void switchingMachineKeepsPointsInView();
    void ownZoomHoldingAllPointsIsKept();
    void legendGoesWhereTheMenuSays_data();
    void legendGoesWhereTheMenuSays();
    void autoLegendStaysWhileZooming();

private:
    std::unique_ptr<MainWindow> showWindow(int groups, QSize size);
    std::unique_ptr<test::SettingsSandbox> m_dir;
};

void TestMainWindowLayout::init()
{
    m_dir = std::make_unique<test::SettingsSandbox>();
    QVERIFY(m_dir->isValid());
    Settings::store().clear();
}

std::unique_ptr<MainWindow> TestMainWindowLayout::showWindow(int groups, QSize size)
{
    auto window = std::make_unique<MainWindow>();
    window->setHardware(test::machine());
    window->setPoints(roofPoints(groups), "roof points");
    window->resize(size);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    QCoreApplication::processEvents();
    window->plot()->replot();
    return window;
}

void TestMainWindowLayout::tickCountLeavesRoomBetweenLabels_data()
{
    QTest::addColumn<double>("length");
    QTest::addColumn<double>("extent");
    QTest::addColumn<int>("expected");
    // floor(length / (extent · 2.25)), between 2 and 12.
    QTest::newRow("tall plot, small font") << 600.0 << 16.0 << 12;
    QTest::newRow("tall plot, 200 % font") << 600.0 << 32.0 << 8;
    QTest::newRow("low plot, 200 % font") << 200.0 << 32.0 << 2;
    QTest::newRow("tiny plot") << 20.0 << 32.0 << 2;
}

void TestMainWindowLayout::tickCountLeavesRoomBetweenLabels()
{
    QFETCH(double, length);
    QFETCH(double, extent);
    QFETCH(int, expected);
    QCOMPARE(chart::fittingTickCount(length, extent), expected);
}

void TestMainWindowLayout::smallWindowAndBackKeepsDocksBesideTheChart()
{
    auto window = showWindow(3, { 1600, 1000 });
    QVERIFY(window);
    const auto docks = window->findChildren<QDockWidget *>();
    QCOMPARE(docks.size(), 3);
    std::map<QString, QSize> before;
    for (QDockWidget *dock : docks)
        before[dock->objectName()] = dock->size();

    const auto checkSound = [&](const char *when) {
        const QRect plot = inWindow(window->plot(), window.get());
        QVERIFY2(plot.width() >= window->plot()->minimumWidth(), when);
        QVERIFY2(plot.height() >= window->plot()->minimumHeight(), when);
        for (QDockWidget *dock : docks) {
            const QRect box = inWindow(dock, window.get());
            QVERIFY2(!box.intersects(plot), qPrintable(dock->objectName() + " over the chart"));
            QVERIFY2(dock->width() >= dock->minimumSizeHint().width(), when);
            QVERIFY2(window->rect().contains(box), when);
        }
        QVERIFY2(window->dockLayout()->sound(), when);
        // The machine's ceiling names are not elided to "F…": the name column keeps room for
        // "FP64 vector".
        auto *table = window->findChild<HardwarePanel *>()->findChild<QTableView *>();
        const int nameWidth = table->horizontalHeader()->sectionSize(1);
        QVERIFY2(nameWidth >= table->fontMetrics().horizontalAdvance("FP64 vector"),
            qPrintable(QStringLiteral("%1: name column %2 px").arg(when).arg(nameWidth)));
    };
    checkSound("1600 × 1000");
    window->resize(1024, 700);
    QTRY_COMPARE(window->size(), QSize(1024, 700));
    settle();
    checkSound("1024 × 700");
    window->resize(1600, 1000);
    QTRY_COMPARE(window->size(), QSize(1600, 1000));
    settle();
    checkSound("back to 1600 × 1000");
    // On a wide window no panel is cut off at its right and scrolled sideways.
    for (QScrollArea *area : window->findChildren<QScrollArea *>()) {
        if (area->isVisible() && area->parentWidget()
            && qobject_cast<QDockWidget *>(area->parentWidget()))
            QVERIFY2(!area->horizontalScrollBar()->isVisible(),
                qPrintable(
                    area->parentWidget()->objectName() + " scrolls sideways at 1600 × 1000"));
    }
    // The docks have their share back, within 5 % of the window.
    for (QDockWidget *dock : docks) {
        const QSize was = before[dock->objectName()];
        QVERIFY2(std::abs(dock->width() - was.width()) <= 80
                && std::abs(dock->height() - was.height()) <= 50,
            qPrintable(QStringLiteral("%1: %2×%3, was %4×%5")
                           .arg(dock->objectName())
                           .arg(dock->width())
                           .arg(dock->height())
                           .arg(was.width())
                           .arg(was.height())));
    }
}

void TestMainWindowLayout::brokenSavedStateIsNotRestored()
{
    QByteArray good;
    QByteArray floating;
    {
        auto window = showWindow(3, { 1600, 1000 });
        QVERIFY(window);
        good = window->saveState();
        auto *dock = window->findChild<QDockWidget *>("hardwareDock");
        dock->setFloating(true);
        dock->move(-5000, -5000); // a screen that is gone
        floating = window->saveState();
    }
    auto window = showWindow(3, { 1600, 1000 });
    QVERIFY(window);
    QVERIFY(window->dockLayout()->restore(good));
    QVERIFY(window->dockLayout()->sound());
    QVERIFY(!window->dockLayout()->restore(floating));
    QVERIFY(!window->findChild<QDockWidget *>("hardwareDock")->isFloating());
    QVERIFY(!window->dockLayout()->restore(QByteArray("not a window state")));
    QCoreApplication::processEvents();
    QVERIFY(window->dockLayout()->sound());
}

void TestMainWindowLayout::soundStateSurvivesARestart()
{
    {
        auto window = showWindow(3, { 1600, 1000 });
        QVERIFY(window);
        auto *dock = window->findChild<QDockWidget *>("hardwareDock");
        window->addDockWidget(Qt::RightDockWidgetArea, dock); // the user moved it
        settle();
        QVERIFY(window->close());
    }
    QVERIFY(!Settings::get(settings::windowState).isEmpty());
    auto window = std::make_unique<MainWindow>();
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    settle();
    auto *dock = window->findChild<QDockWidget *>("hardwareDock");
    QCOMPARE(window->dockWidgetArea(dock), Qt::RightDockWidgetArea);
    QVERIFY(window->dockLayout()->sound());
}

void TestMainWindowLayout::largeFontWithLongLegendKeepsThePlot_data()
{
    QTest::addColumn<int>("percent");
    QTest::addColumn<int>("groups");
    // Twelve groups: the most the legend names one by one (widgets/chart/legendgroups.h); past
    // that it names eight and folds the rest into one entry.
    QTest::newRow("100 %, long legend") << 100 << 12;
    QTest::newRow("200 %, short legend") << 200 << 2;
    QTest::newRow("200 %, long legend") << 200 << 12;
}

void TestMainWindowLayout::largeFontWithLongLegendKeepsThePlot()
{
    QFETCH(int, percent);
    QFETCH(int, groups);
    auto window = showWindow(groups, { 1600, 1000 });
    QVERIFY(window);
    RooflinePlot *plot = window->plot();
    const double plain = plot->font().pointSizeF();
    window->findChild<QAction *>(QStringLiteral("fontScale-%1").arg(percent))->trigger();
    window->findChild<QAction *>("labelAllPoints")->trigger(); // point labels too
    plot->replot();
    const double size = plain * percent / 100.0;
    QCOMPARE(plot->font().pointSizeF(), size);

    // The plot keeps its least height, whatever the legend.
    QVERIFY2(plot->axisRect()->rect().height() >= plot->inspect().minPlotHeight(),
        qPrintable(QString::number(plot->axisRect()->rect().height())));
    QVERIFY(plot->inspect().minPlotHeight() >= 0.45 * plot->height() - 1);
    // No two y tick labels touch.
    const auto rects = yTickLabelRects(*plot);
    QVERIFY(rects.size() >= 2);
    for (std::size_t i = 0; i + 1 < rects.size(); ++i) {
        for (std::size_t j = i + 1; j < rects.size(); ++j)
            QVERIFY2(!rects[i].intersects(rects[j]), qPrintable(QString::number(i)));
    }
    // Every text at the scaled size: axes, legend entries, and every label on the chart.
    QCOMPARE(plot->yAxis->tickLabelFont().pointSizeF(), size);
    QCOMPARE(plot->xAxis->tickLabelFont().pointSizeF(), size);
    QVERIFY(plot->xAxis->labelFont().pointSizeF() >= size);
    for (int i = 0; i < plot->legend->itemCount(); ++i) {
        if (const QCPAbstractLegendItem *item = plot->legend->item(i))
            QCOMPARE(item->font().pointSizeF(), size);
    }
    int texts = 0;
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i))) {
            QCOMPARE(text->font().pointSizeF(), size);
            ++texts;
        }
    }
    QVERIFY(texts >= 3); // roof labels, ridge, point labels
    QVERIFY(plot->tooltipHtml("x").contains(QString::number(size, 'f', 1)) || percent == 100);
    if (groups >= 12 && percent == 200)
        QVERIFY(plot->inspect().legendEntriesLeftOut() > 0); // "+N more"
}

void TestMainWindowLayout::newPointsAreFramed()
{
    // The first start (the machine set, then the example points) and File > Open: the view is
    // the data's frame without the user asking for it (View > Fit to data), not the machine's.
    MainWindow window;
    window.setHardware(test::machine());
    RooflinePlot *plot = window.plot();
    const QCPRange machineX = plot->xAxis->range();
    const QCPRange machineY = plot->yAxis->range();
    window.setPoints(roofPoints(3), "roof points");
    const QCPRange x = plot->xAxis->range();
    const QCPRange y = plot->yAxis->range();
    // The data's frame spans fewer decades than the machine's: the test tells the two apart.
    const auto decades = [](const QCPRange &r) { return std::log10(r.upper / r.lower); };
    QVERIFY(decades(x) < decades(machineX) || decades(y) < decades(machineY));
    plot->fitToData();
    QCOMPARE(x.lower, plot->xAxis->range().lower);
    QCOMPARE(x.upper, plot->xAxis->range().upper);
    QCOMPARE(y.lower, plot->yAxis->range().lower);
    QCOMPARE(y.upper, plot->yAxis->range().upper);
}

void TestMainWindowLayout::switchingMachineKeepsPointsInView()
{
    auto window = showWindow(3, { 1600, 1000 });
    QVERIFY(window);
    RooflinePlot *plot = window->plot();
    const PresetDatabase presets = PresetDatabase::builtin();
    // The fastest preset: the points (on their roofs) rise far above the test machine's view.
    std::size_t fastest = 0;
    for (std::size_t i = 0; i < presets.machines().size(); ++i) {
        const auto *c = presets.machines()[i].defaultComputeCeiling();
        const auto *best = presets.machines()[fastest].defaultComputeCeiling();
        if (c && (!best || c->peak > best->peak))
            fastest = i;
    }
    QComboBox *box = window->findChild<HardwarePanel *>()->presetBox();
    box->setFocus();
    // The user picks the preset from the keyboard: Home, then Down to it.
    QTest::keyClick(box, Qt::Key_Home);
    for (std::size_t i = 0; i < fastest; ++i)
        QTest::keyClick(box, Qt::Key_Down);
    QCOMPARE(window->document()->hardware().name, presets.machines()[fastest].name);
    plot->replot();
    const QRect area = plot->axisRect()->rect();
    for (std::size_t i = 0; i < window->document()->pointCount(); ++i) {
        const QPointF at = plot->pointPosition(i);
        QVERIFY2(QRectF(area).adjusted(-0.5, -0.5, 0.5, 0.5).contains(at),
            qPrintable(QStringLiteral("point %1 at %2, %3").arg(i).arg(at.x()).arg(at.y())));
    }
}

void TestMainWindowLayout::ownZoomHoldingAllPointsIsKept()
{
    auto window = showWindow(3, { 1600, 1000 });
    QVERIFY(window);
    RooflinePlot *plot = window->plot();
    plot->zoomBy(0.25); // the user zoomed out: every point is still in view
    const QCPRange x = plot->xAxis->range();
    const QCPRange y = plot->yAxis->range();
    Hardware slower = test::machine();
    slower.name = "Slower test machine";
    for (auto &c : slower.compute)
        c.peak *= 0.8;
    window->document()->selectHardware(slower);
    QCOMPARE(plot->xAxis->range().lower, x.lower);
    QCOMPARE(plot->xAxis->range().upper, x.upper);
    QCOMPARE(plot->yAxis->range().lower, y.lower);
    QCOMPARE(plot->yAxis->range().upper, y.upper);
}

void TestMainWindowLayout::legendGoesWhereTheMenuSays_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("where"); // 0: hidden, 1: below, else a corner's Qt::Alignment
    QTest::newRow("top left") << "top-left" << int(Qt::AlignTop | Qt::AlignLeft);
    QTest::newRow("top right") << "top-right" << int(Qt::AlignTop | Qt::AlignRight);
    QTest::newRow("bottom left") << "bottom-left" << int(Qt::AlignBottom | Qt::AlignLeft);
    QTest::newRow("bottom right") << "bottom-right" << int(Qt::AlignBottom | Qt::AlignRight);
    QTest::newRow("below") << "below" << 1;
    QTest::newRow("hidden") << "hidden" << 0;
}

void TestMainWindowLayout::legendGoesWhereTheMenuSays()
{
    QFETCH(QString, key);
    QFETCH(int, where);
    auto window = showWindow(3, { 1600, 1000 });
    QVERIFY(window);
    RooflinePlot *plot = window->plot();
    auto *action = window->findChild<QAction *>("legend-" + key);
    QVERIFY(action);
    action->trigger();
    plot->replot();
    QCOMPARE(Settings::get(settings::legendPlacement), key);
    QCOMPARE(plot->display().legend, chart::legendModeFromKey(key));
    const QRect area = plot->axisRect()->rect();
    const QRect legend = plot->legend->outerRect();
    if (where == 0) {
        QVERIFY(!plot->legend->visible());
        return;
    }
    QVERIFY(plot->legend->visible());
    if (where == 1) {
        QVERIFY2(legend.top() > area.bottom(), qPrintable(QString::number(legend.top())));
        return;
    }
    const auto corner = Qt::Alignment(where);
    const int tolerance = 12; // the inset's margin
    if (corner & Qt::AlignLeft)
        QVERIFY(std::abs(legend.left() - area.left()) <= tolerance);
    else
        QVERIFY(std::abs(legend.right() - area.right()) <= tolerance);
    if (corner & Qt::AlignTop)
        QVERIFY(std::abs(legend.top() - area.top()) <= tolerance);
    else
        QVERIFY(std::abs(legend.bottom() - area.bottom()) <= tolerance);

    // Remembered: the next window puts it there too.
    auto next = std::make_unique<MainWindow>();
    QCOMPARE(next->plot()->display().legend, chart::legendModeFromKey(key));
    QVERIFY(next->findChild<QAction *>("legend-" + key)->isChecked());
}

void TestMainWindowLayout::autoLegendStaysWhileZooming()
{
    auto window = showWindow(6, { 1600, 1000 });
    QVERIFY(window);
    RooflinePlot *plot = window->plot();
    QCOMPARE(plot->display().legend, chart::LegendMode::Auto);
    // Where the legend stands relative to the plot (whose left edge follows the tick labels).
    const auto place = [plot] {
        return plot->legend->outerRect().topLeft() - plot->axisRect()->rect().topLeft();
    };
    const QPoint first = place();
    const bool below = plot->legend->outerRect().top() > plot->axisRect()->rect().bottom();
    // Zoom in and out about the centre, as Ctrl++ and Ctrl+- do, step by step.
    for (const double factor : { 2.0, 2.0, 2.0, 0.5, 0.5, 0.5, 0.5, 0.5, 2.0 }) {
        plot->zoomBy(factor);
        plot->replot();
        QCOMPARE(place(), first);
        QCOMPARE(plot->legend->outerRect().top() > plot->axisRect()->rect().bottom(), below);
    }
}

QTEST_MAIN(TestMainWindowLayout)
#include "tst_mainwindow_layout.moc"
