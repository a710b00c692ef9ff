// View ▸ Legend: where the chart's legend goes, remembered, and used by the exports too.
#include "app/gui/mainwindow.h"

#include "widgets/chart/labelplacement.h"
#include "widgets/chart/rooflineplot.h"
#include "widgets/document/settings.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>

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
            m_plot->setLegendMode(mode);
            Settings::set(settings::legendPlacement, key);
        });
    }
    m_plot->setLegendMode(saved);
}

} // namespace ridgepoint
