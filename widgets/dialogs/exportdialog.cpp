#include "widgets/dialogs/exportdialog.h"

#include "widgets/chart/rooflineplot.h"
#include "widgets/document/settings.h"
#include "widgets/export/chartexporter.h"
#include "widgets/export/exportlimits.h"
#include "widgets/export/figuresession.h"

#include <QCheckBox>
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

#include <algorithm>

namespace ridgepoint {
namespace {

// The sizes, resolutions and the 96 logical pixels per inch the render command accepts too.
constexpr double kLogicalDpi = ExportLimits::kLogicalDpi;
constexpr int kMinPixels = ExportLimits::kMinSide;
constexpr int kMaxPixels = ExportLimits::kMaxSide;

struct SizeUnit {
    const char *key;
    const char *label;
    double pixels; // logical pixels per unit
    int decimals;
};

constexpr SizeUnit kUnits[] = {
    { "px", QT_TRANSLATE_NOOP("ExportDialog", "px"), 1.0, 0 },
    { "in", QT_TRANSLATE_NOOP("ExportDialog", "in"), kLogicalDpi, 2 },
    { "cm", QT_TRANSLATE_NOOP("ExportDialog", "cm"), kLogicalDpi / 2.54, 2 },
};

QString megabytes(qsizetype bytes)
{
    return QLocale().toString(double(bytes) / (1024.0 * 1024.0), 'f', 1);
}

// Why a PNG of these options is refused (wider or higher than ExportLimits::kMaxSide device
// pixels, as the render command refuses it); empty when it is not.
QString pngTooLarge(const ExportOptions &options)
{
    if (options.dpi <= 0)
        return {};
    const long longest
        = ExportLimits::devicePixels(std::max(options.width, options.height), options.dpi);
    if (longest <= ExportLimits::kMaxSide)
        return {};
    return ExportDialog::tr("At %1 dpi the PNG would be %2 pixels wide or high; at most %3 (choose "
                            "a smaller size or resolution).")
        .arg(options.dpi)
        .arg(longest)
        .arg(ExportLimits::kMaxSide);
}

} // namespace

ExportDialog::ExportDialog(RooflinePlot *plot, QWidget *parent)
    : QDialog(parent)
    , m_plot(plot)
    , m_preset(new QComboBox(this))
    , m_format(new QComboBox(this))
    , m_file(new QLineEdit(this))
    , m_title(new QLineEdit(this))
    , m_contents(new QComboBox(this))
    , m_width(new QDoubleSpinBox(this))
    , m_height(new QDoubleSpinBox(this))
    , m_unit(new QComboBox(this))
    , m_dpi(new QSpinBox(this))
    , m_note(new QLabel(this))
    , m_embed(new QCheckBox(
          tr("&Embed the session, so the picture can be reopened and edited in Ridgepoint"), this))
    , m_sessionNote(new QLabel(this))
    , m_error(new QLabel(this))
{
    setWindowTitle(tr("Export image"));
    setUpFromSettings();
    setUpNotes();
    setUpPreset();
    auto *browse = new QPushButton(tr("Browse…"), this);
    connectControls(browse);
    layOut(browse);
    setMinimumWidth(560);
    updateNotes();
}

// The controls, named for the tests, with the choices last used (Settings).
void ExportDialog::setUpFromSettings()
{
    m_format->setObjectName("format");
    m_format->addItem(tr("PNG image"), "png");
    m_format->addItem(tr("SVG drawing (text stays text)"), "svg");
    m_format->addItem(tr("PDF document (text stays text)"), "pdf");
    m_format->setCurrentIndex(
        std::max(0, m_format->findData(Settings::get(settings::exportFormat))));
    m_file->setObjectName("file");
    QString directory = Settings::get(settings::exportDirectory);
    if (directory.isEmpty())
        directory = QDir::currentPath();
    m_file->setText(QDir(directory).filePath("roofline." + m_format->currentData().toString()));

    m_title->setObjectName("title");
    m_title->setPlaceholderText(tr("none"));
    m_title->setText(Settings::get(settings::exportTitle));
    m_title->setToolTip(tr("Drawn above the chart"));
    m_contents->setObjectName("contents");
    m_contents->addItem(tr("Chart only (with its legend)"), false);
    m_contents->addItem(tr("Chart, legend and points table"), true);
    m_contents->setCurrentIndex(Settings::get(settings::exportTable) ? 1 : 0);
    m_contents->setToolTip(tr("The table lists each kernel's intensity, performance, roof, bound "
                              "and utilization under the chart"));

    m_unit->setObjectName("unit");
    for (const SizeUnit &unit : kUnits)
        m_unit->addItem(tr(unit.label), QString::fromLatin1(unit.key));
    m_unit->setToolTip(tr("A picture is laid out at 96 pixels per inch: its text has the size "
                          "it would have on the page at this size"));
    m_width->setObjectName("width");
    m_height->setObjectName("height");
    m_unit->setCurrentIndex(std::max(0, m_unit->findData(Settings::get(settings::exportSizeUnit))));
    changeUnit();
    m_width->setValue(Settings::get(settings::exportWidth) / m_unitPixels);
    m_height->setValue(Settings::get(settings::exportHeight) / m_unitPixels);

    m_dpi->setObjectName("dpi");
    m_dpi->setRange(ExportLimits::kMinDpi, ExportLimits::kMaxDpi);
    m_dpi->setSingleStep(50);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setValue(Settings::get(settings::exportDpi));
    m_dpi->setToolTip(tr("The picture is laid out at 96 pixels per inch and drawn dpi / 96 times "
                         "finer: 96 dpi is a screen, 300 dpi suits print"));
}

void ExportDialog::setUpPreset()
{
    m_preset->setObjectName("preset");
    m_preset->addItem(tr("None (the size below)"), QString());
    m_preset->addItem(tr("Slide 16:9 (1920 × 1080, large text, legend below)"), "slide");
    m_preset->setToolTip(tr("A slide: 1920 × 1080 pixels, text %1× the window's, the legend "
                            "below the plot")
                             .arg(kSlideFontScale));
    connect(m_preset, &QComboBox::currentIndexChanged, this, &ExportDialog::applyPreset);
}

// The preset's size in pixels at 96 dpi; the font scale and legend are read by options().
void ExportDialog::applyPreset()
{
    const auto preset = exportPreset(m_preset->currentData().toString());
    if (!preset)
        return;
    m_unit->setCurrentIndex(0); // px
    m_width->setValue(preset->width);
    m_height->setValue(preset->height);
    m_dpi->setValue(static_cast<int>(kLogicalDpi * preset->scale));
    updateNotes();
}

void ExportDialog::setUpNotes()
{
    m_note->setObjectName("note");
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);
    m_embed->setObjectName("embedSession");
    m_embed->setChecked(Settings::get(settings::exportEmbedSession));
    m_sessionNote->setObjectName("sessionNote");
    m_sessionNote->setWordWrap(true);
    m_sessionNote->setTextFormat(Qt::PlainText);
    m_error->setObjectName("error");
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    m_error->setStyleSheet("color: #b00000");
    m_error->hide();
}

void ExportDialog::connectControls(QPushButton *browse)
{
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString name = QFileDialog::getSaveFileName(
            this, tr("Export image"), m_file->text(), tr("PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"));
        if (name.isEmpty())
            return;
        m_file->setText(name);
        const int i = m_format->findData(QFileInfo(name).suffix().toLower());
        if (i >= 0)
            m_format->setCurrentIndex(i);
    });
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        syncSuffix();
        updateNotes();
    });
    connect(m_unit, &QComboBox::currentIndexChanged, this, [this] {
        changeUnit();
        updateNotes();
    });
    for (QDoubleSpinBox *box : { m_width, m_height })
        connect(box, &QDoubleSpinBox::valueChanged, this, &ExportDialog::updateNotes);
    connect(m_dpi, &QSpinBox::valueChanged, this, &ExportDialog::updateNotes);
    connect(m_embed, &QCheckBox::toggled, this, &ExportDialog::updateNotes);
}

void ExportDialog::layOut(QPushButton *browse)
{
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browse);
    auto *sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_width, 1);
    sizeRow->addWidget(new QLabel(QStringLiteral("×"), this));
    sizeRow->addWidget(m_height, 1);
    sizeRow->addWidget(m_unit);
    auto *form = new QFormLayout;
    form->addRow(tr("&Preset"), m_preset);
    form->addRow(tr("&Format"), m_format);
    // Rows holding a layout get no buddy from QFormLayout: give their labels one.
    auto *fileLabel = new QLabel(tr("F&ile"), this);
    fileLabel->setBuddy(m_file);
    form->addRow(fileLabel, fileRow);
    form->addRow(tr("&Title"), m_title);
    form->addRow(tr("&Contents"), m_contents);
    auto *sizeLabel = new QLabel(tr("&Size"), this);
    sizeLabel->setBuddy(m_width);
    form->addRow(sizeLabel, sizeRow);
    form->addRow(tr("&Resolution"), m_dpi);
    form->addRow(QString(), m_note);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_embed);
    layout->addWidget(m_sessionNote);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
}

void ExportDialog::setSession(const PictureSession &session)
{
    m_session = session.json;
    m_sessionBytes = static_cast<qsizetype>(session.bytes);
    m_sessionPoints = static_cast<qsizetype>(session.points);
    updateNotes();
}

void ExportDialog::setSession(const QByteArray &json)
{
    m_session = json;
    m_sessionBytes = json.size();
    m_sessionPoints = 0;
    updateNotes();
}

QString ExportDialog::fileName() const
{
    return m_file->text();
}

int ExportDialog::logicalPixels(const QDoubleSpinBox *box) const
{
    return std::clamp(qRound(box->value() * m_unitPixels), kMinPixels, kMaxPixels);
}

bool ExportDialog::canEmbed() const
{
    return !m_session.isEmpty() && m_session.size() <= ExportOptions::kMaxEmbeddedSession;
}

ExportOptions ExportDialog::options() const
{
    ExportOptions options;
    options.width = logicalPixels(m_width);
    options.height = logicalPixels(m_height);
    if (m_format->currentData().toString() == "png") {
        options.dpi = m_dpi->value();
        options.scale = options.dpi / kLogicalDpi;
    }
    options.title = m_title->text().trimmed();
    options.table = m_contents->currentData().toBool();
    if (m_embed->isChecked() && canEmbed())
        options.session = m_session;
    if (const auto preset = exportPreset(m_preset->currentData().toString())) {
        options.fontScale = preset->fontScale;
        options.legendBelow = preset->legendBelow;
    }
    return options;
}

void ExportDialog::syncSuffix()
{
    const QFileInfo info(m_file->text());
    const QString suffix = m_format->currentData().toString();
    if (info.suffix().toLower() != suffix)
        m_file->setText(info.dir().filePath(info.completeBaseName() + "." + suffix));
}

void ExportDialog::changeUnit()
{
    // The size stays the same; only the numbers shown change.
    const int width = logicalPixels(m_width);
    const int height = logicalPixels(m_height);
    const SizeUnit &unit = kUnits[std::max(0, m_unit->currentIndex())];
    m_unitPixels = unit.pixels;
    for (QDoubleSpinBox *box : { m_width, m_height }) {
        const QSignalBlocker blocker(box);
        box->setDecimals(unit.decimals);
        box->setSingleStep(unit.decimals == 0 ? 10.0 : 0.1);
        box->setRange(kMinPixels / unit.pixels, kMaxPixels / unit.pixels);
    }
    const QSignalBlocker blockWidth(m_width);
    const QSignalBlocker blockHeight(m_height);
    m_width->setValue(width / unit.pixels);
    m_height->setValue(height / unit.pixels);
}

void ExportDialog::updateNotes()
{
    const QLocale locale;
    const int width = logicalPixels(m_width);
    const int height = logicalPixels(m_height);
    const QString inches = tr("%1 × %2 in (%3 × %4 cm)")
                               .arg(locale.toString(width / kLogicalDpi, 'f', 2),
                                   locale.toString(height / kLogicalDpi, 'f', 2),
                                   locale.toString(width / kLogicalDpi * 2.54, 'f', 1),
                                   locale.toString(height / kLogicalDpi * 2.54, 'f', 1));
    const QString format = m_format->currentData().toString();
    const bool png = format == "png";
    m_dpi->setEnabled(png);
    if (png) {
        const double scale = m_dpi->value() / kLogicalDpi;
        m_note->setText(tr("%1 at %2 dpi = %3 × %4 pixels")
                            .arg(inches)
                            .arg(m_dpi->value())
                            .arg(qRound(width * scale))
                            .arg(qRound(height * scale)));
        if (const QString tooLarge = pngTooLarge(options()); !tooLarge.isEmpty())
            m_note->setText(m_note->text() + "\n" + tooLarge);
    } else {
        // Vector output: the size is the page; text stays text, so there is no resolution.
        m_note->setText((format == "pdf" ? tr("A PDF page of %1 (%2 × %3 at 96 per inch).")
                                         : tr("An SVG drawing of %1 (%2 × %3 at 96 per inch)."))
                            .arg(inches)
                            .arg(width)
                            .arg(height));
    }

    m_embed->setEnabled(canEmbed());
    if (m_session.isEmpty() && m_sessionBytes > 0)
        // Left out before it was written: its size is known only to exceed this.
        m_sessionNote->setText(
            tr("This session (%1 points) is larger than %2 MB; a picture carries at most %3 MB: "
               "it will not be embedded. Save the session to keep it.")
                .arg(QLocale().toString(m_sessionPoints), megabytes(m_sessionBytes),
                    megabytes(ExportOptions::kMaxEmbeddedSession)));
    else if (m_session.isEmpty())
        m_sessionNote->setText(tr("There is no session to embed."));
    else if (!canEmbed())
        m_sessionNote->setText(
            tr("This session is %1 MB, more than the %2 MB a picture "
               "carries: it will not be embedded. Save the session to keep it.")
                .arg(megabytes(m_session.size()), megabytes(ExportOptions::kMaxEmbeddedSession)));
    else if (m_embed->isChecked())
        m_sessionNote->setText(tr("Adds %1 kB: open the picture with File ▸ Open, or drop it on "
                                  "the window, to get this session back.")
                                   .arg(qMax<qsizetype>(1, m_session.size() / 1024)));
    else
        m_sessionNote->setText(tr("The picture will not carry the session."));
}

QString ExportDialog::exportChart()
{
    syncSuffix();
    QString error = pngTooLarge(options());
    if (error.isEmpty())
        error = ChartExporter(*m_plot).exportTo(m_file->text(), options());
    if (!error.isEmpty()) {
        m_error->setText(error);
        m_error->show();
        return error;
    }
    m_error->hide();
    Settings::set(settings::exportFormat, m_format->currentData().toString());
    Settings::set(settings::exportWidth, logicalPixels(m_width));
    Settings::set(settings::exportHeight, logicalPixels(m_height));
    Settings::set(settings::exportSizeUnit, m_unit->currentData().toString());
    Settings::set(settings::exportDpi, m_dpi->value());
    Settings::set(settings::exportTitle, m_title->text().trimmed());
    Settings::set(settings::exportTable, m_contents->currentData().toBool());
    // A box greyed out for a session that is too large keeps the user's choice.
    if (m_embed->isEnabled())
        Settings::set(settings::exportEmbedSession, m_embed->isChecked());
    Settings::set(settings::exportDirectory, QFileInfo(m_file->text()).absolutePath());
    return {};
}

void ExportDialog::accept()
{
    if (exportChart().isEmpty())
        QDialog::accept();
}

} // namespace ridgepoint
