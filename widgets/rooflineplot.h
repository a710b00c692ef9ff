// The roofline chart: ceilings, envelope, ridge and kernel points on log-log axes.
#pragma once

#include "core/analysis.h"
#include "core/hardware.h"
#include "core/point.h"

#include <qcustomplot.h>

#include <vector>

namespace ridgepoint {

class RooflinePlot : public QCustomPlot
{
    Q_OBJECT

public:
    explicit RooflinePlot(QWidget *parent = nullptr);

    // Replaces the machine; the axes snap to its hardware frame.
    void setHardware(const Hardware &hardware);
    const Hardware &hardware() const { return m_hardware; }

    // Replaces the points (analysed on the current machine).
    void setPoints(std::vector<AnalyzedPoint> points);
    const std::vector<AnalyzedPoint> &points() const { return m_points; }

    // Axes snapped to decades around the ceilings' ridges, so two sessions on one machine
    // look the same.
    void resetToHardwareFrame();
    // Axes around the points (and the ridge), snapped to decades.
    void fitToData();

    // Writes the chart to PNG, SVG or PDF, chosen by the file's suffix. Returns an empty
    // string on success, else the reason.
    QString exportTo(const QString &fileName, int width, int height);

    // Text of the tooltip for point `index` (also used by tests and the table).
    QString pointDescription(std::size_t index) const;
    // The point under a widget position (within a few pixels), or -1.
    int pointAt(const QPointF &position) const;

protected:
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    void rebuild();
    void drawCeilings();
    void drawPoints();
    void placeLabels();

    Hardware m_hardware;
    std::vector<AnalyzedPoint> m_points;
    // Slanted labels follow the pixel slope of their line, which changes with the axes.
    struct SlantedLabel {
        QCPItemText *item;
        double bandwidth;
    };
    std::vector<SlantedLabel> m_slantedLabels;
    QSharedPointer<QCPAxisTickerLog> m_xTicker;
    QSharedPointer<QCPAxisTickerLog> m_yTicker;
};

} // namespace ridgepoint
