// The window's Copy chart (Ctrl+Shift+C) with 10k, 100k and 1M random points: the median time
// of the action (the session prepared for embedding, the PNG and the SVG rendered, the
// clipboard set), and of the session part alone as the window's session snapshot costs.
// Uses only the public API, so the same file measures an older build for a before/after. Run
// it on the offscreen platform with an empty settings directory:
//
//   QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME=$(mktemp -d) build/…/bench/bench_copy
//
// An executable, not a test: the figures go to docs/PERFORMANCE.md ("Copy chart").
#include "app/gui/mainwindow.h"
#include "app/gui/sessioncontroller.h"
#include "bench/random_points.h"
#include "core/presets/presets.h"
#include "core/session/session.h"
#include "widgets/document/document.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QTest>
#include <QTextStream>

#include <algorithm>
#include <vector>

using namespace ridgepoint;
using bench::median;
using bench::randomPoints;

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QTextStream out(stdout);
    const Hardware h100 = **PresetDatabase::builtin().find("H100");
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return 1;
    QAction *copy = window.findChild<QAction *>("copyChart");
    if (!copy)
        return 1;
    const auto ms = [](const QElapsedTimer &timer) {
        return static_cast<double>(timer.nsecsElapsed()) / 1e6;
    };
    out << "median ms, window 1400x900 offscreen\n"
        << "    points   copy chart   session snapshot + JSON\n";
    for (const std::size_t count :
        { std::size_t { 10000 }, std::size_t { 100000 }, std::size_t { 1000000 } }) {
        window.document()->resetHardware(h100);
        window.document()->resetPoints(randomPoints(count));
        QApplication::processEvents();
        const int runs = count >= 1000000 ? 5 : 7;
        std::vector<double> copies;
        std::vector<double> sessions;
        for (int run = 0; run < runs; ++run) {
            QElapsedTimer timer;
            timer.start();
            copy->trigger();
            copies.push_back(ms(timer));
            QApplication::processEvents();
            // What the window did before the dialog or the copy, unbounded: every point
            // copied into a Session and written.
            timer.start();
            const std::size_t bytes = writeSessionJson(window.sessions()->snapshot()).size();
            sessions.push_back(ms(timer));
            if (run == 0)
                out << "    (session: " << bytes / 1000000 << " MB)\n";
        }
        out << QString::asprintf("%10zu %12.1f %12.1f\n", count, median(copies), median(sessions));
        out.flush();
    }
    return 0;
}
