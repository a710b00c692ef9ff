// Where the chart's texts go so that they do not cover each other: the roofs' labels (along a
// slanted roof near its lower-left end, at the right edge above a flat one, side by side when
// flat roofs are close) and the legend (in a free corner of the plot, else in a strip under it).
// The geometry is in free functions on plain data; placeRoofLabels() and LegendPlacement apply
// it to the plot at every layout.
#pragma once

#include "widgets/chart/geometry/legendgrid.h"

#include <qcustomplot.h>

#include <QColor>
#include <QFontMetrics>
#include <QLineF>
#include <QPointer>
#include <QRect>
#include <QRectF>
#include <QString>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace ridgepoint {

struct ChartTheme;

namespace chart {

class RidgeMarker;
class RoofLine;

// Pixels between flat labels standing side by side, and after a label's text.
inline constexpr double kFlatLabelGap = 18.0;
inline constexpr double kFlatLabelTrail = 10.0;

// Where a slanted roof y = `bandwidth`·x, which ends where it meets `top`, gets its label in
// the view [x] × [y]: an intensity on the visible part of the line, a little right of its
// lower-left end (`slot` staggers neighbours: 6, 11 or 16 % of the visible span in log terms),
// or nullopt when no part of it is in view.
std::optional<double> slantedLabelAt(
    const QCPRange &x, const QCPRange &y, double bandwidth, double top, int slot);

// The same at `fraction` of the visible line's length in log terms (0 its lower-left end).
std::optional<double> slantedLabelAlong(
    const QCPRange &x, const QCPRange &y, double bandwidth, double top, double fraction);

// The flat labels placed so far at the right edge: each new one is shifted left past any whose
// line is closer than a line of text, so that no two overlap.
class FlatLabelStack
{
public:
    // The shift (pixels left of the plot's right edge) for a label on pixel row `y`, whose
    // text is `height` high.
    double shiftFor(double y, double height) const;
    // Records a label on row `y` drawn `width` wide at `shift`.
    void add(double y, double shift, double width);

private:
    struct Placed {
        double y;
        double right; // shift + width + trail: where the next one may begin
    };
    std::vector<Placed> m_placed;
};

// A flat label's text in `room` pixels: whole when it fits, else with the end of its names left
// out a whole name or word at a time ("BF16 tensor…  989 TFLOP/s" for "BF16 tensor · FP16
// tensor  989 TFLOP/s", then "BF16…  989 TFLOP/s": the value after the last double space
// stays), or empty when not even the first word fits beside the value. A name cut to its last
// few letters ("…nsor") says nothing; its first word (the precision) tells the roof apart. A
// compared machine's name is held to its ceiling's first word by no-break spaces
// ("MI300X BF16…"), and is the last to go ("MI300X…").
QString fitFlatLabel(const QString &text, const QFontMetrics &metrics, int room);

// The roofs whose labels placeRoofLabels() lays out.
struct RoofLabelSet {
    std::vector<RoofLine *> own; // the current machine's
    std::vector<RoofLine *> compare; // the compared machine's
    std::vector<RoofLine *> alternate; // the current machine's other figures (spec or measured)
    double topPeak = 0.0; // the current machine's highest visible compute roof
    double compareTopPeak = 0.0; // the compared machine's, 0 when none
    std::optional<double> activePeak; // the roof the points are measured against
    // What else is on the plot, in widget pixels: the markers and the legend (when over the
    // plot). No label goes over one of them, nor over another label.
    std::vector<QRectF> obstacles;
    // The occupied cells of a density under a box (densitylayer.h), null without a density:
    // a label avoids them where its roof has a free stretch, at a lower cost than an obstacle.
    std::function<int(const QRectF &)> crowding;
    // What `crowding` answers from (DensityLayer::revision); a layer that does not know it
    // leaves 0 with a crowding set, and its labels are then placed anew every time.
    std::uint64_t crowdingRevision = 0;
    // A background behind every label (over a density), invalid for none.
    QColor halo;
    // The lines drawn on the plot (roofs, the roofline, the ridge's drop line, walls), in widget
    // pixels: a label crossed by one, other than its own roof's, costs kRoofLabelCrossed.
    std::vector<QLineF> lines;
    // The ridge's marker, null without one: its label is placed first (near the knee, where it
    // covers nothing) and is an obstacle for the roofs' labels.
    RidgeMarker *ridge = nullptr;
};
// One placement problem for every roof label of both machines (rooflabelplacement.cpp): each
// label tries places along its roof (slanted ones along the visible line from near its
// lower-left end, flat ones from the plot's right edge leftwards) and takes the cheapest —
// none over a label placed before, a marker or the legend, then the fewest density cells and
// other drawn lines through it, then the nearest to its usual place (a slanted label first
// tries where it was at the last layout). The ridge's label goes first (below and right of the
// knee, else left of the drop line, a line further down at a time, else at the drop line's foot
// over the x axis, else above the knee; always shown while in view), then the active roof's label,
// which is always shown; any other whose every place is over something is left out. Then the
// current machine's slanted labels, the compared machine's, and the flat ones from the top down.
// Returns the boxes each shown label takes (textBoxes).
std::vector<std::vector<QRectF>> placeRoofLabels(QCustomPlot *plot, const RoofLabelSet &roofs);
// What a label costs at a place (the sums placeRoofLabels() compares).
inline constexpr double kRoofLabelOverObstacle = 1e6;
inline constexpr double kRoofLabelOutside = 1e4; // partly past the plot's edge
inline constexpr double kRoofLabelElided = 2e3; // a flat label without its whole text
inline constexpr double kRoofLabelCrossed = 20.0; // per line through it, not its own roof's
inline constexpr double kRoofLabelPerCell = 10.0; // per occupied density cell under it

// The corners a legend tries, in order: top left (where the roofline rises from), then the
// corners under the roofs.
inline constexpr std::array<Qt::Alignment, 4> kLegendCorners
    = { Qt::AlignTop | Qt::AlignLeft, Qt::AlignBottom | Qt::AlignRight,
          Qt::AlignBottom | Qt::AlignLeft, Qt::AlignTop | Qt::AlignRight };
// A box of `size` in corner `corner` of `area`.
QRect cornerBox(Qt::Alignment corner, const QSize &size, const QRect &area);
// The first of kLegendCorners where a box of `size` in `area` is not `covered`, or nullopt.
std::optional<Qt::Alignment> freeCorner(
    const QSize &size, const QRect &area, const std::function<bool(const QRect &)> &covered);
// The pixel boxes a text covers: its box when level; a turned text (a slanted roof's label) as a
// row of boxes along it, each about as long as the text is high, so that its neighbours are not
// kept off the empty corners of one big bounding box.
std::vector<QRectF> textBoxes(const QCPItemText &text);
// What a text measures (QFontMetrics::boundingRect with the item's font, alignment flags and
// text, as QCPItemText measures itself for its anchors), kept per font, flags and text: a label
// tried at many places (placeRoofLabels) lays its text out once instead of three times a place.
class TextMeasure
{
public:
    QRect measure(const QFont &font, int flags, const QString &text);

private:
    struct Entry {
        QFont font;
        int flags;
        QString text;
        QRect rect;
    };
    std::vector<Entry> m_entries;
};
// textBoxes() with the text's size from `measure`: the same boxes, without the text layouts.
std::vector<QRectF> textBoxes(const QCPItemText &text, TextMeasure &measure);
// The pixel boxes of the plot's visible texts (textBoxes) and tracers (labels, markers): what a
// legend must not cover.
std::vector<QRectF> itemRects(const QCustomPlot &plot);

// Where the user wants the legend (View ▸ Legend, remembered; exports use it too).
enum class LegendMode { Auto, TopLeft, TopRight, BottomLeft, BottomRight, Below, Hidden };
inline constexpr std::array<LegendMode, 7> kLegendModes
    = { LegendMode::Auto, LegendMode::TopLeft, LegendMode::TopRight, LegendMode::BottomLeft,
          LegendMode::BottomRight, LegendMode::Below, LegendMode::Hidden };
// The name the settings store: "auto", "top-left", "top-right", "bottom-left", "bottom-right",
// "below", "hidden".
const char *legendModeKey(LegendMode mode);
// The mode of a stored name; Auto for a name that is none of them (a hand-edited file).
LegendMode legendModeFromKey(const QString &key);

// The legend's place, applied at the end of every layout. A corner mode puts it in that corner
// of the plot, Below in a strip of columns under it, Hidden leaves it out. Auto chooses a free
// corner (one where it covers no label, marker or point), else the strip — once per data,
// view reset (Ctrl+0, Ctrl+R, a machine switch that refits),
// font and plot size (invalidate()), never per zoom step, so it does not jump while zooming.
// The entries fill columns from the top (legendgrid.h): in a corner as few columns as keep the
// legend within kLegendShare of the chart's height (Auto: and half the plot's width, else it
// goes under the plot); under the plot as many as the chart's width holds.
// Wherever it goes, the plot keeps minPlotHeight() pixels: a legend too long for that shows its
// first entries and "+N more".
class LegendPlacement
{
public:
    LegendPlacement(QCustomPlot *plot, int minPlotHeight);
    ~LegendPlacement();
    LegendPlacement(const LegendPlacement &) = delete;
    LegendPlacement &operator=(const LegendPlacement &) = delete;

    // Places the legend. `markersIn` says whether a drawn point reaches into a box; `relayout`
    // lays the plot out again (without placing the legend) after the legend moved; `crowding`
    // (optional) counts a density's occupied cells under a box: Auto takes a corner without
    // any, else the corner with the fewest.
    void place(const ChartTheme &theme, const std::function<bool(const QRectF &)> &markersIn,
        const std::function<void()> &relayout,
        const std::function<int(const QRectF &)> &crowding = {});
    // A box over the plot, or plain entries on the picture's background under it.
    void style(const ChartTheme &theme);
    bool outside() const { return m_outside; }
    // While fixed, place() leaves the legend where it is (an export's second pass).
    void setFixed(bool fixed) { m_fixed = fixed; }
    bool fixed() const { return m_fixed; }
    void setMode(LegendMode mode);
    LegendMode mode() const { return m_mode; }
    // Auto decides again at the next layout: the data or the fonts changed.
    void invalidate() { m_decided.clear(); }
    // Entries the last layout left out (shown as "+N more"); 0 when all are shown.
    int leftOut() const { return static_cast<int>(m_leftOut.size()); }
    // The plot's least height: the constructor's, or 45 % of the chart's height if more.
    int minPlotHeight() const;

private:
    struct Decision {
        bool below = false;
        Qt::Alignment corner = Qt::AlignTop | Qt::AlignLeft;
        int rows = 0; // in a corner: entries to a column (0: as cornerRows() says then)
    };
    struct Callbacks {
        const std::function<bool(const QRectF &)> &markersIn;
        const std::function<void()> &relayout;
        const std::function<int(const QRectF &)> &crowding;
    };
    Decision decide(const ChartTheme &theme, const Callbacks &callbacks);
    // The corner `first` once the roofs' labels have moved around the legend there (each gives
    // way to it, and one with no other place is left out): else the next corner that covers
    // nothing and hides no label; of those, one over no density cell, else the fewest; else
    // under the plot.
    Decision verified(Decision first, const ChartTheme &theme, const Callbacks &callbacks);
    void putInCorner(Qt::Alignment corner, int rows, const ChartTheme &theme,
        const std::function<void()> &relayout);
    void putBelow(const ChartTheme &theme, const std::function<void()> &relayout, bool dirty);
    void setOutside(bool outside, const ChartTheme &theme);
    // The entries' sizes, spacing and margins as the legend measures them now (legendgrid.h).
    LegendGrid grid() const;
    // Entries to a column in a corner: within kLegendShare of the chart's height and `width`
    // pixels; nullopt when no number of columns fits.
    std::optional<int> rowsInCorner(int width) const;
    // Entries to a column under the plot: as many columns as the chart's width holds.
    int rowsBelow() const;
    // Lays the entries out in columns of `rows`, top to bottom, then left to right.
    void arrange(int rows);
    // Shows every entry again / keeps the first `keep` and adds "+N more".
    void restoreEntries();
    void keepEntries(int keep);

    QCustomPlot *m_plot;
    int m_minPlotHeight;
    LegendMode m_mode = LegendMode::Auto;
    bool m_outside = false; // in a row under the axis rect instead of its inset layout
    bool m_fixed = false;
    std::vector<std::pair<std::pair<int, int>, Decision>> m_decided; // Auto's, per chart size
    std::vector<QPointer<QCPAbstractPlottable>> m_leftOut;
    QCPAbstractLegendItem *m_more = nullptr; // the "+N more" entry, owned by the legend
};

} // namespace chart

} // namespace ridgepoint
