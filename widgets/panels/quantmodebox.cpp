#include "widgets/panels/quantmodebox.h"

#include "core/workloads/quant_modes.h"
#include "widgets/document/document.h"
#include "widgets/qtext.h"

namespace ridgepoint {

QuantModeBox::QuantModeBox(Document *document, QWidget *parent)
    : QComboBox(parent)
    , m_document(document)
{
    for (const QuantModeInfo &info : quantModes()) {
        addItem(q(quantModeLabel(info.mode)), static_cast<int>(info.mode));
        if (!info.alias.empty())
            setItemData(count() - 1,
                tr("%1, what the llm command's --precision calls %2")
                    .arg(q(std::string(info.name)), q(std::string(info.alias))),
                Qt::ToolTipRole);
    }
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    setAccessibleName(tr("Quantization mode"));
    setToolTip(tr("Quantization of every planned workload (matmuls and LLM steps): their "
                  "points and the ridge they are measured against move; measured points keep "
                  "their place"));
    connect(this, &QComboBox::activated, this, [this](int index) {
        const auto mode = static_cast<QuantMode>(itemData(index).toInt());
        const bool changed = mode != m_document->quantMode();
        m_document->setQuantMode(mode);
        if (changed)
            emit switched();
    });
    connect(m_document, &Document::quantModeChanged, this, &QuantModeBox::showMode);
    showMode();
}

QString QuantModeBox::statusText(const Document &document)
{
    std::size_t workloads = 0;
    for (std::size_t i = 0; i < document.pointCount(); ++i) {
        if (document.workload(i))
            ++workloads;
    }
    const QString mode = tr("Quantization %1").arg(q(quantModeLabel(document.quantMode())));
    if (workloads == 0)
        return tr("%1: no workload point yet (add one in the Workloads dock); measured points "
                  "keep their place")
            .arg(mode);
    return tr("%1: %n workload point(s) placed under it; measured points keep their place", nullptr,
        static_cast<int>(workloads))
        .arg(mode);
}

void QuantModeBox::showMode()
{
    setCurrentIndex(findData(static_cast<int>(m_document->quantMode())));
}

} // namespace ridgepoint
