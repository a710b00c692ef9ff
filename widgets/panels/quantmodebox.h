// The quantization mode switch: the one place the mode is chosen (the window's toolbar), a
// combo box bound to the Document's mode both ways. Its items, its tooltips and statusText()
// take their words from core's one table (quantModes() in core/workloads/quant_modes.h).
#pragma once

#include <QComboBox>

namespace ridgepoint {

class Document;

class QuantModeBox : public QComboBox
{
    Q_OBJECT

public:
    explicit QuantModeBox(Document *document, QWidget *parent = nullptr);

    // What the status bar says after a switch: the mode in the table's words and what moved
    // ("Quantization w8a16 — int8 weights, bf16 activations: 17 workload points placed under
    // it; measured points keep their place").
    static QString statusText(const Document &document);

signals:
    // The user chose a mode here (not a session load or an undo).
    void switched();

private:
    void showMode();

    Document *m_document;
};

} // namespace ridgepoint
