#include "app/gui/reviewcontroller.h"

#include "widgets/chart/reviewoverlay.h"
#include "widgets/dialogs/messagebox.h"
#include "widgets/document/document.h"
#include "widgets/document/pointsloader.h"
#include "widgets/document/settings.h"
#include "widgets/export/tableexport.h"
#include "widgets/panels/pointspanel.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QStatusBar>

namespace ridgepoint {

ReviewController::ReviewController(
    QMainWindow *window, Document *document, RooflinePlot *plot, PointsPanel *points)
    : QObject(window)
    , m_window(window)
    , m_document(document)
    , m_points(points)
    , m_overlay(new ReviewOverlay(plot, document))
{ }

void ReviewController::addBaselineActions(QMenu *file)
{
    QAction *open = file->addAction(tr("Open &baseline…"), this, [this] {
        const QString name = QFileDialog::getOpenFileName(m_window, tr("Open baseline"), QString(),
            tr("Point files (*.csv *.json);;All files (*)"));
        if (!name.isEmpty())
            openBaseline(name);
    });
    open->setObjectName("openBaseline");
    QAction *clear = file->addAction(
        tr("C&lear baseline"), this, [this] { m_document->setBaseline(std::nullopt); });
    clear->setObjectName("clearBaseline");
    clear->setEnabled(m_document->baseline().has_value());
    connect(m_document, &Document::baselineChanged, clear,
        [this, clear] { clear->setEnabled(m_document->baseline().has_value()); });
}

void ReviewController::addExportAction(QMenu *file)
{
    QAction *action
        = file->addAction(tr("Export &table…"), QKeySequence(tr("Ctrl+Shift+E")), this, [this] {
              const QString name = QFileDialog::getSaveFileName(m_window, tr("Export table"),
                  Settings::get(settings::exportDirectory),
                  tr("CSV (*.csv);;Markdown (*.md *.markdown)"));
              if (name.isEmpty())
                  return;
              Settings::set(settings::exportDirectory, QFileInfo(name).absolutePath());
              if (const QString error = exportTable(name); !error.isEmpty())
                  MessageBox::warn(m_window, tr("Cannot export the table"), error);
              else
                  m_window->statusBar()->showMessage(tr("Table written to %1").arg(name), 5000);
          });
    action->setObjectName("exportTable");
}

bool ReviewController::openBaseline(const QString &fileName)
{
    PointsLoad load = loadPointsFile(m_window, fileName);
    if (load.status == PointsLoad::Status::Cancelled)
        return false;
    if (load.status == PointsLoad::Status::Unreadable) {
        MessageBox::warn(m_window, tr("Cannot open baseline"), load.error);
        return false;
    }
    PointsReadResult &result = load.result.points;
    if (!confirmPointsRead(m_window, fileName, result, tr("Cannot open baseline"),
            tr("No usable point in %1; the baseline was not changed.").arg(fileName),
            tr("Use the other %1 as the baseline?")))
        return false;
    const auto count = result.points.size();
    // A profiler trace's kernel names differ between machines: its points pair by operator.
    const MatchBy match = result.trace ? MatchBy::Operator : MatchBy::Name;
    m_document->setBaseline(Baseline { fileName.toStdString(), std::move(result.points), match });
    m_window->statusBar()->showMessage(
        tr("Baseline: %n kernels from %1", nullptr, static_cast<int>(count)).arg(fileName), 5000);
    return true;
}

QString ReviewController::exportTable(const QString &fileName)
{
    return exportPointsTable(*m_document, rowsInViewOrder(m_points->proxy()), fileName);
}

} // namespace ridgepoint
