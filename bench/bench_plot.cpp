// Chart speed on the current platform (run with QT_QPA_PLATFORM=offscreen) with 10k, 100k and
// 1M random points: a replot of the same view, a pan step and a zoom step (new view: the point
// graphs are decimated again), one step of a point drag (model update + redraw + replot), a
// selection click (the point graphs rebuilt) and the point lookup under a hovering cursor.
// "drag step" is the edit followed by a full replot(); "drag window" is what the window does on
// a mouse move: the edit, then the event loop (queued replots run) and a synchronous paint, so a
// build that redraws only the dragged point's layer is timed as the window times it.
// Uses only the public API, so the same file measures an older build for a before/after.
// An executable, not a test: the figures go to docs/PERFORMANCE.md.
#include "bench/random_points.h"
#include "core/presets/presets.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTextStream>

#include <algorithm>
#include <random>
#include <vector>

using namespace ridgepoint;
using bench::median;
using bench::randomPoints;

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QTextStream out(stdout);
    const PresetDatabase presets = PresetDatabase::builtin();
    const Hardware h100 = **presets.find("H100");
    out << "median ms per step, 1600x1000 offscreen\n"
        << "    points    replot       pan      zoom  drag step  drag window     select  hit test "
           "us\n";
    const auto ms = [](const QElapsedTimer &timer) {
        return static_cast<double>(timer.nsecsElapsed()) / 1e6;
    };
    for (std::size_t count :
        { std::size_t(10'000), std::size_t(100'000), std::size_t(1'000'000) }) {
        Document document;
        document.resetHardware(h100);
        document.resetPoints(randomPoints(count));
        RooflinePlot plot;
        plot.setDocument(&document);
        plot.resize(1600, 1000);
        plot.show();
        plot.resetToHardwareFrame();
        plot.replot();
        QElapsedTimer timer;
        const int runs = count >= 1'000'000 ? 7 : 11;

        // The same view again: what a repaint or a hover costs.
        std::vector<double> replots;
        for (int i = 0; i < runs; ++i) {
            timer.start();
            plot.replot();
            replots.push_back(ms(timer));
        }

        // Panning as a mouse drag does it on log axes: both ranges shift by a factor.
        std::vector<double> pans;
        for (int i = 0; i < runs; ++i) {
            const double f = i % 2 == 0 ? 1.07 : 1.0 / 1.07;
            timer.start();
            plot.xAxis->setRange(plot.xAxis->range().lower * f, plot.xAxis->range().upper * f);
            plot.yAxis->setRange(plot.yAxis->range().lower / f, plot.yAxis->range().upper / f);
            plot.replot();
            pans.push_back(ms(timer));
        }

        // One wheel step in or out about the centre.
        std::vector<double> zooms;
        for (int i = 0; i < runs; ++i) {
            timer.start();
            plot.zoomBy(i % 2 == 0 ? 1.25 : 0.8);
            plot.replot();
            zooms.push_back(ms(timer));
        }
        plot.resetToHardwareFrame();
        plot.replot();

        // A drag as the mouse drives it: the press isolates the point, every move step is a
        // merged Preview edit followed by a replot.
        const std::size_t dragged = count / 2;
        plot.isolatePoint(dragged);
        plot.replot();
        std::vector<double> steps;
        WhatIf move;
        for (int i = 0; i < runs; ++i) {
            move.bytesFactor *= 0.97;
            timer.start();
            document.setWhatIf(dragged, move, EditPhase::Preview);
            plot.replot();
            steps.push_back(ms(timer));
        }
        document.cancelPreview();
        plot.replot();

        // The same drag as the window runs it: no explicit replot(), the event loop and a paint.
        plot.isolatePoint(dragged);
        plot.replot();
        QCoreApplication::processEvents();
        std::vector<double> windowSteps;
        WhatIf windowMove;
        for (int i = 0; i < runs; ++i) {
            windowMove.bytesFactor *= 0.97;
            timer.start();
            document.setWhatIf(dragged, windowMove, EditPhase::Preview);
            QCoreApplication::processEvents();
            plot.repaint();
            windowSteps.push_back(ms(timer));
        }
        document.cancelPreview();
        plot.isolatePoint(std::nullopt);
        plot.replot();

        // A click that selects a point: the chart rebuilds its point graphs.
        std::vector<double> selects;
        for (int i = 0; i < std::min(runs, 5); ++i) {
            timer.start();
            document.setSelection({ static_cast<std::size_t>(i) * 7 });
            plot.replot();
            selects.push_back(ms(timer));
        }

        // What a hover costs: the point under the cursor, at random places in the plot.
        std::mt19937 random(7);
        const QRect rect = plot.axisRect()->rect();
        std::uniform_real_distribution<double> px(rect.left(), rect.right());
        std::uniform_real_distribution<double> py(rect.top(), rect.bottom());
        constexpr int kHits = 200;
        int found = 0;
        timer.start();
        for (int i = 0; i < kHits; ++i)
            found += plot.pointAt(QPointF(px(random), py(random))) >= 0 ? 1 : 0;
        const double hitUs = ms(timer) * 1000.0 / kHits;

        out << qSetFieldWidth(10) << count << qSetFieldWidth(10)
            << QString::number(median(replots), 'f', 1) << QString::number(median(pans), 'f', 1)
            << QString::number(median(zooms), 'f', 1) << qSetFieldWidth(11)
            << QString::number(median(steps), 'f', 1) << qSetFieldWidth(13)
            << QString::number(median(windowSteps), 'f', 1) << qSetFieldWidth(11)
            << QString::number(median(selects), 'f', 1) << qSetFieldWidth(13)
            << QString::number(hitUs, 'f', 1) << qSetFieldWidth(0) << "   (" << found << "/"
            << kHits << " hovers on a point)\n";
        out.flush();
    }
    return 0;
}
