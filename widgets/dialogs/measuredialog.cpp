#include "widgets/dialogs/measuredialog.h"
#include "widgets/qtext.h"

#include "core/model/units.h"
#include "widgets/document/settings.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>

namespace ridgepoint {
namespace {

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

// A budget from the settings; a hand-edited value that is no positive number of seconds falls
// back to the default.
double budgetSetting(const Setting<double> &setting)
{
    const double seconds = Settings::get(setting);
    return seconds > 0.0 && seconds <= 3600.0 ? seconds : setting.defaultValue;
}

QString isaText(const std::string &isa)
{
    if (isa == "avx512")
        return QStringLiteral("AVX-512");
    if (isa == "avx2")
        return QStringLiteral("AVX2 + FMA");
    if (isa == "sse2")
        return QStringLiteral("SSE2");
    return q(isa);
}

} // namespace

MeasureDialog::MeasureDialog(
    MeasureOptions options, std::vector<Hardware> specPresets, QWidget *parent)
    : QDialog(parent)
    , m_options(std::move(options))
    , m_stage(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_plot(new QCustomPlot(this))
    , m_detected(new QLabel(this))
    , m_results(new QTableWidget(this))
    , m_summary(new QLabel(this))
    , m_buttons(new QDialogButtonBox(this))
{
    setWindowTitle(tr("Measure this machine"));
    for (auto &machine : specPresets) {
        if (machine.kind == "cpu")
            m_specPresets.push_back(std::move(machine));
    }
    if (m_options.spec
        && std::none_of(m_specPresets.begin(), m_specPresets.end(),
            [&](const Hardware &h) { return h.name == m_options.spec->name; }))
        m_specPresets.insert(m_specPresets.begin(), *m_options.spec);
    m_choices = buildChoices();

    m_stage->setWordWrap(true);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_detected->setWordWrap(true);
    m_detected->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detected->hide();
    m_results->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_results->setTabKeyNavigation(false); // Tab leaves the table; the arrows move in it
    m_results->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_results->verticalHeader()->hide();
    m_results->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_results->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_results->hide();
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
    m_plot->legend->setVisible(false); // shown with the first curve
    m_plot->setMinimumSize(560, 280);

    m_startButton = m_buttons->addButton(tr("&Start"), QDialogButtonBox::ActionRole);
    m_acceptButton = m_buttons->addButton(tr("&Use this machine"), QDialogButtonBox::AcceptRole);
    m_acceptButton->setEnabled(false);
    m_acceptButton->setAutoDefault(false);
    m_cancelButton = m_buttons->addButton(QDialogButtonBox::Cancel);
    m_cancelButton->setAutoDefault(false);
    m_startButton->setDefault(true); // Enter starts
    connect(m_startButton, &QPushButton::clicked, this, &MeasureDialog::start);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &MeasureDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_choices);
    layout->addWidget(m_stage);
    layout->addWidget(m_progress);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_detected);
    layout->addWidget(m_results);
    layout->addWidget(m_summary);
    layout->addWidget(m_buttons);
    updateStartText();
    m_startButton->setFocus();
    resize(sizeHint().expandedTo(QSize(820, 0)));
}

MeasureDialog::~MeasureDialog()
{
    if (m_thread) {
        m_cancel = true;
        m_thread->wait();
        delete m_thread;
    }
}

QGroupBox *MeasureDialog::buildChoices()
{
    auto *box = new QGroupBox(tr("Before measuring"), this);
    const double quick = budgetSetting(settings::measureQuickSeconds);
    const double thorough = budgetSetting(settings::measureThoroughSeconds);
    m_quick = new QRadioButton(tr("&Quick, about %1 s").arg(quick, 0, 'g', 3), box);
    m_quick->setToolTip(tr("Working sets up to 16 times the last-level cache, two per octave, "
                           "few repetitions: a first look."));
    m_thorough = new QRadioButton(tr("&Thorough, about %1 s").arg(thorough, 0, 'g', 3), box);
    m_thorough->setToolTip(tr("Working sets up to 32 times the last-level cache, three per "
                              "octave, more repetitions: steadier figures."));
    auto *budgets = new QButtonGroup(box);
    budgets->addButton(m_quick);
    budgets->addButton(m_thorough);
    (Settings::get(settings::measureBudget) == QLatin1String("quick") ? m_quick : m_thorough)
        ->setChecked(true);

    const int cpus = std::max(usableCpus(), 1);
    m_allThreads
        = new QRadioButton(cpus == 1 ? tr("&The one CPU") : tr("&All %1 CPUs").arg(cpus), box);
    m_allThreads->setToolTip(tr("One thread pinned to each CPU this process may use."));
    m_someThreads = new QRadioButton(tr("O&nly"), box);
    m_threads = new QSpinBox(box);
    m_threads->setRange(1, cpus);
    auto *threadGroup = new QButtonGroup(box);
    threadGroup->addButton(m_allThreads);
    threadGroup->addButton(m_someThreads);
    const int stored = Settings::get(settings::measureThreads);
    if (stored > 0) {
        m_someThreads->setChecked(true);
        m_threads->setValue(std::min(stored, cpus));
    } else {
        m_allThreads->setChecked(true);
        m_threads->setValue(cpus);
    }
    const auto threadsSuffix
        = [this](int value) { m_threads->setSuffix(value == 1 ? tr(" thread") : tr(" threads")); };
    threadsSuffix(m_threads->value());
    connect(m_threads, &QSpinBox::valueChanged, this, threadsSuffix);
    m_threads->setEnabled(m_someThreads->isChecked());
    connect(m_someThreads, &QRadioButton::toggled, m_threads, &QSpinBox::setEnabled);
    connect(m_quick, &QRadioButton::toggled, this, &MeasureDialog::updateStartText);

    m_spec = new QComboBox(box);
    m_spec->addItem(tr("None"));
    for (const auto &machine : m_specPresets)
        m_spec->addItem(q(machine.name));
    m_spec->setToolTip(tr("Its ceilings are added as (spec) beside the measured ones."));
    auto *hint = new QLabel(box);
    if (m_options.spec) {
        m_spec->setCurrentIndex(m_spec->findText(q(m_options.spec->name)));
        hint->setText(tr("(found from the CPU model)"));
    } else {
        hint->setText(tr("(no preset matches the CPU model “%1”)").arg(q(detectCpuModel())));
    }

    const auto row = [](std::initializer_list<QWidget *> widgets) {
        auto *line = new QHBoxLayout;
        for (QWidget *widget : widgets)
            line->addWidget(widget);
        line->addStretch(1);
        return line;
    };
    auto *form = new QFormLayout(box);
    form->addRow(tr("Duration:"), row({ m_quick, m_thorough }));
    form->addRow(tr("Threads:"), row({ m_allThreads, m_someThreads, m_threads }));
    form->addRow(tr("Compare with:"), row({ m_spec, hint }));
    return box;
}

void MeasureDialog::updateStartText()
{
    if (m_started)
        return;
    m_stage->setText(tr("Bandwidth per working set from 4 KiB to well past the last-level cache, "
                        "then peak FLOP/s: about %1 s. Other programs running meanwhile lower "
                        "the figures.")
                         .arg(options().budgetSeconds, 0, 'g', 3));
}

MeasureOptions MeasureDialog::options() const
{
    MeasureOptions options = m_options;
    options.budgetSeconds = m_quick->isChecked() ? budgetSetting(settings::measureQuickSeconds)
                                                 : budgetSetting(settings::measureThoroughSeconds);
    options.threads = m_someThreads->isChecked() ? m_threads->value() : 0;
    if (options.maxWorkingSet == 0)
        options.maxWorkingSet = static_cast<std::uint64_t>(
            std::max<qint64>(0, Settings::get(settings::measureMaxWorkingSet)));
    const int spec = m_spec->currentIndex();
    options.spec = spec > 0 ? std::optional(m_specPresets[static_cast<std::size_t>(spec - 1)])
                            : std::nullopt;
    return options;
}

void MeasureDialog::start()
{
    if (m_started)
        return;
    const MeasureOptions options = this->options();
    Settings::set(settings::measureBudget,
        m_quick->isChecked() ? QStringLiteral("quick") : QStringLiteral("thorough"));
    Settings::set(settings::measureThreads, options.threads);
    m_started = true;
    m_cancel = false;
    m_choices->setEnabled(false);
    m_startButton->setEnabled(false);
    m_cancelButton->setFocus();
    m_stage->setText(tr("Starting…"));
    // The worker talks to the dialog only through queued calls; `this` is their context, so
    // calls still queued when the dialog is gone are dropped.
    m_thread = QThread::create([this, options] {
        auto result = measureMachine(
            options,
            [this](const MeasureProgress &progress) {
                const double fraction = progress.fraction;
                const QString stage = q(progress.stage);
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
                             .arg(q(std::string(memoryKernelName(kernel))))
                             .arg(threads)
                             .arg(threads == 1 ? tr("thread") : tr("threads"));
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        if (m_plot->graph(i)->name() == name)
            return m_plot->graph(i);
    }
    QCPGraph *graph = m_plot->addGraph();
    graph->setName(name);
    m_plot->legend->setVisible(true);
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
        m_error = q(result.error());
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
    showResult();
    m_acceptButton->setEnabled(true);
    m_acceptButton->setDefault(true);
    m_acceptButton->setFocus();
    m_cancelButton->setText(tr("Discard"));
    emit measurementFinished(true);
}

void MeasureDialog::showResult()
{
    const Hardware &hardware = m_result->hardware;
    const Measurement &m = m_result->measurement;
    m_stage->setText(
        tr("Done: %1, in %2 s.").arg(q(hardware.name)).arg(m.elapsedSeconds, 0, 'f', 1));

    QStringList isas;
    for (const auto &isa : m.isas)
        isas << isaText(isa);
    // The labelling's warnings (a level out of speed order, no DRAM level, ...), one a line.
    QStringList warnings;
    for (const auto &warning : m.warnings)
        warnings << q(warning).toHtmlEscaped();
    m_detected->setText(
        tr("<b>Detected:</b> %1 (%2); measured on %3 of %4 CPUs; widest vector instructions %5 "
           "(runs %6).<br><b>Caches as reported</b> (the levels below are named by these "
           "sizes): %7.")
            .arg(q(m.cpuModel).toHtmlEscaped(), q(hardware.vendor).toHtmlEscaped())
            .arg(m.threads)
            .arg(m.hardwareThreads)
            .arg(isaText(m.isa), isas.join(", "), q(describeCaches(m.reportedCaches)))
        + (warnings.isEmpty() ? QString()
                              : "<br><b>" + tr("Warnings:") + "</b> " + warnings.join("<br>")));
    m_detected->show();

    const auto rows = compareWithSpec(m);
    m_results->clear();
    m_results->setColumnCount(4);
    m_results->setHorizontalHeaderLabels({ tr("Ceiling"),
        m.threads == 1 ? tr("Measured, 1 thread") : tr("Measured, %1 threads").arg(m.threads),
        m.spec ? tr("Spec: %1").arg(q(m.spec->name)) : tr("Spec (none chosen)"),
        tr("Measured / spec") });
    m_results->setRowCount(static_cast<int>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto &row = rows[i];
        const Dimension unit = row.compute ? Dimension::FlopRate : Dimension::ByteRate;
        const bool hasSpec = !row.specName.empty();
        const QString cells[] = { q(row.measuredName), q(formatQuantity(row.measured, unit)),
            hasSpec ? QString("%1 (%2)").arg(q(formatQuantity(row.spec, unit)), q(row.specName))
                    : QStringLiteral("—"),
            hasSpec ? QString("%1 %").arg(q(formatSignificant(100.0 * row.measured / row.spec, 3)))
                    : QStringLiteral("—") };
        for (int column = 0; column < 4; ++column) {
            auto *item = new QTableWidgetItem(cells[column]);
            if (column > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_results->setItem(static_cast<int>(i), column, item);
        }
    }
    m_results->resizeColumnsToContents();
    m_results->horizontalHeader()->setStretchLastSection(true);
    m_results->show();

    QString summary = tr("Bytes counted: %1.").arg(q(m.byteCounting));
    if (m.spec)
        summary += " "
            + tr("The spec is for the whole chip at its nominal clock; the measured figures are "
                 "for %1.")
                  .arg(m.threads == 1 ? tr("one thread") : tr("%1 threads").arg(m.threads));
    summary += " "
        + tr("Every figure is in the machine's ceilings; the hidden ones (copy, triad, "
             "one thread) can be shown in the Hardware panel.");
    m_summary->setText(summary);
    // Room for what appeared below the curve (the window manager may still limit it).
    layout()->activate();
    resize(size().expandedTo(sizeHint()));
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
