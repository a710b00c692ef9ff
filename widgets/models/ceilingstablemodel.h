// The current machine's ceilings, editable: compute ceilings first, then memory ceilings.
// Every edit goes through Document::editHardware (undoable, renames a preset to "Custom");
// ticking Show goes through Document::setCeilingShown (undoable, keeps the machine's name). A row
// the chart does not draw, unticked or left out (roofselection.h), is grey.
#pragma once

#include <QAbstractTableModel>
#include <QTimer>

#include <vector>

namespace ridgepoint {

class Document;

class CeilingsTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    // Basis: what the figure rests on ("spec", "measured" ..., provenancetext.h); every
    // column's tooltip is the ceiling's whole provenance.
    enum Column { Shown, Name, Kind, Value, Basis, ColumnCount };

    explicit CeilingsTableModel(Document *document, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    // Value accepts unit strings ("3.35 TB/s", "989 TFLOP/s"); a bare number is in FLOP/s or B/s.
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

    bool isComputeRow(int row) const;
    // The provenance of the ceiling on `row` as HTML (links as <a> when `links`), or empty.
    QString provenance(int row, bool links) const;
    // Adds a ceiling next to the others of its kind; returns its row.
    int addComputeCeiling();
    int addMemoryCeiling();
    // Removes a ceiling; the last compute or memory ceiling stays (a machine needs both).
    bool removeCeiling(int row);

    // Why the last edit was refused (empty after a successful one).
    QString lastError() const { return m_lastError; }

signals:
    void editRejected(const QString &message);

private:
    bool reject(const QString &message);
    void showMachine();
    // Which compute rows the chart leaves out (roofs of precisions no point uses, sparse
    // figures: widgets/chart/roofselection.h); recomputed a moment after the points, the
    // machine or the choice change, so a drag step does not pay for it.
    void updateUndrawn();
    bool undrawn(int row) const;

    Document *m_document;
    QString m_lastError;
    int m_rows = 0; // the rows the views know of
    std::vector<bool> m_undrawn; // per compute row
    QTimer m_undrawnTimer;
};

} // namespace ridgepoint
