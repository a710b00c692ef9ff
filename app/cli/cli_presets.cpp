// `ridgepoint presets [NAME]`: the built-in machines with their ceilings, bases and ridges, or
// one machine in full with where each figure comes from.
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"

#include "core/io/formats/hardware_json.h"
#include "core/presets/presets.h"
#include "core/report/report.h"

namespace ridgepoint::cli {

int runPresets(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "List the hardware presets with their ceilings, the basis of each figure (spec, derived, "
        "measured) and ridges. With NAME, one preset in full: every ceiling with its basis, "
        "source, clock, scope and notes.");
    parser.addPositionalArgument("name", "A preset (name or alias, unique prefix).", "[NAME]");
    parser.addOption({ "json",
        "Print {\"presets\": [...]} (with NAME, that machine's object) instead of a table: "
        "every ceiling with its provenance, sparsity and alternate figure." });
    parser.addOption({ "names",
        "Print each preset's name and aliases, one a line, as --hardware takes them (shell "
        "completion reads this)." });
    int status = kExitOk;
    if (!parseOrExplain(parser, arguments, status))
        return status;
    const QStringList names = parser.positionalArguments();
    if (names.size() > 1) {
        err() << "presets takes at most one preset name" << Qt::endl;
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
    if (names.size() == 1) {
        auto found = presets.find(names.front().toStdString());
        if (!found) {
            err() << QString::fromStdString(found.error()) << Qt::endl;
            return kExitBadInput;
        }
        out() << QString::fromStdString(
            parser.isSet("json") ? writeHardwareJson(**found) : presetDetail(**found));
        out().flush();
        return kExitOk;
    }
    const std::string text
        = parser.isSet("json") ? presetsJson(presets.machines()) : presetsTable(presets.machines());
    out() << QString::fromStdString(text);
    out().flush();
    return kExitOk;
}

} // namespace ridgepoint::cli
