// `ridgepoint presets [NAME|FILE]`: the built-in machines with their ceilings, bases and ridges,
// or one machine (a preset, or a machine file) in full with where each figure comes from.
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_option_groups.h"

#include "core/io/formats/hardware_json.h"
#include "core/presets/presets.h"
#include "core/report/report.h"

namespace ridgepoint::cli {

namespace {

// What presets' options ask for.
struct PresetsRequest {
    std::optional<QString> name; // one preset (or machine file) in full
    bool json = false;
    bool names = false; // the names --hardware takes, one a line
};

// presets' options, in the order --help lists them.
struct PresetsOptions {
    QCommandLineOption json { "json",
        "Print {\"presets\": [...]} (with NAME, or a FILE of one machine, that machine's object) "
        "instead of a table: every ceiling with its provenance, sparsity and alternate figure." };
    QCommandLineOption names { "names",
        "Print each preset's name and aliases, one a line, as --hardware takes them (shell "
        "completion reads this)." };

    void addTo(QCommandLineParser &parser) const
    {
        parser.setApplicationDescription(
            "List the hardware presets with their ceilings, the basis of each figure (spec, "
            "derived, measured) and ridges. With NAME, one preset in full: every ceiling with its "
            "basis, source, clock, scope and notes; with FILE, every machine a machine file gives "
            "(any ceiling format: hardware JSON, rocprof-compute's roofline.csv, ERT, Advisor's "
            "roofs, a NERSC roofs file), the same way.");
        parser.addPositionalArgument(
            "name", "A preset (name or alias, unique prefix), or a machine file.", "[NAME|FILE]");
        parser.addOptions({ json, names });
    }
    [[nodiscard]] std::optional<PresetsRequest> read(const QCommandLineParser &parser) const
    {
        const QStringList given = parser.positionalArguments();
        if (given.size() > 1) {
            err() << "presets takes at most one preset name or machine file" << Qt::endl;
            return std::nullopt;
        }
        PresetsRequest request;
        if (!given.isEmpty())
            request.name = given.front();
        request.json = parser.isSet(json);
        request.names = parser.isSet(names);
        return request;
    }
};

// One preset in full, or every machine a file gives, told apart as --hardware tells them
// (namesAFile), so `presets X` shows what `--hardware X` uses.
int showOne(const PresetDatabase &presets, const QString &name, bool json)
{
    std::vector<Hardware> machines;
    if (namesAFile(name)) {
        machines = machinesInFile(name, ReadOptions {});
        if (machines.empty())
            return kExitBadInput;
    } else if (auto found = presets.find(name.toStdString())) {
        machines.push_back(**found);
    } else {
        err() << "presets: " << QString::fromStdString(found.error()) << Qt::endl;
        return kExitBadInput;
    }
    std::string text;
    if (json)
        text = machines.size() == 1 ? writeHardwareJson(machines.front()) : presetsJson(machines);
    for (std::size_t i = 0; !json && i < machines.size(); ++i)
        text += (i > 0 ? "\n" : "") + presetDetail(machines[i]);
    out() << QString::fromStdString(text);
    out().flush();
    return kExitOk;
}

} // namespace

int runPresets(const QStringList &arguments)
{
    int status = kExitOk;
    const auto request = parseRequest(PresetsOptions(), arguments, status);
    if (!request)
        return status;
    const PresetDatabase presets = PresetDatabase::builtin();
    if (request->names && request->name) {
        err() << "presets: --names lists the presets' names; it takes no NAME or FILE" << Qt::endl;
        return kExitBadInput;
    }
    if (request->names) {
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
    if (request->name)
        return showOne(presets, *request->name, request->json);
    const std::string text
        = request->json ? presetsJson(presets.machines()) : presetsTable(presets.machines());
    out() << QString::fromStdString(text);
    out().flush();
    return kExitOk;
}

} // namespace ridgepoint::cli
