// The roofline chart: ceilings, envelope, ridge and points of a Document on log-log axes, with
// the what-if interactions (drag a point, drag a roof) and zooming.
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/hardware.h"
#include "widgets/document/document.h"

#include <qcustomplot.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace ridgepoint {

namespace chart {
class PointLabel;
class RidgeMarker;
class RoofLine;
class SweepCrossingMarker;
class WhatIfGhost;
} // namespace chart

// Colours and weights of the chart. Print: black on white, thicker lines, no shading.
struct ChartTheme {
    enum class Kind { Light, Dark, Print };
    Kind kind = Kind::Light;
    QColor background;
    QColor foreground; // axes, text
    QColor grid;
    QColor subGrid;
    QColor envelope;
    QColor legendBackground;
    double lineScale = 1.0;
    double fontScale = 1.0;
    bool shading = true; // region shading allowed

    static ChartTheme light();
    static ChartTheme dark();
    static ChartTheme print();
    static ChartTheme of(Kind kind);
    // The name sessions and --theme use: "light", "dark", "print" (docs/FILES.md, "theme").
    const char *key() const;
    // `color` made light or dark enough to stand out on the background: the same hue, its
    // lightness moved until the WCAG contrast ratio is at least `ratio`.
    QColor readable(const QColor &color, double ratio = kMinTextContrast) const;
    static constexpr double kMinTextContrast = 4.5; // WCAG 2 AA, normal text
    static constexpr double kMinLineContrast = 3.0; // WCAG 2 AA, graphics
    // The palette of the whole window under this theme (docks, tables, menus): dark for Dark,
    // the style's standard palette otherwise.
    QPalette windowPalette() const;
};

// What an export writes: the same for the window's Export dialog and the render command, so
// both produce the same file.
struct ExportOptions {
    // The picture's size in logical pixels: fonts, margins and the point thinning are laid out
    // at this size. PDF and SVG pages are this size (at 96 logical pixels per inch).
    int width = 1600;
    int height = 1000;
    // PNG: device pixels per logical pixel (a 1600×1000 picture at scale 2 is 3200×2000).
    double scale = 1.0;
    // PNG: the resolution written into the file (pHYs); 0 means 96 × scale.
    int dpi = 0;
    // Drawn above the chart when not empty.
    QString title;
    // The points' analysis (name, intensity, performance, bound, limiting roof, % of roof)
    // drawn as a table below the chart, which keeps the rest of the height.
    bool table = false;
    // A ridgepoint-session document embedded in the file, so the figure can be reopened and
    // edited: an SVG <metadata> element, a PNG text chunk, a PDF file attachment. Sessions
    // larger than kMaxEmbeddedSession are left out (the caller should say so): a million-point
    // session would make the picture hundreds of megabytes.
    QByteArray session;
    static constexpr qsizetype kMaxEmbeddedSession = qsizetype { 16 } * 1024 * 1024;
};

// The WCAG 2 contrast ratio of two opaque colours: (L1 + 0.05) / (L2 + 0.05), 1 to 21.
double contrastRatio(const QColor &a, const QColor &b);

class RooflinePlot : public QCustomPlot
{
    Q_OBJECT

public:
    // Draws its own Document until setDocument() gives it a shared one.
    explicit RooflinePlot(QWidget *parent = nullptr);
    ~RooflinePlot() override;

    void setDocument(Document *document);
    Document *document() const { return m_document; }

    // Headless use (the render command): a machine and analysed points without a session.
    void setHardware(const Hardware &hardware);
    const Hardware &hardware() const { return m_document->hardware(); }
    void setAnalysisOptions(const AnalysisOptions &options);
    void setPoints(std::vector<AnalyzedPoint> points);

    // Axes snapped to decades around the ceilings' ridges, so two sessions on one machine
    // look the same.
    void resetToHardwareFrame();
    // Axes around the points (and the ridge), snapped to decades.
    void fitToData();
    // Zooms about the centre of the plot by `factor` (> 1 zooms in).
    void zoomBy(double factor);

    // Shades the memory-bound and compute-bound regions under the roofline.
    void setRegionShading(bool on);
    bool regionShading() const { return m_shading; }
    // Labels every point with its elided name (the first few hundred), not only the selected
    // and moved ones.
    void setAllPointLabels(bool on);
    bool allPointLabels() const { return m_allLabels; }
    void setTheme(const ChartTheme &theme);
    const ChartTheme &theme() const { return m_theme; }
    // Presentation font scale (1.0, 1.25, 1.5, 2.0 for projectors), on top of the theme's own:
    // every text of the chart (axes, legend, roof and point labels) grows with it.
    void setFontScale(double scale);
    double fontScale() const { return m_fontScale; }

    // Writes the chart to PNG, SVG or PDF, chosen by the file's suffix, at `width`×`height`
    // logical pixels times `scale` (PNG only). The file is replaced atomically: a failed export
    // leaves the old file alone. Returns an empty string on success, else the reason.
    QString exportTo(const QString &fileName, int width, int height, double scale = 1.0);
    QString exportTo(const QString &fileName, const ExportOptions &options);
    // The picture an export writes, as PNG or SVG bytes in memory (the clipboard's copy).
    // Empty on failure.
    QByteArray renderToBytes(const QString &format, const ExportOptions &options);

    // The points table an export at `options` draws below the chart, laid out for `device`:
    // its font (smaller than the chart's when the columns would not fit the width otherwise),
    // the rows shown (header first) and where each column is (logical pixels, from the header's
    // top to the last row's bottom). Empty without a table. Used by the export and by tests.
    // When the columns do not fit even with elided names and a smaller font, the least
    // important are left out (kTableDropOrder) and a footnote names them; when the rows do not
    // fit the table's share of the height, a footnote says how many were left out.
    struct ExportTable {
        struct Footnote {
            QRectF box; // where it is drawn: as wide as its text
            QString text;
        };
        QFont font;
        double rowHeight = 0.0;
        double height = 0.0; // from the picture's bottom: padding, rows, footnotes
        int shown = 0; // points listed
        std::vector<int> kinds; // PointsTableModel columns
        std::vector<int> dropped; // PointsTableModel columns left out for the width
        std::vector<QStringList> cells; // header, then one row per point shown
        std::vector<QRectF> columns;
        std::vector<Footnote> footnotes; // "… and N more kernels", the columns left out
    };
    // The plot area (axis rect) of an export keeps at least this height: the table takes less
    // and the legend does not go under the plot when that would leave less (it is left out).
    static constexpr int kMinPlotHeight = 60;
    ExportTable exportTable(const ExportOptions &options, QPaintDevice *device) const;

    // Text of the tooltip for point `index` (also used by tests).
    QString pointDescription(std::size_t index) const;
    // The point under a widget position (within a few pixels), or -1.
    int pointAt(const QPointF &position) const;
    // Where point `index` is drawn (its dot for byte level `level`), in widget pixels.
    QPointF pointPosition(std::size_t index, std::size_t level = 0) const;
    // The chart coordinates (intensity, performance) of point `index` at level `level`.
    std::optional<QPointF> pointCoords(std::size_t index, std::size_t level = 0) const;

    struct CeilingHit {
        bool compute = false;
        int index = -1; // in Hardware::compute or Hardware::memory
    };
    // The roof of the current machine under a widget position (within a few pixels).
    std::optional<CeilingHit> ceilingAt(const QPointF &position) const;
    // Widget position on the roof of a ceiling at intensity `x`, for tests and tools.
    QPointF ceilingPosition(const CeilingHit &ceiling, double x) const;

    // Ghosts drawn for what-if moves (measured position → moved position, chart coordinates).
    std::vector<std::pair<QPointF, QPointF>> ghosts() const;
    // The labels currently drawn beside points (elided names).
    QStringList pointLabels() const;
    bool isDragging() const { return m_drag.has_value(); }

    // Where sweeps cross the ridge (chart coordinates) and their labels ("b ≈ 241").
    struct SweepCrossing {
        QPointF at;
        QString text;
    };
    std::vector<SweepCrossing> sweepCrossings() const;
    // Draws point `index` on its own while it is dragged, so a drag step redraws one point,
    // not all of them; nullopt puts it back among the others.
    void isolatePoint(std::optional<std::size_t> index);

    // Decimation: each point graph is handed only one point per occupied cell of this size
    // (pixels, in the current view and widget size; log axes binned in pixel space), rebuilt when
    // the view or the data changes. Hit-testing uses every point.
    static constexpr double kDecimationCell = 6.0;
    // The chart coordinates the point graphs currently draw (after decimation), for tests.
    std::vector<QPointF> drawnPointCoords() const;

    // Ghosts of the last quantization switch: old → new position of every moved workload point
    // (chart coordinates). Cleared on the next change or after kQuantGhostMs.
    static constexpr int kQuantGhostMs = 4000;
    std::vector<std::pair<QPointF, QPointF>> quantGhosts() const;

signals:
    // The cursor's chart coordinates; NaN when it left the plot.
    void cursorMoved(double intensity, double performance);
    // Sent first thing in the destructor, while the plot is still whole: objects that put
    // items on the chart (they are often its children, deleted only after ~QCustomPlot) must
    // remove them now.
    void aboutToBeDestroyed();

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;
    // Lays out the axes, then re-decimates the point graphs whose view changed: runs once per
    // replot and for every export (at the export's size).
    void updateLayout() override;

private:
    struct Drag {
        enum class Kind { Point, Compute, Memory } kind = Kind::Point;
        std::size_t index = 0;
        QPointF startCoords; // chart coordinates under the press
        WhatIf startMove;
        double startValue = 0.0; // peak or bandwidth
        bool moved = false;
    };

    struct PointBatch;
    // The view a decimated series was last binned for.
    struct ViewKey {
        double xLower = 0.0, xUpper = 0.0, yLower = 0.0, yUpper = 0.0;
        QRect rect;
        friend bool operator==(const ViewKey &, const ViewKey &) = default;
    };
    // One point graph with its full data; the graph holds the decimated subset.
    struct DecimatedSeries {
        QCPGraph *graph = nullptr;
        // The marker as vector shapes (exports) and as a pre-rendered stamp (the screen: a blit
        // per marker instead of an antialiased path).
        QCPScatterStyle shape;
        QCPScatterStyle stamp;
        QVector<double> x, y; // chart coordinates (moved from the batch that gathered them)
        std::vector<double> lx, ly; // their log10
        double margin = 0.0; // pixels: half the marker, so edge markers stay
        std::optional<ViewKey> view;
    };
    // What the chart draws for a set of points; removed as a whole.
    struct PointDrawing {
        std::vector<std::unique_ptr<chart::WhatIfGhost>> ghosts;
        std::vector<std::unique_ptr<chart::PointLabel>> labels;
        std::vector<std::unique_ptr<chart::SweepCrossingMarker>> crossings;
        std::vector<QCPAbstractPlottable *> plottables;
        std::vector<DecimatedSeries> series;
    };
    // Every drawn dot (point, level) in a coarse grid over log10 coordinates, so a mouse
    // position finds its point without scanning them all.
    struct HitIndex {
        // 12 bytes: the index holds every dot twice while it is built. A float's 1e-7 of a
        // decade is far below a pixel at any zoom the axes allow.
        struct Entry {
            float lx, ly;
            std::uint32_t point;
        };
        double lx0 = 0.0, ly0 = 0.0, lxStep = 1.0, lyStep = 1.0;
        int columns = 0, rows = 0;
        std::vector<std::uint32_t> start; // per bucket, into entries (CSR)
        std::vector<Entry> entries;
    };

    void connectDocument();
    void applyTheme();
    void rebuildRoofs();
    void rebuildPoints();
    std::size_t groupIndex(const KernelPoint &point);
    // Adds point `index` to the batch; with `decorations`, its selection ring and label too.
    void collectPoint(
        std::size_t index, PointBatch &batch, PointDrawing &drawing, bool decorations);
    // The selection ring and the name label of point `index`, when it has them.
    void collectDecorations(std::size_t index, PointBatch &batch, PointDrawing &drawing);
    // Rings and labels of every point but the isolated one: all a selection change redraws.
    void rebuildDecorations();
    void flushBatch(PointBatch &batch, PointDrawing &drawing, bool inLegend);
    void clearDrawing(PointDrawing &drawing);
    void drawSweep(std::vector<std::pair<double, std::size_t>> members);
    void updateIsolatedPoint();
    void placeLabels();
    // Puts the legend in a corner of the plot where it covers no label, marker or point, else
    // under the plot (and lays the plot out again). Runs at the end of every layout.
    void placeLegend();
    std::vector<QRectF> legendObstacles() const;
    bool legendCovers(const QRectF &box, const std::vector<QRectF> &obstacles) const;
    void setLegendOutside(bool outside);
    int legendStripColumns() const;
    void styleLegend();
    // updateLayout() without the legend's placement.
    void relayout();
    ViewKey currentView() const;
    // Markers as vector shapes while exporting (true), as stamps on the screen (false).
    void useVectorMarkers(bool on);
    // The picture of an export (chartexport.cpp): title, chart, table, at `options`' logical
    // size on a painter that is already scaled.
    void paintPicture(QCPPainter *painter, const ExportOptions &options);
    // The chart into a painter that cannot clip (SVG), clipped by covering the margins.
    void paintClippedByHand(QCPPainter *painter, int width, int height);
    void decimate(DecimatedSeries &series, const ViewKey &view);
    void rebuildHitIndex();
    void showQuantGhosts(const std::vector<std::pair<std::size_t, QPointF>> &before);
    void clearQuantGhosts();
    void requestReplot();
    void dragTo(const QPointF &position, EditPhase phase);
    QPointF coordsAt(const QPointF &position) const;
    QString reachTheRoof(const KernelPoint &point, const PointAnalysis &a) const;

    Document *m_document = nullptr;
    Document *m_ownDocument = nullptr;
    std::vector<QMetaObject::Connection> m_connections;
    bool m_shading = false;
    bool m_allLabels = false;
    ChartTheme m_theme = ChartTheme::light();
    double m_fontScale = 1.0;

    std::vector<std::unique_ptr<chart::RoofLine>> m_roofs;
    std::vector<std::unique_ptr<chart::RoofLine>> m_compareRoofs;
    std::unique_ptr<chart::RidgeMarker> m_ridge;
    std::vector<QCPAbstractPlottable *> m_roofPlottables; // envelope, shading, legend entries
    PointDrawing m_drawing;
    PointDrawing m_isolatedDrawing; // the dragged point
    PointDrawing m_decorations; // selection rings and point labels
    std::optional<std::size_t> m_isolated;
    std::map<std::string, std::size_t> m_groups; // group name -> colour index
    HitIndex m_hitIndex;
    std::vector<std::uint8_t> m_occupied; // scratch of decimate()
    // Where each workload point was drawn (index, chart coordinates), for the quantization ghosts.
    std::vector<std::pair<std::size_t, QPointF>> m_workloadPositions;
    std::vector<std::unique_ptr<chart::WhatIfGhost>> m_quantGhosts;
    QTimer *m_quantGhostTimer = nullptr;

    bool m_legendOutside = false; // in a row under the axis rect instead of its inset layout
    bool m_legendFixed = false; // placeLegend() leaves it where it is
    // Hidden by placeLegend() because neither a corner nor a strip under the plot had room
    // (the strip would leave the plot less than kMinPlotHeight); shown again at the next layout.
    bool m_legendSqueezedOut = false;
    std::optional<Drag> m_drag;
    QPoint m_pressPosition;
    QSharedPointer<QCPAxisTickerLog> m_xTicker;
    QSharedPointer<QCPAxisTickerLog> m_yTicker;
};

} // namespace ridgepoint
