// Small composite chart objects: each owns its QCPItems on a named layer and removes them in
// its destructor (the shape of QCustomPlot's axis-tags example). Internal to the chart.
#pragma once

#include <qcustomplot.h>

#include <QLineF>
#include <QPointF>

#include <optional>
#include <utility>
#include <vector>

namespace ridgepoint::chart {

// Layers, bottom to top (created by RooflinePlot around "main", where the points are).
inline constexpr char kShadingLayer[] = "shading";
inline constexpr char kRoofLayer[] = "roofs";
inline constexpr char kGhostLayer[] = "ghosts";
inline constexpr char kLabelLayer[] = "labels";

// Far enough left and right to cover any sensible zoom (intensities in FLOP/B).
inline constexpr double kFarLeft = 1e-9;
inline constexpr double kFarRight = 1e12;

// An item line in widget pixels for the current axes.
QLineF pixelLine(const QCPItemLine &line);
// A point in chart coordinates in widget pixels for the current axes.
QPointF toPixels(const QCustomPlot &plot, QPointF at);

// The shaded gap between two figures of one roof (`low` < `high`), as two pen-less edges on the
// shading layer, the lower filled with `fill` up to the upper, each ending where its roof meets
// `top`: a slanted (memory) pair from the left of any view up to `top` (the highest compute
// roof), a flat (compute) pair from where each meets `top` (the fastest memory) to the right.
// Neither edge is in the legend or selectable; both are appended to `made` (the layer removes
// them). Returns the filled lower edge, or nullptr when there is no gap.
QCPGraph *addRoofGap(QCustomPlot &plot, bool memory, double low, double high, double top,
    const QColor &fill, std::vector<QCPAbstractPlottable *> &made);

// Removes an item the plot still holds (decorations call it from their destructors).
inline void removeItem(QCustomPlot *plot, QCPAbstractItem *item)
{
    if (item && plot->hasItem(item))
        plot->removeItem(item);
}

// One roof: its line and its label ("HBM3  3.35 TB/s" along a slanted line, "BF16 tensor
// 989 TFLOP/s" above a flat one).
class RoofLine
{
public:
    enum class Kind { Compute, Memory };

    // `index` is the ceiling's position in its list (compute or memory) on the machine.
    // A memory roof runs from the left of any view to where it meets `top`, the highest
    // compute roof; a compute roof from where it meets `top`, the fastest memory, to the right.
    // The label is drawn in `labelColor` (the theme's readable form of the pen's colour).
    RoofLine(QCustomPlot *plot, Kind kind, int index, double value, double top, const QPen &pen,
        const QString &label, const QColor &labelColor);
    ~RoofLine();
    RoofLine(const RoofLine &) = delete;
    RoofLine &operator=(const RoofLine &) = delete;

    Kind kind() const { return m_kind; }
    int index() const { return m_index; }
    double value() const { return m_value; }
    const QPen &pen() const { return m_pen; } // as drawn when not highlighted
    // The line in widget pixels for the current axes.
    QLineF pixelLine() const;
    // Distance in pixels from a widget position to the line (large when far).
    double distanceTo(const QPointF &position) const;
    void setHighlighted(bool on);
    QCPItemText *label() const { return m_label; }
    // The label's whole text; the label may show less of it where there is no room.
    const QString &text() const { return m_text; }
    // Hangs the label under the line instead of over it: the lower of two close roofs (a
    // ceiling's spec and measured figures) labels its own side.
    void setLabelBelow();
    // Puts the label on the other side of its line than its own (over it, or under it after
    // setLabelBelow()) while `flipped`: a flat label's second choice where its side is taken.
    void setLabelFlipped(bool flipped);
    // The label's anchor: along the line at intensity `x` (memory), or at the plot's right
    // edge shifted left by `shift` pixels and `lift` pixels off its line (compute).
    void placeLabel(double x, double shift, double lift = 0.0);
    // A slanted roof's label's intensity at the last layout, tried first at the next so that the
    // label stays put while the user zooms (nullopt before the first or after it was hidden).
    std::optional<double> settledAt() const { return m_settledAt; }
    void setSettledAt(std::optional<double> x) { m_settledAt = x; }

private:
    QCustomPlot *m_plot;
    Kind m_kind;
    int m_index;
    double m_value;
    QPen m_pen;
    QCPItemLine *m_line;
    QCPItemText *m_label;
    QString m_text;
    bool m_below = false;
    std::optional<double> m_settledAt;
};

// The ridge of the active pair: a marker on the knee, a dashed drop to the x axis, its intensity.
// The label is placed in pixels with the roofs' labels (placeRoofLabels), below and right of
// the knee where that is free.
class RidgeMarker
{
public:
    RidgeMarker(QCustomPlot *plot, double intensity, double peak, const QColor &color);
    ~RidgeMarker();
    RidgeMarker(const RidgeMarker &) = delete;
    RidgeMarker &operator=(const RidgeMarker &) = delete;

    QCPItemText *label() const { return m_label; }
    // The knee in widget pixels for the current axes.
    QPointF knee() const;
    // The label `row` lines of text below the knee (negative: above it), right of the drop
    // line or (`left`) left of it, clear of the knee's marker; at the drop line's `foot`, `row`
    // lines of text above the x axis instead.
    void placeLabel(int row, bool left, bool foot = false);
    // The dashed drop line in widget pixels.
    QLineF dropLine() const;

private:
    QCustomPlot *m_plot;
    double m_intensity;
    double m_peak;
    QCPItemLine *m_drop;
    QCPItemTracer *m_marker;
    QCPItemText *m_label;
};

// A what-if move: a faint ghost at the measured position and an arrow to the moved point. Also
// drawn, fainter (`alpha`), from a workload's place before a quantization switch to its new one.
class WhatIfGhost
{
public:
    WhatIfGhost(QCustomPlot *plot, QPointF from, QPointF to, const QColor &color, int alpha = 110);
    ~WhatIfGhost();
    WhatIfGhost(const WhatIfGhost &) = delete;
    WhatIfGhost &operator=(const WhatIfGhost &) = delete;

    QPointF from() const { return m_from; }
    QPointF to() const { return m_to; }

private:
    QCustomPlot *m_plot;
    QPointF m_from;
    QPointF m_to;
    QCPItemTracer *m_ghost;
    QCPItemLine *m_arrow;
};

// A point's name (or number) near its marker at `at` (chart coordinates): hidden until
// place() puts it in a box of widget pixels, with a thin leader line to the marker when the box
// is not beside it (pointlabelplacement.h decides where).
class PointLabel
{
public:
    PointLabel(QCustomPlot *plot, QPointF at, const QString &text, const QColor &color);
    ~PointLabel();
    PointLabel(const PointLabel &) = delete;
    PointLabel &operator=(const PointLabel &) = delete;

    QString text() const { return m_label->text(); }
    QPointF at() const { return m_at; }
    // The box the text takes, in pixels at the label's current font.
    QSizeF size() const;
    // Shows the text with its top left at `box`'s, with a leader when `leader`.
    void place(const QRectF &box, bool leader);
    void hide();
    bool placed() const { return m_label->visible(); }
    QRectF box() const { return m_box; }
    // Its leader in widget pixels, null when it has none.
    QLineF leader() const;
    // Pixels from the marker's centre that the label keeps clear of (its marker's half; 0:
    // the point layer's default for the largest fixed marker).
    double clearance() const { return m_clearance; }
    void setClearance(double pixels) { m_clearance = pixels; }
    // The point's other markers (a kernel's memory levels, chart coordinates): the label may
    // sit nearer to one of them than to `at`.
    const std::vector<QPointF> &ownMarkers() const { return m_own; }
    void setOwnMarkers(std::vector<QPointF> at) { m_own = std::move(at); }
    // Which spot around the marker it took last (LabelSpot::choice), -1 before the first.
    int choice() const { return m_choice; }
    void setChoice(int choice) { m_choice = choice; }

private:
    QCustomPlot *m_plot;
    QPointF m_at;
    double m_clearance = 0.0;
    std::vector<QPointF> m_own;
    int m_choice = -1;
    QCPItemText *m_label;
    QCPItemLine *m_leader;
    QRectF m_box;
};

// Where a sweep's trajectory crosses the ridge: a ring on the crossing and the parameter's
// value there ("b ≈ 241"). Paths that cross at the same knee (an LLM sweep's operators) give
// their labels rows (PointLayer::stackCrossingLabels): row r sits r lines above the ring.
class SweepCrossingMarker
{
public:
    SweepCrossingMarker(QCustomPlot *plot, QPointF at, const QString &text, const QColor &color);
    ~SweepCrossingMarker();
    SweepCrossingMarker(const SweepCrossingMarker &) = delete;
    SweepCrossingMarker &operator=(const SweepCrossingMarker &) = delete;

    QPointF at() const { return m_at; }
    QString text() const { return m_label->text(); }
    // The label's box in pixels at the plot's current axes.
    QRectF labelBox() const;
    void setRow(int row);

private:
    QCustomPlot *m_plot;
    QPointF m_at;
    QCPItemTracer *m_marker;
    QCPItemText *m_label;
};

} // namespace ridgepoint::chart
