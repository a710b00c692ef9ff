// The subcommands, one function each in a file of its own (cli_<command>.cpp); app/cli/cli.cpp
// lists them. The options they share are in cli_common.h, cli_options.h (themes, picture
// limits) and cli_workload_options.h (matmul and llm).
#pragma once

#include <QCommandLineParser>
#include <QStringList>

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

} // namespace ridgepoint::cli
