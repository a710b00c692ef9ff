// The roofs of the chart: a line and a label per visible ceiling, the envelope (the roofline
// itself) with the ridge, the shaded regions under it, and the dashed roofs of the machine
// compared with. Owned by RooflinePlot, rebuilt when the machine or the theme changes.
#pragma once

#include "core/model/hardware.h"
#include "widgets/chart/achievableband.h"
#include "widgets/chart/powercaproof.h"
#include "widgets/chart/rooflabelmemo.h"

#include <QCoreApplication>
#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;
class QCPAbstractPlottable;
class QCPGraph;
class QColor;

namespace ridgepoint {

class Document;
struct ChartTheme;
struct ComputeCeiling;

namespace chart {

class RidgeMarker;
class RoofLine;
class TilingWall;
struct RoofLabelSet;

// Ceilings with the same peak (within 0.5 %, as BF16 and FP16 tensor) share one label: the
// `preferred` one's when it is visible and among them (the emphasised roof keeps its name in
// view), else the first visible one's. For ceiling `index`: nullopt when another ceiling
// carries the label, else the visible ceilings of the group it names (itself first).
std::optional<std::vector<std::size_t>> sharedLabel(const std::vector<ComputeCeiling> &compute,
    std::size_t index, std::optional<std::size_t> preferred = std::nullopt);

class RoofLayer
{
    Q_DECLARE_TR_FUNCTIONS(ridgepoint::RooflinePlot)

public:
    explicit RoofLayer(QCustomPlot *plot);
    ~RoofLayer();
    RoofLayer(const RoofLayer &) = delete;
    RoofLayer &operator=(const RoofLayer &) = delete;

    // Removes every roof and plottable (while the plot is still whole).
    void clear();
    // The roofs of `document`'s machine and of the one it is compared with, in `theme`, with
    // the regions under the roofline shaded when `shading` (and the theme allows it).
    void rebuild(const Document &document, const ChartTheme &theme, bool shading);
    // Places the labels for the current view (labelplacement.h) around what `around` holds
    // (obstacles, a density's crowding, a halo); its roofs are this layer's.
    void placeLabels(const Document &document, const RoofLabelSet &around);
    // Hides every label, the ridge's too (before the plot's other texts are collected as
    // obstacles).
    void hideLabels();
    // The boxes each shown label took at the last placeLabels() (labelplacement.h textBoxes).
    const std::vector<std::vector<QRectF>> &labelBoxes() const { return m_labelBoxes; }
    // The boxes of the ridge's label as placed (textBoxes), empty when there is none.
    std::vector<QRectF> ridgeLabelBoxes() const;

    // The other figure of each ceiling that holds two (spec beside measured): its roof, dashed
    // when it is the spec one, and the filled band between the two (the lower edge of a pair of
    // pen-less graphs, channel-filled up to the upper one).
    const std::vector<std::unique_ptr<RoofLine>> &alternateRoofs() const
    {
        return m_alternateRoofs;
    }
    const std::vector<std::unique_ptr<RoofLine>> &ownRoofs() const { return m_roofs; }
    // The compared machine's roofs (dashed), empty without one.
    const std::vector<std::unique_ptr<RoofLine>> &compareRoofs() const { return m_compareRoofs; }
    const std::vector<QCPGraph *> &gaps() const { return m_gaps; }
    // The machine as drawn: compute ceilings the chart hides are invisible in it; and the
    // emphasised compute ceiling (the roofline's), an index into its compute list.
    const Hardware &shownHardware() const { return m_shown; }
    std::optional<std::size_t> emphasised() const { return m_emphasised; }

    // The achievable band of a calibrated machine (achievableband.h), empty without one.
    const AchievableBands &bands() const { return m_bands; }

    // The power-capped roof (powercaproof.h), empty without the machine's energy figures.
    const PowerCapRoof &powerCap() const { return m_powerCap; }

    // The tiling walls of the planned matmuls (tilingwalls.h), empty without any.
    const std::vector<std::unique_ptr<TilingWall>> &walls() const { return m_walls; }

    // Every line this layer draws (roofs of both machines, the roofline, the ridge's drop line,
    // the tiling walls), in widget pixels for the current axes: what labels avoid crossing.
    std::vector<QLineF> drawnLines() const;

    // The roof of the current machine within 5 pixels of a widget position, or null.
    const RoofLine *roofAt(const QPointF &position) const;

private:
    void addMemoryRoofs(const ChartTheme &theme, double topPeak);
    void addComputeRoofs(const ChartTheme &theme, double topBandwidth);
    const ComputeCeiling *activeCeiling() const; // the emphasised one of m_shown
    void addGap(
        bool memory, double a, double b, double top, const QColor &fill, const QString &name);
    // The other figure of the ceiling whose roof was added last: its roof in the other line
    // style, the lower of the two labels below its line, the gap between them shaded.
    template<typename Ceiling>
    void addAlternate(const Ceiling &ceiling, double value, QPen pen, Qt::PenStyle style,
        double top, const QColor &labelColor, const QColor &gapColor);
    void addEnvelope(const Document &document, const ChartTheme &theme, bool shading);
    void addCompareRoofs(const Document &document, const ChartTheme &theme);
    void addTilingWalls(const Document &document, const ChartTheme &theme);
    QString elided(const std::string &name) const;

    QCustomPlot *m_plot;
    // The machine as drawn (roofs the chart hides made invisible) and its emphasised ceiling,
    // from the last rebuild (roofselection.h).
    Hardware m_shown;
    std::optional<std::size_t> m_emphasised;
    std::vector<std::unique_ptr<RoofLine>> m_roofs;
    std::vector<std::unique_ptr<RoofLine>> m_alternateRoofs;
    std::vector<std::unique_ptr<RoofLine>> m_compareRoofs;
    std::vector<QCPGraph *> m_gaps; // in m_plottables too
    std::vector<QPointF> m_envelope; // the roofline's corners (chart coordinates)
    std::unique_ptr<RidgeMarker> m_ridge;
    std::vector<std::unique_ptr<TilingWall>> m_walls;
    AchievableBands m_bands;
    PowerCapRoof m_powerCap;
    std::vector<QCPAbstractPlottable *> m_plottables; // envelope, shading, legend entries
    std::vector<std::vector<QRectF>> m_labelBoxes;
    std::uint64_t m_generation = 0; // clear() calls: which roofs the memo's placements are of
    RoofLabelMemo m_memo;
};

} // namespace chart

} // namespace ridgepoint
