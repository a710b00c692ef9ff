#include "widgets/chart/chartinteraction.h"
#include "widgets/qtext.h"

#include "core/model/value_ranges.h"

#include "core/model/units.h"
#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/charttooltip.h"
#include "widgets/chart/rooflayer.h"
#include "widgets/chart/rooflineplot.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QTimer>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ridgepoint::chart {
WhatIf draggedMove(const WhatIf &start, double rx, double ry, bool rate)
{
    WhatIf move = start;
    move.bytesFactor /= rx;
    if (rate)
        move.timeFactor /= ry;
    return move;
}

double draggedRoof(bool compute, double start, double rx, double ry)
{
    return compute ? start * ry : start * ry / rx;
}

ChartInteraction::ChartInteraction(RooflinePlot *plot)
    : m_plot(plot)
{ }

QPointF ChartInteraction::coordsAt(const QPointF &position) const
{
    return { m_plot->xAxis->pixelToCoord(position.x()), m_plot->yAxis->pixelToCoord(position.y()) };
}

bool ChartInteraction::press(QMouseEvent *event)
{
    m_pressPosition = event->position().toPoint();
    if (event->button() != Qt::LeftButton || (event->modifiers() & Qt::ShiftModifier))
        return false;
    Document *document = m_plot->document();
    const int index = m_plot->pointAt(event->position());
    if (index >= 0) {
        const auto i = static_cast<std::size_t>(index);
        if (event->modifiers() & Qt::ControlModifier) {
            auto selection = document->selection();
            if (document->isSelected(i))
                std::erase(selection, i);
            else
                selection.push_back(i);
            document->setSelection(std::move(selection));
            event->accept();
            return true;
        }
        if (!document->isSelected(i))
            document->setSelection({ i });
        // Isolated (drawn on its own) at the first move: a click that only selects does not
        // redraw every point.
        m_drag = Drag { Drag::Kind::Point, i, coordsAt(event->position()), document->whatIf(i), 0.0,
            false };
        m_plot->setFocus(Qt::MouseFocusReason);
        m_plot->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return true;
    }
    if (const auto hit = m_plot->ceilingAt(event->position())) {
        const Hardware &hw = document->hardware();
        const auto i = static_cast<std::size_t>(hit->index);
        m_drag = Drag { hit->compute ? Drag::Kind::Compute : Drag::Kind::Memory, i,
            coordsAt(event->position()), {},
            hit->compute ? hw.compute[i].peak : hw.memory[i].bandwidth, false };
        m_plot->setFocus(Qt::MouseFocusReason);
        event->accept();
        return true;
    }
    return false;
}

void ChartInteraction::dragTo(const QPointF &position, EditPhase phase)
{
    const QPointF now = coordsAt(position);
    if (!(now.x() > 0.0 && now.y() > 0.0) || !std::isfinite(now.x()) || !std::isfinite(now.y()))
        return;
    Document *document = m_plot->document();
    const double rx = now.x() / m_drag->startCoords.x();
    const double ry = now.y() / m_drag->startCoords.y();
    if (m_drag->kind == Drag::Kind::Point) {
        const bool rate = document->pointTable().performance(m_drag->index).has_value();
        document->setWhatIf(m_drag->index, draggedMove(m_drag->startMove, rx, ry, rate), phase);
        return;
    }
    Hardware hw = document->hardware();
    QString text;
    const bool compute = m_drag->kind == Drag::Kind::Compute;
    const double value = draggedRoof(compute, m_drag->startValue, rx, ry);
    if (valueProblem(value, compute ? Quantity::Peak : Quantity::Bandwidth))
        return; // the roof stops at the edge of the accepted range
    if (compute) {
        auto &c = hw.compute[m_drag->index];
        c.peak = value;
        text
            = tr("Drag %1 to %2").arg(q(c.name), q(formatQuantity(c.peak, Dimension::FlopRate, 3)));
    } else {
        auto &m = hw.memory[m_drag->index];
        m.bandwidth = value;
        text = tr("Drag %1 to %2")
                   .arg(q(m.name), q(formatQuantity(m.bandwidth, Dimension::ByteRate, 3)));
    }
    document->editHardware(std::move(hw), text, phase);
}

bool ChartInteraction::dragMove(QMouseEvent *event)
{
    if (!m_drag)
        return false;
    if (m_drag->kind == Drag::Kind::Point)
        m_plot->isolatePoint(m_drag->index);
    dragTo(event->position(), EditPhase::Preview);
    m_drag->moved = true;
    if (m_drag->kind == Drag::Kind::Point)
        showTooltip(event->globalPosition().toPoint(),
            m_plot->tooltipHtml(m_plot->pointDescription(m_drag->index)), m_plot);
    event->accept();
    return true;
}

void ChartInteraction::hover(QMouseEvent *event)
{
    const QPointF c = coordsAt(event->position());
    if (m_plot->axisRect()->rect().contains(event->position().toPoint()))
        emit m_plot->cursorMoved(c.x(), c.y());
    else
        emit m_plot->cursorMoved(std::nan(""), std::nan(""));
    if (event->buttons() != Qt::NoButton)
        return;
    const int index = m_plot->pointAt(event->position());
    if (index >= 0) {
        m_plot->setCursor(Qt::OpenHandCursor);
        showTooltip(event->globalPosition().toPoint(),
            m_plot->tooltipHtml(m_plot->pointDescription(static_cast<std::size_t>(index))), m_plot);
        return;
    }
    if (const auto hit = m_plot->ceilingAt(event->position())) {
        m_plot->setCursor(hit->compute ? Qt::SizeVerCursor : Qt::SizeFDiagCursor);
        showTooltip(event->globalPosition().toPoint(),
            m_plot->tooltipHtml(m_plot->ceilingDescription(*hit)), m_plot);
    } else if (const QString band = m_plot->roofLayer().bands().descriptionAt(event->position());
               !band.isEmpty()) {
        // A calibrated roof is not dragged: it follows the spec roof it is a fraction of.
        m_plot->unsetCursor();
        showTooltip(event->globalPosition().toPoint(), m_plot->tooltipHtml(band), m_plot);
    } else if (const QString cap = m_plot->roofLayer().powerCap().descriptionAt(event->position());
               !cap.isEmpty()) {
        m_plot->unsetCursor();
        showTooltip(event->globalPosition().toPoint(), m_plot->tooltipHtml(cap), m_plot);
    } else {
        QToolTip::hideText();
        m_plot->unsetCursor();
    }
}

void ChartInteraction::endDrag()
{
    m_drag.reset();
    m_plot->isolatePoint(std::nullopt);
    m_plot->unsetCursor();
}

bool ChartInteraction::release(QMouseEvent *event)
{
    if (!m_drag)
        return false;
    if (m_drag->moved)
        dragTo(event->position(), EditPhase::Final);
    endDrag();
    event->accept();
    return true;
}

bool ChartInteraction::isClick(QMouseEvent *event) const
{
    return (event->position().toPoint() - m_pressPosition).manhattanLength() < 3;
}

bool ChartInteraction::key(QKeyEvent *event)
{
    if (!m_drag || event->key() != Qt::Key_Escape)
        return false;
    m_plot->document()->cancelPreview();
    endDrag();
    event->accept();
    return true;
}

QuantGhosts::QuantGhosts(QCustomPlot *plot, int lifetimeMs, std::function<void()> expired)
    : m_plot(plot)
    , m_timer(new QTimer(plot))
{
    m_timer->setSingleShot(true);
    m_timer->setInterval(lifetimeMs);
    QObject::connect(m_timer, &QTimer::timeout, m_timer, [this, expired = std::move(expired)] {
        clear();
        expired();
    });
}

QuantGhosts::~QuantGhosts()
{
    m_ghosts.clear();
    delete m_timer;
}

bool QuantGhosts::moved(QPointF from, QPointF to)
{
    const double dx = std::abs(std::log(to.x() / from.x()));
    const double dy = std::abs(std::log(to.y() / from.y()));
    return dx > 1e-9 || dy > 1e-9;
}

void QuantGhosts::show(const std::vector<Ghost> &ghosts)
{
    clear();
    for (const Ghost &ghost : ghosts) {
        if (m_ghosts.size() >= kMaxGhosts)
            break;
        m_ghosts.push_back(
            std::make_unique<WhatIfGhost>(m_plot, ghost.from, ghost.to, ghost.color, 80));
    }
    if (!m_ghosts.empty())
        m_timer->start();
}

void QuantGhosts::clear()
{
    m_ghosts.clear();
    m_timer->stop();
}

std::vector<std::pair<QPointF, QPointF>> QuantGhosts::ghosts() const
{
    std::vector<std::pair<QPointF, QPointF>> out;
    for (const auto &ghost : m_ghosts)
        out.emplace_back(ghost->from(), ghost->to());
    return out;
}

} // namespace ridgepoint::chart
