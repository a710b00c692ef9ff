#include "widgets/chart/rooflayer.h"
#include "widgets/qtext.h"

#include "core/model/rate_text.h"
#include "core/model/units.h"
#include "widgets/chart/chartaxes.h"
#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/charttheme.h"
#include "widgets/chart/labelplacement.h"
#include "widgets/chart/roofselection.h"
#include "widgets/chart/tilingwalls.h"
#include "widgets/document/document.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace ridgepoint::chart {
namespace {

// Of a ceiling's two figures the measured one is drawn solid and the other dashed; when neither
// (or both) is measured, the one the analysis uses is solid.
template<typename Ceiling> bool alternateSolid(const Ceiling &c)
{
    return c.alternate && c.alternate->provenance.basis == Basis::Measured
        && c.provenance.basis != Basis::Measured;
}

// "HBM2 measured  1.35 TB/s" when the ceiling holds two figures, else "HBM2  1.35 TB/s".
QString figureLabel(
    const QString &names, const Provenance &provenance, bool twoFigures, const QString &value)
{
    return names
        + (twoFigures ? " " + QString::fromUtf8(basisName(provenance.basis).data()) : QString())
        + "  " + value;
}

// A ceiling's figure as its label writes it, to three digits: B/s, FLOP/s, or OP/s for an
// integer precision.
template<typename Ceiling> QString labelFigure(const Ceiling &ceiling, double value)
{
    return q(figureText(ceiling, value, 3));
}

bool samePeak(const ComputeCeiling &other, const ComputeCeiling &c)
{
    return other.visible && std::abs(other.peak - c.peak) <= 0.005 * c.peak;
}

} // namespace

std::optional<std::vector<std::size_t>> sharedLabel(const std::vector<ComputeCeiling> &compute,
    std::size_t index, std::optional<std::size_t> preferred)
{
    const ComputeCeiling &c = compute.at(index);
    // The preferred ceiling (the emphasised one) carries the label of its group, named first.
    if (preferred && *preferred < compute.size() && samePeak(compute[*preferred], c)
        && compute[*preferred].visible && *preferred != index)
        return std::nullopt;
    std::vector<std::size_t> names;
    for (std::size_t j = 0; j < compute.size(); ++j) {
        if (!samePeak(compute[j], c))
            continue;
        if (j < index && index != preferred)
            return std::nullopt;
        if (j != index)
            names.push_back(j);
    }
    names.insert(names.begin(), index);
    return names;
}

RoofLayer::RoofLayer(QCustomPlot *plot)
    : m_plot(plot)
    , m_bands(plot)
    , m_powerCap(plot)
{ }

RoofLayer::~RoofLayer()
{
    clear();
}

void RoofLayer::clear()
{
    m_roofs.clear();
    m_alternateRoofs.clear();
    m_compareRoofs.clear();
    m_labelBoxes.clear();
    m_memo.clear();
    ++m_generation;
    m_ridge.reset();
    m_walls.clear();
    m_bands.clear();
    m_powerCap.clear();
    for (QCPAbstractPlottable *plottable : m_plottables)
        m_plot->removePlottable(plottable);
    m_plottables.clear();
    m_gaps.clear();
    m_envelope.clear();
}

QString RoofLayer::elided(const std::string &name) const
{
    return QFontMetrics(m_plot->font()).elidedText(q(name), Qt::ElideRight, 200);
}

void RoofLayer::rebuild(const Document &document, const ChartTheme &theme, bool shading)
{
    clear();
    RoofSelection selection = selectRoofs(document);
    m_shown = std::move(selection.hardware);
    m_emphasised = selection.emphasised;
    const Hardware &hw = m_shown;
    const double peak = topPeak(hw);
    const double bandwidth = topBandwidth(hw);
    if (peak <= 0.0 || bandwidth <= 0.0)
        return;
    addMemoryRoofs(theme, peak);
    addComputeRoofs(theme, bandwidth);
    m_bands.rebuild(document, hw, theme, peak, bandwidth);
    addEnvelope(document, theme, shading);
    m_powerCap.rebuild(hw, activeCeiling(), theme);
    addCompareRoofs(document, theme);
    addTilingWalls(document, theme);
    if (!m_alternateRoofs.empty()) {
        // One legend entry says what the dashes mean.
        QCPGraph *entry = m_plot->addGraph();
        entry->setPen(QPen(theme.foreground, 1.3 * theme.lineScale, Qt::DashLine));
        entry->setName(tr("Spec figure dashed, measured solid"));
        m_plottables.push_back(entry);
    }
}

void RoofLayer::addTilingWalls(const Document &document, const ChartTheme &theme)
{
    const QColor color = theme.readable(QColor(0x6a, 0x3d, 0x9a));
    for (const WallSpec &spec : tilingWalls(document))
        m_walls.push_back(std::make_unique<TilingWall>(m_plot, spec, color));
}

void RoofLayer::addMemoryRoofs(const ChartTheme &theme, double top)
{
    const Hardware &hw = m_shown;
    for (std::size_t i = 0; i < hw.memory.size(); ++i) {
        const MemoryCeiling &m = hw.memory[i];
        if (!m.visible)
            continue;
        // Roofs keep their hue; on the dark theme they are lightened until they stand out.
        const QColor color = memoryColor(m.level);
        const Qt::PenStyle solid = isNetwork(m.level) ? Qt::DashDotLine : Qt::SolidLine;
        const bool otherSolid = alternateSolid(m);
        const QPen pen(
            lineColor(theme, color), 1.3 * theme.lineScale, otherSolid ? Qt::DashLine : solid);
        const QColor labelColor = theme.readable(color.darker(115));
        m_roofs.push_back(std::make_unique<RoofLine>(m_plot, RoofLine::Kind::Memory,
            static_cast<int>(i), m.bandwidth, top, pen,
            figureLabel(
                elided(m.name), m.provenance, m.alternate.has_value(), labelFigure(m, m.bandwidth)),
            labelColor));
        if (m.alternate)
            addAlternate(m, m.bandwidth, pen, otherSolid ? solid : Qt::DashLine, top, labelColor,
                gapFillColor(theme, color));
    }
}

void RoofLayer::addComputeRoofs(const ChartTheme &theme, double top)
{
    const Hardware &hw = m_shown;
    const ComputeCeiling *active = activeCeiling();
    for (std::size_t i = 0; i < hw.compute.size(); ++i) {
        const ComputeCeiling &c = hw.compute[i];
        if (!c.visible)
            continue;
        // Ceilings with the same peak (BF16 and FP16 tensor) share one label, the emphasised
        // one's when it is among them.
        const auto shared = sharedLabel(hw.compute, i, m_emphasised);
        QStringList names;
        for (const std::size_t j : shared.value_or(std::vector<std::size_t> {}))
            names << elided(hw.compute[j].name);
        QColor color = &c == active ? computeColor() : computeColor().lighter(165);
        if (c.sparse)
            color = sparseComputeColor();
        const Qt::PenStyle solid = c.sparse ? Qt::DotLine : Qt::SolidLine;
        const bool otherSolid = alternateSolid(c);
        const QPen pen(lineColor(theme, color), (&c == active ? 1.6 : 1.2) * theme.lineScale,
            otherSolid ? Qt::DashLine : solid);
        const QColor labelColor = theme.readable(color.darker(115));
        m_roofs.push_back(std::make_unique<RoofLine>(m_plot, RoofLine::Kind::Compute,
            static_cast<int>(i), c.peak, top, pen,
            !shared ? QString()
                    : figureLabel(names.join(" · "), c.provenance, c.alternate.has_value(),
                        labelFigure(c, c.peak)),
            labelColor));
        if (c.alternate)
            addAlternate(c, c.peak, pen, otherSolid ? solid : Qt::DashLine, top, labelColor,
                gapFillColor(theme, color));
    }
}

template<typename Ceiling>
void RoofLayer::addAlternate(const Ceiling &ceiling, double value, QPen pen, Qt::PenStyle style,
    double top, const QColor &labelColor, const QColor &gapColor)
{
    constexpr bool memory = std::is_same_v<Ceiling, MemoryCeiling>;
    const auto kind = memory ? RoofLine::Kind::Memory : RoofLine::Kind::Compute;
    const AlternateFigure &other = *ceiling.alternate;
    pen.setStyle(style);
    m_alternateRoofs.push_back(std::make_unique<RoofLine>(m_plot, kind, -1, other.value, top, pen,
        figureLabel(
            elided(ceiling.name), other.provenance, true, labelFigure(ceiling, other.value)),
        labelColor));
    (other.value < value ? *m_alternateRoofs.back() : *m_roofs.back()).setLabelBelow();
    addGap(memory, value, other.value, top, gapColor, q(ceiling.name));
}

void RoofLayer::addGap(
    bool memory, double a, double b, double top, const QColor &fill, const QString &name)
{
    QCPGraph *lower
        = addRoofGap(*m_plot, memory, std::min(a, b), std::max(a, b), top, fill, m_plottables);
    if (!lower)
        return;
    lower->channelFillGraph()->setName(tr("%1: the higher figure").arg(name));
    lower->setName(tr("%1: between its spec and measured figures").arg(name));
    m_gaps.push_back(lower);
}

const ComputeCeiling *RoofLayer::activeCeiling() const
{
    return m_emphasised && *m_emphasised < m_shown.compute.size() ? &m_shown.compute[*m_emphasised]
                                                                  : nullptr;
}

void RoofLayer::addEnvelope(const Document &document, const ChartTheme &theme, bool shading)
{
    const ComputeCeiling *active = activeCeiling();
    const MemoryCeiling *main = document.hardware().mainMemory();
    if (!active || !main)
        return;
    const double ridge = ridgeIntensity(*active, *main);
    if (shading && theme.shading) {
        // Under the roofline: memory-bound left of the ridge, compute-bound right of it.
        QCPGraph *memoryRegion = m_plot->addGraph();
        memoryRegion->setLayer(kShadingLayer);
        memoryRegion->setData(
            { kFarLeft, ridge }, { main->bandwidth * kFarLeft, active->peak }, true);
        memoryRegion->setPen(Qt::NoPen);
        memoryRegion->setBrush(QColor(0xc8, 0x5a, 0x0a, 28));
        memoryRegion->setName(tr("memory-bound region"));
        QCPGraph *computeRegion = m_plot->addGraph();
        computeRegion->setLayer(kShadingLayer);
        computeRegion->setData({ ridge, kFarRight }, { active->peak, active->peak }, true);
        computeRegion->setPen(Qt::NoPen);
        computeRegion->setBrush(QColor(0x9b, 0x1c, 0x1c, 22));
        computeRegion->setName(tr("compute-bound region"));
        m_plottables.push_back(memoryRegion);
        m_plottables.push_back(computeRegion);
    }
    // The envelope, the actual roofline, drawn strongest.
    QCPGraph *envelope = m_plot->addGraph();
    envelope->setLayer(kRoofLayer);
    m_envelope = { { kFarLeft, main->bandwidth * kFarLeft }, { ridge, active->peak },
        { kFarRight, active->peak } };
    envelope->setData({ kFarLeft, ridge, kFarRight },
        { main->bandwidth * kFarLeft, active->peak, active->peak }, true);
    envelope->setPen(QPen(theme.envelope, 2.6 * theme.lineScale));
    envelope->setName(tr("Roofline: %1, %2").arg(q(active->name), q(main->name)));
    envelope->setSelectable(QCP::stNone);
    m_plottables.push_back(envelope);
    m_ridge = std::make_unique<RidgeMarker>(m_plot, ridge, active->peak, theme.envelope);
}

void RoofLayer::addCompareRoofs(const Document &document, const ChartTheme &theme)
{
    const std::optional<Hardware> selected = selectCompareRoofs(document);
    if (!selected)
        return;
    const Hardware *other = &*selected;
    // The roofs of the other machine the chart's choice keeps (roofselection.h), dashed in one
    // colour, named after the machine.
    const QString shortName = q(other->aliases.empty() ? other->name : other->aliases.front());
    const double otherPeak = topPeak(*other);
    const double otherBandwidth = topBandwidth(*other);
    const QPen pen(lineColor(theme, compareColor()), 1.5 * theme.lineScale, Qt::DashLine);
    const QColor labelColor = theme.readable(compareColor().darker(115));
    if (otherPeak <= 0.0 || otherBandwidth <= 0.0)
        return;
    for (const auto &m : other->memory) {
        if (!m.visible)
            continue;
        m_compareRoofs.push_back(std::make_unique<RoofLine>(m_plot, RoofLine::Kind::Memory, -1,
            m.bandwidth, otherPeak, pen,
            shortName + " " + elided(m.name) + "  " + labelFigure(m, m.bandwidth), labelColor));
    }
    for (std::size_t i = 0; i < other->compute.size(); ++i) {
        const ComputeCeiling &c = other->compute[i];
        if (!c.visible)
            continue;
        // Ceilings with the same peak share the first one's label.
        const bool labelled = !sharedLabel(other->compute, i);
        // The machine's name and the ceiling's first word are held together (no-break spaces):
        // a flat label short of room loses the name's other words first (fitFlatLabel), and
        // "MI300X BF16…" still says whose roof and which precision.
        const QString name = QString(shortName).replace(QLatin1Char(' '), QChar::Nbsp) + QChar::Nbsp
            + elided(c.name);
        m_compareRoofs.push_back(
            std::make_unique<RoofLine>(m_plot, RoofLine::Kind::Compute, -1, c.peak, otherBandwidth,
                pen, labelled ? QString() : name + "  " + labelFigure(c, c.peak), labelColor));
    }
    // The legend's entry for the dashed roofs, by the short name their labels begin with: the
    // full name ("AMD Instinct MI300X") made the widest entry, and at a large font the legend
    // one column too few.
    QCPGraph *entry = m_plot->addGraph();
    entry->setPen(pen);
    entry->setName(tr("Compare: %1 (dashed)").arg(shortName));
    m_plottables.push_back(entry);
}

void RoofLayer::placeLabels(const Document &document, const RoofLabelSet &around)
{
    RoofLabelSet set = around;
    for (const auto &roof : m_roofs)
        set.own.push_back(roof.get());
    for (const auto &roof : m_compareRoofs)
        set.compare.push_back(roof.get());
    for (const auto &roof : m_alternateRoofs)
        set.alternate.push_back(roof.get());
    for (const auto &roof : m_bands.lines())
        set.alternate.push_back(roof.get());
    set.topPeak = topPeak(m_shown);
    if (const std::optional<Hardware> other = selectCompareRoofs(document))
        set.compareTopPeak = topPeak(*other);
    if (const ComputeCeiling *active = activeCeiling())
        set.activePeak = active->peak;
    set.ridge = m_ridge.get();
    set.lines = drawnLines();
    // The same roofs, view, obstacles and density as a placement of the last few: its places.
    std::vector<QCPItemText *> labels;
    for (const auto *list : { &m_roofs, &m_alternateRoofs, &m_compareRoofs }) {
        for (const auto &roof : *list)
            labels.push_back(roof->label());
    }
    for (const auto &roof : m_bands.lines())
        labels.push_back(roof->label());
    if (m_ridge)
        labels.push_back(m_ridge->label());
    const bool known = !set.crowding || set.crowdingRevision != 0;
    RoofLabelMemo::Key key;
    if (known) {
        key = { m_generation, m_plot->xAxis->range(), m_plot->yAxis->range(),
            m_plot->axisRect()->rect(), set.obstacles, set.crowding ? set.crowdingRevision : 0,
            set.halo, {} };
        key.fonts.reserve(labels.size());
        for (const QCPItemText *label : labels)
            key.fonts.push_back(label->font());
        if (auto boxes = m_memo.recall(key, labels)) {
            m_labelBoxes = std::move(*boxes);
            return;
        }
    }
    m_labelBoxes = placeRoofLabels(m_plot, set);
    if (known)
        m_memo.remember(std::move(key), labels, m_labelBoxes);
}

std::vector<QLineF> RoofLayer::drawnLines() const
{
    std::vector<QLineF> out;
    for (const auto *list : { &m_roofs, &m_alternateRoofs, &m_compareRoofs }) {
        for (const auto &roof : *list)
            out.push_back(roof->pixelLine());
    }
    for (const auto &roof : m_bands.lines())
        out.push_back(roof->pixelLine());
    for (std::size_t k = 1; k < m_envelope.size(); ++k)
        out.emplace_back(toPixels(*m_plot, m_envelope[k - 1]), toPixels(*m_plot, m_envelope[k]));
    if (m_ridge)
        out.push_back(m_ridge->dropLine());
    for (const auto &wall : m_walls)
        out.push_back(wall->pixelLine());
    return out;
}

std::vector<QRectF> RoofLayer::ridgeLabelBoxes() const
{
    if (!m_ridge || !m_ridge->label()->visible())
        return {};
    return textBoxes(*m_ridge->label());
}

void RoofLayer::hideLabels()
{
    for (const auto *list : { &m_roofs, &m_alternateRoofs, &m_compareRoofs }) {
        for (const auto &roof : *list)
            roof->label()->setVisible(false);
    }
    for (const auto &roof : m_bands.lines())
        roof->label()->setVisible(false);
    if (m_ridge)
        m_ridge->label()->setVisible(false);
    m_labelBoxes.clear();
}

const RoofLine *RoofLayer::roofAt(const QPointF &position) const
{
    const RoofLine *best = nullptr;
    double bestDistance = 5.0;
    for (const auto &roof : m_roofs) {
        const double d = roof->distanceTo(position);
        if (d < bestDistance) {
            bestDistance = d;
            best = roof.get();
        }
    }
    return best;
}

} // namespace ridgepoint::chart
