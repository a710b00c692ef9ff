#include "app/cli/cli.h"

#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>
#include <array>

namespace ridgepoint::cli {
namespace {

struct Subcommand {
    const char *name;
    const char *summary;
    int (*run)(const QStringList &arguments);
};

constexpr std::array kSubcommands {
    Subcommand {
        "presets", "List the hardware presets (--json for machine-readable output).", runPresets },
    Subcommand { "analyze", "Place kernels from point files on a machine's roofline.", runAnalyze },
    Subcommand { "render", "Draw the roofline chart to a PNG, SVG or PDF file.", runRender },
    Subcommand { "matmul", "Place a planned matmul (tiled, sharded, quantized) on the roofline.",
        runMatmul },
    Subcommand { "llm", "Place an LLM prefill or decode step, operator by operator.", runLlm },
    Subcommand {
        "kernel", "Place a dot product, per-example-weights matmul or Q8_0 mat-vec.", runKernel },
    Subcommand {
        "measure", "Measure this machine's ceilings (bandwidths, peak FLOP/s).", runMeasure },
    Subcommand { "calibrate", "Fit a calibrated machine to measured operator and collective times.",
        runCalibrate },
    Subcommand { "predict", "Predict measured rows with a calibrated machine, with the errors.",
        runPredict },
};

} // namespace

bool isSubcommand(const QString &word)
{
    for (const auto &command : kSubcommands) {
        if (word == QLatin1String(command.name))
            return true;
    }
    return word == "help" || word == "--help" || word == "-h" || word == "--version";
}

int run(const QStringList &arguments)
{
    const QString word = arguments.value(1);
    for (const auto &command : kSubcommands) {
        if (word == QLatin1String(command.name)) {
            // The program by its name, not its path: the usage line of --help and the
            // "(see 'ridgepoint llm --help')" of a parse error show it.
            QStringList rest = arguments;
            rest.removeAt(1);
            rest[0] = QFileInfo(rest[0]).fileName() + " " + word;
            return command.run(rest);
        }
    }
    if (word == "--version") {
        out() << "ridgepoint " << QCoreApplication::applicationVersion() << Qt::endl;
        return kExitOk;
    }
    out() << "Usage: ridgepoint [FILE...]            open the window\n"
             "       ridgepoint <command> [options]  run headless\n\nCommands:\n";
    // Two spaces at least between a name and its summary, as packaging/parse-help.awk reads them.
    qsizetype width = 0;
    for (const auto &command : kSubcommands)
        width = std::max(width, QString(command.name).size() + 2);
    for (const auto &command : kSubcommands)
        out() << "  " << QString(command.name).leftJustified(width) << command.summary << "\n";
    out() << "\n'ridgepoint <command> --help' describes a command's options, "
             "'ridgepoint --help-window' the window's.\n\nExit status:\n"
          << "  " << kExitOk << "  success\n"
          << "  " << kExitFailure
          << "  the work itself failed (e.g. a picture could not be written)\n"
          << "  " << kExitBadInput << "  bad arguments, an unreadable file or no usable point\n\n"
          << "Ridgepoint is free software under the GNU GPL, version 3 or later.\n";
    out().flush();
    return word == "help" || word == "--help" || word == "-h" ? kExitOk : kExitBadInput;
}

QString helpText(const QCommandLineParser &parser, const QString &program)
{
    // Qt writes "Usage: " and QCoreApplication::arguments().first(), the path the executable was
    // started by ("/usr/local/bin/ridgepoint"), or "<executable_name>" without an application.
    QString text = parser.helpText();
    const QString qtProgram = QCoreApplication::instance() ? QCoreApplication::arguments().value(0)
                                                           : QStringLiteral("<executable_name>");
    const QString usage = QStringLiteral("Usage: ");
    if (text.startsWith(usage + qtProgram + ' '))
        text.replace(usage.size(), qtProgram.size(), program);
    return text;
}

bool parseOrExplain(QCommandLineParser &parser, const QStringList &arguments, int &status)
{
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const auto help = parser.addHelpOption();
    if (!parser.parse(arguments)) {
        err() << parser.errorText() << "\n(see '" << arguments.value(0) << " --help')" << Qt::endl;
        status = kExitBadInput;
        return false;
    }
    if (parser.isSet(help)) {
        out() << helpText(parser, arguments.value(0));
        out().flush();
        status = kExitOk;
        return false;
    }
    return true;
}

} // namespace ridgepoint::cli
