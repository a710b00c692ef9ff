// The headless command line: subcommands that analyse and render without opening a window.
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

namespace ridgepoint::cli {

// Exit statuses shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure
    = 1; // the work itself failed (e.g. a render could not be written)
inline constexpr int kExitBadInput = 2; // bad arguments, unreadable file, no usable point

// True when argv[1] names a subcommand (the app then runs headless).
bool isSubcommand(const QString &word);

// Runs a subcommand; `arguments` is the whole argv. Prints to stdout/stderr, returns the status.
// The subcommand gets them with its name after the program's in the first ("ridgepoint llm").
int run(const QStringList &arguments);

// The parser's --help text with its usage line naming `program` as it is typed ("Usage:
// ridgepoint llm [options]") instead of the executable's path, which Qt puts there.
QString helpText(const QCommandLineParser &parser, const QString &program);

} // namespace ridgepoint::cli
