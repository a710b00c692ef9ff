// The machine panel: preset picker, the editable ceilings table (add, remove, rename, show or
// hide, edit π/β with units) and the machine to compare with.
#pragma once

#include "core/model/hardware.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QTableView;
class QTextBrowser;

namespace ridgepoint {

class CeilingsTableModel;
class Document;

class HardwarePanel : public QWidget
{
    Q_OBJECT

public:
    HardwarePanel(Document *document, std::vector<Hardware> presets, QWidget *parent = nullptr);

    // Adds a machine (a measured one) to the picker and the comparison list; one of the same
    // name is replaced.
    void addMachine(const Hardware &hardware);

    QComboBox *presetBox() const { return m_presetBox; }
    QComboBox *compareBox() const { return m_compareBox; }
    QTableView *ceilingsView() const { return m_view; }
    CeilingsTableModel *ceilingsModel() const { return m_model; }
    // The selected ceiling's provenance, its address a link that opens in the browser.
    QTextBrowser *detailsView() const { return m_details; }

private:
    void setUpTable();
    // The provenance pane: follows the selection, as tall as its text.
    void setUpDetails();
    void showMachine();
    // The "Compare with" picker shows the document's compared machine, however it was set
    // (the picker, a session, a picture's embedded session): a machine no preset names joins
    // the pickers as an imported machine file does.
    void showCompare();
    void showDetails();

    Document *m_document;
    std::vector<Hardware> m_presets;
    CeilingsTableModel *m_model;
    QComboBox *m_presetBox;
    QComboBox *m_compareBox;
    QTableView *m_view;
    QLabel *m_message;
    QLabel *m_source;
    QTextBrowser *m_details;
};

} // namespace ridgepoint
