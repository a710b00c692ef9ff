// The option vocabulary the subcommands and the window's command line (app/main.cpp) share:
// the theme names, which are ChartTheme::key()'s (the names sessions store), and the limits of
// a picture, which are ExportLimits' (widgets/export/exportlimits.h, shared with File ▸ Export
// image…).
#pragma once

#include "widgets/chart/rooflineplot.h"
#include "widgets/export/exportlimits.h"

#include <QString>

#include <optional>

namespace ridgepoint::cli {

// "light", "dark", "print" -> the theme; nullopt for any other word.
std::optional<ChartTheme::Kind> themeFromName(const QString &name);
// The names joined for a message ("light, dark or print") or a value name ("light|dark|print").
QString themeNamesText();
QString themeNamesValue();

} // namespace ridgepoint::cli
