#include "widgets/chart/energychart.h"
#include "widgets/qtext.h"

#include "core/analysis/energy_roof.h"
#include "core/model/units.h"
#include "widgets/chart/chartaxes.h"
#include "widgets/chart/charttheme.h"
#include "widgets/chart/roofselection.h"
#include "widgets/document/document.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint::chart {
namespace {

constexpr std::size_t kMaxGroups = 12; // as the roofline's legend names them

struct Tr {
    Q_DECLARE_TR_FUNCTIONS(ridgepoint::RooflinePlot)
};

// The roof the chart draws: the emphasised compute ceiling over main memory.
struct Headline {
    std::optional<EnergyRoof> roof;
    QString precision;
    QString level;
    QString problem;
};

Headline headlineOf(const Document &document)
{
    Headline out;
    const Hardware &hw = document.hardware();
    const QString machine = q(hw.name);
    if (!hw.limits.energy) {
        out.problem = Tr::tr("%1 has no energy figures (a machine file's \"energy\" object: "
                             "docs/FILES.md), so there is no energy chart")
                          .arg(machine);
        return out;
    }
    const RoofSelection selection = selectRoofs(document);
    const ComputeCeiling *active = selection.emphasised
        ? &selection.hardware.compute.at(*selection.emphasised)
        : hw.defaultComputeCeiling();
    const MemoryCeiling *main = hw.mainMemory();
    if (!active || !main) {
        out.problem = Tr::tr("%1 has no compute roof or no main memory").arg(machine);
        return out;
    }
    out.precision = QString::fromUtf8(precisionName(active->precision).data());
    out.level = QString::fromUtf8(memoryLevelName(main->level).data());
    const EnergyModel &energy = *hw.limits.energy;
    QStringList missing;
    if (!energy.staticWatts)
        missing << Tr::tr("the static power");
    if (!energy.flopEnergy(active->precision))
        missing << Tr::tr("the energy per %1 FLOP").arg(out.precision);
    if (!energy.byteEnergy(main->level))
        missing << Tr::tr("the energy per %1 byte").arg(out.level);
    if (!missing.isEmpty()) {
        out.problem = Tr::tr("%1's energy figures lack %2, so there is no energy chart")
                          .arg(machine, missing.join(Tr::tr(" and ")));
        return out;
    }
    out.roof = energyRoof(hw, *active, *main);
    return out;
}

// The arch line and its ceiling over [from, to] FLOP/B, 40 samples a decade.
void addArch(QCustomPlot &plot, const EnergyRoof &roof, const Headline &headline,
    const ChartTheme &theme, double from, double to)
{
    QCPGraph *arch = plot.addGraph();
    const int steps = static_cast<int>(std::ceil(std::log10(to / from) * 40.0));
    for (int i = 0; i <= steps; ++i) {
        const double intensity = from * std::pow(to / from, static_cast<double>(i) / steps);
        arch->addData(intensity, roof.archFlopsPerJoule(intensity));
    }
    arch->setPen(QPen(theme.envelope, 2.4 * theme.lineScale));
    arch->setName(Tr::tr("arch line, %1 over %2: 1 / (e_flop + e_byte/I + P0/roof)")
                      .arg(headline.precision, headline.level));
    QCPGraph *ceiling = plot.addGraph();
    ceiling->setData({ from, to }, { roof.ceilingFlopsPerJoule(), roof.ceilingFlopsPerJoule() });
    ceiling->setPen(QPen(lineColor(theme, computeColor()), 1.3 * theme.lineScale, Qt::DashLine));
    ceiling->setName(Tr::tr("ceiling 1/e_flop = %1/J, e_flop = %2 pJ")
                         .arg(q(formatQuantity(roof.ceilingFlopsPerJoule(), Dimension::Flops, 3)),
                             QString::number(roof.flopJoules * 1e12, 'g', 3)));
}

struct EnergyDot {
    double intensity = 0.0;
    double flopsPerJoule = 0.0;
    std::string group;
};

// The points drawn and the counts of those left out.
std::vector<EnergyDot> energyDots(const Document &document, EnergyChart &chart)
{
    std::vector<EnergyDot> dots;
    const Placements &placements = document.placements();
    for (std::size_t i = 0; i < document.pointCount(); ++i) {
        if (!placements[i].placed)
            continue;
        const KernelPoint point = document.point(i);
        if (!point.seconds) {
            ++chart.untimed;
            continue;
        }
        const auto analysis = document.analysis(i);
        const LevelPlacement *main = placements.mainLevel(i);
        if (!analysis || !analysis->energy || !analysis->energy->flopsPerJoule || !main) {
            ++chart.unknown;
            continue;
        }
        dots.push_back({ main->intensity, *analysis->energy->flopsPerJoule, point.group });
    }
    return dots;
}

void addDots(QCustomPlot &plot, const std::vector<EnergyDot> &dots, const ChartTheme &theme)
{
    std::vector<std::string> groups; // in order of first appearance
    for (const EnergyDot &dot : dots) {
        if (std::ranges::find(groups, dot.group) == groups.end())
            groups.push_back(dot.group);
    }
    const bool folded = groups.size() > kMaxGroups;
    std::map<std::string, QCPGraph *> graphs;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const bool other = folded && g >= kMaxGroups - 1;
        if (other && g > kMaxGroups - 1) {
            graphs[groups[g]] = graphs[groups[kMaxGroups - 1]];
            continue;
        }
        QCPGraph *graph = plot.addGraph();
        const QColor color = other ? otherGroupsColor() : groupColor(g);
        graph->setLineStyle(QCPGraph::lsNone);
        // A filled circle with a darker rim, as the roofline's dots (ssDisc would fill with the
        // pen's colour).
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle,
            QPen(color.darker(140), 1.2 * theme.lineScale), QBrush(color), 10.0 * theme.lineScale));
        graph->setName(other        ? Tr::tr("other groups")
                : groups[g].empty() ? Tr::tr("points")
                                    : q(groups[g]));
        graphs[groups[g]] = graph;
    }
    for (const EnergyDot &dot : dots)
        graphs[dot.group]->addData(dot.intensity, dot.flopsPerJoule);
}

// Decades around the dots and the ridge (a decade either side of it, where the arch bends), each
// side snapped out to a decade after a factor-2 margin, as the roofline frames its points.
QCPRange intensityRange(const std::vector<EnergyDot> &dots, const EnergyRoof &roof)
{
    const double ridge = roof.peak / roof.bandwidth;
    double low = ridge / 10.0;
    double high = ridge * 10.0;
    for (const EnergyDot &dot : dots) {
        low = std::min(low, dot.intensity / 2.0);
        high = std::max(high, dot.intensity * 2.0);
    }
    return { decadeFloor(low), decadeCeil(high) };
}

} // namespace

QString energyChartProblem(const Document &document)
{
    return headlineOf(document).problem;
}

EnergyChart drawEnergyChart(QCustomPlot &plot, const Document &document, const ChartTheme &theme)
{
    plot.clearGraphs();
    plot.clearItems();
    EnergyChart chart;
    const Headline headline = headlineOf(document);
    if (!headline.roof) {
        chart.problem = headline.problem;
        return chart;
    }
    const EnergyRoof &roof = *headline.roof;
    const std::vector<EnergyDot> dots = energyDots(document, chart);
    const QCPRange x = intensityRange(dots, roof);
    addArch(plot, roof, headline, theme, x.lower, x.upper);
    addDots(plot, dots, theme);
    chart.drawn = dots.size();
    QStringList left;
    if (chart.untimed > 0)
        left << Tr::tr("%n point(s) without a measured time", "", static_cast<int>(chart.untimed));
    if (chart.unknown > 0)
        left << Tr::tr("%n point(s) whose energy lacks a figure (a level's energy per byte)", "",
            static_cast<int>(chart.unknown));
    if (!left.isEmpty())
        chart.note = Tr::tr("Not drawn: %1.").arg(left.join(Tr::tr("; ")));
    for (QCPAxis *axis : { plot.xAxis, plot.yAxis })
        axis->setScaleType(QCPAxis::stLogarithmic);
    plot.xAxis->setTicker(
        QSharedPointer<QuantityLogTicker>::create(QuantityLogTicker::Style::Intensity));
    plot.yAxis->setTicker(
        QSharedPointer<QuantityLogTicker>::create(QuantityLogTicker::Style::Efficiency));
    plot.xAxis->setLabel(Tr::tr("Arithmetic intensity"));
    plot.yAxis->setLabel(
        Tr::tr("Energy efficiency (P0 = %1 W)").arg(QString::number(roof.staticWatts, 'g', 4)));
    plot.xAxis->setRange(x);
    // From under the lowest of the arch and the dots to over the ceiling, a factor-2 margin
    // snapped out to a decade.
    double low = roof.archFlopsPerJoule(x.lower);
    double high = roof.ceilingFlopsPerJoule();
    for (const EnergyDot &dot : dots) {
        low = std::min(low, dot.flopsPerJoule);
        high = std::max(high, dot.flopsPerJoule);
    }
    plot.yAxis->setRange(decadeFloor(low / 2.0), decadeCeil(high * 2.0));
    styleAxes(&plot, theme, plot.font());
    plot.setBackground(theme.background);
    plot.legend->setVisible(true);
    plot.legend->setBrush(theme.legendBackground);
    plot.legend->setTextColor(theme.foreground);
    // Bottom right, far under the arch where it is highest: a kernel of high intensity lies
    // there only when it runs far under its roof. The ceiling's line runs across the top, where
    // a legend would cover it.
    plot.axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    if (!chart.note.isEmpty()) {
        // Top left, above the ceiling line and left of where the arch reaches it.
        auto *note = new QCPItemText(&plot);
        note->position->setType(QCPItemPosition::ptAxisRectRatio);
        note->position->setCoords(0.01, 0.02);
        note->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        note->setColor(theme.foreground);
        note->setBrush(theme.legendBackground);
        note->setPadding(QMargins(4, 2, 4, 2));
        note->setText(chart.note);
    }
    return chart;
}

} // namespace ridgepoint::chart
