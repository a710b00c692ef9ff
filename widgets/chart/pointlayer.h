// The points of the chart: one scatter graph per (group, marker, planned) with its full data
// beside it and a decimated subset drawn, the hierarchical lines joining a point's levels, the
// what-if ghosts, selection rings and name labels, sweep trajectories, the legend's point
// entries and the hit index. Owned by RooflinePlot, which says when to rebuild.
#pragma once

#include "core/model/hardware.h"
#include "core/model/point.h"
#include "core/workspace/placements.h"
#include "widgets/chart/legendgroups.h"
#include "widgets/chart/pointgrid.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QSet>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ridgepoint {

class Document;
struct ChartTheme;
struct PointAnalysis;

namespace chart {

// The property that marks the selection rings' graphs: exports hide them.
inline constexpr char kSelectionRingProperty[] = "ridgepoint-selection-ring";

class LabelField;
class PointLabel;
class SweepCrossingMarker;
class WhatIfGhost;

// Pixels of a decimation cell (RooflinePlot::kDecimationCell).
inline constexpr double kDecimationCell = 6.0;
// At most this many what-if ghosts (the first moved points in table order, the dragged one
// besides), and at most this many labels of selected and moved points: each is two QCustomPlot
// items, and QCustomPlot adds and removes an item in time that grows with the items it holds
// (render of 10 000 moved points took 22–40 s). Far more than a picture has room to show.
inline constexpr std::size_t kMaxWhatIfGhosts = 2000;
inline constexpr std::size_t kMaxPriorityLabels = 2000;
// The lines joining a hierarchical point's levels: a curve (a QCustomPlot plottable, as costly)
// per point up to this many, then one curve per group with a gap between points.
inline constexpr std::size_t kMaxLevelLines = 2000;

// Where a point is drawn: one dot per level, (intensity, level as written in the point: none for
// bytes given as main memory), ordered by intensity; for points known by intensity `moved` (the
// point as moved) gives the intensities. Every level sits at its own F / B_l, those the machine
// has no ceiling for included (core/analysis/levels.h): `levels` are the point's placed levels
// (Placements::levels).
using LevelDot = std::pair<double, std::optional<MemoryLevel>>;
std::vector<LevelDot> levelDots(
    const KernelPoint &point, const KernelPoint *moved, std::span<const LevelPlacement> levels);

// The marker of a level: triangle L1, square L2, diamond L3, circle main memory or none, a
// crossed circle for the rest.
QCPScatterStyle::ScatterShape levelShape(std::optional<MemoryLevel> level);

// A sweep's samples in the order of its parameter, and where its trajectory crosses the ridge:
// the bound flips where T_math = T_mem (balance = log(T_math / T_mem) changes sign),
// interpolated in log space between the samples on either side.
struct SweepStep {
    double value; // the parameter
    double x;
    double y;
    double balance; // log(T_math / T_mem): ≥ 0 when compute-bound
};
struct RidgeCrossing {
    QPointF at;
    double value;
};
std::vector<RidgeCrossing> ridgeCrossings(const std::vector<SweepStep> &samples);

// What the points are drawn from, passed to every rebuild (RooflinePlot::pointSource()).
struct PointSource {
    const Document &document;
    const ChartTheme &theme;
    bool allLabels = false; // label every point (up to kMaxAllPointLabels)
    bool numberKey = true; // plotdisplay.h: numbers only where a table keys them
    // Under a density (densitylayer.h): only the points marked here are dots; null: all.
    const std::vector<bool> *dots = nullptr;
    // Only the dots changed (a selection under a density): the groups, the names and the
    // hit index of the unchanged points are kept, not built again over every point.
    bool samePoints = false;
    // Dot area by time share (dotsize.h): the size class of each point (-1: not drawn);
    // null: every dot at the fixed size.
    const std::vector<int> *sizeClasses = nullptr;
};

class PointLayer
{
    Q_DECLARE_TR_FUNCTIONS(ridgepoint::RooflinePlot)

public:
    using Source = PointSource;
    explicit PointLayer(QCustomPlot *plot);
    ~PointLayer();
    PointLayer(const PointLayer &) = delete;
    PointLayer &operator=(const PointLayer &) = delete;
    // Whether the points were last named and grouped as a profiler trace's, by operator.
    bool namesByOperator() const { return m_byOperator; }

    // Removes everything drawn (while the plot is still whole).
    void clear();
    // Every point, ring and label, the sweeps, the legend's entries and the hit index.
    void rebuild(const Source &source);
    // Rings and labels of every point but the isolated one: all a selection change redraws.
    void rebuildDecorations(const Source &source);
    // The isolated point alone, with its ring, label and ghost.
    void updateIsolated(const Source &source);
    // The point drawn on its own (the dragged one), nullopt for none; takes effect at the next
    // rebuild().
    void setIsolated(std::optional<std::size_t> index) { m_isolated = index; }
    std::optional<std::size_t> isolated() const { return m_isolated; }

    // The points the Kernels table's filter keeps (`kept`: a flag per point) drawn again over a
    // veil that dims the rest of the plot (pointhighlight.cpp). Nothing while `kept` is null,
    // holds a flag per point of another set, or keeps every point. Made again after rebuild().
    void setHighlight(const Source &source, const std::vector<bool> *kept);
    // Shows or hides what is the window's state, not the data's: the veil and the points over
    // it, and the selection rings (an export draws the chart without them).
    void showScreenOnly(bool on);
    // The points drawn over the veil, and whether the veil is up.
    const std::vector<std::size_t> &highlighted() const { return m_highlighted; }
    bool dimmed() const { return m_veil != nullptr; }

    // Re-decimates every graph whose view changed since it was last binned.
    void decimateFor(const ViewKey &view);
    // Markers as vector shapes while exporting (true), as stamps on the screen (false).
    void useVectorMarkers(bool on);

    // The point within `radius` pixels of a widget position, or -1 (the isolated one from the
    // Document, the others from the hit index).
    int pointAt(const Document &document, const QPointF &position, double radius) const;
    // The colour index of a point's group (a new group gets the next one).
    std::size_t groupIndex(std::string_view group); // a point's group, as it was read
    // The colour of group `group`: its palette colour, or the neutral one of the groups the
    // legend does not name (legendgroups.h).
    QColor groupColorOf(std::size_t group) const;
    // Where each workload point was drawn (index, chart coordinates) at the last rebuild.
    const std::vector<std::pair<std::size_t, QPointF>> &workloadPositions() const
    {
        return m_workloadPositions;
    }

    // Whether a point as drawn (thinned; not the rings) reaches into a box of widget pixels.
    bool markersIn(const QRectF &box) const;
    std::vector<QPointF> drawnCoords() const;
    std::vector<std::pair<QPointF, QPointF>> ghosts() const;
    // The labels that found a place at the last placeLabels() (elided names or numbers).
    QStringList labels() const;
    // Hides every point label (before the legend looks for a free corner).
    void hideLabels();
    // Puts each label in the first free spot of `field` near its marker, or hides it; with
    // `isolatedOnly`, the dragged point's alone (a drag step: the others stay where they are).
    void placeLabels(LabelField &field, bool isolatedOnly = false);
    // Gives the ridge crossings' labels rows so that none covers another (before the point
    // labels look for room around them).
    void stackCrossingLabels();
    // Boxes (widget pixels) of the markers as drawn, and the labels placed: box, text and the
    // chart coordinates of the marker each names.
    std::vector<QRectF> markerRects(bool withIsolated = true) const;
    // The dragged point's alone.
    std::vector<QRectF> isolatedMarkerRects() const;
    struct PlacedLabel {
        QRectF box;
        QString text;
        QPointF at;
        QLineF leader; // null without one
    };
    // `withIsolated` false: the dragged point's labels left out.
    std::vector<PlacedLabel> placedLabels(bool withIsolated = true) const;
    std::vector<const SweepCrossingMarker *> sweepCrossings() const;

private:
    void appendMarkerRects(const QCPGraph &graph, double margin, std::vector<QRectF> &out) const;

    // The scatter data of many points gathered first and handed to QCustomPlot at once: adding
    // points one by one to a graph keeps its data sorted on every insert.
    // With dot area by time share the size class leads the key, largest first (its negation),
    // so that the big dots are drawn first and the small ones stay visible on top of them.
    struct PointBatch {
        struct Series {
            QCPScatterStyle style;
            QVector<double> x, y;
        };
        // (−size class, group, shape, planned)
        std::map<std::tuple<int, std::size_t, int, bool>, Series> scatter;
        // The rings round impossible and selected points, by the size class of the dot they
        // ring.
        std::map<int, Series> impossible, selected;
        std::map<int, std::optional<MemoryLevel>> levelsSeen; // by shape
        // By group: the lines joining the levels of the points past kMaxLevelLines.
        std::map<std::size_t, Series> levelLines;
    };
    // One point graph with its full data; the graph holds the decimated subset.
    struct DecimatedSeries {
        QCPGraph *graph = nullptr;
        // The marker as vector shapes (exports) and as a pre-rendered stamp (the screen: a blit
        // per marker instead of an antialiased path).
        QCPScatterStyle shape;
        QCPScatterStyle stamp;
        SeriesPoints points; // moved from the batch that gathered them
        double margin = 0.0; // pixels: half the marker, so edge markers stay
        std::optional<ViewKey> view;
    };
    // What the chart draws for a set of points; removed as a whole.
    struct PointDrawing {
        std::vector<std::unique_ptr<WhatIfGhost>> ghosts;
        std::vector<std::unique_ptr<PointLabel>> labels;
        // The labels of selected and moved points while collecting, in table order:
        // finishLabels() puts them before the others, the last point first.
        std::vector<std::unique_ptr<PointLabel>> priorityLabels;
        std::size_t levelLines = 0; // curves of one point each (kMaxLevelLines)
        std::vector<std::unique_ptr<SweepCrossingMarker>> crossings;
        std::vector<QCPAbstractPlottable *> plottables;
        std::vector<DecimatedSeries> series;
        QSet<QString> labelTexts; // the texts given so far: no two labels read alike
    };

    // Adds point `index` to the batch; with `decorations`, its selection ring and label too.
    void collectPoint(const Source &source, std::size_t index, PointBatch &batch,
        PointDrawing &drawing, bool decorations);
    // A point's dots (one per level) into the batch's scatter series.
    struct Dots {
        const std::vector<LevelDot> &levels;
        double y;
        std::size_t group;
        QColor color;
        int sizeClass;
        bool planned;
    };
    static void addDots(const ChartTheme &theme, const Dots &dots, PointBatch &batch);
    void clearHighlight();
    // An empty curve for the lines joining a point's levels.
    QCPCurve *levelCurve(const ChartTheme &theme, const QColor &color);
    // The selection ring and the name label of point `index`, when it has them.
    void collectDecorations(
        const Source &source, std::size_t index, PointBatch &batch, PointDrawing &drawing);
    void flushBatch(const Source &source, PointBatch &batch, PointDrawing &drawing, bool inLegend);
    // The priority labels in front of the others, placed first (the last collected first).
    static void finishLabels(PointDrawing &drawing);
    QCPGraph *addSeries(PointDrawing &drawing, const QCPScatterStyle &style, QVector<double> &x,
        QVector<double> &y);
    void clearDrawing(PointDrawing &drawing);
    void drawSweep(const Source &source, std::vector<std::pair<double, std::size_t>> members);
    // The legend's entries: the named groups, "+ N more groups", levels, the dot size's note
    // (pointlayerlegend.cpp).
    void addLegendEntries(const Source &source, const PointBatch &batch);
    // Each group's time and from it m_legendGroups, after m_groups is made; on a chart of more
    // points than are labelled, the points with most time (m_leading).
    void chooseLegendGroups(const Document &document);
    void rebuildHitIndex(const Document &document);
    // The marker radius of every point for the hit test (dot area by time share).
    void measureDots(const Source &source);
    // A point's name on the chart (pointlabelplacement.h: shortened, duplicates numbered).
    QString chartName(const Document &document, std::size_t index) const;
    // The label of point `index` named `name` (empty: numbered), fitted to a label's width
    // (labeltext.h); its number when the name does not fit or another label reads the same.
    // Empty when the point gets no label: its name fits nowhere and no table keys its number.
    QString labelText(
        PointDrawing &drawing, const QString &name, std::size_t index, bool numberKey) const;

    QCustomPlot *m_plot;
    PointDrawing m_drawing;
    PointDrawing m_isolatedDrawing; // the dragged point
    PointDrawing m_decorations; // selection rings and point labels
    PointDrawing m_highlight; // the points the table's filter keeps, over the veil
    QCPItemRect *m_veil = nullptr;
    std::vector<std::size_t> m_highlighted;
    // What an export asked for, kept for the graphs a rebuild makes during it: the window's
    // marks (veil, highlight, selection rings) shown, and markers as vector shapes.
    bool m_highlightShown = true;
    bool m_vectorMarkers = false;
    std::optional<std::size_t> m_isolated;
    std::map<std::string, std::size_t, std::less<>> m_groups; // group name -> colour index
    // The point collectPoint() is drawing, made from the document's table into the same
    // storage each time (PointTable::fill), so a million points cost no allocation each.
    KernelPoint m_scratchPoint;
    bool m_byOperator = false; // a profiler trace's points: grouped and named by operator
    LegendGroups m_legendGroups; // which groups the legend names, and each group's colour
    // Past kMaxNumberedPoints points (a trace's: kMaxNamedPoints), the few labelled (named)
    // all the same (leadingPoints); empty below.
    std::vector<bool> m_leading;
    HitIndex m_hitIndex;
    std::vector<std::uint8_t> m_occupied; // scratch of decimate()
    std::vector<std::pair<std::size_t, QPointF>> m_workloadPositions;
    QStringList m_chartNames; // per point, when there are few enough to label
    // Dot area by time share: each point's marker radius in pixels (pen included), for the
    // hit test; empty while every dot has the fixed size.
    std::vector<float> m_dotRadius;
    float m_largestDotRadius = 0.0F;
};

} // namespace chart

} // namespace ridgepoint
