// The window's energy view (View ▸ Energy): the energy twin chart (energychart.h) of the
// document, redrawn when the machine or the points change, and a power-cap slider that moves the
// machine's P_cap live, and with it the capped roof on the roofline (powercaproof.h). A machine
// without the figures shows why instead of a chart; one without a cap has no slider.
#pragma once

#include "widgets/chart/charttheme.h"
#include "widgets/chart/energychart.h"

#include <QWidget>

class QCustomPlot;
class QLabel;
class QSlider;

namespace ridgepoint {

class Document;

class EnergyView : public QWidget
{
    Q_OBJECT

public:
    EnergyView(Document *document, QWidget *parent = nullptr);

    void setTheme(const ChartTheme &theme);
    // What the chart drew last (its problem when there is none).
    const chart::EnergyChart &drawn() const { return m_drawn; }
    QCustomPlot *plot() const { return m_plot; }
    QSlider *capSlider() const { return m_slider; }
    // The text above the chart: the problem, the note, or the cap's value.
    QString message() const;

private:
    void redraw();
    void syncSlider();
    void capMoved(int watts);

    Document *m_document;
    ChartTheme m_theme = ChartTheme::light();
    QCustomPlot *m_plot;
    QLabel *m_message;
    QLabel *m_capLabel;
    QSlider *m_slider;
    chart::EnergyChart m_drawn;
    bool m_syncing = false; // the slider follows the document: no edit back
};

} // namespace ridgepoint
