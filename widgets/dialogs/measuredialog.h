// Hardware > Measure this machine: the user picks how long to measure (quick or thorough), on
// how many threads and which spec to compare with, then Start runs core/measure on a worker
// thread, shows the progress and the bandwidth-vs-working-set curve as it grows, and at the end
// what was detected and measured (against the spec). The measured machine goes to the caller.
#pragma once

#include "measure/measure.h"

#include <QDialog>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;
class QCPGraph;
class QComboBox;
class QDialogButtonBox;
class QGroupBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableWidget;
class QThread;

namespace ridgepoint {

class MeasureDialog : public QDialog
{
    Q_OBJECT

public:
    // `options` is the base of the run (the spec found from the CPU model, sweep bounds); the
    // budget and the threads are what the user picks here, remembered in the settings.
    // `specPresets`: the machines of kind "cpu" among them are offered as the spec.
    explicit MeasureDialog(MeasureOptions options = {}, std::vector<Hardware> specPresets = {},
        QWidget *parent = nullptr);
    ~MeasureDialog() override; // cancels a running measurement and waits for it (< 100 ms)

    // What Start would run now: the base options with the choices of the dialog.
    MeasureOptions options() const;
    // Starts measuring with options() and remembers the choices (the Start button calls it).
    // Showing the dialog does not start: the user chooses first.
    void start();
    bool isRunning() const { return m_thread != nullptr; }
    // The measured machine once the run succeeded.
    const std::optional<MeasureResult> &result() const { return m_result; }
    QString errorText() const { return m_error; }

    QRadioButton *quickButton() const { return m_quick; }
    QRadioButton *thoroughButton() const { return m_thorough; }
    QRadioButton *allThreadsButton() const { return m_allThreads; }
    QRadioButton *someThreadsButton() const { return m_someThreads; }
    QSpinBox *threadsBox() const { return m_threads; }
    QComboBox *specBox() const { return m_spec; }
    QLabel *stageLabel() const { return m_stage; }
    QProgressBar *progressBar() const { return m_progress; }
    QCustomPlot *plot() const { return m_plot; }
    QLabel *detectedLabel() const { return m_detected; }
    // Measured vs spec, one row per precision and memory level (core compareWithSpec).
    QTableWidget *resultsTable() const { return m_results; }
    QPushButton *startButton() const { return m_startButton; }
    QPushButton *cancelButton() const { return m_cancelButton; }
    QPushButton *acceptButton() const { return m_acceptButton; }

public slots:
    // Asks the worker to stop; the dialog closes (rejected) when it has.
    void cancel();

signals:
    void measurementFinished(bool succeeded);

protected:
    void reject() override;

private:
    QGroupBox *buildChoices();
    void updateStartText();
    void addSample(const BandwidthSample &sample);
    void finish(Expected<MeasureResult, std::string> result);
    void showResult();
    QCPGraph *graphFor(MemoryKernel kernel, int threads);

    MeasureOptions m_options;
    std::vector<Hardware> m_specPresets; // the CPU presets, plus the base spec if not one
    std::atomic<bool> m_cancel { false };
    QThread *m_thread = nullptr;
    bool m_started = false;
    bool m_closeWhenStopped = false;
    std::optional<MeasureResult> m_result;
    QString m_error;

    QGroupBox *m_choices = nullptr;
    QRadioButton *m_quick = nullptr;
    QRadioButton *m_thorough = nullptr;
    QRadioButton *m_allThreads = nullptr;
    QRadioButton *m_someThreads = nullptr;
    QSpinBox *m_threads = nullptr;
    QComboBox *m_spec = nullptr;
    QLabel *m_stage;
    QProgressBar *m_progress;
    QCustomPlot *m_plot;
    QLabel *m_detected;
    QTableWidget *m_results;
    QLabel *m_summary;
    QDialogButtonBox *m_buttons;
    QPushButton *m_startButton;
    QPushButton *m_acceptButton;
    QPushButton *m_cancelButton;
};

} // namespace ridgepoint
