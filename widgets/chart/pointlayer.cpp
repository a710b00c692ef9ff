#include "widgets/chart/pointlayer.h"
#include "widgets/qtext.h"

#include "core/analysis/analysis.h"
#include "core/analysis/levels.h"
#include "core/model/units.h"
#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/charttheme.h"
#include "widgets/chart/dotsize.h"
#include "widgets/chart/geometry/labeltext.h"
#include "widgets/chart/geometry/pointlabelplacement.h"
#include "widgets/chart/tracenames.h"
#include "widgets/document/document.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace ridgepoint::chart {
namespace {

// A point's name on the chart: this many average characters a line (170 pixels at the window's
// default font), so a larger font (the slide preset, 200 %) gives names room in proportion.
constexpr double kMaxLabelChars = 28.0;
constexpr std::size_t kMaxPointLabels = kMaxNumberedPoints;
constexpr std::size_t kMaxAllPointLabels = 400; // "label all points": beyond this, clutter

// A scatter style drawn once into a pixmap: QCustomPlot blits it at each point (rounded to
// whole pixels), several times faster than stroking an antialiased shape per point.
QCPScatterStyle markerStamp(const QCPScatterStyle &shape)
{
    const double extent = shape.size() + 2.0 * shape.pen().widthF() + 2.0;
    const int side = static_cast<int>(std::ceil(extent)) | 1; // odd: the point sits on a pixel
    QPixmap pixmap(side, side);
    pixmap.fill(Qt::transparent);
    QCPPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    shape.applyTo(&painter, shape.pen());
    shape.drawShape(&painter, side / 2.0, side / 2.0);
    painter.end();
    return QCPScatterStyle(pixmap);
}

// The size class of point `i` under `source` (-1: the fixed size).
int sizeClassOf(const PointLayer::Source &source, std::size_t i)
{
    if (!source.sizeClasses || i >= source.sizeClasses->size())
        return -1;
    return (*source.sizeClasses)[i];
}

// The diameter of a dot of class `sizeClass` (-1: the fixed size), in pixels.
double dotDiameter(int sizeClass)
{
    return sizeClass < 0 ? kFixedDotDiameter : dotClassDiameter(sizeClass);
}

// The pen of a point's marker.
constexpr double kMarkerPen = 1.4;

// The legend's group of a point: its own group; a profiler trace's points by their operator
// (tracenames.h), since a trace's groups are operator and shapes, hundreds of them, and the
// legend can name only a few (legendgroups.h) while the shapes are on the labels and in the table.
std::string_view groupName(std::string_view group, bool byOperator)
{
    if (group.empty())
        return "kernels";
    return byOperator ? traceOperator(group) : group;
}

} // namespace

QCPScatterStyle::ScatterShape levelShape(std::optional<MemoryLevel> level)
{
    if (!level)
        return QCPScatterStyle::ssCircle;
    switch (*level) {
    case MemoryLevel::L1:
        return QCPScatterStyle::ssTriangle;
    case MemoryLevel::L2:
        return QCPScatterStyle::ssSquare;
    case MemoryLevel::L3:
        return QCPScatterStyle::ssDiamond;
    case MemoryLevel::DRAM:
    case MemoryLevel::HBM:
        return QCPScatterStyle::ssCircle;
    default:
        return QCPScatterStyle::ssCrossCircle;
    }
}

std::vector<LevelDot> levelDots(
    const KernelPoint &p, const KernelPoint *moved, std::span<const LevelPlacement> levels)
{
    std::vector<LevelDot> dots;
    const auto byIntensity = [](const LevelDot &l, const LevelDot &r) { return l.first < r.first; };
    if (p.knownByIntensity() && moved) {
        // Known by intensities and rate (a NERSC text file): each level at its own intensity,
        // as moved, with its own marker, including levels the machine has no ceiling for (left
        // out of the analysis, as for byte counts below).
        if (moved->intensity)
            dots.emplace_back(*moved->intensity, std::nullopt);
        for (const auto &level : moved->levelIntensities)
            dots.emplace_back(level.intensity, level.level);
        std::sort(dots.begin(), dots.end(), byIntensity);
    }
    if (!p.knownByIntensity()) {
        // Each level at its own intensity F / B_l, with its own marker, including levels the
        // machine has no ceiling for (bounded false: drawn, not part of the roof).
        const auto written = [&p](MemoryLevel level) -> std::optional<MemoryLevel> {
            const bool named = std::any_of(p.bytes.begin(), p.bytes.end(),
                [level](const LevelBytes &b) { return b.level == level; });
            return named || !isMainMemory(level) ? std::optional(level) : std::nullopt;
        };
        // In levels.h's allLevels() order (by rank, those with a ceiling first among equals)
        // before the sort by intensity, so that equal intensities keep their order.
        std::vector<const LevelPlacement *> ranked;
        ranked.reserve(levels.size());
        for (const LevelPlacement &level : levels)
            ranked.push_back(&level);
        std::stable_sort(
            ranked.begin(), ranked.end(), [](const LevelPlacement *l, const LevelPlacement *r) {
                return levelRank(l->level) < levelRank(r->level);
            });
        for (const LevelPlacement *level : ranked)
            dots.emplace_back(level->intensity, written(level->level));
        std::sort(dots.begin(), dots.end(), byIntensity);
    }
    return dots;
}

std::vector<RidgeCrossing> ridgeCrossings(const std::vector<SweepStep> &samples)
{
    std::vector<RidgeCrossing> out;
    for (std::size_t k = 1; k < samples.size(); ++k) {
        const SweepStep &s0 = samples[k - 1];
        const SweepStep &s1 = samples[k];
        if ((s0.balance >= 0.0) == (s1.balance >= 0.0))
            continue;
        const double t = s0.balance / (s0.balance - s1.balance);
        const auto between = [t](double a, double b) { return a * std::pow(b / a, t); };
        out.push_back(
            { QPointF(between(s0.x, s1.x), between(s0.y, s1.y)), between(s0.value, s1.value) });
    }
    return out;
}

PointLayer::PointLayer(QCustomPlot *plot)
    : m_plot(plot)
{ }

PointLayer::~PointLayer()
{
    clear();
}

void PointLayer::clear()
{
    clearHighlight();
    clearDrawing(m_isolatedDrawing);
    clearDrawing(m_decorations);
    clearDrawing(m_drawing);
}

std::size_t PointLayer::groupIndex(std::string_view group)
{
    const std::string_view name = groupName(group, m_byOperator);
    if (const auto it = m_groups.find(name); it != m_groups.end())
        return it->second;
    return m_groups.emplace(std::string(name), m_groups.size()).first->second;
}

void PointLayer::collectPoint(
    const Source &source, std::size_t i, PointBatch &batch, PointDrawing &drawing, bool decorations)
{
    const Document &doc = source.document;
    const ChartTheme &theme = source.theme;
    const PointPlacement &a = doc.placement(i);
    const auto levels = doc.placements().boundedLevels(i);
    if (!a.placed || levels.empty())
        return;
    KernelPoint &p = m_scratchPoint; // reused: no allocation per point
    doc.pointTable().fill(i, p);
    const std::size_t group = groupIndex(p.group);
    const bool planned = !a.measured;
    const double y = a.y;
    const QColor color = groupColorOf(group);
    const std::optional<KernelPoint> moved
        = p.knownByIntensity() ? std::optional(doc.point(i)) : std::nullopt;
    const std::vector<LevelDot> dots
        = levelDots(p, moved ? &*moved : nullptr, doc.placements().levels(i));
    if (dots.size() > 1 && drawing.levelLines < kMaxLevelLines) {
        // Hierarchical roofline: one dot per level, joined by a thin line.
        ++drawing.levelLines;
        auto *curve = levelCurve(theme, color);
        for (const auto &dot : dots)
            curve->addData(dot.first, y);
        drawing.plottables.push_back(curve);
    } else if (dots.size() > 1) {
        // Past the cap: the group's one curve, a NaN (a gap) after each point's line.
        auto &line = batch.levelLines[group];
        for (const auto &dot : dots) {
            line.x.push_back(dot.first);
            line.y.push_back(y);
        }
        line.x.push_back(std::numeric_limits<double>::quiet_NaN());
        line.y.push_back(std::numeric_limits<double>::quiet_NaN());
    }
    const int sizeClass = sizeClassOf(source, i);
    addDots(theme, { dots, y, group, color, sizeClass, planned }, batch);
    if (!a.consistent) {
        // Each level judged against its own roof: marked where the measurement is above it.
        for (const auto &level : levels) {
            if (a.measured && a.y > level.attainable * (1.0 + 1e-6)) {
                auto &ring = batch.impossible[sizeClass];
                ring.x.push_back(level.intensity);
                ring.y.push_back(y);
            }
        }
    }
    if (!doc.whatIf(i).isIdentity() && drawing.ghosts.size() < kMaxWhatIfGhosts) {
        const auto measured = doc.measuredAnalysis(i);
        if (measured && !measured->levels.empty()) {
            const QPointF from(measured->levels.front().intensity,
                measured->performance.value_or(measured->attainable));
            drawing.ghosts.push_back(std::make_unique<WhatIfGhost>(
                m_plot, from, QPointF(levels.front().intensity, y), color));
        }
    }
    if (decorations)
        collectDecorations(source, i, batch, drawing);
}

void PointLayer::addDots(const ChartTheme &theme, const Dots &dots, PointBatch &batch)
{
    const QColor &color = dots.color;
    for (const auto &[intensity, level] : dots.levels) {
        const auto shape = levelShape(level);
        batch.levelsSeen.emplace(static_cast<int>(shape), level);
        auto [it, fresh] = batch.scatter.try_emplace(
            std::make_tuple(-dots.sizeClass, dots.group, static_cast<int>(shape), dots.planned));
        if (fresh)
            it->second.style
                = QCPScatterStyle(shape, QPen(color.darker(115), kMarkerPen * theme.lineScale),
                    dots.planned ? QBrush(theme.background) : QBrush(color),
                    dotDiameter(dots.sizeClass));
        it->second.x.push_back(intensity);
        it->second.y.push_back(dots.y);
    }
}

QCPCurve *PointLayer::levelCurve(const ChartTheme &theme, const QColor &color)
{
    auto *curve = new QCPCurve(m_plot->xAxis, m_plot->yAxis);
    curve->removeFromLegend();
    curve->setSelectable(QCP::stNone);
    curve->setPen(QPen(color.lighter(140), 1.0 * theme.lineScale));
    return curve;
}

void PointLayer::collectDecorations(
    const Source &source, std::size_t i, PointBatch &batch, PointDrawing &drawing)
{
    const Document &doc = source.document;
    const bool selected = doc.isSelected(i);
    const bool moved = !doc.whatIf(i).isIdentity();
    const std::size_t count = doc.pointCount();
    // Too many points to label, or to number without a key (plotdisplay.h numberKey): only the
    // few with most time keep theirs, by name. A trace's keep their names among the numbers.
    const bool numbered = source.numberKey && count <= kMaxNumberedPoints;
    const bool leading = i < m_leading.size() && m_leading[i] && (m_byOperator || !numbered);
    if (!selected && !moved && !leading && !source.allLabels && !numbered
        && count > kMaxNamedPoints)
        return;
    const PointPlacement &a = doc.placement(i);
    const auto levels = doc.placements().boundedLevels(i);
    if (!a.placed || levels.empty())
        return;
    const double y = a.y;
    const int sizeClass = sizeClassOf(source, i);
    if (selected) {
        auto &ring = batch.selected[sizeClass];
        for (const auto &level : levels) {
            ring.x.push_back(level.intensity);
            ring.y.push_back(y);
        }
    }
    // An LLM operator's path carries its name once (drawSweep); its samples get no label of
    // their own, or their numbers crowd the path names out.
    if (const Workload *w = doc.workload(i);
        w && w->sweep && std::holds_alternative<LlmWorkload>(w->model) && !selected && !moved)
        return;
    const std::size_t maxLabels = source.allLabels ? kMaxAllPointLabels : kMaxPointLabels;
    const bool priority = selected || moved;
    if (priority ? drawing.priorityLabels.size() >= kMaxPriorityLabels
                 : drawing.labels.size() + drawing.priorityLabels.size() >= maxLabels)
        return;
    // Named up to kMaxNamedPoints points (or all, or the selected and moved ones), numbered
    // up to kMaxNumberedPoints (pointlabelplacement.h).
    const bool named = selected || moved || leading || source.allLabels || count <= kMaxNamedPoints;
    // A selected or moved point is always labelled, by its number when its name will not do.
    const QString text = labelText(
        drawing, named ? chartName(doc, i) : QString(), i, source.numberKey || priority);
    if (text.isEmpty())
        return;
    auto label = std::make_unique<PointLabel>(
        m_plot, QPointF(levels.back().intensity, y), text, source.theme.foreground);
    if (levels.size() > 1) {
        std::vector<QPointF> own;
        own.reserve(levels.size());
        for (const auto &level : levels)
            own.emplace_back(level.intensity, y);
        label->setOwnMarkers(std::move(own));
    }
    // Clear of its own marker, however large the dot is drawn.
    label->setClearance(std::max(
        kLabelClearance, dotDiameter(sizeClass) / 2.0 + kMarkerPen * source.theme.lineScale));
    // The selected and moved first: crowding leaves out the others' labels, not theirs.
    if (priority)
        drawing.priorityLabels.push_back(std::move(label));
    else
        drawing.labels.push_back(std::move(label));
}

void PointLayer::finishLabels(PointDrawing &drawing)
{
    // The largest dots (the kernels with the largest time share) first: where the plot is
    // crowded, small ones lose their labels, not the ones a reader looks for first.
    std::stable_sort(drawing.labels.begin(), drawing.labels.end(),
        [](const auto &a, const auto &b) { return a->clearance() > b->clearance(); });
    // Each was once inserted at the front as it came (the last point first), which moved every
    // label already there: quadratic in the moved points.
    if (drawing.priorityLabels.empty())
        return;
    drawing.labels.insert(drawing.labels.begin(),
        std::make_move_iterator(drawing.priorityLabels.rbegin()),
        std::make_move_iterator(drawing.priorityLabels.rend()));
    drawing.priorityLabels.clear();
    drawing.levelLines = 0;
}

QString PointLayer::labelText(
    PointDrawing &drawing, const QString &name, std::size_t i, bool numberKey) const
{
    const QFontMetricsF metrics(m_plot->font());
    const auto fit = [&](const QString &text) {
        return text.isEmpty()
            ? QString()
            : fitLabelText(
                text, [&](const QString &line) { return metrics.horizontalAdvance(line); },
                kMaxLabelChars * metrics.averageCharWidth());
    };
    QString text = fit(name);
    const auto taken = [&] { return text.isEmpty() || drawing.labelTexts.contains(text); };
    // No table to key a number: a trace's operator without its shapes, else no label at all.
    if (taken() && !numberKey) {
        text = fit(name.section(QStringLiteral(" ["), 0, 0));
        if (taken())
            return {};
    }
    if (taken())
        text = pointNumber(i);
    drawing.labelTexts.insert(text);
    return text;
}

QString PointLayer::chartName(const Document &doc, std::size_t i) const
{
    if (i < static_cast<std::size_t>(m_chartNames.size()))
        return m_chartNames[static_cast<qsizetype>(i)];
    return shortKernelName(q(doc.pointTable().name(i)));
}

void PointLayer::rebuildDecorations(const Source &source)
{
    clearDrawing(m_decorations);
    PointBatch batch;
    for (std::size_t i = 0; i < source.document.pointCount(); ++i) {
        if (!(m_isolated && *m_isolated == i))
            collectDecorations(source, i, batch, m_decorations);
    }
    finishLabels(m_decorations);
    flushBatch(source, batch, m_decorations, false);
}

QCPGraph *PointLayer::addSeries(
    PointDrawing &drawing, const QCPScatterStyle &style, QVector<double> &x, QVector<double> &y)
{
    QCPGraph *graph = m_plot->addGraph();
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setSelectable(QCP::stNone);
    graph->removeFromLegend();
    // The decimated data has at most one point per cell already; QCustomPlot's own sampling
    // could only drop visible markers.
    graph->setAdaptiveSampling(false);
    drawing.plottables.push_back(graph);
    DecimatedSeries series;
    series.graph = graph;
    series.shape = style;
    series.stamp = markerStamp(style);
    graph->setScatterStyle(m_vectorMarkers ? series.shape : series.stamp);
    // The batch's coordinates move into the series: a copy would be 16 MB more at a million.
    series.points.x = std::move(x);
    series.points.y = std::move(y);
    series.points.takeLogs();
    series.margin = style.size() / 2.0 + style.pen().widthF() + 1.0;
    drawing.series.push_back(std::move(series));
    return graph;
}

void PointLayer::flushBatch(
    const Source &source, PointBatch &batch, PointDrawing &drawing, bool inLegend)
{
    // Every point graph keeps its full data beside it and draws a per-view subset (decimate()).
    // Room for every series first: a reallocation would copy each one's data (its move may
    // throw, so the vector copies), 20 MB at a million points.
    const double lineScale = source.theme.lineScale;
    for (auto &[group, line] : batch.levelLines) { // under the dots, as the points' own lines
        auto *curve = levelCurve(source.theme, groupColorOf(group));
        curve->setData(line.x, line.y);
        drawing.plottables.push_back(curve);
    }
    drawing.series.reserve(drawing.series.size() + batch.scatter.size() + batch.impossible.size()
        + batch.selected.size());
    for (auto &[key, series] : batch.scatter)
        addSeries(drawing, series.style, series.x, series.y);
    // The rings keep their gap round the dot they ring: 19 and 15 pixels round the fixed 9.
    bool named = false;
    for (auto &[sizeClass, ring] : batch.impossible) {
        QCPGraph *impossible = addSeries(drawing,
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(impossibleColor(), 2.0 * lineScale),
                Qt::NoBrush, dotDiameter(sizeClass) + 10.0),
            ring.x, ring.y);
        if (inLegend && !named) {
            impossible->setName(tr("impossible: above its roof"));
            impossible->addToLegend();
            named = true;
        }
    }
    for (auto &[sizeClass, ring] : batch.selected) {
        QCPGraph *selected = addSeries(drawing,
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(selectionColor(), 2.2 * lineScale),
                Qt::NoBrush, dotDiameter(sizeClass) + 6.0),
            ring.x, ring.y);
        selected->setLayer(kLabelLayer);
        // The window's state, not the data's: exports leave it out (chartexporter.cpp).
        selected->setProperty(kSelectionRingProperty, true);
        selected->setVisible(m_highlightShown);
    }
}

void PointLayer::useVectorMarkers(bool on)
{
    m_vectorMarkers = on;
    for (auto *drawing : { &m_drawing, &m_isolatedDrawing, &m_decorations, &m_highlight }) {
        for (auto &series : drawing->series)
            series.graph->setScatterStyle(on ? series.shape : series.stamp);
    }
}

void PointLayer::decimateFor(const ViewKey &view)
{
    for (auto *drawing : { &m_drawing, &m_isolatedDrawing, &m_decorations, &m_highlight }) {
        for (auto &series : drawing->series) {
            if (series.view == view)
                continue;
            series.view = view;
            const LogToPixel toX(m_plot->xAxis, view.xLower, view.xUpper);
            const LogToPixel toY(m_plot->yAxis, view.yLower, view.yUpper);
            series.graph->data()->set(decimate(series.points, view.rect, toX, toY, kDecimationCell,
                                          series.margin, m_occupied),
                true);
        }
    }
}

bool PointLayer::markersIn(const QRectF &box) const
{
    for (const auto *drawing : { &m_drawing, &m_isolatedDrawing }) {
        for (const auto &series : drawing->series) {
            if (!series.graph || !series.graph->realVisibility())
                continue;
            const double m = series.margin;
            const QRectF grown = box.adjusted(-m, -m, m, m);
            for (const QCPGraphData &d : *series.graph->data()) {
                if (grown.contains(
                        m_plot->xAxis->coordToPixel(d.key), m_plot->yAxis->coordToPixel(d.value)))
                    return true;
            }
        }
    }
    return false;
}

std::vector<QPointF> PointLayer::drawnCoords() const
{
    std::vector<QPointF> out;
    for (const auto *drawing : { &m_drawing, &m_isolatedDrawing, &m_decorations }) {
        for (const auto &series : drawing->series) {
            for (const auto &d : *series.graph->data())
                out.emplace_back(d.key, d.value);
        }
    }
    return out;
}

void PointLayer::rebuildHitIndex(const Document &doc)
{
    m_workloadPositions.clear();
    std::vector<HitIndex::Entry> dots;
    dots.reserve(doc.pointCount());
    for (std::size_t i = 0; i < doc.pointCount(); ++i) {
        const PointPlacement &a = doc.placement(i);
        const auto levels = doc.placements().boundedLevels(i);
        if (!a.placed || levels.empty())
            continue;
        const double y = a.y;
        if (doc.workload(i))
            m_workloadPositions.emplace_back(i, QPointF(levels.front().intensity, y));
        const double ly = std::log10(y);
        for (const auto &level : levels) {
            const double lx = std::log10(level.intensity);
            if (!std::isfinite(lx) || !std::isfinite(ly))
                continue;
            dots.push_back(
                { static_cast<float>(lx), static_cast<float>(ly), static_cast<std::uint32_t>(i) });
        }
    }
    m_hitIndex.build(std::move(dots));
}

void PointLayer::measureDots(const Source &source)
{
    m_dotRadius.clear();
    m_largestDotRadius = 0.0F;
    if (!source.sizeClasses)
        return;
    // The marker's half and its pen, and a pixel of slack: the mouse on its drawn edge hits.
    const double pen = kMarkerPen * source.theme.lineScale;
    m_dotRadius.reserve(source.sizeClasses->size());
    for (const int sizeClass : *source.sizeClasses) {
        const auto r = static_cast<float>(dotDiameter(sizeClass) / 2.0 + pen + 1.0);
        m_dotRadius.push_back(r);
        m_largestDotRadius = std::max(m_largestDotRadius, r);
    }
}

int PointLayer::pointAt(const Document &document, const QPointF &position, double radius) const
{
    const QCPAxis *xAxis = m_plot->xAxis;
    const QCPAxis *yAxis = m_plot->yAxis;
    NearestPoint nearest(
        position, radius, m_dotRadius.empty() ? nullptr : &m_dotRadius, m_largestDotRadius);
    // The dragged point from the Document: its entry in the index is where the drag began.
    if (m_isolated && *m_isolated < document.pointCount()) {
        if (const PointPlacement &a = document.placement(*m_isolated); a.placed) {
            const double y = yAxis->coordToPixel(a.y);
            for (const auto &level : document.placements().boundedLevels(*m_isolated))
                nearest.consider(*m_isolated, xAxis->coordToPixel(level.intensity), y);
        }
    }
    if (m_hitIndex.empty())
        return nearest.best();
    const QCPRange xr = xAxis->range();
    const QCPRange yr = yAxis->range();
    m_hitIndex.findNear(nearest, LogToPixel(xAxis, xr.lower, xr.upper),
        LogToPixel(yAxis, yr.lower, yr.upper), m_isolated);
    return nearest.best();
}

void PointLayer::clearDrawing(PointDrawing &drawing)
{
    drawing.ghosts.clear();
    drawing.labels.clear();
    drawing.priorityLabels.clear();
    drawing.levelLines = 0;
    drawing.crossings.clear();
    drawing.labelTexts.clear();
    for (QCPAbstractPlottable *plottable : drawing.plottables)
        m_plot->removePlottable(plottable);
    drawing.plottables.clear();
    drawing.series.clear();
}

void PointLayer::rebuild(const Source &source)
{
    clear();
    const Document &doc = source.document;
    const bool samePoints = source.samePoints && !m_groups.empty();
    if (!samePoints) {
        m_groups.clear();
        m_byOperator = doc.trace() != nullptr;
        for (std::size_t i = 0; i < doc.pointCount(); ++i)
            groupIndex(doc.pointTable().group(i));
        chooseLegendGroups(doc);
        m_chartNames.clear();
    }
    // Names told apart among all the points (when few enough to be labelled); a trace's by
    // operator and shapes (tracenames.h), however many, as its leading points keep their labels.
    if (!samePoints && (m_byOperator || doc.pointCount() <= kMaxNumberedPoints)) {
        QStringList names;
        QStringList groups;
        for (std::size_t i = 0; i < doc.pointCount(); ++i) {
            names << q(doc.pointTable().name(i));
            if (m_byOperator)
                groups << q(doc.pointTable().group(i));
        }
        m_chartNames = m_byOperator ? traceChartNames(groups, names) : chartNames(names);
    }
    PointBatch batch;
    std::map<int, std::vector<std::pair<double, std::size_t>>> sweeps; // id -> (value, point)
    for (std::size_t i = 0; i < doc.pointCount(); ++i) {
        if (const Workload *w = doc.workload(i); w && w->sweep)
            sweeps[w->sweep->id].emplace_back(w->sweep->value, i);
        if ((m_isolated && *m_isolated == i) || (source.dots && !(*source.dots)[i]))
            continue;
        collectPoint(source, i, batch, m_drawing, false);
    }
    flushBatch(source, batch, m_drawing, true);
    rebuildDecorations(source);
    if (!samePoints)
        rebuildHitIndex(doc);
    measureDots(source);
    // Paths named in order of their time at the last sample (the longest first), so that when
    // room runs out it is the operators that take the least time that go unnamed.
    std::vector<std::pair<double, std::vector<std::pair<double, std::size_t>>>> paths;
    for (auto &[id, members] : sweeps) {
        // The whole analysis: a sweep's points are planned workloads, few beside measured ones.
        const auto a = doc.analysis(std::max_element(members.begin(), members.end())->second);
        paths.emplace_back(a ? a->tMin : 0.0, std::move(members));
    }
    std::stable_sort(
        paths.begin(), paths.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    for (auto &path : paths)
        drawSweep(source, std::move(path.second));
    if (m_isolated)
        updateIsolated(source);
    addLegendEntries(source, batch);
}

void PointLayer::drawSweep(
    const Source &source, std::vector<std::pair<double, std::size_t>> members)
{
    std::sort(members.begin(), members.end());
    const Document &doc = source.document;
    std::vector<SweepStep> samples;
    std::string parameter;
    QColor color;
    std::size_t last = 0;
    for (const auto &[value, i] : members) {
        const auto a = doc.analysis(i); // the times too: a sweep's points are workloads
        if (!a || a->levels.empty())
            continue;
        last = i;
        double tMem = 0.0;
        for (const auto &level : a->levels)
            tMem = std::max(tMem, level.tMem);
        samples.push_back({ value, a->levels.front().intensity,
            a->performance.value_or(a->attainable), std::log(a->tMath / tMem) });
        parameter = doc.workload(i)->sweep->parameter;
        color = groupColorOf(
            m_groups.find(groupName(doc.pointTable().group(i), m_byOperator))->second);
    }
    if (samples.size() < 2)
        return;
    auto *curve = new QCPCurve(m_plot->xAxis, m_plot->yAxis);
    curve->removeFromLegend();
    curve->setSelectable(QCP::stNone);
    curve->setLayer(kGhostLayer);
    curve->setPen(QPen(color, 1.6 * source.theme.lineScale));
    for (const auto &s : samples)
        curve->addData(s.x, s.y);
    m_drawing.plottables.push_back(curve);
    // An LLM operator's path is named once, at its last sample (its points carry no label).
    if (const auto *llm = std::get_if<LlmWorkload>(&doc.workload(last)->model)) {
        const QString name = llm->operatorKind.empty() ? tr("whole model") : q(llm->operatorKind);
        m_drawing.labels.push_back(
            std::make_unique<PointLabel>(m_plot, QPointF(samples.back().x, samples.back().y),
                labelText(m_drawing, name, last, true), color)); // a path's name, always drawn
        std::vector<QPointF> own; // the label may sit nearest any sample of its path
        own.reserve(samples.size());
        for (const auto &sample : samples)
            own.emplace_back(sample.x, sample.y);
        m_drawing.labels.back()->setOwnMarkers(std::move(own));
    }
    // An LLM sweep's operator paths all cross at the ridge's knee: each label names its path
    // (stackCrossingLabels gives them rows at each layout).
    const auto *llm = std::get_if<LlmWorkload>(&doc.workload(last)->model);
    const QString path = !llm       ? QString()
        : llm->operatorKind.empty() ? tr("whole model")
                                    : q(llm->operatorKind);
    for (const RidgeCrossing &crossing : ridgeCrossings(samples)) {
        QString text = tr("%1 ≈ %2").arg(q(parameter), q(formatSignificant(crossing.value, 3)));
        if (!path.isEmpty())
            text = tr("%1: %2").arg(path, text);
        m_drawing.crossings.push_back(
            std::make_unique<SweepCrossingMarker>(m_plot, crossing.at, text, color));
    }
}

void PointLayer::updateIsolated(const Source &source)
{
    clearDrawing(m_isolatedDrawing);
    if (!m_isolated || *m_isolated >= source.document.pointCount())
        return;
    PointBatch batch;
    collectPoint(source, *m_isolated, batch, m_isolatedDrawing, true);
    finishLabels(m_isolatedDrawing);
    flushBatch(source, batch, m_isolatedDrawing, false);
}

std::vector<std::pair<QPointF, QPointF>> PointLayer::ghosts() const
{
    std::vector<std::pair<QPointF, QPointF>> out;
    for (const auto *drawing : { &m_drawing, &m_isolatedDrawing, &m_decorations }) {
        for (const auto &ghost : drawing->ghosts)
            out.emplace_back(ghost->from(), ghost->to());
    }
    return out;
}

// The pixel square each marker of `graph` covers, `margin` round its centre, added to `out`.
void PointLayer::appendMarkerRects(
    const QCPGraph &graph, double margin, std::vector<QRectF> &out) const
{
    for (const QCPGraphData &d : *graph.data()) {
        const QPointF at(m_plot->xAxis->coordToPixel(d.key), m_plot->yAxis->coordToPixel(d.value));
        out.emplace_back(at.x() - margin, at.y() - margin, 2 * margin, 2 * margin);
    }
}

std::vector<QRectF> PointLayer::isolatedMarkerRects() const
{
    std::vector<QRectF> out;
    for (const auto &series : m_isolatedDrawing.series)
        appendMarkerRects(*series.graph, series.margin, out);
    return out;
}

std::vector<QRectF> PointLayer::markerRects(bool withIsolated) const
{
    std::vector<QRectF> out;
    for (const auto *drawing : { &m_drawing, &m_isolatedDrawing, &m_decorations }) {
        if (!withIsolated && drawing == &m_isolatedDrawing)
            continue;
        for (const auto &series : drawing->series) {
            if (series.graph && series.graph->realVisibility())
                appendMarkerRects(*series.graph, series.margin, out);
        }
    }
    return out;
}

std::vector<const SweepCrossingMarker *> PointLayer::sweepCrossings() const
{
    std::vector<const SweepCrossingMarker *> out;
    for (const auto &c : m_drawing.crossings)
        out.push_back(c.get());
    return out;
}

} // namespace ridgepoint::chart
