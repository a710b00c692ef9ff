#include "widgets/chart/charttooltip.h"
#include "widgets/qtext.h"

#include "core/analysis/analysis.h"
#include "core/analysis/compare.h"
#include "core/analysis/doctor.h"
#include "core/analysis/io_bounds.h"
#include "core/analysis/levels.h"
#include "core/analysis/payoff.h"
#include "core/model/units.h"
#include "widgets/document/document.h"
#include "widgets/document/timeshares.h"

#include <QApplication>
#include <QStringList>
#include <QToolTip>
#include <QWidget>

#include <algorithm>
#include <variant>

namespace ridgepoint::chart {
namespace {

// A compute-bound point at this share of its roof or above is "on the roof" (docs/MODEL.md
// §2.1): what is left is within the spread of repeated runs and clock changes.
constexpr double kNearTheRoof = 0.9;

QString rate(double value)
{
    return q(formatQuantity(value, Dimension::FlopRate));
}

} // namespace

QString ChartTooltip::reachTheRoof(const KernelPoint &point, const PointAnalysis &a)
{
    QStringList lines;
    if (a.performance && a.consistent && *a.performance < 0.99 * a.attainable) {
        lines << tr("to reach its roof: +%1 (×%2)")
                     .arg(rate(a.attainable - *a.performance),
                         q(formatSignificant(a.attainable / *a.performance, 3)));
    }
    if (a.bound == Bound::Memory) {
        const auto binding = std::find_if(a.levels.begin(), a.levels.end(),
            [&](const LevelAnalysis &l) { return l.memory == a.limitingCeiling; });
        if (binding != a.levels.end()) {
            const double needed = a.peak / binding->bandwidth; // the ridge of this pair
            const double target = point.flops / needed;
            lines << tr("to reach the compute roof: intensity ≥ %1 FLOP/B on %2, i.e. remove "
                        "%3 of its %4")
                         .arg(q(formatSignificant(needed, 3)), q(binding->memory).toHtmlEscaped(),
                             q(formatQuantity(binding->bytes - target, Dimension::Bytes, 3)),
                             q(formatQuantity(binding->bytes, Dimension::Bytes, 3)));
        }
    } else if (a.bound == Bound::Latency) {
        lines << tr("under the launch latency: only fewer launches (fused kernels, CUDA Graphs) "
                    "or more work per launch make it faster");
    } else if (a.performance && !a.consistent) {
        lines << tr("above the compute roof (%1 % of it): the counts or the machine are off, "
                    "see \"likely\" above")
                     .arg(q(formatSignificant(*a.performance / a.attainable * 100.0, 3)));
    } else if (a.performance && *a.performance < kNearTheRoof * a.attainable) {
        lines << tr("compute-bound at %1 % of the roof: better use of the units brings it "
                    "closer; a faster ceiling or fewer FLOPs raise the roof")
                     .arg(q(formatSignificant(*a.performance / a.attainable * 100.0, 3)));
    } else {
        lines << tr("on the compute roof: only a faster ceiling (lower precision, tensor "
                    "units) or fewer FLOPs make it faster");
    }
    return lines.join("<br>");
}

QString ChartTooltip::aboutThePoint(
    const Document &document, std::size_t index, const KernelPoint &point)
{
    QString text = QStringLiteral("<b>%1</b>").arg(q(point.name).toHtmlEscaped());
    if (!point.group.empty())
        text += "<br>" + tr("group: %1").arg(q(point.group).toHtmlEscaped());
    const WhatIf &move = document.whatIf(index);
    if (!move.isIdentity())
        text += "<br><i>"
            + tr("what-if: bytes ×%1, time ×%2 (drag back or undo to restore)")
                  .arg(q(formatSignificant(move.bytesFactor, 3)),
                      q(formatSignificant(move.timeFactor, 3)))
            + "</i>";
    text += "<br>" + tr("FLOPs: %1").arg(q(formatQuantity(point.flops, Dimension::Flops)));
    const Workload *planned = document.workload(index);
    if (planned) {
        // The tiling wall of a matmul (docs/MODEL.md §12) or the I/O bound of a fused attention
        // step (§12.1), live while the point is dragged.
        const bool matmul = std::holds_alternative<MatmulWorkload>(planned->model);
        if (matmul && document.hardware().limits.capacities.empty()) {
            text += "<br><i>"
                + tr("no tiling wall: %1 gives no on-chip capacities")
                      .arg(q(document.hardware().name).toHtmlEscaped())
                + "</i>";
        } else if (const auto excess = document.workspace().ioBoundExcess(index)) {
            const QString past = excess->kind == IoBoundKind::Attention
                ? tr("past the %1 attention I/O bound: %2")
                : tr("past the %1 tiling wall: %2");
            text += "<br><b style='color:#c00000'>"
                + past.arg(q(std::string(memoryLevelName(excess->bound.capacity.level))),
                    q(ioBoundDiagnosis(*excess).evidence).toHtmlEscaped())
                + "</b>";
        }
    }
    if (document.quantMode() != QuantMode::None && !planned)
        text += "<br><i>"
            + tr("quantization %1 does not move this point: a measured kernel keeps its measured "
                 "FLOPs, bytes and time")
                  .arg(q(std::string(quantModeName(document.quantMode()))))
            + "</i>";
    return text;
}

QString ChartTooltip::aboutTheAnalysis(const PointAnalysis &a, const Diagnosis *likeliest)
{
    if (!likeliest && !a.diagnosis.empty())
        likeliest = &a.diagnosis.front();
    QString text;
    for (const LevelAnalysis *level : allLevels(a)) {
        // Each level the file gave, with its own bytes and intensity; its roof when the machine
        // has a ceiling for it.
        const QString name = q(std::string(memoryLevelName(level->level)));
        const QString bytes = level->bytes > 0.0
            ? q(formatQuantity(level->bytes, Dimension::Bytes)) + ", "
            : QString();
        text += "<br>"
            + (level->bounded
                    ? tr("%1 (%2): %3intensity %4 FLOP/B, roof %5")
                          .arg(name, q(level->memory).toHtmlEscaped(), bytes,
                              q(formatSignificant(level->intensity, 4)), rate(level->attainable))
                    : tr("%1: %2intensity %3 FLOP/B, no %1 ceiling on this machine")
                          .arg(name, bytes, q(formatSignificant(level->intensity, 4))));
    }
    if (a.performance)
        text += "<br>" + tr("performance: %1").arg(rate(*a.performance));
    if (a.bound == Bound::Latency) {
        // Its roof is F/λ, not a line of the machine: T_min is the launch latency λ.
        text += "<br>"
            + tr("attainable: %1 = F/λ (latency-bound: launch latency λ = %2: at most F/λ)")
                  .arg(rate(a.attainable), q(formatQuantity(a.tMin, Dimension::Time)));
    } else {
        text += "<br>"
            + tr("attainable: %1 = min(π, β·I) (%2-bound by %3)")
                  .arg(rate(a.attainable), q(std::string(boundName(a.bound))),
                      q(a.limitingCeiling).toHtmlEscaped());
    }
    if (a.utilization)
        text += "<br>"
            + tr("utilization: %1 % of attainable")
                  .arg(q(formatSignificant(*a.utilization * 100.0, 3)));
    text += "<br>"
        + tr("T_min %1, T_max %2")
              .arg(q(formatQuantity(a.tMin, Dimension::Time)),
                  q(formatQuantity(a.tMax, Dimension::Time)));
    if (!a.consistent)
        text += "<br><b style='color:#c00000'>" + tr("impossible: faster than its roof allows")
            + "</b>";
    if (likeliest) // the doctor's likeliest cause and its numbers
        text += "<br>"
            + tr("likely: %1 (%2)")
                  .arg(q(diagnosisVerdict(*likeliest)).toHtmlEscaped(),
                      q(likeliest->evidence).toHtmlEscaped());
    if (!a.note.empty())
        text += "<br><i>" + q(a.note).toHtmlEscaped() + "</i>";
    return text;
}

QString ChartTooltip::onTheOtherMachine(
    const Document &document, std::size_t index, const PointAnalysis &a)
{
    const Hardware *other = document.compareHardware();
    if (!other)
        return {};
    const auto there = document.compareAnalysis(index);
    if (!there)
        return "<br>" + tr("on %1: %2").arg(q(other->name), q(there.error()).toHtmlEscaped());
    const auto move = moveTo(a, *there);
    QString speedup;
    if (move && move->atTheRoof)
        speedup = tr("; if moved there ×%1 at the same share of its roof, up to ×%2 at its roof "
                     "there")
                      .arg(q(formatSignificant(move->speedup, 3)),
                          q(formatSignificant(*move->atTheRoof, 3)));
    else if (move)
        speedup = tr("; if moved there ×%1 (%2)")
                      .arg(q(formatSignificant(move->speedup, 3)),
                          q(std::string(moveFormula(move->basis))).toHtmlEscaped());
    return "<br>"
        + tr("on %1: attainable %2 (%3-bound by %4)%5")
              .arg(q(other->name).toHtmlEscaped(), rate(there->attainable),
                  q(std::string(boundName(there->bound))),
                  q(there->limitingCeiling).toHtmlEscaped(), speedup);
}

QString ChartTooltip::timeAndPayoff(
    const Document &document, std::size_t index, const PointAnalysis &a)
{
    const auto seconds = TimeShares::shownSeconds(document, index);
    if (!seconds)
        return {};
    double total = 0.0;
    for (std::size_t i = 0; i < document.pointCount(); ++i)
        total += TimeShares::shownSeconds(document, i).value_or(0.0);
    const auto value = payoff(seconds, a.utilization, total);
    if (!value || !(total > 0.0))
        return {};
    return "<br>"
        + tr("time %1, %2 % of the total; payoff %3 % (time saved at its roof)")
              .arg(q(formatQuantity(*seconds, Dimension::Time)),
                  q(formatSignificant(*seconds / total * 100.0, 3)),
                  q(formatSignificant(*value * 100.0, 3)));
}

QString ChartTooltip::describe(const Document &document, std::size_t index)
{
    if (index >= document.pointCount())
        return {};
    const KernelPoint point = document.point(index);
    const auto &result = document.analysis(index);
    QString text = aboutThePoint(document, index, point);
    if (!result) {
        text += "<br><i>" + q(result.error()).toHtmlEscaped() + "</i>";
        return text;
    }
    const PointAnalysis &a = *result;
    const std::optional<Diagnosis> elsewhere = document.otherMachineDiagnosis(index);
    text += aboutTheAnalysis(a, elsewhere ? &*elsewhere : nullptr);
    if (const QString reach = reachTheRoof(point, a); !reach.isEmpty())
        text += "<br>" + reach;
    text += timeAndPayoff(document, index, a);
    text += onTheOtherMachine(document, index, a);
    if (!point.source.file.empty())
        text += "<br>" + tr("from %1:%2").arg(q(point.source.file)).arg(point.source.line);
    return text;
}

} // namespace ridgepoint::chart

namespace ridgepoint::chart {

QPoint tooltipTopLeft(const QPoint &cursor, const QSize &size, const QRect &window)
{
    // Qt's own offset from the cursor: 2 right, 16 down (under the pointer's arrow).
    QPoint at(cursor.x() + 2, cursor.y() + 16);
    if (at.x() + size.width() - 1 > window.right())
        at.setX(cursor.x() - 4 - size.width());
    if (at.y() + size.height() - 1 > window.bottom())
        at.setY(cursor.y() - 8 - size.height());
    at.setX(std::max(window.left(), std::min(at.x(), window.right() + 1 - size.width())));
    at.setY(std::max(window.top(), std::min(at.y(), window.bottom() + 1 - size.height())));
    return at;
}

void showTooltip(const QPoint &global, const QString &html, QWidget *owner)
{
    QToolTip::showText(global, html, owner);
    const QWidget *window = owner->window();
    const QRect area(window->mapToGlobal(QPoint(0, 0)), window->size());
    for (QWidget *tip : QApplication::topLevelWidgets()) {
        if (tip->inherits("QTipLabel") && tip->isVisible())
            tip->move(tooltipTopLeft(global, tip->size(), area));
    }
}

} // namespace ridgepoint::chart
