// The kernels of a profiler trace that could not be placed on the chart (docs/FORMATS.md §10.3):
// a line with the share of GPU time placed, and a table of the others, largest first, with their
// name, time, share of the GPU time, launches and the reason. Empty (with a line saying so) when
// the points do not come from a trace.
#pragma once

#include <QWidget>

class QLabel;
class QTableWidget;

namespace ridgepoint {

class Document;

class UnplacedPanel : public QWidget
{
    Q_OBJECT

public:
    enum Column { Kernel, Time, Share, Launches, Reason, ColumnCount };

    explicit UnplacedPanel(Document *document, QWidget *parent = nullptr);

private:
    void refresh();

    Document *m_document;
    QLabel *m_summary;
    QTableWidget *m_table;
};

} // namespace ridgepoint
