#include "app/gui/docklayout.h"

#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <QLayout>
#include <QMainWindow>
#include <QScrollArea>
#include <QStyle>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace ridgepoint {
namespace {

// A share is never taken below or above these: a dock dragged nearly shut or over half the
// window is not what the next, larger window should copy.
constexpr double kMinShare = 0.12;
constexpr double kMaxShare = 0.45;

// The width a dock's contents ask for. A scrolled panel's own hint can be under what its form
// needs (then it scrolls sideways on a wide window): its widest need is taken, with room for a
// vertical scroll bar.
int preferredWidth(QDockWidget *dock)
{
    int width = dock->sizeHint().width();
    const auto *area = qobject_cast<const QScrollArea *>(dock->widget());
    if (area && area->widget()) {
        const QWidget *inner = area->widget();
        const int content = std::max(inner->sizeHint().width(), inner->minimumSizeHint().width())
            + area->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 2 * area->frameWidth();
        width = std::max(width, content + dock->sizeHint().width() - area->sizeHint().width());
    }
    return width;
}

} // namespace

DockLayout::DockLayout(QMainWindow *window, QWidget *central, std::vector<Share> docks)
    : QObject(window)
    , m_window(window)
    , m_central(central)
    , m_docks(std::move(docks))
    , m_defaults(m_docks)
{
    m_window->installEventFilter(this);
    for (const Share &entry : m_docks)
        entry.dock->installEventFilter(this);
}

bool DockLayout::horizontal(const QDockWidget *dock) const
{
    const Qt::DockWidgetArea area = m_window->dockWidgetArea(const_cast<QDockWidget *>(dock));
    return area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea;
}

double DockLayout::share(const QDockWidget *dock) const
{
    for (const Share &entry : m_docks) {
        if (entry.dock == dock)
            return entry.share;
    }
    return 0.0;
}

void DockLayout::applyDefaults()
{
    m_docks = m_defaults;
    for (const Share &entry : m_docks) {
        entry.dock->setFloating(false);
        entry.dock->show();
    }
    fit();
    // A hidden window has no layout yet: the sizes asked for now do not hold (on a first start
    // the Kernels dock was left at 2½ rows of its table), so they are asked for again once shown.
    m_fitOnShow = !m_window->isVisible();
}

bool DockLayout::restore(const QByteArray &state)
{
    if (state.isEmpty() || !m_window->restoreState(state)) {
        applyDefaults();
        return false;
    }
    // The layout has its geometry only for a shown window: a hidden one is checked when it is
    // first shown (eventFilter).
    if (!m_window->isVisible()) {
        m_checkOnShow = true;
        return true;
    }
    return check();
}

bool DockLayout::check()
{
    m_checkOnShow = false;
    m_fitOnShow = false;
    m_window->layout()->activate();
    if (!sound()) {
        applyDefaults();
        return false;
    }
    // The restored sizes are the user's: they become the shares, and this size is fitted.
    for (Share &entry : m_docks)
        learnShare(entry.dock);
    m_fittedFor = m_window->size();
    return true;
}

bool DockLayout::sound() const
{
    const QRect window = m_window->rect();
    const QRect central = m_central->geometry();
    const QSize centralMin = m_central->minimumSize();
    if (central.width() < centralMin.width() || central.height() < centralMin.height())
        return false;
    std::vector<QRect> placed { central };
    for (const Share &entry : m_docks) {
        QDockWidget *dock = entry.dock;
        if (dock->isHidden())
            continue;
        if (dock->isFloating())
            return false; // a floating dock may be on a screen that is gone
        const QRect box = dock->geometry();
        const QSize min = dock->minimumSizeHint();
        if (!window.contains(box) || box.width() < min.width() || box.height() < min.height())
            return false;
        for (const QRect &other : placed) {
            if (box.intersects(other))
                return false;
        }
        placed.push_back(box);
    }
    return true;
}

void DockLayout::learnShare(QDockWidget *dock)
{
    if (dock->isHidden() || dock->isFloating())
        return;
    const bool across = horizontal(dock);
    const double whole = across ? m_window->width() : m_window->height();
    const double size = across ? dock->width() : dock->height();
    if (!(whole > 0.0))
        return;
    for (Share &entry : m_docks) {
        if (entry.dock == dock)
            entry.share = std::clamp(size / whole, kMinShare, kMaxShare);
    }
}

void DockLayout::fit()
{
    m_fitting = true;
    // What the chart needs is taken from the docks in proportion to what they have above
    // their own minimum.
    for (const bool across : { true, false }) {
        QList<QDockWidget *> docks;
        QList<int> sizes;
        std::vector<const Share *> entries;
        const int whole = across ? m_window->width() : m_window->height();
        int used = 0;
        int spare = 0;
        for (const Share &entry : m_docks) {
            if (entry.dock->isHidden() || entry.dock->isFloating()
                || horizontal(entry.dock) != across)
                continue;
            const QSize min = entry.dock->minimumSizeHint();
            const int least = across ? min.width() : min.height();
            // A dock gets its share, and no less than its contents ask for while the chart
            // keeps its minimum (below, what the chart needs is taken back down to `least`):
            // a share learned on a small window left a cut-off Workloads form on a large one.
            const int want = std::max({ least, across ? preferredWidth(entry.dock) : least,
                static_cast<int>(std::lround(entry.share * whole)) });
            docks << entry.dock;
            entries.push_back(&entry);
            sizes << want;
            used += want;
            spare += want - least;
        }
        // Besides the docks and the chart: separators, and across the height the menus, tool
        // and status bars.
        int docked = 0;
        for (QDockWidget *dock : docks)
            docked += across ? dock->width() : dock->height();
        const int chrome = across ? 24 : m_window->height() - m_central->height() - docked;
        const QSize centralMin = m_central->minimumSize();
        const int over
            = used + (across ? centralMin.width() : centralMin.height()) + chrome - whole;
        if (over > 0 && spare > 0) {
            for (int i = 0; i < sizes.size(); ++i) {
                const QSize min = docks[i]->minimumSizeHint();
                const int least = across ? min.width() : min.height();
                const int room = sizes[i] - least;
                sizes[i] -= static_cast<int>(
                    std::ceil(double(room) * std::min(1.0, double(over) / spare)));
            }
        }
        // Rounded down to what suits the contents; what that frees goes to the chart.
        for (int i = 0; i < sizes.size(); ++i) {
            const auto &snap = entries[static_cast<std::size_t>(i)]->snap;
            const QSize min = docks[i]->minimumSizeHint();
            if (snap)
                sizes[i] = std::max(across ? min.width() : min.height(), snap(sizes[i]));
        }
        if (!docks.isEmpty())
            m_window->resizeDocks(docks, sizes, across ? Qt::Horizontal : Qt::Vertical);
    }
    m_fittedFor = m_window->size();
    m_fitting = false;
}

bool DockLayout::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && event->type() == QEvent::Show && m_checkOnShow)
        QTimer::singleShot(0, this, [this] { check(); });
    else if (watched == m_window && event->type() == QEvent::Show && m_fitOnShow) {
        m_fitOnShow = false;
        QTimer::singleShot(0, this, [this] { fit(); });
    }
    if (event->type() != QEvent::Resize)
        return QObject::eventFilter(watched, event);
    if (watched == m_window) {
        // After the window has laid itself out for the new size.
        if (!m_pending) {
            m_pending = true;
            QTimer::singleShot(0, this, [this] {
                m_pending = false;
                // A restored state waits for its check, which keeps its sizes.
                if (!m_checkOnShow && m_window->size() != m_fittedFor)
                    fit();
            });
        }
    } else if (!m_fitting && !m_pending && m_window->size() == m_fittedFor
        && QApplication::mouseButtons() != Qt::NoButton) {
        // The window kept its size and a button is down: the user drags a separator. That
        // share is kept. (resizeDocks() takes effect at a later layout, so a resize without
        // the mouse is the window's own.)
        learnShare(static_cast<QDockWidget *>(watched));
    }
    return QObject::eventFilter(watched, event);
}

} // namespace ridgepoint
