// The option vocabulary the subcommands and the window's command line (app/main.cpp) share:
// the theme names, which are ChartTheme::key()'s (the names sessions store), the limits of
// a picture, which are ExportLimits' (widgets/export/exportlimits.h, shared with File ▸ Export
// image…), and the session a picture carries (render and llm --render).
#pragma once

#include "widgets/chart/rooflineplot.h"
#include "widgets/export/exportlimits.h"

#include <QByteArray>
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
void addNoEmbedOption(QCommandLineParser &parser, const QString &prefix = {});

// The session a picture of `plot` carries, as the window's Export image… embeds it
// (pictureSession: the document with the plot's view and theme); empty, after a note on stderr
// naming `output`, when it is larger than a picture takes (ExportOptions::kMaxEmbeddedSession).
QByteArray sessionToEmbed(
    const Document &document, const RooflinePlot &plot, const QString &output);

} // namespace ridgepoint::cli
