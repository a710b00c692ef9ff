// File ▸ Import options…: what the profilers' files do not say themselves (core/io/readers.h
// ReadOptions) — one point per kernel or per launch, FLOP per tensor instruction and per half
// FMA, the decimal separator of an ncu export, LDS banks per CU — chosen before importing and
// remembered in the settings. The command line's --per-kernel, --tensor-flops-per-inst,
// --half-fma-flops, --decimal-comma/--decimal-point and --lds-banks are the same choices.
#pragma once

#include "core/io/readers.h"

#include <QDialog>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace ridgepoint {

class ImportOptionsDialog : public QDialog
{
    Q_OBJECT

public:
    // Shows the options in the settings. `rereadFiles`: the points files the kernels on show
    // were read from; when there are any, "Apply and re-read" is offered as well as OK.
    explicit ImportOptionsDialog(QWidget *parent = nullptr, const QStringList &rereadFiles = {});

    // What the controls say now.
    ReadOptions options() const;
    void setOptions(const ReadOptions &options);
    // After exec(): true when the dialog was closed with "Apply and re-read".
    bool rereadRequested() const { return m_reread; }

    // OK and "Apply and re-read": the options go to the settings.
    void accept() override;

private:
    void setUpControls();
    void addGroups(QVBoxLayout *layout);
    QDialogButtonBox *buttonBox(const QStringList &rereadFiles);

    QCheckBox *m_perKernel;
    QSpinBox *m_tensorFlops;
    QComboBox *m_halfFlops;
    QComboBox *m_decimal;
    QSpinBox *m_ldsBanks;
    QPushButton *m_rereadButton = nullptr;
    bool m_reread = false;
};

} // namespace ridgepoint
