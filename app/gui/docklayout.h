// The docks around the chart at any window size: each keeps its share of the window (the one
// the user last dragged it to), never less than its contents' minimum, and gives way to the
// chart's minimum size when the window is small; growing the window back gives the docks their
// share again. A dock may round its size down to what suits its contents (the Kernels table's
// whole rows). The defaults are fitted again once the window is shown (sizes set on a hidden
// window do not hold). A restored window state is checked before it is used: one that would hide
// the chart behind a dock, or squeeze it or a dock below its minimum, is replaced by the defaults.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QSize>

#include <functional>
#include <vector>

class QDockWidget;
class QMainWindow;
class QWidget;

namespace ridgepoint {

class DockLayout : public QObject
{
public:
    // A dock and its share of the window: of the width for the left and right areas, of the
    // height for the top and bottom ones.
    // `snap`, if given, takes a size the dock would get and returns the size, not larger, that
    // suits its contents; it is used unless that is under the dock's minimum.
    struct Share {
        QDockWidget *dock;
        double share;
        std::function<int(int)> snap = {};
    };
    DockLayout(QMainWindow *window, QWidget *central, std::vector<Share> docks);

    // Every dock docked where it was built, at its default share.
    void applyDefaults();
    // QMainWindow::restoreState, kept only when the result is sound(); otherwise the defaults.
    // True when the saved state was used (for a hidden window: checked when it is shown).
    bool restore(const QByteArray &state);
    // No docked dock overlaps the chart or another dock, the chart keeps its minimum size and
    // every shown dock its contents' minimum (within the window).
    bool sound() const;
    // Sets the docks' sizes for the window's current size (also done after every resize).
    void fit();
    double share(const QDockWidget *dock) const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool horizontal(const QDockWidget *dock) const;
    // Keeps the restored layout if sound(), else applies the defaults; false then.
    bool check();
    void learnShare(QDockWidget *dock);

    QMainWindow *m_window;
    QWidget *m_central;
    std::vector<Share> m_docks;
    std::vector<Share> m_defaults;
    QSize m_fittedFor;
    bool m_fitting = false;
    bool m_pending = false;
    bool m_checkOnShow = false; // a state restored before the window was shown
    bool m_fitOnShow = false; // the defaults applied before the window was shown
};

} // namespace ridgepoint
