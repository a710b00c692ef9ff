// The workloads panel: planned matmuls (plain, tiled, sharded) and LLM prefill/decode steps
// added to the chart as ordinary points through the Document (one undo step per addition),
// optionally swept over a parameter range. The quantization mode is chosen in the toolbar
// (QuantModeBox, the one switch); here a note names it and the type boxes it sets show them.
#pragma once

#include "core/model/expected.h"
#include "core/workloads/llm.h"
#include "core/workloads/planned_workload.h"

#include <QWidget>

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTabWidget;

namespace ridgepoint {

class Document;

class WorkloadPanel : public QWidget
{
    Q_OBJECT

public:
    explicit WorkloadPanel(Document *document, QWidget *parent = nullptr);

    // Adds what the form describes (the "Add to chart" button). Returns false and shows the
    // reason when nothing could be added.
    bool addToChart();
    // Fills the form with a plain matmul swept over B from `from` to `to` (doubling) and adds
    // it, as a user would (the command line's --sweep-matmul and the screenshots use it).
    bool addMatmulSweep(int d, int f, int from, int to);
    // The message under the button: the last addition's outcome, or why workload points
    // cannot be placed under the current mode.
    QString message() const;

private:
    // The constructor's parts: the two tabs' forms, the sweep box, the panel's layout, and the
    // connections (the matmul kind enables its tile or shard fields: enableVariant).
    QWidget *matmulTab();
    QWidget *llmTab();
    void setUpSweep();
    void layOut();
    void connectSignals();
    void enableVariant();
    void refreshNetworks();
    void refreshSweepParameters();
    void showProblems();
    // The dtype boxes the quantization mode overrides show what the points use, disabled; the
    // user's own choice comes back when the mode is "none" again.
    void showQuantMode();
    void showPrecision(QComboBox *box, Precision own, std::optional<Precision> forced);
    // The dtype a box stands for: its value, or the user's own while the mode shows another.
    Precision ownPrecision(const QComboBox *box, Precision own) const;
    bool isMatmul() const;
    // The workloads the form describes at one set of parameter values (no sweep).
    std::vector<Workload> formWorkloads(const std::string &group) const;
    ridgepoint::Expected<std::vector<Workload>, QString> sweepWorkloads();
    QString formDescription() const;
    // The LLM step the form describes timed by the machine's calibration (docs/MODEL.md §15.7),
    // one line naming it; empty for a matmul, a sweep or a machine without calibration.
    QString calibratedNote() const;
    void setMessage(const QString &text, bool error);

    Document *m_document;
    std::vector<ModelConfig> m_models;
    QLabel *m_modeNote; // the toolbar's mode in its words, while it is not none
    QTabWidget *m_tabs;
    // matmul
    QSpinBox *m_b;
    QSpinBox *m_d;
    QSpinBox *m_f;
    QComboBox *m_dtype;
    QComboBox *m_variant; // plain, tiled, sharded
    QSpinBox *m_tileM;
    QSpinBox *m_tileK;
    QSpinBox *m_tileN;
    QSpinBox *m_shards;
    QComboBox *m_network;
    // LLM
    QComboBox *m_model;
    QComboBox *m_phase;
    QSpinBox *m_seq;
    QSpinBox *m_batch;
    QComboBox *m_weights;
    QComboBox *m_activations;
    QComboBox *m_kv;
    QSpinBox *m_tp; // tensor, expert, pipeline parallel chips
    QSpinBox *m_ep;
    QSpinBox *m_pp;
    QCheckBox *m_operators;
    // sweep
    QGroupBox *m_sweep;
    QComboBox *m_sweepParameter;
    QSpinBox *m_sweepFrom;
    QSpinBox *m_sweepTo;
    QSpinBox *m_sweepFactor;
    QPushButton *m_add;
    QLabel *m_message;
    QLabel *m_problems;
    // The user's dtypes while the mode overrides the boxes (m_shownMode not none).
    QuantMode m_shownMode = QuantMode::None;
    Precision m_ownDtype = Precision::BF16;
    Precision m_ownWeights = Precision::BF16;
    Precision m_ownActivations = Precision::BF16;
};

} // namespace ridgepoint
