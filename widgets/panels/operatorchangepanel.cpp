#include "widgets/panels/operatorchangepanel.h"
#include "widgets/panels/summarytable.h"

#include "core/analysis/operator_change.h"
#include "core/model/units.h"
#include "core/report/change_report.h"
#include "widgets/document/document.h"
#include "widgets/qtext.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>

#include <algorithm>

namespace ridgepoint {
namespace {

QString timeText(double seconds, std::size_t points)
{
    return points > 0 ? q(formatQuantity(seconds, Dimension::Time)) : QStringLiteral("–");
}

// A figure's place in a sort; a row without it ("–") sorts below every figure (all are ≥ 0).
constexpr double kNoFigure = -1.0;

// The status in OperatorChanges' order: matched, only here, only in the baseline.
double statusRank(const OperatorChange &c)
{
    return c.matched() ? 0.0 : c.baselinePoints == 0 ? 1.0 : 2.0;
}

} // namespace

OperatorChangePanel::OperatorChangePanel(Document *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_summary(new QLabel(this))
    , m_table(new QTableWidget(0, ColumnCount, this))
{
    m_summary->setObjectName("operatorChangeSummary");
    m_table->setObjectName("operatorChangeTable");
    layOutSummaryTable(this, m_summary, m_table,
        { tr("Operator and shapes"), tr("Baseline"), tr("This run"), tr("Speed-up"),
            tr("Kernels (baseline / here)"), tr("Status") });
    // Unsorted at first (OperatorChanges' order); a click on a header sorts by that column's
    // figures, and the sort holds while the rows are made again.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    connect(document, &Document::baselineChanged, this, &OperatorChangePanel::refresh);
    connect(document, &Document::pointsReset, this, &OperatorChangePanel::refresh);
    connect(document, &Document::pointsChanged, this, &OperatorChangePanel::refresh);
    refresh();
}

void OperatorChangePanel::refresh()
{
    const auto &baseline = m_document->baseline();
    // Rows filled while sorted would move under the loop that fills them (Qt's advice for
    // QTableWidget): sorted once they are all in.
    m_table->setSortingEnabled(false);
    m_table->setRowCount(0);
    if (!baseline) {
        m_summary->setText(tr("No baseline: File ▸ Open baseline…"));
        m_table->setSortingEnabled(true);
        return;
    }
    const OperatorChanges changes
        = compareOperators(baseline->points, m_document->workspace().points(), baseline->match);
    const std::string file = q(baseline->file).section('/', -1).toStdString();
    // A short line (the pane shares the dock's width with the table); the whole sentence, with
    // the formula and the times, in its tooltip.
    const auto matched = changes.matchedSpeedup();
    m_summary->setText(tr("vs %1: %2 on %3 operators in both runs (%4 % of this run's time); %5 "
                          "only here, %6 only in the baseline")
                           .arg(q(file),
                               matched ? QStringLiteral("×") + q(formatSignificant(*matched, 3))
                                       : QStringLiteral("–"))
                           .arg(changes.matched)
                           .arg(QString::number(100.0 * changes.matchedShare(), 'f', 1))
                           .arg(changes.onlyCurrent)
                           .arg(changes.onlyBaseline));
    m_summary->setToolTip(q(changesSentence(changes, file)));
    m_table->setRowCount(static_cast<int>(changes.rows.size()));
    for (std::size_t i = 0; i < changes.rows.size(); ++i) {
        const OperatorChange &c = changes.rows[i];
        const int row = static_cast<int>(i);
        auto *key = readOnlyCell(q(c.key));
        key->setToolTip(q(c.key));
        m_table->setItem(row, Key, key);
        m_table->setItem(row, BaselineTime,
            numberCell(timeText(c.baselineSeconds, c.baselinePoints),
                c.baselinePoints > 0 ? c.baselineSeconds : kNoFigure));
        m_table->setItem(row, CurrentTime,
            numberCell(timeText(c.currentSeconds, c.currentPoints),
                c.currentPoints > 0 ? c.currentSeconds : kNoFigure));
        const auto factor = c.speedup();
        m_table->setItem(row, SpeedupFactor,
            numberCell(factor ? QStringLiteral("×") + q(formatSignificant(*factor, 3))
                              : QStringLiteral("–"),
                factor.value_or(kNoFigure)));
        // By the baseline's kernels, then this run's.
        m_table->setItem(row, Kernels,
            numberCell(QStringLiteral("%1 / %2").arg(c.baselinePoints).arg(c.currentPoints),
                static_cast<double>(c.baselinePoints) * 1e9
                    + static_cast<double>(c.currentPoints)));
        auto *status = numberCell(QString::fromUtf8(changeStatus(c)), statusRank(c));
        status->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        m_table->setItem(row, Status, status);
    }
    m_table->setSortingEnabled(true);
    m_table->resizeColumnsToContents();
    // An operator's whole shapes would push the times out of sight.
    m_table->setColumnWidth(Key, std::min(m_table->columnWidth(Key), 360));
}

} // namespace ridgepoint
