// PointLayer: the points the Kernels table's filter keeps, drawn again over a veil in the
// background colour that dims everything under it (the other points, a density, the roofs and
// the grid); labels, rings and the dragged point stay above. On the screen only: the exports
// hide both (RooflinePlot::paintPicture), so a picture does not depend on the table's filter.
#include "widgets/chart/pointlayer.h"

#include "core/analysis/analysis.h"
#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/charttheme.h"
#include "widgets/chart/dotsize.h"
#include "widgets/document/document.h"

#include <algorithm>

namespace ridgepoint::chart {
namespace {

// Above the points' own layer ("main"), under the labels: the veil, then the kept points.
constexpr char kVeilLayer[] = "filterVeil";
constexpr char kHighlightLayer[] = "filterHighlight";
// How much of the background the veil lays over what is under it.
constexpr double kVeilOpacity = 0.75;

QCPLayer *ensureLayer(QCustomPlot *plot, const char *name, const char *below)
{
    if (!plot->layer(name))
        plot->addLayer(name, plot->layer(below), QCustomPlot::limAbove);
    return plot->layer(name);
}

} // namespace

void PointLayer::clearHighlight()
{
    clearDrawing(m_highlight);
    m_highlighted.clear();
    if (m_veil) {
        m_plot->removeItem(m_veil);
        m_veil = nullptr;
    }
}

void PointLayer::setHighlight(const Source &source, const std::vector<bool> *kept)
{
    clearHighlight();
    const Document &doc = source.document;
    if (!kept || kept->size() != doc.pointCount()
        || std::find(kept->begin(), kept->end(), false) == kept->end())
        return;
    QCPLayer *veilLayer = ensureLayer(m_plot, kVeilLayer, "main");
    QCPLayer *highlightLayer = ensureLayer(m_plot, kHighlightLayer, kVeilLayer);
    m_veil = new QCPItemRect(m_plot);
    m_veil->setLayer(veilLayer);
    m_veil->setSelectable(false);
    m_veil->setPen(Qt::NoPen);
    QColor veil = source.theme.background;
    veil.setAlphaF(static_cast<float>(kVeilOpacity));
    m_veil->setBrush(veil);
    for (QCPItemPosition *corner : { m_veil->topLeft, m_veil->bottomRight })
        corner->setType(QCPItemPosition::ptAxisRectRatio);
    m_veil->topLeft->setCoords(0.0, 0.0);
    m_veil->bottomRight->setCoords(1.0, 1.0);
    m_veil->setVisible(m_highlightShown);

    PointBatch batch;
    KernelPoint p; // each point made into the same storage (PointTable::fill)
    for (std::size_t i = 0; i < doc.pointCount(); ++i) {
        if (!(*kept)[i] || (m_isolated && *m_isolated == i))
            continue;
        const PointPlacement &a = doc.placement(i);
        if (!a.placed || a.boundedLevels == 0)
            continue;
        doc.pointTable().fill(i, p);
        const std::optional<KernelPoint> moved
            = p.knownByIntensity() ? std::optional(doc.point(i)) : std::nullopt;
        const std::vector<LevelDot> dots
            = levelDots(p, moved ? &*moved : nullptr, doc.placements().levels(i));
        const int sizeClass
            = source.sizeClasses && i < source.sizeClasses->size() ? (*source.sizeClasses)[i] : -1;
        const std::size_t group = groupIndex(p.group);
        addDots(
            source.theme, { dots, a.y, group, groupColorOf(group), sizeClass, !a.measured }, batch);
        m_highlighted.push_back(i);
    }
    for (auto &[key, series] : batch.scatter) {
        QCPGraph *graph = addSeries(m_highlight, series.style, series.x, series.y);
        graph->setLayer(highlightLayer);
        graph->setVisible(m_highlightShown);
    }
}

void PointLayer::showScreenOnly(bool on)
{
    m_highlightShown = on;
    if (m_veil)
        m_veil->setVisible(on);
    for (auto &series : m_highlight.series)
        series.graph->setVisible(on);
    for (const auto *drawing : { &m_drawing, &m_isolatedDrawing, &m_decorations }) {
        for (QCPAbstractPlottable *plottable : drawing->plottables) {
            if (plottable->property(kSelectionRingProperty).toBool())
                plottable->setVisible(on);
        }
    }
}

} // namespace ridgepoint::chart
