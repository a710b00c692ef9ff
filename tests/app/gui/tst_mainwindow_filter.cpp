// The Kernels dock's filter on the chart, on a real MainWindow (offscreen, issue 27 item 12):
// keys typed into the filter box dim the points it leaves out and draw the kept ones over the
// veil; an export is the picture without a filter; taking the text back restores the screen's
// picture exactly.
#include "app/gui/mainwindow.h"
#include "tests/support/settingssandbox.h"
#include "tests/support/testmachine.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/document/settings.h"
#include "widgets/export/chartexporter.h"
#include "widgets/export/exportoptions.h"
#include "widgets/panels/pointspanel.h"

#include <QImage>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTest>

using namespace ridgepoint;

class TestMainWindowFilter : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_dir = std::make_unique<test::SettingsSandbox>();
        QVERIFY(m_dir->isValid());
        Settings::store().clear();
    }

    void dimsWhatTheFilterLeavesOut_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<std::vector<std::size_t>>("kept"); // the points drawn over the veil
        QTest::addColumn<bool>("dimmed");
        // 0 stream (memory), 1 gemm (math), 2 stencil (memory).
        QTest::newRow("one kernel") << "stencil" << std::vector<std::size_t> { 2 } << true;
        QTest::newRow("a group, any case") << "MEMORY" << std::vector<std::size_t> { 0, 2 } << true;
        QTest::newRow("none") << "nothing like it" << std::vector<std::size_t> {} << true;
        // Every point kept: nothing is left out, so nothing is dimmed.
        QTest::newRow("every point") << "e" << std::vector<std::size_t> {} << false;
    }

    void dimsWhatTheFilterLeavesOut()
    {
        QFETCH(QString, typed);
        QFETCH(std::vector<std::size_t>, kept);
        QFETCH(bool, dimmed);
        MainWindow window;
        window.setHardware(test::machine());
        window.setPoints(test::points(), "test points");
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        RooflinePlot *plot = window.plot();
        QLineEdit *filter = window.findChild<PointsPanel *>()->filterEdit();
        plot->replot();
        const QImage before = plot->grab().toImage();
        ExportOptions options;
        options.width = 800;
        options.height = 500;
        const QByteArray pngBefore = ChartExporter(*plot).renderToBytes("png", options);
        const QByteArray svgBefore = ChartExporter(*plot).renderToBytes("svg", options);
        QVERIFY(!pngBefore.isEmpty());

        filter->setFocus();
        QTest::keyClicks(filter, typed);
        QCOMPARE(filter->text(), typed);
        QCOMPARE(plot->inspect().filterDimmed(), dimmed);
        QCOMPARE(plot->inspect().highlightedPoints(), kept);
        plot->replot();
        if (dimmed)
            QVERIFY(plot->grab().toImage() != before);
        // The exports are the picture without a filter.
        QCOMPARE(ChartExporter(*plot).renderToBytes("png", options), pngBefore);
        QCOMPARE(ChartExporter(*plot).renderToBytes("svg", options), svgBefore);
        QCOMPARE(plot->inspect().filterDimmed(), dimmed); // and the screen keeps its veil

        for (qsizetype i = 0; i < typed.size(); ++i)
            QTest::keyClick(filter, Qt::Key_Backspace);
        QVERIFY(filter->text().isEmpty());
        QVERIFY(!plot->inspect().filterDimmed());
        QVERIFY(plot->inspect().highlightedPoints().empty());
        plot->replot();
        QCOMPARE(plot->grab().toImage(), before);
    }

    void followsNewPointsAndDrags()
    {
        MainWindow window;
        window.setHardware(test::machine());
        window.setPoints(test::points(), "test points");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        RooflinePlot *plot = window.plot();
        QLineEdit *filter = window.findChild<PointsPanel *>()->filterEdit();
        QTest::keyClicks(filter, "gemm");
        QCOMPARE(plot->inspect().highlightedPoints(), std::vector<std::size_t> { 1 });
        // A what-if on a kept point moves its emphasised dot with it.
        WhatIf move;
        move.bytesFactor = 0.5;
        window.document()->setWhatIf(1, move);
        QCOMPARE(plot->inspect().highlightedPoints(), std::vector<std::size_t> { 1 });
        // New points: the filter is applied to them.
        auto points = test::points();
        points.push_back(test::point("gemm_small", "math", 1e9, 1e8, 0.01));
        window.setPoints(points, "more points");
        QCOMPARE(plot->inspect().highlightedPoints(), (std::vector<std::size_t> { 1, 3 }));
        QVERIFY(plot->inspect().filterDimmed());
        filter->clear();
        QVERIFY(!plot->inspect().filterDimmed());
    }

private:
    std::unique_ptr<test::SettingsSandbox> m_dir;
};

QTEST_MAIN(TestMainWindowFilter)
#include "tst_mainwindow_filter.moc"
