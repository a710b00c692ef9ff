#include "widgets/panels/quantmodebox.h"

#include "widgets/document/document.h"

namespace ridgepoint {

QuantModeBox::QuantModeBox(Document *document, QWidget *parent)
    : QComboBox(parent)
    , m_document(document)
{
    const std::pair<QuantMode, QString> modes[] = {
        { QuantMode::None, tr("none (all in the dtype)") },
        { QuantMode::Int8, tr("int8 (weights, activations, int8 ceiling)") },
        { QuantMode::W8A16, tr("w8a16 (int8 weights, bf16 activations)") },
        { QuantMode::W4A16, tr("w4a16 (int4 weights, bf16 activations)") },
    };
    for (const auto &[mode, text] : modes)
        addItem(text, static_cast<int>(mode));
    setAccessibleName(tr("Quantization mode"));
    setToolTip(tr("Quantization of every planned workload (matmuls and LLM steps); measured "
                  "points keep their place"));
    connect(this, &QComboBox::activated, this, [this](int index) {
        m_document->setQuantMode(static_cast<QuantMode>(itemData(index).toInt()));
    });
    connect(m_document, &Document::quantModeChanged, this, &QuantModeBox::showMode);
    showMode();
}

void QuantModeBox::showMode()
{
    setCurrentIndex(findData(static_cast<int>(m_document->quantMode())));
}

} // namespace ridgepoint
