#include "app/cli/cli_options.h"

#include "app/cli/cli_common.h"
#include "widgets/document/document.h"
#include "widgets/export/exportoptions.h"
#include "widgets/export/figuresession.h"

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

void addNoEmbedOption(QCommandLineParser &parser, const QString &prefix)
{
    parser.addOption({ "no-embed",
        prefix
            + "Leave the session out of the file. By default it is embedded (SVG metadata, PNG "
              "text chunk, PDF attachment), so the picture can be reopened with 'render "
              "--session', 'analyze' or the window; sessions over 16 MiB are always left out." });
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
