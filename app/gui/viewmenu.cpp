// View ▸ Legend: where the chart's legend goes, remembered, and used by the exports too.
// View ▸ Points: dots, or a density above a threshold (remembered; sessions carry the mode).
// View ▸ Dot size by time share: dot area ∝ time share when every point has a time (remembered;
// sessions carry it as "dotSize").
// View ▸ Roofs: use measured / spec figures: which of a ceiling's two figures the analysis uses
// (Document::figures, saved in sessions).
// View ▸ Energy: the energy twin chart and the power-cap slider in a window of their own.
#include "app/gui/mainwindow.h"

#include "widgets/chart/densitylayer.h"
#include "widgets/chart/energyview.h"
#include "widgets/chart/labelplacement.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/document.h"
#include "widgets/document/settings.h"

#include <QAction>
#include <QActionGroup>
#include <QInputDialog>
#include <QMenu>

#include <algorithm>
#include <utility>

namespace ridgepoint {

void MainWindow::buildLegendMenu(QMenu *legend)
{
    const QString kNames[]
        = { tr("&Auto (a free corner, else below the plot)"), tr("Top &left"), tr("&Top right"),
              tr("&Bottom left"), tr("Bottom &right"), tr("Below the &plot"), tr("&Hidden") };
    static_assert(std::size(kNames) == chart::kLegendModes.size());
    auto *group = new QActionGroup(this);
    const chart::LegendMode saved
        = chart::legendModeFromKey(Settings::get(settings::legendPlacement));
    for (std::size_t i = 0; i < chart::kLegendModes.size(); ++i) {
        const chart::LegendMode mode = chart::kLegendModes.at(i);
        const QString key = QLatin1String(chart::legendModeKey(mode));
        QAction *action = legend->addAction(kNames[i]);
        action->setObjectName(QStringLiteral("legend-") + key);
        action->setCheckable(true);
        action->setChecked(mode == saved);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, mode, key] {
            chart::changeDisplay(*m_plot, [&](chart::PlotDisplay &d) { d.legend = mode; });
            Settings::set(settings::legendPlacement, key);
        });
    }
    chart::changeDisplay(*m_plot, [&](chart::PlotDisplay &d) { d.legend = saved; });
}

void MainWindow::buildPointsMenu(QMenu *points)
{
    const std::pair<chart::PointsMode, QString> kModes[] = {
        { chart::PointsMode::Auto, tr("&Auto (a density above the threshold)") },
        { chart::PointsMode::Density, tr("&Density with the longest kernels as dots") },
        { chart::PointsMode::Dots, tr("D&ots for every point") },
    };
    auto *group = new QActionGroup(this);
    const chart::PointsMode saved
        = chart::pointsModeFromKey(Settings::get(settings::pointsMode).toStdString())
              .value_or(chart::PointsMode::Auto);
    for (const auto &entry : kModes) {
        const chart::PointsMode mode = entry.first; // a named copy for the lambda
        const QString key = QLatin1String(chart::pointsModeKey(mode));
        QAction *action = points->addAction(entry.second);
        action->setObjectName(QStringLiteral("points-") + key);
        action->setCheckable(true);
        action->setChecked(mode == saved);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, mode, key] {
            chart::changeDisplay(*m_plot, [&](chart::PlotDisplay &d) { d.points = mode; });
            Settings::set(settings::pointsMode, key);
        });
    }
    points->addSeparator();
    QAction *threshold = points->addAction(tr("Density &threshold…"), this, [this] {
        bool ok = false;
        const int value = QInputDialog::getInt(this, tr("Density threshold"),
            tr("Draw a density (in Auto) above this many points:"),
            static_cast<int>(m_plot->display().densityThreshold), 0, 100'000'000, 1000, &ok);
        if (!ok)
            return;
        chart::changeDisplay(*m_plot,
            [&](chart::PlotDisplay &d) { d.densityThreshold = static_cast<std::size_t>(value); });
        Settings::set(settings::densityThreshold, value);
    });
    threshold->setObjectName("densityThreshold");
    // Both in one change: the points are drawn once, not once per setting.
    chart::changeDisplay(*m_plot, [&](chart::PlotDisplay &d) {
        d.densityThreshold
            = static_cast<std::size_t>(std::max(0, Settings::get(settings::densityThreshold)));
        d.points = saved;
    });
}

void MainWindow::buildDotSizeAction(QMenu *view)
{
    // Checkable next to View ▸ Points; disabled, with the reason, while some point has no time.
    QAction *dotSize = view->addAction(tr("&Dot size by time share"));
    dotSize->setObjectName(QStringLiteral("dotSizeByTime"));
    dotSize->setCheckable(true);
    dotSize->setChecked(Settings::get(settings::dotSizeByTime));
    chart::changeDisplay(
        *m_plot, [&](chart::PlotDisplay &d) { d.dotSizeByTime = dotSize->isChecked(); });
    connect(dotSize, &QAction::toggled, m_plot, [this](bool on) {
        chart::changeDisplay(*m_plot, [&](chart::PlotDisplay &d) { d.dotSizeByTime = on; });
        Settings::set(settings::dotSizeByTime, on);
    });
    const auto explain = [dotSize](bool known) {
        dotSize->setEnabled(known);
        const QString why = known ? tr("Each dot's area follows its share of the total time")
                                  : tr("Needs a time for every point: a measured time, or a "
                                       "FLOP count and a measured rate");
        dotSize->setToolTip(why);
        dotSize->setStatusTip(why);
    };
    explain(m_plot->dotTimesKnown());
    connect(m_plot, &RooflinePlot::dotTimesKnownChanged, dotSize, explain);
    view->setToolTipsVisible(true);
}

void MainWindow::buildFiguresActions(QMenu *view)
{
    auto *group = new QActionGroup(this);
    const std::pair<FigureChoice, QString> kChoices[] = {
        { FigureChoice::Measured, tr("Roofs: use &measured figures") },
        { FigureChoice::Spec, tr("Roofs: use s&pec figures") },
    };
    for (const auto &entry : kChoices) {
        const FigureChoice choice = entry.first; // a named copy for the lambdas
        QAction *action = view->addAction(entry.second);
        action->setObjectName(
            choice == FigureChoice::Measured ? "figures-measured" : "figures-spec");
        action->setStatusTip(tr("Where a ceiling has a spec and a measured figure, which one the "
                                "analysis uses (the other is drawn dashed or solid beside it)"));
        action->setCheckable(true);
        action->setChecked(m_document->figures() == choice);
        group->addAction(action);
        connect(
            action, &QAction::triggered, this, [this, choice] { m_document->setFigures(choice); });
        connect(m_document, &Document::figuresChanged, action,
            [this, action, choice] { action->setChecked(m_document->figures() == choice); });
    }
}

void MainWindow::buildEnergyAction(QMenu *view)
{
    QAction *energy = view->addAction(tr("&Energy roofline…"), this, [this] {
        if (!m_energyView) {
            // A window of its own beside the chart: the capped roof it moves is on the chart.
            m_energyView = new EnergyView(m_document, this);
            m_energyView->setWindowFlag(Qt::Window);
            m_energyView->resize(900, 640);
        }
        m_energyView->setTheme(m_plot->display().theme);
        m_energyView->show();
        m_energyView->raise();
    });
    energy->setObjectName(QStringLiteral("viewEnergy"));
}

} // namespace ridgepoint
