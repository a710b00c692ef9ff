// The achievable band of a calibrated machine (docs/MODEL.md §15.6): under each spec roof a
// calibration's fractions are of, the calibrated roof (fraction × the fitted figure) as a dotted
// line with its label, the space between it and the spec roof shaded, one legend entry per
// operator class. Owned by RoofLayer; draws nothing for a machine without a calibration.
#pragma once

#include "core/calibrate/achievable.h"

#include <QCoreApplication>
#include <QPointF>
#include <QString>

#include <memory>
#include <vector>

class QCustomPlot;
class QCPAbstractPlottable;
class QColor;

namespace ridgepoint {

class Document;
struct ChartTheme;

namespace chart {

class RoofLine;

// The fill and line colour of a class's band (the same hue on every theme).
QColor achievableColor(OperatorClass kind);

class AchievableBands
{
    Q_DECLARE_TR_FUNCTIONS(ridgepoint::RooflinePlot)

public:
    explicit AchievableBands(QCustomPlot *plot);
    ~AchievableBands();
    AchievableBands(const AchievableBands &) = delete;
    AchievableBands &operator=(const AchievableBands &) = delete;

    // Removes every line, fill and legend entry.
    void clear();
    // The bands of `shown` (the machine as drawn, hidden roofs invisible) for the classes of
    // `document`'s points; `topPeak` and `topBandwidth` end the lines as the roofs' own.
    void rebuild(const Document &document, const Hardware &shown, const ChartTheme &theme,
        double topPeak, double topBandwidth);

    const std::vector<AchievableRoof> &roofs() const { return m_roofs; }
    // The calibrated roofs' lines (their labels are placed with the alternate roofs').
    const std::vector<std::unique_ptr<RoofLine>> &lines() const { return m_lines; }
    // The tooltip of the calibrated roof within 5 pixels of a widget position, or empty.
    QString descriptionAt(const QPointF &position) const;

private:
    void addFill(const AchievableRoof &roof, double top, const QColor &fill);
    void addLegendEntry(OperatorClass kind, const ChartTheme &theme);

    QCustomPlot *m_plot;
    std::vector<AchievableRoof> m_roofs;
    std::vector<std::unique_ptr<RoofLine>> m_lines; // one per roof, same order
    std::vector<QCPAbstractPlottable *> m_plottables;
};

} // namespace chart

} // namespace ridgepoint
