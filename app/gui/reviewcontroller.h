// The review side of the window: File ▸ Open baseline… / Clear baseline, File ▸ Export table…,
// and the chart's review layers (ReviewOverlay: baseline arrows, notes, targets, the context
// menu). The window owns one; it keeps MainWindow free of this file handling.
#pragma once

#include <QObject>
#include <QString>

class QMainWindow;
class QMenu;

namespace ridgepoint {

class Document;
class PointsPanel;
class ReviewOverlay;
class RooflinePlot;

class ReviewController : public QObject
{
    Q_OBJECT

public:
    ReviewController(
        QMainWindow *window, Document *document, RooflinePlot *plot, PointsPanel *points);

    // File ▸ Open baseline…, Clear baseline.
    void addBaselineActions(QMenu *fileMenu);
    // File ▸ Export table… (Ctrl+Shift+E).
    void addExportAction(QMenu *fileMenu);

    // Reads a points file as the baseline (an undoable step). Problems are shown; skipped rows
    // are listed and the rest used only if the user agrees. False if nothing was loaded.
    bool openBaseline(const QString &fileName);
    // The kernels table as filtered and sorted, as CSV or Markdown by suffix. An empty string,
    // or why it failed.
    [[nodiscard]] QString exportTable(const QString &fileName);

    ReviewOverlay *overlay() const { return m_overlay; }

private:
    QMainWindow *m_window;
    Document *m_document;
    PointsPanel *m_points;
    ReviewOverlay *m_overlay;
};

} // namespace ridgepoint
