// The subcommands, one function each in a file of its own (cli_<command>.cpp); app/cli/cli.cpp
// lists them. Each declares its options in one struct (`<Command>Options`: the option groups it
// takes from cli_option_groups.h and its own QCommandLineOptions) that adds them to the parser
// and reads them into a typed request; parseRequest below is the opening they share.
#pragma once

#include "app/cli/cli.h"

#include <QCommandLineParser>
#include <QStringList>

#include <optional>
#include <utility>

namespace ridgepoint::cli {

int runPresets(const QStringList &arguments); // cli_presets.cpp
int runAnalyze(const QStringList &arguments); // cli_analyze.cpp
int runRender(const QStringList &arguments); // cli_render.cpp
int runKernel(const QStringList &arguments); // cli_kernel.cpp
int runMatmul(const QStringList &arguments); // cli_matmul.cpp
int runLlm(const QStringList &arguments); // cli_llm.cpp
int runMeasure(const QStringList &arguments); // cli_measure.cpp
int runCalibrate(const QStringList &arguments); // cli_calibrate.cpp
int runPredict(const QStringList &arguments); // cli_calibrate.cpp

// Adds --help, parses, and prints the error or the help. Returns false when the command should
// stop at once with `status` (2 on a parse error, 0 after --help).
bool parseOrExplain(QCommandLineParser &parser, const QStringList &arguments, int &status);

// A subcommand's opening: `options` (addTo(parser), and read(parser) returning an optional
// request after checking every value, saying why on stderr when one is refused) added, the
// arguments parsed and read. nullopt when the command should stop at once with `status`: 0
// after --help, 2 on a parse error or a refused value.
template<typename Options>
auto parseRequest(const Options &options, const QStringList &arguments, int &status)
    -> decltype(options.read(std::declval<const QCommandLineParser &>()))
{
    QCommandLineParser parser;
    options.addTo(parser);
    if (!parseOrExplain(parser, arguments, status))
        return std::nullopt;
    auto request = options.read(parser);
    if (!request)
        status = kExitBadInput;
    return request;
}

} // namespace ridgepoint::cli
