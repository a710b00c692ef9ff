#include "widgets/chart/achievableband.h"

#include "core/model/units.h"
#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/charttheme.h"
#include "widgets/document/document.h"
#include "widgets/qtext.h"

#include <qcustomplot.h>

#include <algorithm>

namespace ridgepoint::chart {

QColor achievableColor(OperatorClass kind)
{
    // Three hues none of the memory roofs or the compute roofs use, told apart in print too by
    // their labels.
    switch (kind) {
    case OperatorClass::Gemm:
        return { 0x1b, 0x9e, 0x77 };
    case OperatorClass::Attention:
        return { 0x75, 0x70, 0xb3 };
    case OperatorClass::Elementwise:
    case OperatorClass::Collective:
        break;
    }
    return { 0xb8, 0x86, 0x0b };
}

AchievableBands::AchievableBands(QCustomPlot *plot)
    : m_plot(plot)
{ }

AchievableBands::~AchievableBands()
{
    clear();
}

void AchievableBands::clear()
{
    m_lines.clear();
    m_roofs.clear();
    for (QCPAbstractPlottable *plottable : m_plottables)
        m_plot->removePlottable(plottable);
    m_plottables.clear();
}

void AchievableBands::rebuild(const Document &document, const Hardware &shown,
    const ChartTheme &theme, double topPeak, double topBandwidth)
{
    clear();
    if (!shown.calibration)
        return;
    KernelPoint scratch; // each point made into the same storage (PointTable::fill)
    const auto classes = shownClasses(
        *shown.calibration, document.pointCount(), [&](std::size_t i) -> const KernelPoint & {
            document.pointTable().fill(i, scratch);
            return scratch;
        });
    m_roofs = achievableRoofs(shown, classes);
    for (const AchievableRoof &roof : m_roofs) {
        const QColor color = achievableColor(roof.kind);
        const QPen pen(lineColor(theme, color), 1.3 * theme.lineScale, Qt::DotLine);
        const double top = roof.memory ? topPeak : topBandwidth;
        m_lines.push_back(std::make_unique<RoofLine>(m_plot,
            roof.memory ? RoofLine::Kind::Memory : RoofLine::Kind::Compute, -1, roof.achievable,
            top, pen, q(achievableLabel(roof)), theme.readable(color.darker(115))));
        // Under its spec roof: the label hangs below the line, away from the roof's own.
        m_lines.back()->setLabelBelow();
        addFill(roof, top, gapFillColor(theme, color));
    }
    for (const OperatorClass kind : classes) {
        if (std::ranges::any_of(m_roofs, [&](const auto &roof) { return roof.kind == kind; }))
            addLegendEntry(kind, theme);
    }
}

void AchievableBands::addFill(const AchievableRoof &roof, double top, const QColor &fill)
{
    // As the gap between a ceiling's two figures (RoofLayer::addGap), each edge ending where its
    // roof ends.
    QCPGraph *lower
        = addRoofGap(*m_plot, roof.memory, roof.achievable, roof.spec, top, fill, m_plottables);
    if (!lower)
        return;
    lower->channelFillGraph()->setName(tr("%1: spec figure").arg(q(roof.ceiling)));
    lower->setName(q(achievableLabel(roof)));
}

void AchievableBands::addLegendEntry(OperatorClass kind, const ChartTheme &theme)
{
    const auto it = std::ranges::find(m_roofs, kind, &AchievableRoof::kind);
    QCPGraph *entry = m_plot->addGraph();
    const QColor color = achievableColor(kind);
    entry->setPen(QPen(lineColor(theme, color), 1.3 * theme.lineScale, Qt::DotLine));
    entry->setBrush(gapFillColor(theme, color));
    const QString rows = QString::number(it->rows) + (it->rows == 1 ? " row" : " rows");
    entry->setName(tr("%1 achievable (calibrated on %2)").arg(q(operatorClassTitle(kind)), rows));
    m_plottables.push_back(entry);
}

QString AchievableBands::descriptionAt(const QPointF &position) const
{
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        if (m_lines[i]->distanceTo(position) >= 5.0)
            continue;
        const AchievableRoof &roof = m_roofs[i];
        const Dimension dimension = roof.memory ? Dimension::ByteRate : Dimension::FlopRate;
        return tr("<b>%1</b><br>%2 = %3 × %4 (the figure it was fitted against)<br>"
                  "Basis: calibrated (docs/MODEL.md §15.2, §15.6)")
            .arg(q(achievableLabel(roof)).toHtmlEscaped(),
                q(formatQuantity(roof.achievable, dimension, 3)),
                QString::number(roof.fraction, 'g', 3), q(formatQuantity(roof.spec, dimension, 3)));
    }
    return {};
}

} // namespace ridgepoint::chart
