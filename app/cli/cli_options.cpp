#include "app/cli/cli_options.h"

#include "app/cli/cli_common.h"
#include "widgets/document/document.h"
#include "widgets/export/exportoptions.h"
#include "widgets/export/figuresession.h"

#include <QRegularExpression>
#include <QSize>
#include <QStringList>

#include <algorithm>

namespace ridgepoint::cli {
namespace {

constexpr ChartTheme::Kind kThemes[]
    = { ChartTheme::Kind::Light, ChartTheme::Kind::Dark, ChartTheme::Kind::Print };

QStringList themeNames()
{
    QStringList names;
    for (const ChartTheme::Kind kind : kThemes)
        names << QLatin1String(ChartTheme::of(kind).key());
    return names;
}

} // namespace

std::optional<ChartTheme::Kind> themeFromName(const QString &name)
{
    for (const ChartTheme::Kind kind : kThemes) {
        if (name == QLatin1String(ChartTheme::of(kind).key()))
            return kind;
    }
    return std::nullopt;
}

QString themeNamesText()
{
    QStringList names = themeNames();
    const QString last = names.takeLast();
    return names.join(", ") + " or " + last;
}

QString themeNamesValue()
{
    return themeNames().join('|');
}

QCommandLineOption noEmbedOption(const QString &prefix)
{
    return { "no-embed",
        prefix
            + "Leave the session out of the file. By default it is embedded (SVG metadata, PNG "
              "text chunk, PDF attachment), so the picture can be reopened with 'render "
              "--session', 'analyze' or the window; sessions over 16 MiB are always left out." };
}

PictureSizeOptions::PictureSizeOptions()
    : m_size("size",
        QString("Size in logical pixels, e.g. %1x%2 (the default): text, lines and markers are "
                "laid out at this size. SVG and PDF pages are this size at %3 per inch.")
            .arg(ExportOptions().width)
            .arg(ExportOptions().height)
            .arg(ExportLimits::kLogicalDpi),
        "WxH")
    , m_preset("preset",
          "A ready-made picture: slide = a 16:9 slide, 1920x1080, text 1.5x, the legend below "
          "the plot. --size, --width or --height still set the size.",
          "name")
    , m_width("width",
          QString("Width in pixels (default %1); --size is the same.").arg(ExportOptions().width),
          "px", QString::number(ExportOptions().width))
    , m_height("height",
          QString("Height in pixels (default %1); --size is the same.").arg(ExportOptions().height),
          "px", QString::number(ExportOptions().height))
    , m_dpi("dpi",
          QString("PNG only: dots per inch (default %1). The picture keeps the layout of --size "
                  "and is drawn with dpi/%1 device pixels per logical pixel, and the resolution "
                  "is written into the file: --size 800x500 --dpi 300 is a 2500x1563 PNG that "
                  "prints 8.3 x 5.2 inches.")
              .arg(ExportLimits::kLogicalDpi),
          "N")
{ }

void PictureSizeOptions::addTo(QCommandLineParser &parser) const
{
    parser.addOptions({ m_size, m_preset, m_width, m_height, m_dpi });
}

std::optional<ExportOptions> PictureSizeOptions::read(
    const QCommandLineParser &parser, const QString &suffix) const
{
    ExportOptions options;
    const bool presetGiven = parser.isSet(m_preset);
    if (presetGiven) {
        const auto preset = exportPreset(parser.value(m_preset));
        if (!preset) {
            err() << "--preset: unknown preset \"" << parser.value(m_preset)
                  << "\" (expected slide)" << Qt::endl;
            return std::nullopt;
        }
        options = *preset;
    }
    if (!presetGiven || parser.isSet(m_size) || parser.isSet(m_width) || parser.isSet(m_height)) {
        const auto size = readSize(parser);
        if (!size)
            return std::nullopt;
        options.width = size->width();
        options.height = size->height();
    }
    if (!readDpi(parser, suffix, options))
        return std::nullopt;
    return options;
}

// --size WxH, or --width and --height; nullopt (after saying why) when not a usable size.
std::optional<QSize> PictureSizeOptions::readSize(const QCommandLineParser &parser) const
{
    const bool sizeGiven = parser.isSet(m_size);
    if (sizeGiven && (parser.isSet(m_width) || parser.isSet(m_height))) {
        err() << "--size and --width/--height contradict each other: give one of them" << Qt::endl;
        return std::nullopt;
    }
    QSize size;
    if (sizeGiven) {
        static const QRegularExpression kPattern(
            QStringLiteral("^\\s*(\\d{1,6})\\s*[xX×]\\s*(\\d{1,6})\\s*$"));
        const auto match = kPattern.match(parser.value(m_size));
        if (!match.hasMatch()) {
            err() << "--size must be WxH, e.g. 1600x1000 (got \"" << parser.value(m_size) << "\")"
                  << Qt::endl;
            return std::nullopt;
        }
        size = QSize(match.captured(1).toInt(), match.captured(2).toInt());
    } else {
        bool okWidth = false;
        bool okHeight = false;
        size
            = QSize(parser.value(m_width).toInt(&okWidth), parser.value(m_height).toInt(&okHeight));
        if (!okWidth || !okHeight)
            size = QSize(); // invalid: refused below
    }
    if (!ExportLimits::sideInRange(size.width()) || !ExportLimits::sideInRange(size.height())) {
        err() << (sizeGiven ? "--size" : "--width and --height")
              << " must be whole numbers of pixels between " << ExportLimits::kMinSide << " and "
              << ExportLimits::kMaxSide << Qt::endl;
        return std::nullopt;
    }
    return size;
}

// --dpi into `options` (a PNG's scale and resolution; a note for SVG and PDF); false after
// saying why it is refused.
bool PictureSizeOptions::readDpi(
    const QCommandLineParser &parser, const QString &suffix, ExportOptions &options) const
{
    if (!parser.isSet(m_dpi))
        return true;
    const QString text = parser.value(m_dpi);
    bool ok = false;
    const int dpi = text.toInt(&ok);
    if (!ok || !ExportLimits::dpiInRange(dpi)) {
        err() << "--dpi must be a whole number between " << ExportLimits::kMinDpi << " and "
              << ExportLimits::kMaxDpi << " (got \"" << text << "\")" << Qt::endl;
        return false;
    }
    if (suffix != "png") {
        err() << "note: --dpi applies to PNG only; " << suffix.toUpper()
              << " is drawn in vectors at " << options.width << "x" << options.height << Qt::endl;
        return true;
    }
    options.dpi = dpi;
    options.scale = dpi / ExportLimits::kLogicalDpi;
    const long longest
        = ExportLimits::devicePixels(std::max(options.width, options.height), options.dpi);
    if (longest > ExportLimits::kMaxSide) {
        err() << "--dpi " << dpi << " at " << options.width << "x" << options.height
              << " would make a PNG " << longest << " pixels wide or high; "
              << "at most " << ExportLimits::kMaxSide << " (choose a smaller --size or --dpi)"
              << Qt::endl;
        return false;
    }
    return true;
}

ThemeOption::ThemeOption(const QString &description)
    : m_theme("theme", description, themeNamesValue())
{ }

void ThemeOption::addTo(QCommandLineParser &parser) const
{
    parser.addOption(m_theme);
}

std::optional<ChartTheme::Kind> ThemeOption::read(const QCommandLineParser &parser, bool &ok) const
{
    ok = true;
    if (!parser.isSet(m_theme))
        return std::nullopt;
    const auto theme = themeFromName(parser.value(m_theme));
    if (!theme) {
        err() << "--theme: unknown theme \"" << parser.value(m_theme) << "\" (expected "
              << themeNamesText() << ")" << Qt::endl;
        ok = false;
    }
    return theme;
}

QByteArray sessionToEmbed(const Document &document, const RooflinePlot &plot, const QString &output)
{
    QByteArray session = pictureSession(document, plot).json;
    if (session.isEmpty())
        err() << "note: the session (" << document.pointCount() << " points) is larger than "
              << ExportOptions::kMaxEmbeddedSession / (qsizetype { 1024 } * 1024)
              << " MiB and was not embedded in " << output << Qt::endl;
    return session;
}

} // namespace ridgepoint::cli
