// RooflinePlot driven with real mouse and key events: dragging points and roofs, zooming,
// and what the chart says about a point.
#include "tests/support/testmachine.h"

#include "core/presets/presets.h"
#include "widgets/chart/densitylayer.h"
#include "widgets/chart/plotinspection.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/export/chartexporter.h"

#include <QApplication>
#include <QPointer>
#include <QStyle>
#include <QTest>
#include <QUndoStack>

#include <cmath>
#include <random>
#include <set>

using namespace ridgepoint;

namespace {

void send(QWidget *widget, QEvent::Type type, QPointF at, Qt::MouseButton button,
    Qt::MouseButtons buttons, Qt::KeyboardModifiers modifiers = {})
{
    QMouseEvent event(type, at, widget->mapToGlobal(at), button, buttons, modifiers);
    QCoreApplication::sendEvent(widget, &event);
}

// Press at `from`, move in a few steps to `to`, optionally release.
void drag(QWidget *widget, QPointF from, QPointF to, bool release = true,
    Qt::KeyboardModifiers modifiers = {})
{
    send(widget, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton, modifiers);
    for (int step = 1; step <= 4; ++step)
        send(widget, QEvent::MouseMove, from + (to - from) * step / 4.0, Qt::NoButton,
            Qt::LeftButton, modifiers);
    if (release)
        send(widget, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton, modifiers);
}

// A cloud of `count` measured points under the test machine's roofs, one group, one level:
// intensities 0.01–1000 FLOP/B, 0.1–100 % of the roof.
std::vector<KernelPoint> randomCloud(std::size_t count)
{
    std::mt19937_64 random(1234);
    std::uniform_real_distribution<double> logIntensity(-2.0, 3.0);
    std::uniform_real_distribution<double> logShare(-3.0, 0.0);
    std::vector<KernelPoint> points;
    for (std::size_t i = 0; i < count; ++i) {
        const double intensity = std::pow(10.0, logIntensity(random));
        const double roof = std::min(1e12, 1e11 * intensity);
        const double rate = roof * std::pow(10.0, logShare(random));
        points.push_back(
            test::point("k" + std::to_string(i), "cloud", 1e9, 1e9 / intensity, 1e9 / rate));
    }
    return points;
}

using Cells = std::set<std::pair<int, int>>;

// The decimation cells (aligned on the axis rect's corner) of chart coordinates, counting only
// cells wholly inside the axis rect: one that straddles its edge may keep a point just outside.
Cells occupiedCells(const RooflinePlot &plot, const std::vector<QPointF> &coords)
{
    const QRect r = plot.axisRect()->rect();
    const double cell = RooflinePlot::kDecimationCell;
    const double columns = std::floor(r.width() / cell);
    const double rows = std::floor(r.height() / cell);
    Cells cells;
    for (const QPointF &c : coords) {
        const double cx = std::floor((plot.xAxis->coordToPixel(c.x()) - r.left()) / cell);
        const double cy = std::floor((plot.yAxis->coordToPixel(c.y()) - r.top()) / cell);
        if (cx >= 0.0 && cx < columns && cy >= 0.0 && cy < rows)
            cells.emplace(static_cast<int>(cx), static_cast<int>(cy));
    }
    return cells;
}

std::vector<QPointF> allPointCoords(const RooflinePlot &plot, std::size_t count)
{
    std::vector<QPointF> out;
    for (std::size_t i = 0; i < count; ++i)
        out.push_back(*plot.pointCoords(i));
    return out;
}

} // namespace

class TestRooflinePlot : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        plot = std::make_unique<RooflinePlot>();
        plot->resize(1000, 700);
        doc = plot->document();
        doc->resetHardware(test::machine());
        doc->resetPoints(test::points());
        plot->resetToHardwareFrame();
        plot->show();
        QVERIFY(QTest::qWaitForWindowExposed(plot.get()));
        plot->replot(); // lays out the axes so pixels map to coordinates
    }

    void cleanup() { plot.reset(); }

    // Bytes at L1, L2 and DRAM on a machine without an L1 ceiling: the L1 level is not analysed
    // but is still drawn, so the hierarchical line has all three dots, ordered by intensity.
    void hierarchicalPointDrawsLevelsWithoutACeiling()
    {
        KernelPoint p = test::point("tiled", "hier", 1e10, 1e8, 0.02);
        p.bytes
            = { { MemoryLevel::L1, 1e10 }, { MemoryLevel::L2, 1e9 }, { MemoryLevel::DRAM, 1e8 } };
        doc->resetPoints({ p });
        plot->replot();
        QVERIFY(doc->analysis(0).has_value());
        QCOMPARE(doc->analysis(0)->levels.size(), std::size_t { 2 }); // L2 and DRAM only
        std::vector<QCPCurve *> lines;
        for (int i = 0; i < plot->plottableCount(); ++i) {
            if (auto *curve = qobject_cast<QCPCurve *>(plot->plottable(i)))
                lines.push_back(curve);
        }
        QCOMPARE(lines.size(), std::size_t { 1 });
        std::vector<double> keys;
        for (const auto &d : *lines.front()->data())
            keys.push_back(d.key);
        QCOMPARE(keys.size(), std::size_t { 3 });
        QVERIFY(qFuzzyCompare(keys[0], 1.0)); // L1: 1e10 FLOP / 1e10 B
        QVERIFY(qFuzzyCompare(keys[1], 10.0)); // L2
        QVERIFY(qFuzzyCompare(keys[2], 100.0)); // DRAM
    }

    // Clicking a point selects it: a ring and its name appear, and nothing else is rebuilt (the
    // point graphs of a million points stay as they were: a selection costs microseconds).
    void clickSelectsWithoutRebuildingPoints()
    {
        // QPointer: a graph deleted and another allocated at its address is not "kept".
        QList<QPointer<QCPAbstractPlottable>> before;
        for (int i = 0; i < plot->plottableCount(); ++i)
            before << plot->plottable(i);
        const auto allKept = [&before] {
            return std::all_of(before.begin(), before.end(),
                [](const QPointer<QCPAbstractPlottable> &graph) { return !graph.isNull(); });
        };
        // Three points (up to kMaxNamedPoints): each is named, once the layout placed them.
        plot->replot();
        QCOMPARE(plot->inspect().pointLabels().size(), 3);
        QTest::mouseClick(plot.get(), Qt::LeftButton, {}, plot->pointPosition(1).toPoint());
        QCOMPARE(doc->selection(), std::vector<std::size_t> { 1 });
        plot->replot();
        QVERIFY(allKept());
        QCOMPARE(plot->plottableCount(), int(before.size()) + 1); // plus the selection ring
        // The selected point's label is placed first.
        QCOMPARE(plot->inspect().pointLabels().front(), QStringLiteral("gemm"));
        QCOMPARE(plot->inspect().pointLabels().size(), 3);
        // The ring is drawn where the point is.
        const std::vector<QPointF> drawn = plot->inspect().drawnPointCoords();
        QCOMPARE(std::count(drawn.begin(), drawn.end(), *plot->pointCoords(1)), 2);

        // Selecting another point moves ring and label; none of the point graphs change.
        QTest::mouseClick(plot.get(), Qt::LeftButton, {}, plot->pointPosition(0).toPoint());
        QCOMPARE(doc->selection(), std::vector<std::size_t> { 0 });
        plot->replot();
        QCOMPARE(plot->inspect().pointLabels().front(), QStringLiteral("stream"));
        QVERIFY(allKept());
        // Clearing the selection removes the ring; the names stay.
        doc->setSelection({});
        plot->replot();
        QCOMPARE(plot->inspect().pointLabels().size(), 3);
        QCOMPARE(plot->plottableCount(), int(before.size()));
        QVERIFY(allKept());
    }

    // A point a file gives only as intensity and rate (an ncu roofline section, an ERT or
    // Advisor rate): no FLOP or byte counts. It is drawn, hit and described like any other.
    void intensityAndRateOnlyPoint()
    {
        KernelPoint p;
        p.name = "rate only";
        p.intensity = 4.0; // FLOP/B
        p.measuredRate = 2e11; // FLOP/s: half its 400 GFLOP/s roof
        doc->resetPoints({ p });
        plot->replot();
        QVERIFY(doc->analysis(0).has_value());
        QCOMPARE(*plot->pointCoords(0), QPointF(4.0, 2e11));
        const std::vector<QPointF> drawn = plot->inspect().drawnPointCoords();
        QCOMPARE(drawn, std::vector<QPointF> { QPointF(4.0, 2e11) });
        QCOMPARE(plot->pointAt(plot->pointPosition(0)), 0);
        QVERIFY(plot->pointDescription(0).contains("rate only"));
    }

    // A point a NERSC text file gives: an intensity per level and one rate, no counts. Each
    // level is drawn at its own intensity with its own marker (L1 without a ceiling too), and a
    // drag to the right raises every intensity by the same factor.
    void pointKnownByIntensitiesDrawsEachLevelAndDrags()
    {
        KernelPoint p;
        p.name = "nersc";
        p.intensity = 8.0; // DRAM
        p.levelIntensities = { { MemoryLevel::L2, 2.0 }, { MemoryLevel::L1, 0.5 } };
        p.measuredRate = 2e11;
        doc->resetPoints({ p });
        plot->replot();
        QVERIFY(doc->analysis(0).has_value());
        QCOMPARE(doc->analysis(0)->levels.size(), std::size_t { 2 }); // no L1 ceiling
        QCPCurve *line = nullptr;
        for (int i = 0; i < plot->plottableCount(); ++i) {
            if (auto *curve = qobject_cast<QCPCurve *>(plot->plottable(i)))
                line = curve;
        }
        QVERIFY(line);
        std::vector<double> keys;
        for (const auto &d : *line->data())
            keys.push_back(d.key);
        QCOMPARE(keys, (std::vector<double> { 0.5, 2.0, 8.0 }));
        QStringList names;
        for (int i = 0; i < plot->legend->itemCount(); ++i) {
            if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot->legend->item(i)))
                names << item->plottable()->name();
        }
        // Bytes without a level count against main memory, named by its level as elsewhere.
        QVERIFY2(names.contains("L1") && names.contains("L2") && names.contains("DRAM")
                && !names.contains("main memory"),
            qPrintable(names.join(", ")));

        const QPointF from = plot->pointPosition(0);
        const QPointF to = from + QPointF(60, 0);
        const double factor
            = plot->xAxis->pixelToCoord(to.x()) / plot->xAxis->pixelToCoord(from.x());
        drag(plot.get(), from, to);
        const KernelPoint after = doc->point(0);
        QVERIFY(qFuzzyCompare(*after.intensity, 8.0 * factor));
        QVERIFY(qFuzzyCompare(after.levelIntensities[0].intensity, 2.0 * factor));
        QVERIFY(qFuzzyCompare(after.levelIntensities[1].intensity, 0.5 * factor));
        QCOMPARE(*after.measuredRate, 2e11);
        QCOMPARE(doc->undoStack()->count(), 1);
    }

    void pixelDragSetsBytesAndTime_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<QPointF>("offset");
        QTest::newRow("right: fewer bytes") << 0 << QPointF(60, 0);
        QTest::newRow("up: less time") << 1 << QPointF(0, -45);
        QTest::newRow("left and down") << 2 << QPointF(-70, 30);
        QTest::newRow("diagonal") << 0 << QPointF(35, -35);
    }

    void pixelDragSetsBytesAndTime()
    {
        QFETCH(int, index);
        QFETCH(QPointF, offset);
        const auto i = static_cast<std::size_t>(index);
        const QPointF from = plot->pointPosition(i);
        const QPointF to = from + offset;
        const double x0 = plot->xAxis->pixelToCoord(from.x());
        const double x1 = plot->xAxis->pixelToCoord(to.x());
        const double y0 = plot->yAxis->pixelToCoord(from.y());
        const double y1 = plot->yAxis->pixelToCoord(to.y());
        const KernelPoint before = doc->measuredPoint(i);

        drag(plot.get(), from, to);

        const KernelPoint after = doc->point(i);
        QCOMPARE(after.flops, before.flops);
        QVERIFY(qFuzzyCompare(after.bytes.front().bytes, before.bytes.front().bytes * x0 / x1));
        QVERIFY(qFuzzyCompare(*after.seconds, *before.seconds * y0 / y1));
        QCOMPARE(doc->undoStack()->count(), 1);
        // The point is drawn where it was dropped.
        const QPointF now = plot->pointPosition(i);
        QVERIFY2(std::abs(now.x() - to.x()) < 0.5 && std::abs(now.y() - to.y()) < 0.5,
            qPrintable(
                QString("%1,%2 vs %3,%4").arg(now.x()).arg(now.y()).arg(to.x()).arg(to.y())));
    }

    void dragChangesTheBoundAndUndoBringsItBack()
    {
        // stream: I = 1, memory-bound; the ridge is at 10 FLOP/B.
        QCOMPARE(doc->analysis(0)->bound, Bound::Memory);
        const QPointF from = plot->pointPosition(0);
        const QPointF to(plot->xAxis->coordToPixel(30.0), from.y());
        drag(plot.get(), from, to);
        QCOMPARE(doc->analysis(0)->bound, Bound::Compute);
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(plot->inspect().ghosts().size(), std::size_t(1));
        QCOMPARE(
            plot->inspect().ghosts().front().first, QPointF(1.0, 5e10)); // the measured position
        QVERIFY(plot->pointDescription(0).contains("what-if"));

        doc->undoStack()->undo();
        QCOMPARE(doc->analysis(0)->bound, Bound::Memory);
        QCOMPARE(doc->point(0).bytes.front().bytes, 1e9);
        QVERIFY(plot->inspect().ghosts().empty());
    }

    void tableAndTooltipUpdateDuringTheDrag()
    {
        const QPointF from = plot->pointPosition(0);
        const QPointF to(plot->xAxis->coordToPixel(30.0), from.y());
        drag(plot.get(), from, to, false);
        QVERIFY(plot->inspect().isDragging());
        QCOMPARE(doc->analysis(0)->bound, Bound::Compute); // live, before the release
        QVERIFY(plot->pointDescription(0).contains("compute-bound"));
        send(plot.get(), QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
        QVERIFY(!plot->inspect().isDragging());
    }

    void escapeCancelsTheDrag()
    {
        const QPointF from = plot->pointPosition(2);
        drag(plot.get(), from, from + QPointF(80, -40), false);
        QVERIFY(!doc->whatIf(2).isIdentity());
        QTest::keyClick(plot.get(), Qt::Key_Escape);
        QVERIFY(!plot->inspect().isDragging());
        QCOMPARE(doc->whatIf(2), WhatIf {});
        QCOMPARE(doc->undoStack()->count(), 0);
        QVERIFY(!doc->undoStack()->canRedo());
        // The release after Esc changes nothing.
        send(plot.get(), QEvent::MouseButtonRelease, from + QPointF(80, -40), Qt::LeftButton,
            Qt::NoButton);
        QCOMPARE(doc->whatIf(2), WhatIf {});
    }

    void pointDraggedAboveItsRoofIsImpossibleNotClamped()
    {
        // stream's roof at I = 1 is 100 GFLOP/s; drop it at 400 GFLOP/s.
        const QPointF from = plot->pointPosition(0);
        const QPointF to(from.x(), plot->yAxis->coordToPixel(4e11));
        drag(plot.get(), from, to);
        QVERIFY(!doc->analysis(0)->consistent);
        QVERIFY(std::abs(plot->pointPosition(0).y() - to.y()) < 0.5);
        QVERIFY(plot->pointDescription(0).contains("impossible"));
        // The doctor's top cause: 400 GFLOP/s at I = 1 is under the L2 roof, min(1 TFLOP/s,
        // 1 TB/s × 1 FLOP/B) = 1 TFLOP/s, at about 40 %.
        const QString text = plot->pointDescription(0);
        QVERIFY2(text.contains("likely: L2 bytes taken for DRAM bytes?"), qPrintable(text));
        QVERIFY2(text.contains("the L2 roof is 1 TFLOP/s"), qPrintable(text));
    }

    void draggingAComputeRoofChangesItsPeak()
    {
        const RooflinePlot::CeilingHit fp32 { true, 0 };
        const QPointF from = plot->inspect().ceilingPosition(fp32, 300.0);
        const auto hit = plot->ceilingAt(from);
        QVERIFY(hit.has_value());
        QVERIFY(hit->compute);
        QCOMPARE(hit->index, 0);
        const QPointF to = from + QPointF(0, -50);
        const double ratio
            = plot->yAxis->pixelToCoord(to.y()) / plot->yAxis->pixelToCoord(from.y());
        drag(plot.get(), from, to);
        QVERIFY(qFuzzyCompare(doc->hardware().compute[0].peak, 1e12 * ratio));
        QCOMPARE(QString::fromStdString(doc->hardware().name), QString("Custom (from TM)"));
        QCOMPARE(doc->undoStack()->count(), 1);
        doc->undoStack()->undo();
        QCOMPARE(doc->hardware().compute[0].peak, 1e12);
    }

    void draggingAMemoryRoofChangesItsBandwidthAndMovesTheRidge()
    {
        const RooflinePlot::CeilingHit dram { false, 0 };
        const QPointF from = plot->inspect().ceilingPosition(dram, 0.1);
        const auto hit = plot->ceilingAt(from);
        QVERIFY(hit.has_value());
        QVERIFY(!hit->compute);
        QCOMPARE(hit->index, 0);
        const QPointF to = from + QPointF(0, -40);
        const double ratio
            = plot->yAxis->pixelToCoord(to.y()) / plot->yAxis->pixelToCoord(from.y());
        drag(plot.get(), from, to);
        const Hardware &hw = doc->hardware();
        QVERIFY(qFuzzyCompare(hw.memory[0].bandwidth, 1e11 * ratio));
        QVERIFY(qFuzzyCompare(ridgeIntensity(hw.compute[0], hw.memory[0]), 10.0 / ratio));
    }

    void wheelZoomsIn()
    {
        const QCPRange before = plot->xAxis->range();
        const QPointF centre = plot->axisRect()->rect().center();
        QWheelEvent wheel(centre, plot->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton,
            Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(plot.get(), &wheel);
        const QCPRange after = plot->xAxis->range();
        QVERIFY(after.upper / after.lower < before.upper / before.lower);
    }

    void shiftDragZoomsToTheRectangle()
    {
        const QRect rect = plot->axisRect()->rect();
        const QPointF a = rect.topLeft() + QPointF(100, 100);
        const QPointF b = a + QPointF(200, 150);
        const double x0 = plot->xAxis->pixelToCoord(a.x());
        // Within a pixel of the release point (QRect rounds its edges).
        const double x1Low = plot->xAxis->pixelToCoord(b.x() - 1.5);
        const double x1High = plot->xAxis->pixelToCoord(b.x() + 1.5);
        drag(plot.get(), a, b, true, Qt::ShiftModifier);
        QVERIFY(qFuzzyCompare(plot->xAxis->range().lower, x0));
        QVERIFY2(plot->xAxis->range().upper > x1Low && plot->xAxis->range().upper < x1High,
            qPrintable(QString("%1 not in (%2, %3)")
                           .arg(plot->xAxis->range().upper)
                           .arg(x1Low)
                           .arg(x1High)));
        QCOMPARE(doc->undoStack()->count(), 0); // zooming is not an edit
    }

    void plainDragOnEmptySpacePans()
    {
        const QRect rect = plot->axisRect()->rect();
        const QPointF a = rect.center() + QPointF(-200, 150);
        QVERIFY(plot->pointAt(a) < 0);
        QVERIFY(!plot->ceilingAt(a));
        const QCPRange before = plot->xAxis->range();
        drag(plot.get(), a, a + QPointF(50, 0));
        QVERIFY(plot->xAxis->range().lower < before.lower);
        QCOMPARE(doc->undoStack()->count(), 0);
    }

    void hardwareFrameIsSnappedToDecades()
    {
        plot->fitToData();
        plot->resetToHardwareFrame();
        QCOMPARE(plot->xAxis->range().lower, 1e-3);
        QCOMPARE(plot->xAxis->range().upper, 1e3);
        QCOMPARE(plot->yAxis->range().lower, 1e8);
        QCOMPARE(plot->yAxis->range().upper, 1e13);
        QCOMPARE(plot->yAxis->label(), QString("Performance"));
    }

    void tooltipSaysWhatItWouldTakeToReachTheRoof()
    {
        const QString memory = plot->pointDescription(0);
        QVERIFY2(memory.contains("to reach its roof: +50 GFLOP/s (×2)"), qPrintable(memory));
        QVERIFY2(memory.contains("intensity ≥ 10 FLOP/B on DRAM, i.e. remove 900 MB of its 1 GB"),
            qPrintable(memory));
        QVERIFY(memory.contains("memory-bound by DRAM"));
        QVERIFY(memory.contains("T_min"));
        const QString compute = plot->pointDescription(1);
        QVERIFY2(compute.contains("to reach its roof: +500 GFLOP/s (×2)"), qPrintable(compute));
        // At half its roof a compute-bound point is not "on the compute roof" (MODEL.md §2.1).
        QVERIFY2(compute.contains("compute-bound at 50 % of the roof"), qPrintable(compute));
        QVERIFY(!compute.contains("on the compute roof"));
    }

    void tooltipComparesWithAnotherMachine()
    {
        doc->setCompareHardware(makeSimpleMachine(1e13, 1e12));
        const QString text = plot->pointDescription(0);
        // Roofs: 1 TFLOP/s there over 100 GFLOP/s here, ×10; at its roof there over the
        // measured 50 GFLOP/s, ×20 (MODEL.md §2.3).
        QVERIFY2(text.contains("attainable 1 TFLOP/s (memory-bound by Memory); if moved there ×10 "
                               "at the same share of its roof, up to ×20 at its roof there"),
            qPrintable(text));
    }

    void clickSelectsAndLongNamesAreNumbered()
    {
        std::vector<KernelPoint> points = test::points();
        points[1].name = std::string(200, 'x') + "_tail";
        doc->resetPoints(points);
        const QPointF at = plot->pointPosition(1);
        send(plot.get(), QEvent::MouseButtonPress, at, Qt::LeftButton, Qt::LeftButton);
        send(plot.get(), QEvent::MouseButtonRelease, at, Qt::LeftButton, Qt::NoButton);
        QCOMPARE(doc->selection(), std::vector<std::size_t> { 1 });
        QCOMPARE(doc->undoStack()->count(), 0); // a click is not a move
        plot->replot();
        QCOMPARE(
            plot->inspect().pointLabels().size(), 3); // three points: all named, the selected first
        // A name no two lines can hold is never cut: the point shows its number, the key to the
        // table's "#" column (labeltext.h).
        const QString label = plot->inspect().pointLabels().front();
        QVERIFY(!label.contains(QChar(0x2026)));
        QCOMPARE(label, QString("2"));
        QVERIFY(plot->pointDescription(1).contains(QString(200, 'x') + "_tail")); // full name
    }

    void exportsEveryFormat_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::newRow("png") << "png";
        QTest::newRow("svg") << "svg";
        QTest::newRow("pdf") << "pdf";
    }

    void exportsEveryFormat()
    {
        QFETCH(QString, suffix);
        QTemporaryDir dir;
        const QString file = dir.filePath("chart." + suffix);
        QCOMPARE(ChartExporter(*plot).exportTo(file, 800, 500), QString());
        QVERIFY(QFileInfo(file).size() > 1000);
        QVERIFY(!ChartExporter(*plot).exportTo(dir.filePath("chart.bmp"), 800, 500).isEmpty());
    }

    // Issue 3, speed: the point graphs draw one point per occupied cell, and lose none.
    void decimationKeepsEveryOccupiedCell()
    {
        constexpr std::size_t kCount = 30000;
        chart::changeDisplay(*plot, [&](chart::PlotDisplay &d) {
            d.points = chart::PointsMode::Dots;
        }); // every point a dot, not a density
        doc->resetPoints(randomCloud(kCount));
        plot->replot();
        const auto check = [&](const char *view) {
            const std::vector<QPointF> drawn = plot->inspect().drawnPointCoords();
            QVERIFY2(drawn.size() < kCount / 2, view); // something was thinned
            const Cells all = occupiedCells(*plot, allPointCoords(*plot, kCount));
            QVERIFY2(all.size() > 1000, view);
            QVERIFY2(occupiedCells(*plot, drawn) == all, view);
        };
        check("hardware frame");
        plot->zoomBy(3.0); // a new view is binned again
        plot->replot();
        check("zoomed in");
        // An export bins at its own size; the screen's binning comes back after it.
        QTemporaryDir dir;
        QCOMPARE(ChartExporter(*plot).exportTo(dir.filePath("small.png"), 500, 320), QString());
        plot->replot();
        check("after an export");
        plot->resize(700, 500);
        plot->replot();
        check("resized");
    }

    void hitTestingFindsAPointDecimatedAway()
    {
        constexpr std::size_t kCount = 30000;
        doc->resetPoints(randomCloud(kCount));
        plot->replot();
        std::set<std::pair<double, double>> drawn;
        for (const QPointF &c : plot->inspect().drawnPointCoords())
            drawn.emplace(c.x(), c.y());
        const QRect r = plot->axisRect()->rect().adjusted(20, 20, -20, -20);
        std::optional<std::size_t> hidden;
        for (std::size_t i = 0; i < kCount && !hidden; ++i) {
            const QPointF c = *plot->pointCoords(i);
            if (!drawn.count({ c.x(), c.y() }) && r.contains(plot->pointPosition(i).toPoint()))
                hidden = i;
        }
        QVERIFY(hidden);
        const QPointF at = plot->pointPosition(*hidden);
        QCOMPARE(plot->pointAt(at), static_cast<int>(*hidden));
        // A press on it starts dragging that very point.
        drag(plot.get(), at, at + QPointF(50, 0));
        QVERIFY(!doc->whatIf(*hidden).isIdentity());
        QCOMPARE(doc->selection(), std::vector<std::size_t> { *hidden });
        // Nothing is found far from every point.
        doc->resetPoints(test::points());
        plot->replot();
        QCOMPARE(plot->pointAt(QPointF(r.right() - 2, r.top() + 2)), -1);
    }

    // Issue 3: the quantization switch shows where its workload points came from.
    void quantizationSwitchGhostsTheMovedWorkloadPoints()
    {
        doc->resetHardware(**PresetDatabase::builtin().find("H100"));
        Workload matmul;
        matmul.model
            = MatmulWorkload { MatmulSpec { 64, 4096, 4096, Precision::BF16, {} }, {}, {} };
        matmul.group = "matmul";
        QVERIFY(doc->addWorkloads({ matmul }, "add matmul").has_value());
        const std::size_t w = doc->pointCount() - 1;
        const QPointF before = *plot->pointCoords(w);
        const QPointF measured = *plot->pointCoords(0);
        QVERIFY(plot->inspect().quantGhosts().empty());
        QVERIFY(!plot->pointDescription(0).contains("does not move"));

        doc->setQuantMode(QuantMode::W8A16);
        const QPointF after = *plot->pointCoords(w);
        QVERIFY(after.x() > 1.5 * before.x()); // int8 weights: about twice the intensity
        QCOMPARE(*plot->pointCoords(0), measured);
        const auto ghosts = plot->inspect().quantGhosts();
        QCOMPARE(ghosts.size(), std::size_t(1)); // only the workload moved
        QCOMPARE(ghosts.front().first, before);
        QCOMPARE(ghosts.front().second, after);
        const QString tip = plot->pointDescription(0);
        QVERIFY2(tip.contains("w8a16 does not move this point"), qPrintable(tip));
        QVERIFY(!plot->pointDescription(w).contains("does not move"));

        // The next change replaces them: undo ghosts the way back.
        doc->undoStack()->undo();
        QCOMPARE(plot->inspect().quantGhosts().size(), std::size_t(1));
        QCOMPARE(plot->inspect().quantGhosts().front().first, after);
        QCOMPARE(plot->inspect().quantGhosts().front().second, before);
        // And they fade after a few seconds.
        QTRY_VERIFY_WITH_TIMEOUT(
            plot->inspect().quantGhosts().empty(), RooflinePlot::kQuantGhostMs + 3000);
    }

    void darkThemeDarkensTheWholeWindowPalette()
    {
        const QPalette dark = ChartTheme::dark().windowPalette();
        QVERIFY(dark.color(QPalette::Window).lightness() < 80);
        QVERIFY(dark.color(QPalette::Base).lightness() < 80);
        QVERIFY(dark.color(QPalette::WindowText).lightness() > 180);
        QVERIFY(dark.color(QPalette::Text).lightness() > 180);
        const QPalette standard = QApplication::style()->standardPalette();
        QCOMPARE(ChartTheme::print().windowPalette(), standard);
        QCOMPARE(ChartTheme::light().windowPalette(), standard);
    }

    // Issue 4: the roof labels (dark red on the dark theme) were hard to read. Every text the
    // chart draws straight on its background must reach WCAG AA (4.5:1), on every theme.
    void textIsReadableOnEveryTheme_data()
    {
        QTest::addColumn<int>("theme");
        QTest::newRow("light") << int(ChartTheme::Kind::Light);
        QTest::newRow("dark") << int(ChartTheme::Kind::Dark);
        QTest::newRow("print") << int(ChartTheme::Kind::Print);
    }

    void textIsReadableOnEveryTheme()
    {
        QFETCH(int, theme);
        const ChartTheme t = ChartTheme::of(static_cast<ChartTheme::Kind>(theme));
        chart::changeDisplay(*plot, [&](chart::PlotDisplay &d) { d.theme = t; });
        // Every kind of roof: H100's memory levels, tensor and vector (active and not, sparse),
        // and a second machine's dashed roofs.
        doc->resetHardware(**PresetDatabase::builtin().find("H100"));
        doc->setCompareHardware(**PresetDatabase::builtin().find("MI300X"));
        plot->resetToHardwareFrame();
        plot->replot();
        int checked = 0;
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto *text = qobject_cast<QCPItemText *>(plot->item(i));
            if (!text || text->text().isEmpty() || text->brush().style() != Qt::NoBrush)
                continue;
            const double ratio = contrastRatio(text->color(), t.background);
            QVERIFY2(ratio >= ChartTheme::kMinTextContrast,
                qPrintable(QStringLiteral("\"%1\" in %2: contrast %3")
                               .arg(text->text(), text->color().name())
                               .arg(ratio, 0, 'f', 2)));
            ++checked;
        }
        QVERIFY(checked >= 8);
    }

    void contrastRatioFollowsWcag_data()
    {
        QTest::addColumn<QColor>("a");
        QTest::addColumn<QColor>("b");
        QTest::addColumn<double>("ratio");
        QTest::newRow("black on white") << QColor(Qt::black) << QColor(Qt::white) << 21.0;
        QTest::newRow("same colour") << QColor(0x9b, 0x1c, 0x1c) << QColor(0x9b, 0x1c, 0x1c) << 1.0;
        QTest::newRow("#777 on white") << QColor(0x77, 0x77, 0x77) << QColor(Qt::white) << 4.48;
    }

    void contrastRatioFollowsWcag()
    {
        QFETCH(QColor, a);
        QFETCH(QColor, b);
        QFETCH(double, ratio);
        QVERIFY(std::abs(contrastRatio(a, b) - ratio) < 0.01);
        QVERIFY(std::abs(contrastRatio(b, a) - ratio) < 0.01);
    }

    // Issue 4: at small sizes the legend (top left) covered the memory roofs' labels. It takes a
    // corner where it covers no label, marker or point, else goes under the plot.
    void legendCoversNoLabelOrPoint_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("theme");
        QTest::addColumn<int>("points");
        QTest::newRow("800x500") << QSize(800, 500) << int(ChartTheme::Kind::Light) << 3;
        QTest::newRow("800x500 print") << QSize(800, 500) << int(ChartTheme::Kind::Print) << 3;
        QTest::newRow("640x360 dark") << QSize(640, 360) << int(ChartTheme::Kind::Dark) << 3;
        // The chart's part of an 800x500 export with the points table under it.
        QTest::newRow("800x280") << QSize(800, 280) << int(ChartTheme::Kind::Light) << 3;
        QTest::newRow("800x280 dark") << QSize(800, 280) << int(ChartTheme::Kind::Dark) << 3;
        QTest::newRow("1600x1000") << QSize(1600, 1000) << int(ChartTheme::Kind::Light) << 3;
        QTest::newRow("800x500, a cloud")
            << QSize(800, 500) << int(ChartTheme::Kind::Light) << 2000;
    }

    void legendCoversNoLabelOrPoint()
    {
        QFETCH(QSize, size);
        QFETCH(int, theme);
        QFETCH(int, points);
        chart::changeDisplay(*plot, [&](chart::PlotDisplay &d) {
            d.theme = ChartTheme::of(static_cast<ChartTheme::Kind>(theme));
        });
        doc->resetHardware(**PresetDatabase::builtin().find("H100"));
        if (points > 3)
            doc->resetPoints(randomCloud(static_cast<std::size_t>(points)));
        plot->setMinimumSize(100, 100); // the window's minimum would keep 800x280 taller
        plot->resize(size);
        QCOMPARE(plot->size(), size);
        plot->resetToHardwareFrame();
        plot->replot();
        const QRect legend = plot->legend->outerRect();
        QVERIFY(plot->legend->visible());
        QVERIFY(!legend.isEmpty());
        int labels = 0;
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto *text = qobject_cast<QCPItemText *>(plot->item(i));
            if (!text || !text->realVisibility() || text->text().isEmpty())
                continue;
            const QRectF box = QPolygonF(
                { text->topLeft->pixelPosition(), text->topRight->pixelPosition(),
                    text->bottomRight->pixelPosition(), text->bottomLeft->pixelPosition() })
                                   .boundingRect();
            QVERIFY2(!box.intersects(legend),
                qPrintable(QStringLiteral("the legend covers \"%1\"").arg(text->text())));
            ++labels;
        }
        QVERIFY(labels >= 4);
        for (const QPointF &c : plot->inspect().drawnPointCoords()) {
            const QPointF at(plot->xAxis->coordToPixel(c.x()), plot->yAxis->coordToPixel(c.y()));
            QVERIFY2(!QRectF(legend).contains(at), "the legend covers a point");
        }
        // Inside the plot, or under it: never over the axes or off the widget.
        QVERIFY2(QRect(QPoint(), size).contains(legend),
            qPrintable(QStringLiteral("%1,%2 %3x%4")
                           .arg(legend.x())
                           .arg(legend.y())
                           .arg(legend.width())
                           .arg(legend.height())));
        const QRect area = plot->axisRect()->rect();
        QVERIFY(area.contains(legend) || legend.top() >= area.bottom());
    }

    // Flat roof labels crowded side by side in a small plot (the H100's 1.98 PFLOP/s, 989 and
    // 495 TFLOP/s roofs are a few pixels apart) ran past the plot's left edge. Now each stays
    // inside the plot: shortened from the left (its value kept) or left out, and the active
    // roof's label is always whole.
    void flatRoofLabelsStayInsideTheirPlot_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("640x260") << QSize(640, 260);
        QTest::newRow("480x300") << QSize(480, 300);
        QTest::newRow("1200x750") << QSize(1200, 750);
    }

    void flatRoofLabelsStayInsideTheirPlot()
    {
        QFETCH(QSize, size);
        doc->resetHardware(**PresetDatabase::builtin().find("H100"));
        plot->setMinimumSize(100, 100);
        plot->resize(size);
        plot->resetToHardwareFrame();
        plot->replot();
        const QRectF area = plot->axisRect()->rect();
        const QString active = QString::fromStdString(doc->activeComputeCeiling()->name);
        bool activeShown = false;
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto *text = qobject_cast<QCPItemText *>(plot->item(i));
            if (!text || !text->realVisibility() || !text->text().contains("FLOP/s"))
                continue;
            const QRectF box = QPolygonF(
                { text->topLeft->pixelPosition(), text->topRight->pixelPosition(),
                    text->bottomRight->pixelPosition(), text->bottomLeft->pixelPosition() })
                                   .boundingRect();
            QVERIFY2(box.left() >= area.left() - 0.5 && box.right() <= area.right() + 0.5,
                qPrintable(QStringLiteral("\"%1\" runs out of the plot").arg(text->text())));
            activeShown = activeShown || text->text().startsWith(active);
        }
        QVERIFY2(activeShown, qPrintable(active));
    }

private:
    std::unique_ptr<RooflinePlot> plot;
    Document *doc = nullptr;
};

QTEST_MAIN(TestRooflinePlot)
#include "tst_rooflineplot.moc"
