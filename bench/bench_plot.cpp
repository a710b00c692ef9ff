// Chart speed on the current platform (run with QT_QPA_PLATFORM=offscreen): a full replot and
// one step of a point drag (model update + redraw + replot) with 10k, 100k and 1M points.
// An executable, not a test: the figures go to docs/PERFORMANCE.md.
#include "core/presets.h"
#include "widgets/document.h"
#include "widgets/rooflineplot.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTextStream>

#include <algorithm>
#include <random>
#include <vector>

using namespace ridgepoint;

namespace {

std::vector<KernelPoint> randomPoints(std::size_t count)
{
    std::mt19937_64 random(42);
    std::uniform_real_distribution<double> logIntensity(-2.0, 3.0);
    std::uniform_real_distribution<double> logShare(-3.0, 0.0); // of the roof
    std::uniform_int_distribution<int> group(0, 5);
    std::vector<KernelPoint> points(count);
    for (std::size_t i = 0; i < count; ++i) {
        KernelPoint &p = points[i];
        p.name = "kernel " + std::to_string(i);
        p.group = "group " + std::to_string(group(random));
        p.flops = 1e12;
        const double intensity = std::pow(10.0, logIntensity(random));
        p.bytes = { { std::nullopt, p.flops / intensity } };
        const double roof = std::min(989e12, 3.35e12 * intensity);
        p.seconds = p.flops / (roof * std::pow(10.0, logShare(random)));
    }
    return points;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QTextStream out(stdout);
    const PresetDatabase presets = PresetDatabase::builtin();
    const Hardware h100 = **presets.find("H100");
    out << "points      replot ms   drag step ms (isolated)   drag step ms (full rebuild)\n";
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
        const int runs = count >= 1'000'000 ? 5 : 11;

        std::vector<double> replots;
        for (int i = 0; i < runs; ++i) {
            timer.start();
            plot.replot();
            replots.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }

        // A drag as the mouse drives it: the press isolates the point, every move step is a
        // merged Preview edit followed by a replot.
        const auto dragSteps = [&](bool isolated) {
            const std::size_t index = count / 2;
            if (isolated)
                plot.isolatePoint(index);
            std::vector<double> steps;
            WhatIf move;
            for (int i = 0; i < runs; ++i) {
                move.bytesFactor *= 0.97;
                timer.start();
                document.setWhatIf(index, move, EditPhase::Preview);
                plot.replot();
                steps.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
            }
            document.cancelPreview();
            plot.isolatePoint(std::nullopt);
            return median(steps);
        };
        const double isolated = dragSteps(true);
        const double full = dragSteps(false);
        out << qSetFieldWidth(10) << count << qSetFieldWidth(0) << "  " << qSetFieldWidth(10)
            << QString::number(median(replots), 'f', 1) << qSetFieldWidth(26)
            << QString::number(isolated, 'f', 1) << qSetFieldWidth(30)
            << QString::number(full, 'f', 1) << qSetFieldWidth(0) << "\n";
        out.flush();
    }
    return 0;
}
