// The main window: machine picker, roofline chart and kernels table.
#pragma once

#include "core/analysis.h"
#include "core/hardware.h"
#include "core/point.h"
#include "core/presets.h"

#include <QMainWindow>

class QComboBox;
class QLabel;
class QTableWidget;

namespace ridgepoint {

class RooflinePlot;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);

    // Selects a machine (a preset, or one from a file or the command line).
    void setHardware(const Hardware &hardware);
    // Replaces the kernels; `origin` names where they came from for the status bar.
    void setPoints(std::vector<KernelPoint> points, const QString &origin);
    // Reads a points CSV; problems are listed in a dialog. Returns false if nothing was read.
    bool openPointsFile(const QString &fileName);

    RooflinePlot *plot() const { return m_plot; }

private:
    void buildMenus();
    void buildDocks();
    void reanalyse();
    void fillCeilingsTable();
    void fillPointsTable();
    void exportChart();

    PresetDatabase m_presets;
    Hardware m_hardware;
    std::vector<KernelPoint> m_points;
    std::vector<AnalyzedPoint> m_analysed;
    QString m_origin;
    RooflinePlot *m_plot = nullptr;
    QComboBox *m_presetBox = nullptr;
    QLabel *m_sourceLabel = nullptr;
    QTableWidget *m_ceilingsTable = nullptr;
    QTableWidget *m_pointsTable = nullptr;
};

} // namespace ridgepoint
