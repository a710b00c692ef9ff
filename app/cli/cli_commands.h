// The subcommands, one function each; app/cli.cpp lists them.
#pragma once

#include <QCommandLineParser>
#include <QStringList>

namespace ridgepoint::cli {

int runPresets(const QStringList &arguments);
int runAnalyze(const QStringList &arguments);
int runRender(const QStringList &arguments);
int runKernel(const QStringList &arguments);
int runMatmul(const QStringList &arguments);
int runLlm(const QStringList &arguments);
int runMeasure(const QStringList &arguments);

// Adds --help, parses, and prints the error or the help. Returns false when the command should
// stop at once with `status` (2 on a parse error, 0 after --help).
bool parseOrExplain(QCommandLineParser &parser, const QStringList &arguments, int &status);

} // namespace ridgepoint::cli
