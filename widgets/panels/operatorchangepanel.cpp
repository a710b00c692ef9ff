#include "widgets/panels/operatorchangepanel.h"
#include "widgets/panels/summarytable.h"

#include "core/analysis/operator_change.h"
#include "core/model/units.h"
#include "core/report/change_report.h"
#include "widgets/document/document.h"
#include "widgets/qtext.h"

#include <QLabel>
#include <QTableWidget>

#include <algorithm>

namespace ridgepoint {
namespace {

// The rows keep OperatorChanges' order.
QTableWidgetItem *cell(const QString &text, bool number = false)
{
    return readOnlyCell(text, number);
}

QString timeText(double seconds, std::size_t points)
{
    return points > 0 ? q(formatQuantity(seconds, Dimension::Time)) : QStringLiteral("–");
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
    connect(document, &Document::baselineChanged, this, &OperatorChangePanel::refresh);
    connect(document, &Document::pointsReset, this, &OperatorChangePanel::refresh);
    connect(document, &Document::pointsChanged, this, &OperatorChangePanel::refresh);
    refresh();
}

void OperatorChangePanel::refresh()
{
    const auto &baseline = m_document->baseline();
    m_table->setRowCount(0);
    if (!baseline) {
        m_summary->setText(tr("No baseline: File ▸ Open baseline…"));
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
        auto *key = cell(q(c.key));
        key->setToolTip(q(c.key));
        m_table->setItem(row, Key, key);
        m_table->setItem(
            row, BaselineTime, cell(timeText(c.baselineSeconds, c.baselinePoints), true));
        m_table->setItem(row, CurrentTime, cell(timeText(c.currentSeconds, c.currentPoints), true));
        const auto factor = c.speedup();
        m_table->setItem(row, SpeedupFactor,
            cell(factor ? QStringLiteral("×") + q(formatSignificant(*factor, 3))
                        : QStringLiteral("–"),
                true));
        m_table->setItem(row, Kernels,
            cell(QStringLiteral("%1 / %2").arg(c.baselinePoints).arg(c.currentPoints), true));
        m_table->setItem(row, Status, cell(QString::fromUtf8(changeStatus(c))));
    }
    m_table->resizeColumnsToContents();
    // An operator's whole shapes would push the times out of sight.
    m_table->setColumnWidth(Key, std::min(m_table->columnWidth(Key), 360));
}

} // namespace ridgepoint
