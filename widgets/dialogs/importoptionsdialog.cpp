#include "widgets/dialogs/importoptionsdialog.h"

#include "widgets/document/pointsloader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace ridgepoint {
namespace {

// A control with a short reminder of the usual values beside it.
QWidget *withHint(QWidget *control, const QString &hint, QWidget *parent)
{
    auto *row = new QWidget(parent);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(control);
    auto *label = new QLabel(hint, row);
    label->setEnabled(false); // greyed: a reminder, not a control
    layout->addWidget(label, 1);
    return row;
}

} // namespace

ImportOptionsDialog::ImportOptionsDialog(QWidget *parent, const QStringList &rereadFiles)
    : QDialog(parent)
    , m_perKernel(
          new QCheckBox(tr("One point per &kernel name: sum its launches or dispatches"), this))
    , m_tensorFlops(new QSpinBox(this))
    , m_halfFlops(new QComboBox(this))
    , m_decimal(new QComboBox(this))
    , m_ldsBanks(new QSpinBox(this))
{
    setWindowTitle(tr("Import options"));
    setUpControls();

    auto *intro = new QLabel(tr("What a profiler's file does not say itself. Used by File ▸ "
                                "Import…, dropped files, machine files and baselines; "
                                "remembered."),
        this);
    intro->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    addGroups(layout);
    layout->addStretch(1);
    layout->addWidget(buttonBox(rereadFiles));

    setOptions(importReadOptions());
}

// Names, ranges, choices and tooltips (each with its formula and command-line option).
void ImportOptionsDialog::setUpControls()
{
    m_perKernel->setObjectName("perKernel");
    m_perKernel->setToolTip(
        tr("Nsight Compute: one point per kernel name instead of one per launch (ID).\n"
           "rocprof-compute pmc_perf.csv: one per Kernel_Name instead of one per dispatch.\n"
           "FLOPs, bytes per level and time are summed over the launches, so\n"
           "intensity = ΣFLOP / Σbytes and performance = ΣFLOP / Σtime."));

    m_tensorFlops->setObjectName("tensorFlopsPerInstruction");
    m_tensorFlops->setRange(1, kMaxTensorFlopsPerInstruction);
    m_tensorFlops->setSuffix(tr(" FLOP"));
    m_tensorFlops->setToolTip(
        tr("FLOP per sm__inst_executed_pipe_tensor instruction: 512 on V100, 1024 on A100.\n"
           "Tensor FLOP = sm__inst_executed_pipe_tensor.sum × this; also the tensor roof\n"
           "of an ncu page read as a machine. Not used when the file has\n"
           "sm__ops_path_tensor_* metrics, which count the operations themselves."));

    m_halfFlops->setObjectName("halfFlopsPerFma");
    m_halfFlops->addItem(tr("2: NERSC method, FP16 FLOP = 2·hfma + hadd + hmul"), 2);
    m_halfFlops->addItem(tr("4: ncu's roofline, a packed HFMA2 counts 4"), 4);
    m_halfFlops->setToolTip(
        tr("FLOP per sm__sass_thread_inst_executed_op_hfma_pred_on instruction.\n"
           "FP16 FLOP = k·hfma + hadd + hmul, with k = 2 (NERSC's method) or 4\n"
           "(ncu's roofline counts each HFMA2 instruction as two FMAs)."));

    m_decimal->setObjectName("decimalSeparator");
    m_decimal->addItem(tr("Tell from each file"), QStringLiteral("auto"));
    m_decimal->addItem(
        tr("Decimal comma: 65,77 = 65.77; 27.595.520 = 27595520"), QStringLiteral("comma"));
    m_decimal->addItem(
        tr("Decimal point: a comma groups thousands, 53,261,312"), QStringLiteral("point"));
    m_decimal->setToolTip(
        tr("ncu writes numbers in the locale it ran in. Told from the file: a value with two\n"
           "or more '.' groups (27.595.520) or '.' groups before a ',' (7.340,03), and none\n"
           "grouped the usual way, means a decimal comma. Otherwise \"65,77\" is refused\n"
           "rather than guessed."));

    m_ldsBanks->setObjectName("ldsBanksPerCu");
    m_ldsBanks->setRange(1, kMaxLdsBanksPerCu);
    m_ldsBanks->setToolTip(
        tr("LDS bytes = (SQ_LDS_IDX_ACTIVE − SQ_LDS_BANK_CONFLICT) × 4 B × banks.\n"
           "32 on MI200 and MI300: rocprof-compute's lds_banks_per_cu, from sysinfo.csv,\n"
           "which pmc_perf.csv does not carry."));
}

// One group per reader the options apply to.
void ImportOptionsDialog::addGroups(QVBoxLayout *layout)
{
    auto *points = new QGroupBox(tr("Points"), this);
    auto *pointsLayout = new QVBoxLayout(points);
    pointsLayout->addWidget(m_perKernel);
    auto *perKernelHint = new QLabel(
        tr("Nsight Compute and rocprof-compute; otherwise one point per launch."), points);
    perKernelHint->setEnabled(false);
    pointsLayout->addWidget(perKernelHint);

    auto *ncu = new QGroupBox(tr("Nsight Compute"), this);
    auto *ncuLayout = new QFormLayout(ncu);
    auto *tensorLabel = new QLabel(tr("FLOP per &tensor instruction:"), ncu);
    tensorLabel->setBuddy(m_tensorFlops);
    ncuLayout->addRow(tensorLabel, withHint(m_tensorFlops, tr("512 on V100, 1024 on A100"), ncu));
    auto *halfLabel = new QLabel(tr("FLOP per &half FMA:"), ncu);
    halfLabel->setBuddy(m_halfFlops);
    ncuLayout->addRow(halfLabel, m_halfFlops);
    auto *decimalLabel = new QLabel(tr("&Numbers:"), ncu);
    decimalLabel->setBuddy(m_decimal);
    ncuLayout->addRow(decimalLabel, m_decimal);

    auto *rocprof = new QGroupBox(tr("rocprof-compute"), this);
    auto *rocprofLayout = new QFormLayout(rocprof);
    auto *ldsLabel = new QLabel(tr("&LDS banks per CU:"), rocprof);
    ldsLabel->setBuddy(m_ldsBanks);
    rocprofLayout->addRow(ldsLabel, withHint(m_ldsBanks, tr("32 on MI200 and MI300"), rocprof));

    layout->addWidget(points);
    layout->addWidget(ncu);
    layout->addWidget(rocprof);
}

QDialogButtonBox *ImportOptionsDialog::buttonBox(const QStringList &rereadFiles)
{
    auto *buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    buttons->setObjectName("buttons");
    buttons->button(QDialogButtonBox::Ok)->setToolTip(tr("Use these options from the next import"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ImportOptionsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ImportOptionsDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
        [this] { setOptions(ReadOptions {}); });
    if (!rereadFiles.isEmpty()) {
        // The kernels on show were read from files: let the new options apply to them now,
        // without going through File ▸ Import… again.
        m_rereadButton = rereadFiles.size() == 1
            ? new QPushButton(
                tr("Apply and &re-read %1").arg(QFileInfo(rereadFiles.front()).fileName()), this)
            : new QPushButton(
                tr("Apply and &re-read %n files", nullptr, int(rereadFiles.size())), this);
        m_rereadButton->setObjectName("reread");
        m_rereadButton->setToolTip(
            tr("Save the options and read the kernels on show again with them:\n%1")
                .arg(rereadFiles.join('\n')));
        buttons->addButton(m_rereadButton, QDialogButtonBox::ActionRole);
        connect(m_rereadButton, &QPushButton::clicked, this, [this] {
            m_reread = true;
            accept();
        });
    }
    return buttons;
}

ReadOptions ImportOptionsDialog::options() const
{
    ReadOptions options;
    options.ncu.sumLaunchesOfAKernel = m_perKernel->isChecked();
    options.rocprof.sumDispatchesOfAKernel = m_perKernel->isChecked();
    options.ncu.tensorFlopsPerInstruction = m_tensorFlops->value();
    options.ncu.halfFlopsPerFma = m_halfFlops->currentData().toInt();
    const QString decimal = m_decimal->currentData().toString();
    if (decimal == QLatin1String("comma"))
        options.ncu.decimalComma = true;
    else if (decimal == QLatin1String("point"))
        options.ncu.decimalComma = false;
    options.rocprof.ldsBanksPerCu = m_ldsBanks->value();
    return options;
}

void ImportOptionsDialog::setOptions(const ReadOptions &options)
{
    m_perKernel->setChecked(
        options.ncu.sumLaunchesOfAKernel || options.rocprof.sumDispatchesOfAKernel);
    m_tensorFlops->setValue(static_cast<int>(options.ncu.tensorFlopsPerInstruction));
    m_halfFlops->setCurrentIndex(
        std::max(0, m_halfFlops->findData(static_cast<int>(options.ncu.halfFlopsPerFma))));
    const QString decimal = !options.ncu.decimalComma ? QStringLiteral("auto")
        : *options.ncu.decimalComma                   ? QStringLiteral("comma")
                                                      : QStringLiteral("point");
    m_decimal->setCurrentIndex(std::max(0, m_decimal->findData(decimal)));
    m_ldsBanks->setValue(static_cast<int>(options.rocprof.ldsBanksPerCu));
}

void ImportOptionsDialog::accept()
{
    // A number half typed in a box counts as typed.
    m_tensorFlops->interpretText();
    m_ldsBanks->interpretText();
    setImportReadOptions(options());
    QDialog::accept();
}

} // namespace ridgepoint
