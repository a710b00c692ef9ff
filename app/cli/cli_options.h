// The option vocabulary the subcommands and the window's command line (app/main.cpp) share:
// the theme names, which are ChartTheme::key()'s (the names sessions store), the limits of
// a picture, which are ExportLimits' (widgets/export/exportlimits.h, shared with File ▸ Export
// image…), and the session a picture carries (render and llm --render).
#pragma once

#include "widgets/chart/rooflineplot.h"
#include "widgets/export/exportlimits.h"

#include "widgets/export/exportoptions.h"

#include <QByteArray>
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

#include <optional>

namespace ridgepoint {
class Document;
}

namespace ridgepoint::cli {

// "light", "dark", "print" -> the theme; nullopt for any other word.
std::optional<ChartTheme::Kind> themeFromName(const QString &name);
// The names joined for a message ("light, dark or print") or a value name ("light|dark|print").
QString themeNamesText();
QString themeNamesValue();

// --no-embed: leave the session out of a picture (`prefix` before its description, such as
// "With --render: ").
QCommandLineOption noEmbedOption(const QString &prefix = {});

// A picture's size: --size WxH, or --width and --height, --preset and --dpi (a PNG's scale).
class PictureSizeOptions
{
public:
    PictureSizeOptions();
    void addTo(QCommandLineParser &parser) const;
    // The size and resolution of a picture written to a file of `suffix` ("png", "svg", "pdf"),
    // the rest of ExportOptions at their defaults or the preset's; nullopt after saying why
    // (a preset, size or dpi refused, --size with --width/--height, a PNG too large).
    [[nodiscard]] std::optional<ExportOptions> read(
        const QCommandLineParser &parser, const QString &suffix) const;

private:
    [[nodiscard]] std::optional<QSize> readSize(const QCommandLineParser &parser) const;
    [[nodiscard]] bool readDpi(
        const QCommandLineParser &parser, const QString &suffix, ExportOptions &options) const;

    QCommandLineOption m_size;
    QCommandLineOption m_preset;
    QCommandLineOption m_width;
    QCommandLineOption m_height;
    QCommandLineOption m_dpi;
};

// --theme light|dark|print.
class ThemeOption
{
public:
    explicit ThemeOption(const QString &description);
    void addTo(QCommandLineParser &parser) const;
    // The theme given (none when it is not); `ok` false after saying why a name is refused.
    [[nodiscard]] std::optional<ChartTheme::Kind> read(
        const QCommandLineParser &parser, bool &ok) const;

private:
    QCommandLineOption m_theme;
};

// The session a picture of `plot` carries, as the window's Export image… embeds it
// (pictureSession: the document with the plot's view and theme); empty, after a note on stderr
// naming `output`, when it is larger than a picture takes (ExportOptions::kMaxEmbeddedSession).
QByteArray sessionToEmbed(
    const Document &document, const RooflinePlot &plot, const QString &output);

} // namespace ridgepoint::cli
