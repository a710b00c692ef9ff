// The power-capped roof (docs/MODEL.md §14.1): under the roofline of the emphasised compute
// ceiling over main memory, min(π, β·I, (P_cap − P0) / (e_flop + e_byte / I)), a curve in its own
// style with one legend entry ("power cap 700 W") and a tooltip giving the formula's numbers.
// A machine without the figures it needs (e_flop of that precision, e_byte of main memory, P0,
// P_cap) draws nothing. Owned by RoofLayer, rebuilt with the roofs.
#pragma once

#include "core/analysis/energy_roof.h"

#include <QCoreApplication>
#include <QPointF>
#include <QString>

#include <optional>
#include <vector>

class QCustomPlot;
class QCPGraph;

namespace ridgepoint {

struct ChartTheme;
struct ComputeCeiling;
struct Hardware;

namespace chart {

// The capped roof's samples, chart coordinates (intensity, FLOP/s): 40 a decade from `from` to
// `to`, and the intensity where the cap meets the memory roof when it lies between.
std::vector<QPointF> powerCapCurve(const EnergyRoof &roof, double from, double to);

class PowerCapRoof
{
    Q_DECLARE_TR_FUNCTIONS(ridgepoint::RooflinePlot)

public:
    explicit PowerCapRoof(QCustomPlot *plot);
    ~PowerCapRoof();
    PowerCapRoof(const PowerCapRoof &) = delete;
    PowerCapRoof &operator=(const PowerCapRoof &) = delete;

    void clear();
    // The capped roof of `active` over `hardware`'s main memory, from `hardware`'s energy model.
    void rebuild(const Hardware &hardware, const ComputeCeiling *active, const ChartTheme &theme);

    // The roof drawn now, nullopt when none is.
    const std::optional<EnergyRoof> &roof() const { return m_roof; }
    const QCPGraph *graph() const { return m_graph; }
    // The tooltip when a widget position is within 5 pixels of the curve, else empty.
    QString descriptionAt(const QPointF &position) const;

private:
    QCustomPlot *m_plot;
    QCPGraph *m_graph = nullptr;
    std::optional<EnergyRoof> m_roof;
    QString m_precision; // "bf16", of the emphasised ceiling
    QString m_level; // "HBM", of main memory
};

} // namespace chart

} // namespace ridgepoint
