#include "widgets/exportdialog.h"

#include "widgets/rooflineplot.h"
#include "widgets/settings.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace ridgepoint {

ExportDialog::ExportDialog(RooflinePlot *plot, QWidget *parent)
    : QDialog(parent)
    , m_plot(plot)
    , m_format(new QComboBox(this))
    , m_file(new QLineEdit(this))
    , m_width(new QSpinBox(this))
    , m_height(new QSpinBox(this))
    , m_scale(new QDoubleSpinBox(this))
    , m_note(new QLabel(this))
{
    setWindowTitle(tr("Export chart"));
    m_format->setObjectName("format");
    m_format->addItem(tr("PNG image"), "png");
    m_format->addItem(tr("SVG drawing"), "svg");
    m_format->addItem(tr("PDF document"), "pdf");
    m_format->setCurrentIndex(
        std::max(0, m_format->findData(Settings::get(settings::exportFormat))));
    m_file->setObjectName("file");
    QString directory = Settings::get(settings::exportDirectory);
    if (directory.isEmpty())
        directory = QDir::currentPath();
    m_file->setText(QDir(directory).filePath("roofline." + m_format->currentData().toString()));
    for (QSpinBox *box : { m_width, m_height }) {
        box->setRange(16, 20000);
        box->setSuffix(tr(" px"));
    }
    m_width->setObjectName("width");
    m_height->setObjectName("height");
    m_width->setValue(Settings::get(settings::exportWidth));
    m_height->setValue(Settings::get(settings::exportHeight));
    m_scale->setObjectName("scale");
    m_scale->setRange(0.25, 8.0);
    m_scale->setSingleStep(0.5);
    m_scale->setValue(Settings::get(settings::exportScale));
    m_scale->setPrefix("×");
    m_note->setObjectName("note");
    m_note->setWordWrap(true);

    auto *browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString name = QFileDialog::getSaveFileName(
            this, tr("Export chart"), m_file->text(), tr("PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"));
        if (name.isEmpty())
            return;
        m_file->setText(name);
        const int i = m_format->findData(QFileInfo(name).suffix().toLower());
        if (i >= 0)
            m_format->setCurrentIndex(i);
    });
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        syncSuffix();
        updateSizeNote();
    });
    for (QSpinBox *box : { m_width, m_height })
        connect(box, &QSpinBox::valueChanged, this, &ExportDialog::updateSizeNote);
    connect(m_scale, &QDoubleSpinBox::valueChanged, this, &ExportDialog::updateSizeNote);

    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browse);
    auto *form = new QFormLayout;
    form->addRow(tr("Format"), m_format);
    form->addRow(tr("File"), fileRow);
    form->addRow(tr("Width"), m_width);
    form->addRow(tr("Height"), m_height);
    form->addRow(tr("Scale"), m_scale);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_note);
    layout->addWidget(buttons);
    updateSizeNote();
}

QString ExportDialog::fileName() const
{
    return m_file->text();
}

void ExportDialog::syncSuffix()
{
    const QFileInfo info(m_file->text());
    const QString suffix = m_format->currentData().toString();
    if (info.suffix().toLower() != suffix)
        m_file->setText(info.dir().filePath(info.completeBaseName() + "." + suffix));
}

void ExportDialog::updateSizeNote()
{
    if (m_format->currentData().toString() == "png")
        m_note->setText(tr("The image will be %1 × %2 pixels.")
                            .arg(qRound(m_width->value() * m_scale->value()))
                            .arg(qRound(m_height->value() * m_scale->value())));
    else
        m_note->setText(
            tr("Vector output: the size sets the page; the scale applies to PNG only."));
    m_note->setStyleSheet(QString());
}

QString ExportDialog::exportChart()
{
    syncSuffix();
    QString error
        = m_plot->exportTo(m_file->text(), m_width->value(), m_height->value(), m_scale->value());
    if (!error.isEmpty()) {
        m_note->setText(error);
        m_note->setStyleSheet("color: #b00000");
        return error;
    }
    Settings::set(settings::exportFormat, m_format->currentData().toString());
    Settings::set(settings::exportWidth, m_width->value());
    Settings::set(settings::exportHeight, m_height->value());
    Settings::set(settings::exportScale, m_scale->value());
    Settings::set(settings::exportDirectory, QFileInfo(m_file->text()).absolutePath());
    return {};
}

void ExportDialog::accept()
{
    if (exportChart().isEmpty())
        QDialog::accept();
}

} // namespace ridgepoint
