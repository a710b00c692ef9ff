// The Kernels dock's table with 10k, 100k and 1M random points (or the counts given as
// arguments): the median time of a keystroke in its filter box and of a sort by a column, each
// with whatever the window does on it (the events it posts run, the chart's queued replot and
// the repaints included). A keystroke is a QTest key click into the real filter QLineEdit:
// "kernel 12" typed one character at a time, then taken back with Backspace; a sort is
// QTableView::sortByColumn on five columns in turn, as a header click does.
// Prints `points filter_ms sort_ms`, then the slowest keystroke (the first one may build what
// later ones reuse). Uses only the public API, so the same file measures an older build for a
// before/after. Run it on the offscreen platform with an empty settings directory:
//
//   QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME=$(mktemp -d) build/…/bench/bench_table
//
// An executable, not a test: the figures go to docs/PERFORMANCE.md ("The table").
#include "app/gui/mainwindow.h"
#include "bench/random_points.h"
#include "core/presets/presets.h"
#include "widgets/document/document.h"
#include "widgets/models/pointstablemodel.h"
#include "widgets/panels/pointspanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QTableView>
#include <QTest>
#include <QTextStream>

#include <algorithm>
#include <vector>

using namespace ridgepoint;
using bench::median;
using bench::randomPoints;

namespace {

double ms(const QElapsedTimer &timer)
{
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

// Each key typed into the filter, then each taken back; the time of every keystroke.
std::vector<double> typeAndErase(QLineEdit *filter, const QString &text)
{
    std::vector<double> times;
    QElapsedTimer timer;
    for (const QChar c : text) {
        timer.start();
        QTest::keyClick(filter, c.toLatin1());
        QApplication::processEvents();
        times.push_back(ms(timer));
    }
    for (qsizetype i = 0; i < text.size(); ++i) {
        timer.start();
        QTest::keyClick(filter, Qt::Key_Backspace);
        QApplication::processEvents();
        times.push_back(ms(timer));
    }
    return times;
}

std::vector<double> sorts(QTableView *view)
{
    std::vector<double> times;
    QElapsedTimer timer;
    for (const auto &[column, order] : { std::pair { PointsTableModel::Name, Qt::AscendingOrder },
             std::pair { PointsTableModel::Intensity, Qt::AscendingOrder },
             std::pair { PointsTableModel::Performance, Qt::DescendingOrder },
             std::pair { PointsTableModel::Utilization, Qt::DescendingOrder },
             std::pair { PointsTableModel::Payoff, Qt::DescendingOrder } }) {
        timer.start();
        view->sortByColumn(column, order);
        QApplication::processEvents();
        times.push_back(ms(timer));
    }
    return times;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QTextStream out(stdout);
    std::vector<std::size_t> counts;
    for (int i = 1; i < argc; ++i)
        counts.push_back(QString::fromLocal8Bit(argv[i]).toULongLong());
    if (counts.empty())
        counts = { 10'000, 100'000, 1'000'000 };
    const Hardware h100 = **PresetDatabase::builtin().find("H100");
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return 1;
    auto *panel = window.findChild<PointsPanel *>();
    if (!panel)
        return 1;
    QLineEdit *filter = panel->filterEdit();
    out << "median ms, window 1600x1000 offscreen\n"
        << "    points  filter_ms    sort_ms   (slowest keystroke ms)\n";
    for (const std::size_t count : counts) {
        window.document()->resetHardware(h100);
        window.document()->resetPoints(randomPoints(count));
        QApplication::processEvents();
        filter->setFocus();
        const std::vector<double> keys = typeAndErase(filter, QStringLiteral("kernel 12"));
        const std::vector<double> sorted = sorts(panel->view());
        panel->view()->sortByColumn(PointsTableModel::Payoff, Qt::DescendingOrder);
        QApplication::processEvents();
        out << QString::asprintf("%10zu %10.1f %10.1f   (%.1f)\n", count, median(keys),
            median(sorted), *std::max_element(keys.begin(), keys.end()));
        out.flush();
    }
    return 0;
}
