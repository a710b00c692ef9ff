// The review layers of the chart as small composite objects, each owning its QCPItems on a
// named layer and removing them in its destructor (like chartdecorations.h): the arrow from a
// baseline point to the current one, a note's callout, a target line under a roof.
#pragma once

#include <qcustomplot.h>

#include <optional>

namespace ridgepoint::chart {
class LabelField;
}

namespace ridgepoint::review {

// Layers created by ensureLayers(): the baseline under the points ("main"), notes and targets
// over everything else.
inline constexpr char kBaselineLayer[] = "baseline";
inline constexpr char kAnnotationLayer[] = "annotations";
void ensureLayers(QCustomPlot *plot);

// A baseline point joined to its current namesake: an arrow from `from` to `to` (chart
// coordinates) with the speed-up written near its middle ("×1.8"), where the label placement
// finds room (pointlabelplacement.h).
class BaselineArrow
{
public:
    BaselineArrow(
        QCustomPlot *plot, QPointF from, QPointF to, const QString &label, const QColor &color);
    ~BaselineArrow();
    BaselineArrow(const BaselineArrow &) = delete;
    BaselineArrow &operator=(const BaselineArrow &) = delete;

    QPointF from() const { return m_from; }
    QPointF to() const { return m_to; }
    QString label() const { return m_label->text(); }
    // Distance in pixels from a widget position to the label (large when far).
    double distanceTo(const QPointF &position) const;
    // The label in the first free spot of `field` around the arrow's middle (with a leader when
    // not beside it), its box returned; hidden (nullopt) when there is none.
    std::optional<QRectF> placeLabel(chart::LabelField &field);
    void hideLabel();

private:
    QCustomPlot *m_plot;
    QPointF m_from;
    QPointF m_to;
    QCPItemLine *m_arrow;
    QCPItemText *m_label;
    QCPItemLine *m_leader;
};

// A review note: a boxed text offset up and right of what it is about, with a leader line to
// it. `at` is in chart coordinates; moveTo() follows a point being dragged.
class NoteCallout
{
public:
    NoteCallout(QCustomPlot *plot, QPointF at, const QString &text, const QColor &color,
        const QColor &background);
    ~NoteCallout();
    NoteCallout(const NoteCallout &) = delete;
    NoteCallout &operator=(const NoteCallout &) = delete;

    QPointF at() const { return m_at; }
    QString text() const { return m_box->text(); }
    void moveTo(QPointF at);
    // Distance in pixels from a widget position to the box or its anchor (large when far).
    double distanceTo(const QPointF &position) const;

private:
    QCustomPlot *m_plot;
    QPointF m_at;
    QCPItemTracer *m_anchor;
    QCPItemText *m_box;
    QCPItemLine *m_leader;
};

// A goal under a roof: a dashed line at `fraction` of a compute roof (flat) or of a memory roof
// (slanted), with its label ("goal: 60 % of HBM3"). The line spans the same intensities as the
// roof it belongs to: up to the ridge with `top` for memory, from it for compute.
class TargetLine
{
public:
    enum class Kind { Compute, Memory };

    TargetLine(QCustomPlot *plot, Kind kind, double value, double fraction, double top,
        const QString &label, const QColor &color);
    ~TargetLine();
    TargetLine(const TargetLine &) = delete;
    TargetLine &operator=(const TargetLine &) = delete;

    QString label() const { return m_label->text(); }
    // The line's performance at intensity `x` (FLOP/s).
    double valueAt(double x) const;
    // Keeps the label inside the view: at the left of the visible part of the line (memory,
    // turned to its slope) or at the right edge of the plot (compute). Run before each replot.
    void placeLabel();
    double distanceTo(const QPointF &position) const;

private:
    QCustomPlot *m_plot;
    Kind m_kind;
    double m_level; // f·π (FLOP/s) or f·β (B/s)
    double m_from; // intensities the line spans
    double m_to;
    QCPItemLine *m_line;
    QCPItemText *m_label;
};

} // namespace ridgepoint::review
