#include "widgets/panels/unplacedpanel.h"
#include "widgets/panels/summarytable.h"

#include "core/model/units.h"
#include "core/report/trace_report.h"
#include "widgets/document/document.h"
#include "widgets/qtext.h"

#include <QLabel>
#include <QTableWidget>

#include <algorithm>

namespace ridgepoint {
namespace {

constexpr int kKernelColumnWidth = 240; // pixels, at most

// The rows stay largest first.
QTableWidgetItem *cell(const QString &text, bool number = false)
{
    return readOnlyCell(text, number);
}

} // namespace

UnplacedPanel::UnplacedPanel(Document *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_summary(new QLabel(this))
    , m_table(new QTableWidget(0, ColumnCount, this))
{
    m_summary->setObjectName("unplacedSummary");
    m_table->setObjectName("unplacedTable");
    layOutSummaryTable(this, m_summary, m_table,
        { tr("Kernel"), tr("Time"), tr("Share of GPU time"), tr("Launches"), tr("Reason") });
    connect(document, &Document::traceChanged, this, &UnplacedPanel::refresh);
    refresh();
}

void UnplacedPanel::refresh()
{
    const TraceSummary *trace = m_document->trace();
    m_table->setRowCount(0);
    if (!trace) {
        m_summary->setText(tr("The points do not come from a profiler trace."));
        return;
    }
    const double gpu = trace->gpuSeconds;
    m_summary->setText(tr("Placed %1 % of %2 of GPU time (%n kernels); not placed, largest first:",
        nullptr, static_cast<int>(trace->kernels))
                           .arg(QString::number(100.0 * placedShare(*trace), 'f', 1),
                               q(formatQuantity(gpu, Dimension::Time))));
    m_table->setRowCount(static_cast<int>(trace->unplaced.size()));
    for (std::size_t i = 0; i < trace->unplaced.size(); ++i) {
        const UnplacedKernels &u = trace->unplaced[i];
        const int row = static_cast<int>(i);
        const double share = gpu > 0.0 ? u.seconds / gpu : 0.0;
        auto *name = cell(q(u.name));
        name->setToolTip(q(u.name));
        m_table->setItem(row, Kernel, name);
        m_table->setItem(row, Time, cell(q(formatQuantity(u.seconds, Dimension::Time)), true));
        m_table->setItem(
            row, Share, cell(QString::number(100.0 * share, 'f', 1) + QStringLiteral(" %"), true));
        m_table->setItem(row, Launches, cell(QString::number(u.launches), true));
        auto *reason = cell(q(u.reason));
        reason->setToolTip(q(u.reason));
        m_table->setItem(row, Reason, reason);
    }
    m_table->resizeColumnsToContents();
    // A C++ kernel's whole signature would push the reason out of sight: the name is elided
    // (its tooltip has it whole) so that the reason starts within the pane's width beside the
    // Kernels table in a 1600-pixel window (tst_unplacedpanel).
    m_table->setColumnWidth(Kernel, std::min(m_table->columnWidth(Kernel), kKernelColumnWidth));
}

} // namespace ridgepoint
