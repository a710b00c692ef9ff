#include "widgets/panels/workloadpanel.h"
#include "widgets/qtext.h"

#include "core/calibrate/llm_calibrated.h"
#include "core/model/chip_link.h"
#include "core/workloads/llm_trajectory.h"
#include "core/workloads/quant_modes.h"
#include "core/workloads/sweep.h"
#include "widgets/document/document.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cmath>
#include <set>

namespace ridgepoint {
namespace {

QSpinBox *spinBox(QWidget *parent, const char *name, int low, int high, int value)
{
    auto *box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(low, high);
    box->setValue(value);
    box->setGroupSeparatorShown(true);
    box->setAccessibleName(QString::fromLatin1(name));
    return box;
}

QComboBox *precisionBox(
    QWidget *parent, const char *name, std::initializer_list<Precision> precisions)
{
    auto *box = new QComboBox(parent);
    box->setObjectName(name);
    box->setAccessibleName(QString::fromLatin1(name));
    for (Precision p : precisions)
        box->addItem(q(std::string(precisionName(p))), static_cast<int>(p));
    return box;
}

Precision precisionOf(const QComboBox *box)
{
    return static_cast<Precision>(box->currentData().toInt());
}

constexpr int kMaxSweepValues = 64;

void describeParallelism(QSpinBox *tp, QSpinBox *ep, QSpinBox *pp)
{
    tp->setToolTip(
        WorkloadPanel::tr("Tensor-parallel chips: heads, FFN and LM head split; an "
                          "all-reduce after attention and after the FFN on the link roof"));
    ep->setToolTip(WorkloadPanel::tr("Expert-parallel chips (mixture-of-experts models): experts "
                                     "split; an all-to-all dispatch and combine on the link roof"));
    pp->setToolTip(WorkloadPanel::tr("Pipeline stages: layers split; the activations sent "
                                     "between stages on the link roof"));
}

} // namespace

WorkloadPanel::WorkloadPanel(Document *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_models(builtinModels())
    , m_modeNote(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_b(spinBox(this, "b", 1, 1 << 30, 1))
    , m_d(spinBox(this, "d", 1, 1 << 30, 8192))
    , m_f(spinBox(this, "f", 1, 1 << 30, 8192))
    , m_dtype(precisionBox(this, "dtype",
          { Precision::BF16, Precision::FP16, Precision::FP32, Precision::FP8, Precision::INT8 }))
    , m_variant(new QComboBox(this))
    , m_tileM(spinBox(this, "tileM", 1, 1 << 16, 128))
    , m_tileK(spinBox(this, "tileK", 1, 1 << 16, 128))
    , m_tileN(spinBox(this, "tileN", 1, 1 << 16, 128))
    , m_shards(spinBox(this, "shards", 1, 4096, 2))
    , m_network(new QComboBox(this))
    , m_model(new QComboBox(this))
    , m_phase(new QComboBox(this))
    , m_seq(spinBox(this, "seq", 1, 1 << 24, 1024))
    , m_batch(spinBox(this, "batch", 1, 1 << 20, 1))
    , m_weights(precisionBox(this, "weights",
          { Precision::BF16, Precision::FP8, Precision::INT8, Precision::INT4, Precision::FP4 }))
    , m_activations(precisionBox(this, "activations",
          { Precision::BF16, Precision::FP8, Precision::INT8, Precision::FP4 }))
    , m_kv(precisionBox(this, "kv", { Precision::BF16, Precision::FP8, Precision::INT8 }))
    , m_tp(spinBox(this, "tp", 1, 4096, 1))
    , m_ep(spinBox(this, "ep", 1, 4096, 1))
    , m_pp(spinBox(this, "pp", 1, 4096, 1))
    , m_operators(new QCheckBox(tr("One point per operator, plus the whole model"), this))
    , m_sweep(new QGroupBox(tr("Sweep a parameter (a trajectory)"), this))
    , m_sweepParameter(new QComboBox(this))
    , m_sweepFrom(spinBox(this, "sweepFrom", 1, 1 << 30, 1))
    , m_sweepTo(spinBox(this, "sweepTo", 1, 1 << 30, 4096))
    , m_sweepFactor(spinBox(this, "sweepFactor", 2, 16, 2))
    , m_add(new QPushButton(tr("Add to chart"), this))
    , m_message(new QLabel(this))
    , m_problems(new QLabel(this))
{
    m_modeNote->setObjectName("quantModeNote");
    m_modeNote->setWordWrap(true);
    m_tabs->addTab(matmulTab(), tr("Matmul"));
    m_tabs->addTab(llmTab(), tr("LLM"));
    setUpSweep();
    layOut();
    connectSignals();
    showQuantMode();
    refreshNetworks();
    showProblems();
}

QWidget *WorkloadPanel::matmulTab()
{
    auto *matmul = new QWidget(m_tabs);
    auto *matmulForm = new QFormLayout(matmul);
    matmulForm->addRow(tr("B (batch)"), m_b);
    matmulForm->addRow(tr("D (contracted)"), m_d);
    matmulForm->addRow(tr("F (columns)"), m_f);
    matmulForm->addRow(tr("dtype"), m_dtype);
    m_variant->setObjectName("variant");
    m_variant->addItems({ tr("plain"), tr("tiled"), tr("sharded along D") });
    matmulForm->addRow(tr("kind"), m_variant);
    auto *tiles = new QHBoxLayout;
    tiles->addWidget(m_tileM);
    tiles->addWidget(m_tileK);
    tiles->addWidget(m_tileN);
    matmulForm->addRow(tr("tile bm, bk, bn"), tiles);
    matmulForm->addRow(tr("shards (chips)"), m_shards);
    m_network->setObjectName("network");
    matmulForm->addRow(tr("network ceiling"), m_network);
    return matmul;
}

QWidget *WorkloadPanel::llmTab()
{
    auto *llm = new QWidget(m_tabs);
    auto *llmForm = new QFormLayout(llm);
    m_model->setObjectName("model");
    for (const auto &model : m_models)
        m_model->addItem(q(model.name));
    llmForm->addRow(tr("model"), m_model);
    m_phase->setObjectName("phase");
    m_phase->addItem(tr("decode"), static_cast<int>(LlmPhase::Decode));
    m_phase->addItem(tr("prefill"), static_cast<int>(LlmPhase::Prefill));
    llmForm->addRow(tr("phase"), m_phase);
    llmForm->addRow(tr("sequence length"), m_seq);
    llmForm->addRow(tr("batch"), m_batch);
    llmForm->addRow(tr("weights"), m_weights);
    llmForm->addRow(tr("activations"), m_activations);
    llmForm->addRow(tr("KV cache"), m_kv);
    describeParallelism(m_tp, m_ep, m_pp);
    llmForm->addRow(tr("tensor parallel (tp)"), m_tp);
    llmForm->addRow(tr("expert parallel (ep)"), m_ep);
    llmForm->addRow(tr("pipeline stages (pp)"), m_pp);
    m_operators->setChecked(true);
    llmForm->addRow(m_operators);
    return llm;
}

void WorkloadPanel::setUpSweep()
{
    m_sweep->setObjectName("sweep");
    m_sweep->setCheckable(true);
    m_sweep->setChecked(false);
    auto *sweepForm = new QFormLayout(m_sweep);
    m_sweepParameter->setObjectName("sweepParameter");
    sweepForm->addRow(tr("parameter"), m_sweepParameter);
    sweepForm->addRow(tr("from"), m_sweepFrom);
    sweepForm->addRow(tr("to"), m_sweepTo);
    m_sweepFactor->setPrefix("×");
    sweepForm->addRow(tr("step"), m_sweepFactor);
}

void WorkloadPanel::layOut()
{
    m_add->setObjectName("add");
    m_message->setObjectName("message");
    m_message->setWordWrap(true);
    m_problems->setObjectName("problems");
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet("color: #b00000");

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_modeNote);
    layout->addWidget(m_tabs);
    layout->addWidget(m_sweep);
    layout->addWidget(m_add);
    layout->addWidget(m_message);
    layout->addWidget(m_problems);
    layout->addStretch(1);
}

void WorkloadPanel::enableVariant()
{
    const int variant = m_variant->currentIndex();
    for (QWidget *w : { static_cast<QWidget *>(m_tileM), static_cast<QWidget *>(m_tileK),
             static_cast<QWidget *>(m_tileN) })
        w->setEnabled(variant == 1);
    m_shards->setEnabled(variant == 2);
    m_network->setEnabled(variant == 2);
    refreshSweepParameters();
}

void WorkloadPanel::connectSignals()
{
    connect(m_variant, &QComboBox::currentIndexChanged, this, &WorkloadPanel::enableVariant);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { refreshSweepParameters(); });
    connect(m_add, &QPushButton::clicked, this, [this] { addToChart(); });
    connect(m_document, &Document::hardwareChanged, this, [this] {
        refreshNetworks();
        showProblems();
    });
    connect(m_document, &Document::quantModeChanged, this, &WorkloadPanel::showProblems);
    connect(m_document, &Document::quantModeChanged, this, &WorkloadPanel::showQuantMode);
    connect(m_document, &Document::pointsReset, this, &WorkloadPanel::showProblems);
    enableVariant();
}

QString WorkloadPanel::message() const
{
    return m_problems->text().isEmpty() ? m_message->text()
                                        : m_message->text() + "\n" + m_problems->text();
}

bool WorkloadPanel::isMatmul() const
{
    return m_tabs->currentIndex() == 0;
}

void WorkloadPanel::refreshNetworks()
{
    const QString current = m_network->currentText();
    m_network->clear();
    for (const auto &m : m_document->hardware().memory) {
        if (isNetwork(m.level))
            m_network->addItem(q(m.name));
    }
    if (m_network->count() == 0)
        m_network->addItem(tr("(this machine has no network ceiling)"), QStringLiteral("none"));
    // The one chosen before, else the link between the chips (NVLink, else ICI, else PCIe) as
    // the matmul itself takes it: on an MI300X, its Infinity Fabric rather than the PCIe listed
    // first.
    const MemoryCeiling *link = chipLink(m_document->hardware());
    for (const QString &wanted : { current, link ? q(link->name) : QString() }) {
        if (const int i = m_network->findText(wanted); !wanted.isEmpty() && i >= 0) {
            m_network->setCurrentIndex(i);
            break;
        }
    }
}

void WorkloadPanel::refreshSweepParameters()
{
    m_sweepParameter->clear();
    if (isMatmul()) {
        m_sweepParameter->addItems({ "b", "d", "f" });
        if (m_variant->currentIndex() == 1)
            m_sweepParameter->addItem("tile");
        if (m_variant->currentIndex() == 2)
            m_sweepParameter->addItem("shards");
    } else {
        m_sweepParameter->addItems({ "batch", "seq" });
    }
}

void WorkloadPanel::showProblems()
{
    // Why workload points are not on the chart (a ceiling the mode needs is missing).
    std::set<std::string> reasons;
    std::size_t count = 0;
    for (std::size_t i = 0; i < m_document->pointCount(); ++i) {
        if (m_document->workload(i) && !m_document->placement(i).placed) {
            ++count;
            reasons.insert(m_document->analysis(i).error());
        }
    }
    if (count == 0) {
        m_problems->clear();
        return;
    }
    QStringList lines;
    for (const auto &reason : reasons)
        lines << q(reason);
    m_problems->setText(tr("%n workload point(s) cannot be placed under quantization %1: %2",
        nullptr, static_cast<int>(count))
                            .arg(q(quantModeLabel(m_document->quantMode())), lines.join("; ")));
}

void WorkloadPanel::showQuantMode()
{
    // One mode for the whole document, chosen in the toolbar: the note names it and the dtype
    // boxes below show the types it sets, so no choice made here is silently replaced by it.
    if (m_shownMode == QuantMode::None) {
        m_ownWeights = precisionOf(m_weights);
        m_ownActivations = precisionOf(m_activations);
    }
    if (m_shownMode != QuantMode::Int8)
        m_ownDtype = precisionOf(m_dtype);
    const QuantMode mode = m_document->quantMode();
    m_shownMode = mode;
    LlmSpec own;
    own.weights = m_ownWeights;
    own.activations = m_ownActivations;
    const LlmSpec llm = llmSpecForMode(own, mode);
    const bool quantized = mode != QuantMode::None;
    m_modeNote->setVisible(quantized);
    m_modeNote->setText(quantized ? tr("Workloads are placed under quantization %1 (the "
                                       "toolbar's switch, Alt+Q).")
                                        .arg(q(quantModeLabel(mode)))
                                  : QString());
    showPrecision(m_weights, m_ownWeights, quantized ? std::optional(llm.weights) : std::nullopt);
    showPrecision(
        m_activations, m_ownActivations, quantized ? std::optional(llm.activations) : std::nullopt);
    const MatmulDtypes matmul = matmulDtypes(m_ownDtype, mode);
    showPrecision(
        m_dtype, m_ownDtype, mode == QuantMode::Int8 ? std::optional(matmul.x) : std::nullopt);
}

void WorkloadPanel::showPrecision(QComboBox *box, Precision own, std::optional<Precision> forced)
{
    box->setCurrentIndex(box->findData(static_cast<int>(forced.value_or(own))));
    box->setEnabled(!forced);
    box->setToolTip(forced ? tr("Set by quantization %1 in the toolbar; choose \"none\" there "
                                "to pick it here")
                                 .arg(q(quantModeLabel(m_document->quantMode())))
                           : QString());
}

Precision WorkloadPanel::ownPrecision(const QComboBox *box, Precision own) const
{
    return box->isEnabledTo(this) ? precisionOf(box) : own;
}

std::vector<Workload> WorkloadPanel::formWorkloads(const std::string &group) const
{
    std::vector<Workload> out;
    if (isMatmul()) {
        MatmulWorkload m;
        m.spec.b = m_b->value();
        m.spec.d = m_d->value();
        m.spec.f = m_f->value();
        m.spec.dtype = ownPrecision(m_dtype, m_ownDtype);
        if (m_variant->currentIndex() == 1)
            m.tile = TileSpec { m_tileM->value(), m_tileK->value(), m_tileN->value() };
        if (m_variant->currentIndex() == 2) {
            ShardSpec shards;
            shards.chips = m_shards->value();
            if (m_network->currentData().toString() != "none")
                shards.network = m_network->currentText().toStdString();
            m.shards = shards;
        }
        out.push_back({ m, group, std::nullopt });
        return out;
    }
    const auto index = static_cast<std::size_t>(std::max(0, m_model->currentIndex()));
    if (index >= m_models.size())
        return out;
    LlmWorkload l;
    l.model = m_models[index];
    l.spec.phase = static_cast<LlmPhase>(m_phase->currentData().toInt());
    l.spec.seq = m_seq->value();
    l.spec.batch = m_batch->value();
    l.spec.weights = ownPrecision(m_weights, m_ownWeights);
    l.spec.activations = ownPrecision(m_activations, m_ownActivations);
    l.spec.kv = precisionOf(m_kv);
    l.spec.tp = m_tp->value();
    l.spec.ep = m_ep->value();
    l.spec.pp = m_pp->value();
    // Per chip with the collectives when parallel (llm_parallel.h); a spec the machine cannot
    // place leaves the whole model alone, whose point then says why.
    auto all
        = llmWorkloads(l.model, l.spec, m_document->hardware(), group, m_operators->isChecked());
    if (all)
        return std::move(*all);
    out.push_back({ l, group, std::nullopt }); // the whole model
    return out;
}

QString WorkloadPanel::formDescription() const
{
    // The workload's own types: the group adds the mode it is placed under (quantizedGroup), so
    // a matmul added under int8 reads "bf16 · int8" and "bf16" once the mode is none again.
    if (isMatmul()) {
        QString text = tr("matmul %1×%2×%3 %4")
                           .arg(m_b->value())
                           .arg(m_d->value())
                           .arg(m_f->value())
                           .arg(q(std::string(precisionName(ownPrecision(m_dtype, m_ownDtype)))));
        if (m_variant->currentIndex() == 1)
            text += tr(" tile %1×%2×%3")
                        .arg(m_tileM->value())
                        .arg(m_tileK->value())
                        .arg(m_tileN->value());
        if (m_variant->currentIndex() == 2)
            text += tr(" /%1 chips").arg(m_shards->value());
        return text;
    }
    QString text = tr("%1 %2 seq %3 batch %4")
                       .arg(m_model->currentText(), m_phase->currentText())
                       .arg(m_seq->value())
                       .arg(m_batch->value());
    if (m_tp->value() > 1 || m_ep->value() > 1 || m_pp->value() > 1)
        text += tr(" tp %1 ep %2 pp %3").arg(m_tp->value()).arg(m_ep->value()).arg(m_pp->value());
    return text;
}

ridgepoint::Expected<std::vector<Workload>, QString> WorkloadPanel::sweepWorkloads()
{
    SweepRange range;
    range.parameter = m_sweepParameter->currentText().toStdString();
    range.from = m_sweepFrom->value();
    range.to = m_sweepTo->value();
    range.step = m_sweepFactor->value();
    range.multiplicative = true;
    auto values = sweepValues(range, kMaxSweepValues);
    if (!values)
        return ridgepoint::Unexpected(q(values.error()));
    std::vector<std::int64_t> integers;
    for (double v : *values) {
        const auto r = static_cast<std::int64_t>(std::llround(v));
        if (integers.empty() || integers.back() != r)
            integers.push_back(r);
    }
    if (integers.size() < 2)
        return ridgepoint::Unexpected(tr("a sweep needs at least two values (from %1 to %2)")
                                          .arg(m_sweepFrom->value())
                                          .arg(m_sweepTo->value()));
    const std::string group = (formDescription()
        + tr(", %1 swept %2…%3")
              .arg(m_sweepParameter->currentText())
              .arg(integers.front())
              .arg(integers.back()))
                                  .toStdString();
    // One trajectory per operator kind: every value gives the same list of workloads.
    std::vector<int> ids;
    std::vector<Workload> out;
    for (std::int64_t value : integers) {
        std::vector<Workload> at = formWorkloads(group);
        if (ids.empty()) {
            for (std::size_t k = 0; k < at.size(); ++k)
                ids.push_back(m_document->newSweepId());
        }
        for (std::size_t k = 0; k < at.size() && k < ids.size(); ++k) {
            if (!setWorkloadParameter(at[k], range.parameter, value))
                return ridgepoint::Unexpected(
                    tr("this workload has no parameter \"%1\"").arg(q(range.parameter)));
            at[k].sweep = SweepMembership { ids[k], range.parameter, static_cast<double>(value) };
            out.push_back(std::move(at[k]));
        }
    }
    return out;
}

bool WorkloadPanel::addToChart()
{
    std::vector<Workload> workloads;
    if (m_sweep->isChecked()) {
        auto swept = sweepWorkloads();
        if (!swept) {
            setMessage(swept.error(), true);
            return false;
        }
        workloads = std::move(*swept);
    } else {
        workloads = formWorkloads(formDescription().toStdString());
    }
    if (workloads.empty()) {
        setMessage(tr("Nothing to add: no model is available."), true);
        return false;
    }
    const std::size_t count = workloads.size();
    const QString what = formDescription();
    const auto added = m_document->addWorkloads(std::move(workloads), tr("Add %1").arg(what));
    if (!added) {
        setMessage(tr("Cannot add %1: %2").arg(what, q(added.error())), true);
        return false;
    }
    // A sweep's dozens of selected points would each carry a label: show the trajectory bare.
    if (m_sweep->isChecked())
        m_document->setSelection({});
    QString message = tr("Added %n point(s): %1", nullptr, static_cast<int>(count)).arg(what);
    if (const QString note = calibratedNote(); !note.isEmpty())
        message += "\n" + note;
    setMessage(message, false);
    return true;
}

QString WorkloadPanel::calibratedNote() const
{
    const Hardware &hardware = m_document->hardware();
    const auto index = static_cast<std::size_t>(std::max(0, m_model->currentIndex()));
    if (!hardware.calibration || isMatmul() || m_sweep->isChecked() || index >= m_models.size())
        return {};
    // The step as its points are placed: the form's types under the toolbar's mode.
    const std::vector<Workload> workloads = formWorkloads({});
    const auto *llm = workloads.empty() ? nullptr : std::get_if<LlmWorkload>(&workloads[0].model);
    if (!llm)
        return {};
    const LlmSpec spec = llmSpecForMode(llm->spec, m_document->quantMode());
    const auto result = modelLlm(llm->model, spec, hardware);
    if (!result)
        return {};
    const auto calibrated = calibratedLlm(llm->model, spec, hardware, *result);
    if (!calibrated || !*calibrated)
        return {};
    return q(calibratedLlmLine(**calibrated, *hardware.calibration)).trimmed();
}

bool WorkloadPanel::addMatmulSweep(int d, int f, int from, int to)
{
    m_tabs->setCurrentIndex(0);
    m_variant->setCurrentIndex(0);
    m_d->setValue(d);
    m_f->setValue(f);
    m_sweep->setChecked(true);
    m_sweepParameter->setCurrentText("b");
    m_sweepFrom->setValue(from);
    m_sweepTo->setValue(to);
    m_sweepFactor->setValue(2);
    return addToChart();
}

void WorkloadPanel::setMessage(const QString &text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? "color: #b00000" : QString());
}

} // namespace ridgepoint
