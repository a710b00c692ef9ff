#include "widgets/measuredialog.h"

#include "core/units.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QThread>
#include <QVBoxLayout>

#include <qcustomplot.h>

namespace ridgepoint {
namespace {

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QColor kernelColor(MemoryKernel kernel)
{
    switch (kernel) {
    case MemoryKernel::Load:
        return QColor(31, 119, 180);
    case MemoryKernel::Copy:
        return QColor(214, 39, 40);
    case MemoryKernel::Triad:
        return QColor(44, 160, 44);
    }
    return Qt::black;
}

} // namespace

MeasureDialog::MeasureDialog(MeasureOptions options, QWidget *parent)
    : QDialog(parent)
    , m_options(std::move(options))
    , m_stage(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_plot(new QCustomPlot(this))
    , m_summary(new QLabel(this))
    , m_buttons(new QDialogButtonBox(this))
{
    setWindowTitle(tr("Measure this machine"));
    m_stage->setText(tr("Bandwidth per working set, then peak FLOP/s (about %n s)", nullptr,
        static_cast<int>(m_options.budgetSeconds)));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setLabel(tr("Working set (bytes, all arrays of all threads)"));
    m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setLabel(tr("Bandwidth (GB/s, read + written bytes)"));
    m_plot->xAxis->setRange(1e3, 1e9);
    m_plot->yAxis->setRange(1, 2000);
    m_plot->legend->setVisible(true);
    m_plot->setMinimumSize(560, 320);

    m_acceptButton = m_buttons->addButton(tr("Use this machine"), QDialogButtonBox::AcceptRole);
    m_acceptButton->setEnabled(false);
    m_cancelButton = m_buttons->addButton(QDialogButtonBox::Cancel);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &MeasureDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_stage);
    layout->addWidget(m_progress);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_buttons);
}

MeasureDialog::~MeasureDialog()
{
    if (m_thread) {
        m_cancel = true;
        m_thread->wait();
        delete m_thread;
    }
}

void MeasureDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    if (!m_started)
        start();
}

void MeasureDialog::start()
{
    if (m_started)
        return;
    m_started = true;
    m_cancel = false;
    const MeasureOptions options = m_options;
    // The worker talks to the dialog only through queued calls; `this` is their context, so
    // calls still queued when the dialog is gone are dropped.
    m_thread = QThread::create([this, options] {
        auto result = measureMachine(
            options,
            [this](const MeasureProgress &progress) {
                const double fraction = progress.fraction;
                const QString stage = qs(progress.stage);
                std::optional<BandwidthSample> sample;
                if (progress.sample)
                    sample = *progress.sample;
                QMetaObject::invokeMethod(
                    this,
                    [this, fraction, stage, sample] {
                        m_progress->setValue(static_cast<int>(fraction * 1000.0));
                        if (!m_cancel)
                            m_stage->setText(stage);
                        if (sample)
                            addSample(*sample);
                    },
                    Qt::QueuedConnection);
                return true;
            },
            &m_cancel);
        auto shared = std::make_shared<Expected<MeasureResult, std::string>>(std::move(result));
        QMetaObject::invokeMethod(
            this, [this, shared] { finish(std::move(*shared)); }, Qt::QueuedConnection);
    });
    m_thread->start();
}

QCPGraph *MeasureDialog::graphFor(MemoryKernel kernel, int threads)
{
    const QString name = QString("%1, %2 %3")
                             .arg(qs(std::string(memoryKernelName(kernel))))
                             .arg(threads)
                             .arg(threads == 1 ? tr("thread") : tr("threads"));
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        if (m_plot->graph(i)->name() == name)
            return m_plot->graph(i);
    }
    QCPGraph *graph = m_plot->addGraph();
    graph->setName(name);
    QPen pen(kernelColor(kernel));
    pen.setWidthF(1.5);
    if (threads == 1)
        pen.setStyle(Qt::DashLine);
    graph->setPen(pen);
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
    return graph;
}

void MeasureDialog::addSample(const BandwidthSample &sample)
{
    graphFor(sample.kernel, sample.threads)
        ->addData(static_cast<double>(sample.workingSet), sample.best / 1e9);
    bool found = false;
    const QCPRange range = m_plot->graph(0)->getValueRange(found);
    double low = range.lower, high = range.upper;
    for (int i = 1; i < m_plot->graphCount(); ++i) {
        const QCPRange r = m_plot->graph(i)->getValueRange(found);
        low = std::min(low, r.lower);
        high = std::max(high, r.upper);
    }
    if (low > 0.0)
        m_plot->yAxis->setRange(low / 1.5, high * 1.5);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void MeasureDialog::finish(Expected<MeasureResult, std::string> result)
{
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
    if (!result) {
        m_error = qs(result.error());
        m_stage->setText(result.error() == "cancelled" ? tr("Cancelled.")
                                                       : tr("Measuring failed: %1").arg(m_error));
        m_cancelButton->setText(tr("Close"));
        emit measurementFinished(false);
        if (m_closeWhenStopped)
            QDialog::reject();
        return;
    }
    m_result = std::move(*result);
    m_progress->setValue(1000);
    const Hardware &hardware = m_result->hardware;
    QStringList lines;
    if (const auto *compute = hardware.defaultComputeCeiling())
        lines << QString("%1: %2").arg(
            qs(compute->name), qs(formatQuantity(compute->peak, Dimension::FlopRate)));
    for (const auto &memory : hardware.memory) {
        if (memory.visible && memory.name.find("(spec)") == std::string::npos)
            lines << QString("%1: %2").arg(
                qs(memory.name), qs(formatQuantity(memory.bandwidth, Dimension::ByteRate)));
    }
    m_stage->setText(tr("Measured %1 in %2 s.")
                         .arg(qs(hardware.name))
                         .arg(m_result->measurement.elapsedSeconds, 0, 'f', 1));
    m_summary->setText(lines.join("   ") + "\n"
        + tr("Bytes counted: %1.").arg(qs(m_result->measurement.byteCounting)));
    m_acceptButton->setEnabled(true);
    m_acceptButton->setDefault(true);
    m_cancelButton->setText(tr("Discard"));
    emit measurementFinished(true);
}

void MeasureDialog::cancel()
{
    if (m_thread) {
        m_cancel = true;
        m_stage->setText(tr("Cancelling…"));
    }
}

void MeasureDialog::reject()
{
    if (m_thread) {
        m_closeWhenStopped = true;
        cancel();
        return;
    }
    QDialog::reject();
}

} // namespace ridgepoint
