// The quantization mode switch: a combo box bound to the Document's mode (both ways), used in
// the toolbar and in the workloads panel.
#pragma once

#include <QComboBox>

namespace ridgepoint {

class Document;

class QuantModeBox : public QComboBox
{
    Q_OBJECT

public:
    explicit QuantModeBox(Document *document, QWidget *parent = nullptr);

private:
    void showMode();

    Document *m_document;
};

} // namespace ridgepoint
