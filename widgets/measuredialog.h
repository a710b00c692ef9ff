// Hardware > Measure this machine: runs core/measure on a worker thread, shows the progress and
// the bandwidth-vs-working-set curve as it grows, and hands the measured machine to the caller.
#pragma once

#include "core/measure.h"

#include <QDialog>

#include <atomic>
#include <memory>
#include <optional>

class QCustomPlot;
class QCPGraph;
class QDialogButtonBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QThread;

namespace ridgepoint {

class MeasureDialog : public QDialog
{
    Q_OBJECT

public:
    explicit MeasureDialog(MeasureOptions options = {}, QWidget *parent = nullptr);
    ~MeasureDialog() override; // cancels a running measurement and waits for it (< 100 ms)

    // Starts measuring; showing the dialog starts it too.
    void start();
    bool isRunning() const { return m_thread != nullptr; }
    // The measured machine once the run succeeded.
    const std::optional<MeasureResult> &result() const { return m_result; }
    QString errorText() const { return m_error; }

    QProgressBar *progressBar() const { return m_progress; }
    QCustomPlot *plot() const { return m_plot; }
    QPushButton *cancelButton() const { return m_cancelButton; }
    QPushButton *acceptButton() const { return m_acceptButton; }

public slots:
    // Asks the worker to stop; the dialog closes (rejected) when it has.
    void cancel();

signals:
    void measurementFinished(bool succeeded);

protected:
    void showEvent(QShowEvent *event) override;
    void reject() override;

private:
    void addSample(const BandwidthSample &sample);
    void finish(Expected<MeasureResult, std::string> result);
    QCPGraph *graphFor(MemoryKernel kernel, int threads);

    MeasureOptions m_options;
    std::atomic<bool> m_cancel { false };
    QThread *m_thread = nullptr;
    bool m_started = false;
    bool m_closeWhenStopped = false;
    std::optional<MeasureResult> m_result;
    QString m_error;

    QLabel *m_stage;
    QProgressBar *m_progress;
    QCustomPlot *m_plot;
    QLabel *m_summary;
    QDialogButtonBox *m_buttons;
    QPushButton *m_acceptButton;
    QPushButton *m_cancelButton;
};

} // namespace ridgepoint
