// `ridgepoint presets`: the built-in machines with their ceilings and ridges.
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"

#include "core/presets/presets.h"
#include "core/report/report.h"

namespace ridgepoint::cli {

int runPresets(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription("List the hardware presets with their ceilings and ridges.");
    parser.addOption({ "json", "Print {\"presets\": [...]} instead of a table." });
    parser.addOption({ "names",
        "Print each preset's name and aliases, one a line, as --hardware takes them (shell "
        "completion reads this)." });
    int status = kExitOk;
    if (!parseOrExplain(parser, arguments, status))
        return status;
    if (!parser.positionalArguments().isEmpty()) {
        err() << "presets takes no file arguments" << Qt::endl;
        return kExitBadInput;
    }
    const PresetDatabase presets = PresetDatabase::builtin();
    if (parser.isSet("names")) {
        for (const Hardware &machine : presets.machines()) {
            out() << QString::fromStdString(machine.name) << "\n";
            for (const std::string &alias : machine.aliases)
                out() << QString::fromStdString(alias) << "\n";
        }
        out().flush();
        return kExitOk;
    }
    for (const auto &d : presets.diagnostics())
        err() << QString::fromStdString(d.toString()) << Qt::endl;
    const std::string text
        = parser.isSet("json") ? presetsJson(presets.machines()) : presetsTable(presets.machines());
    out() << QString::fromStdString(text);
    out().flush();
    return kExitOk;
}

} // namespace ridgepoint::cli
