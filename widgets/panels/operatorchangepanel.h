// The run against its baseline, operator by operator (core/analysis/operator_change.h,
// docs/MODEL.md §11.7): a line with the matched share and the speed-ups, and a table of each
// operator and shapes with its time in both runs, its speed-up and the kernels on each side;
// the operators only one run has are listed after the matched ones, never left out; a click on a
// column header sorts by its figures (times, speed-ups), not their text. Shown beside
// the Kernels table while a baseline is open.
#pragma once

#include <QWidget>

class QLabel;
class QTableWidget;

namespace ridgepoint {

class Document;

class OperatorChangePanel : public QWidget
{
    Q_OBJECT

public:
    enum Column { Key, BaselineTime, CurrentTime, SpeedupFactor, Kernels, Status, ColumnCount };

    explicit OperatorChangePanel(Document *document, QWidget *parent = nullptr);

private:
    void refresh();

    Document *m_document;
    QLabel *m_summary;
    QTableWidget *m_table;
};

} // namespace ridgepoint
