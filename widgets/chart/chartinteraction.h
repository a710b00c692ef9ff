// What the mouse and keyboard do on the chart: hovering shows a point's tooltip and the cursor
// for what is under it; dragging a point moves it (a what-if: bytes and time scale, FLOPs stay),
// dragging a roof changes the machine (a preview merged into one undo step until the release),
// Escape cancels; a click selects, Ctrl-click toggles, a click on nothing clears the selection.
// Also the fading ghosts of a quantization switch. RooflinePlot's event handlers delegate here.
#pragma once

#include "widgets/document/document.h"

#include <QColor>
#include <QCoreApplication>
#include <QPoint>
#include <QPointF>

#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QCustomPlot;
class QKeyEvent;
class QMouseEvent;
class QTimer;

namespace ridgepoint {

class RooflinePlot;

namespace chart {

class WhatIfGhost;

// A point dragged by the ratios (rx, ry) of the cursor's chart coordinates to where it was
// grabbed, from its move `start`: FLOPs fixed, so intensity × rx means bytes ÷ rx, and
// performance × ry means time ÷ ry (only for a point with a measured `rate`).
WhatIf draggedMove(const WhatIf &start, double rx, double ry, bool rate);
// A roof dragged by (rx, ry) from `start` (peak or bandwidth): a compute roof follows the cursor
// up and down (× ry); a memory roof y = β·x passes through the cursor, parallel (× ry / rx).
double draggedRoof(bool compute, double start, double rx, double ry);

class ChartInteraction
{
    Q_DECLARE_TR_FUNCTIONS(ridgepoint::RooflinePlot)

public:
    explicit ChartInteraction(RooflinePlot *plot);

    // Each returns true when it handled the event, and the plot's own handling (pan, zoom) is
    // skipped.
    bool press(QMouseEvent *event);
    bool dragMove(QMouseEvent *event);
    bool release(QMouseEvent *event);
    bool key(QKeyEvent *event);
    // After the plot's own handling of a move: the cursor's coordinates, the tooltip and the
    // cursor shape for what is under the mouse.
    void hover(QMouseEvent *event);
    // Whether a release is a click: within a few pixels of the press.
    bool isClick(QMouseEvent *event) const;

    bool dragging() const { return m_drag.has_value(); }
    // Drops the drag (the points it held changed under it).
    void forgetDrag() { m_drag.reset(); }

private:
    struct Drag {
        enum class Kind { Point, Compute, Memory } kind = Kind::Point;
        std::size_t index = 0;
        QPointF startCoords; // chart coordinates under the press
        WhatIf startMove;
        double startValue = 0.0; // peak or bandwidth
        bool moved = false;
    };

    void dragTo(const QPointF &position, EditPhase phase);
    QPointF coordsAt(const QPointF &position) const;
    void endDrag();

    RooflinePlot *m_plot;
    std::optional<Drag> m_drag;
    QPoint m_pressPosition;
};

// Ghosts of a quantization switch: an arrow from each moved workload point's old place to its
// new one, cleared by the next change or after `lifetimeMs`.
class QuantGhosts
{
public:
    static constexpr std::size_t kMaxGhosts = 2000; // items are costly; beyond, clutter anyway
    struct Ghost {
        QPointF from;
        QPointF to;
        QColor color;
    };

    // `expired` runs when the ghosts go by themselves (the plot should redraw).
    QuantGhosts(QCustomPlot *plot, int lifetimeMs, std::function<void()> expired);
    ~QuantGhosts();
    QuantGhosts(const QuantGhosts &) = delete;
    QuantGhosts &operator=(const QuantGhosts &) = delete;

    // Whether a point moved from `from` to `to` by more than rounding (in log terms).
    static bool moved(QPointF from, QPointF to);
    // Replaces the ghosts by `ghosts` (at most kMaxGhosts) and starts the clock.
    void show(const std::vector<Ghost> &ghosts);
    void clear();
    std::vector<std::pair<QPointF, QPointF>> ghosts() const;

private:
    QCustomPlot *m_plot;
    std::vector<std::unique_ptr<WhatIfGhost>> m_ghosts;
    QTimer *m_timer;
};

} // namespace chart

} // namespace ridgepoint
