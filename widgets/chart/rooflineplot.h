// The roofline chart: ceilings, envelope, ridge and points of a Document on log-log axes, with
// the what-if interactions (drag a point, drag a roof) and zooming. A façade over the parts in
// their own files: the theme (charttheme.h), the axes (chartaxes.h), the roofs (rooflayer.h),
// the points (pointlayer.h, pointgrid.h), label and legend placement (labelplacement.h), the
// tooltip (charttooltip.h) and the mouse (chartinteraction.h). The exports are ChartExporter's
// (widgets/export/chartexporter.h), through setExporting() and paintUnclipped(); nothing here
// includes widgets/export.
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/hardware.h"
#include "widgets/chart/plotdisplay.h"
#include "widgets/chart/pointgrid.h"
#include "widgets/document/document.h"

#include <qcustomplot.h>

#include <QPointer>

#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace ridgepoint {

namespace chart {
enum class LegendMode;
enum class PointsMode;
class ChartInteraction;
class DensityLayer;
class LabelField;
class LatencyFloor;
class LegendPlacement;
class PlotInspection;
class PointLayer;
struct PointSource;
class QuantGhosts;
class RoofLayer;
} // namespace chart

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
    void setPoints(const std::vector<AnalyzedPoint> &points);

    // Axes snapped to decades around the ceilings' ridges, so two sessions on one machine
    // look the same.
    void resetToHardwareFrame();
    // Axes around the points and the roofs above them (and the emphasised ridge when near),
    // snapped to decades (chart::dataFrame); the hardware frame without points. The default
    // frame: setDocument() and a new set of points start here.
    void fitToData();
    // Fits the view to the data (fitToData) when a point lies outside it; a view that holds
    // every point is kept. Called when the machine changes, so no point is left off-screen.
    void keepDataInView();
    // Zooms about the centre of the plot by `factor` (> 1 zooms in).
    void zoomBy(double factor);

    // How the chart draws (plotdisplay.h): theme, font scale, shading, labels, legend, dots or a
    // density, dot sizes. setDisplay() redraws only what the change touches; the exports draw
    // the same.
    void setDisplay(const chart::PlotDisplay &display);
    const chart::PlotDisplay &display() const { return m_display; }
    // A tooltip's HTML at the chart's font size (QToolTip itself ignores the scale).
    QString tooltipHtml(const QString &html) const;

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
    // The roof's tooltip: the ceiling's figure and where it comes from (basis, source ...).
    QString ceilingDescription(const CeilingHit &ceiling) const;
    // The roofs as drawn (their lines, labels and the spec-to-measured bands), for tests.
    const chart::RoofLayer &roofLayer() const { return *m_roofs; }

    // Labels placed with the points' names (pointlabelplacement.h), after them: the review's
    // speed-ups. `client` puts its labels into the field's free space and returns their boxes;
    // it is called at every layout while `owner` lives, first with nullptr (hide them: the
    // legend looks for a free corner), then with the field.
    using LabelClient = std::function<std::vector<QRectF>(chart::LabelField *)>;
    void addLabelClient(QObject *owner, LabelClient client);
    // What the last layouts placed (chart::PlotInspection::labelLayouts): the chart's size, the
    // labels' boxes (points and clients), the markers' boxes, the legend's box over the plot (null
    // when not over it), the plot area, each point label's text and its marker's chart coordinates,
    // and the boxes of the roofs' labels (both machines; a slanted one as a row of boxes,
    // textBoxes).
    struct LabelLayout {
        QSize size;
        std::vector<QRectF> labels;
        std::vector<QRectF> markers;
        QRectF legend;
        QRectF plotArea;
        std::vector<std::pair<QString, QPointF>> pointLabels;
        std::vector<QLineF> pointLeaders; // per point label, null without a leader
        std::vector<QLineF> roofLines; // what the roof layer draws (RoofLayer::drawnLines)
        std::vector<std::vector<QRectF>> roofLabels; // per label
        std::vector<QRectF> ridgeLabel; // empty without a ridge in view
    };

    // Where sweeps cross the ridge (chart coordinates) and their labels ("b ≈ 241").
    struct SweepCrossing {
        QPointF at;
        QString text;
        QRectF box; // the label's, in pixels
    };
    // Draws point `index` on its own while it is dragged, so a drag step redraws one point,
    // not all of them; nullopt puts it back among the others.
    void isolatePoint(std::optional<std::size_t> index);

    // The points the Kernels table's filter keeps, a flag per point (empty: no filter): while
    // it leaves some out, the plot is dimmed under a veil and the kept points are drawn again
    // over it, on the screen only (exports draw the chart as without a filter).
    void setFilterKept(std::vector<bool> kept);

    // Decimation: each point graph is handed only one point per occupied cell of this size
    // (pixels, in the current view and widget size; log axes binned in pixel space), rebuilt when
    // the view or the data changes. Hit-testing uses every point.
    static constexpr double kDecimationCell = 6.0;

    // Whether every drawn point has a time, so dot sizes by time share can show
    // (PlotDisplay::dotSizeByTime).
    bool dotTimesKnown() const { return m_dotClasses.has_value(); }

    // Ghosts of the last quantization switch: old → new position of every moved workload point
    // (chart coordinates). Cleared on the next change or after kQuantGhostMs.
    static constexpr int kQuantGhostMs = 4000;

    // What the plot last drew, read back (plotinspection.h): layouts, labels, ghosts, dots.
    chart::PlotInspection inspect() const;

    // For a picture (widgets/export/chartexporter.h): while exporting, the screen's own marks
    // (selection rings, the table filter's veil) are left out and markers are vector shapes
    // when `vectorMarkers` (else the screen's pre-rendered stamps); ending it draws them for
    // the screen again and lays the chart out for the window at its next replot.
    void setExporting(bool exporting, bool vectorMarkers = false);
    // Paints the chart at `width`×`height` for a painter that cannot clip (Qt's SVG generator):
    // the chart, the background over everything outside the plot area, then the axes again.
    void paintUnclipped(QCPPainter *painter, int width, int height);

signals:
    // The cursor's chart coordinates; NaN when it left the plot.
    void cursorMoved(double intensity, double performance);
    // Whether every drawn point has a time (dot area by time share can be shown) changed.
    void dotTimesKnownChanged(bool known);
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
    // During a drag: the layers under the dragged point's composed once (dragPaint), then that
    // layer and the ones over it; otherwise QCustomPlot's own.
    void paintEvent(QPaintEvent *event) override;
    // Lays out the axes, then re-decimates the point graphs whose view changed: runs once per
    // replot and for every export (at the export's size).
    void updateLayout() override;

private:
    // Reads what was drawn, changing nothing.
    friend class chart::PlotInspection;

    void connectDocument();
    void applyTheme();
    void rebuildRoofs();
    void rebuildPoints();
    void rebuildDecorations();
    // The point graphs (and the density when `rebin`) for the points mode (rooflineplotpoints.cpp).
    // `selectionOnly`: the points are the same, only the dots over the density changed.
    void rebuildPointDrawing(bool rebin, bool selectionOnly = false);
    // The table filter's kept points over the veil (pointhighlight.cpp), after a rebuild.
    void applyHighlight();
    // Whether the points are drawn as a density now, and dot area by time share.
    bool densityShown() const;
    bool dotSizesShown() const;
    // The dot size classes the point layer draws with now; null: the fixed size.
    const std::vector<int> *shownDotClasses() const;
    // What the point layer draws from now: the document, theme, labels and dot sizes (every dot).
    chart::PointSource pointSource() const;
    // One drag step: the dragged point alone, on its own buffered layer, without a full replot.
    void redrawDragged();
    // Whether only the dragged point's layer needs drawing now (see redrawDragged).
    bool dragLayerAlone(bool pending, bool removedElsewhere) const;
    // The index in mPaintBuffers of `target`'s buffer, as QCustomPlot assigns them (one buffer
    // per buffered layer, one for each run of logical layers); -1 when they do not agree.
    int paintBufferOf(const QCPLayer *target) const;
    // Paints the buffers around the dragged point's as dragPaint() says; false: cannot.
    bool paintAroundDrag();
    // updateLayout() without the legend's placement.
    void relayout(bool labels = true);
    // The roofs' labels for the current layout (labelplacement.h placeRoofLabels).
    void placeRoofLabels();
    // Places the point labels and the clients' in the space the roofs' labels, the markers
    // and the legend leave.
    void placePointLabels();
    void showQuantGhosts(const std::vector<std::pair<std::size_t, QPointF>> &before);
    void requestReplot();
    Document *m_document = nullptr;
    Document *m_ownDocument = nullptr;
    std::vector<QMetaObject::Connection> m_connections;
    chart::PlotDisplay m_display;

    std::unique_ptr<chart::RoofLayer> m_roofs;
    std::unique_ptr<chart::PointLayer> m_points;
    std::unique_ptr<chart::DensityLayer> m_density;
    std::unique_ptr<chart::LatencyFloor> m_floor;
    std::vector<bool> m_dotMask; // under a density: the points drawn as dots
    std::vector<bool> m_filterKept; // the table filter's rows (empty: none)
    // Each point's dot size class when every drawn point has a time (found at each rebuild).
    std::optional<std::vector<int>> m_dotClasses;
    // The longest-running points, found when the density is binned: a selection click at a
    // million points must not look through them all again.
    std::vector<std::size_t> m_longestDots;
    std::unique_ptr<chart::LegendPlacement> m_legendPlacement;
    std::unique_ptr<chart::QuantGhosts> m_quantGhosts;
    std::unique_ptr<chart::ChartInteraction> m_interaction;
    QSharedPointer<QCPAxisTickerLog> m_xTicker;
    QSharedPointer<QCPAxisTickerLog> m_yTicker;
    std::vector<std::pair<QPointer<QObject>, LabelClient>> m_labelClients;
    std::vector<LabelLayout> m_labelLayouts;
    // The room the last layout left for the dragged point's label, and the view it was made
    // in: a drag step in that view places the label alone (redrawDragged).
    std::unique_ptr<chart::LabelField> m_dragField;
    chart::ViewKey m_dragView;
    // Drag steps draw only the dragged point's layer: the buffers under it are composed once on
    // the background into m_underDrag (opaque), valid until the next full replot.
    bool m_dragPaint = false;
    QImage m_underDrag;
};

} // namespace ridgepoint
