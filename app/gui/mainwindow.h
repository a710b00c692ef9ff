// The main window: the chart in the middle, the machine and the points in docks, the menus.
// Everything it shows lives in the Document; the window only wires views to it.
#pragma once

#include "core/model/hardware.h"
#include "core/model/point.h"
#include "core/presets/presets.h"
#include "widgets/chart/rooflineplot.h"

#include <QMainWindow>

class QLabel;
class QMenu;

namespace ridgepoint {

class DockLayout;
class Document;
class HardwarePanel;
class ImportController;
class PointsPanel;
class ReviewController;
class EnergyView;
class RooflinePlot;
class SessionController;
class WorkloadPanel;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Opens the session on a machine (a preset, or one from a file or the command line).
    void setHardware(const Hardware &hardware);
    // Replaces the kernels; `origin` names where they came from (title and status bar).
    void setPoints(const std::vector<KernelPoint> &points, const QString &origin);
    // Reads a points file (large ones on a worker thread, with Cancel). Skipped rows are listed
    // and the valid ones imported only if the user agrees. False if nothing was imported.
    bool openPointsFile(const QString &fileName);
    // Several points files as one set of kernels, each read and confirmed as above; unsaved
    // work is asked about once, after the reading. The files whose points were used (none:
    // nothing was changed).
    QStringList openPointsFiles(const QStringList &fileNames);
    SessionController *sessions() const { return m_sessions; }
    ReviewController *review() const { return m_review; }
    ImportController *importer() const { return m_import; }

    // Edit ▸ Copy chart: the chart at its size in the window, as PNG and SVG with the session,
    // on the clipboard.
    void copyChart();

    // Opens the session on the preset chosen last (settings::lastPreset). False, changing
    // nothing, when none was stored or it is no longer a preset.
    bool openLastPreset();

    // The chart's theme and the whole window's palette (docks, tables, menus) with it.
    void setTheme(ChartTheme::Kind kind);
    // Presentation font scale of the chart in percent (100, 125, 150, 200); remembered.
    void setFontScalePercent(int percent);

    Document *document() const { return m_document; }
    RooflinePlot *plot() const { return m_plot; }
    WorkloadPanel *workloadPanel() const { return m_workloadPanel; }
    DockLayout *dockLayout() const { return m_dockLayout; }

protected:
    void closeEvent(QCloseEvent *event) override;
    // Files dropped on the window go to the ImportController (local files only).
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildMenus();
    void buildFileMenu();
    void buildEditMenu();
    void buildHardwareMenu();
    void buildViewMenu();
    void buildThemeMenu(QMenu *themes);
    void buildFontSizeMenu(QMenu *fontSizes);
    void buildLegendMenu(QMenu *legend); // viewmenu.cpp
    void buildPointsMenu(QMenu *points); // viewmenu.cpp
    void buildDotSizeAction(QMenu *view); // viewmenu.cpp
    void buildFiguresActions(QMenu *view); // viewmenu.cpp
    void buildEnergyAction(QMenu *view); // viewmenu.cpp: View ▸ Energy
    void buildDocks();
    // "N kernels from ORIGIN", and how many of them the machine cannot place.
    QString loadedText(const QString &origin) const;
    void updateTitle();
    void rememberPreset();
    void showCursor(double intensity, double performance);
    void exportChart();

    PresetDatabase m_presets;
    Document *m_document;
    RooflinePlot *m_plot;
    HardwarePanel *m_hardwarePanel = nullptr;
    PointsPanel *m_pointsPanel = nullptr;
    WorkloadPanel *m_workloadPanel = nullptr;
    QLabel *m_cursorLabel = nullptr;
    DockLayout *m_dockLayout = nullptr;
    QString m_sessionName;
    SessionController *m_sessions = nullptr;
    ReviewController *m_review = nullptr;
    ImportController *m_import = nullptr;
    EnergyView *m_energyView = nullptr; // made when View ▸ Energy is first chosen
};

} // namespace ridgepoint
