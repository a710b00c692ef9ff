#include "app/cli/cli_options.h"

#include <QStringList>

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

} // namespace ridgepoint::cli
