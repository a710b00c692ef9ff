// Pieces every subcommand shares: the hardware options and reading point files.
#pragma once

#include "core/analysis.h"
#include "core/diagnostic.h"
#include "core/hardware.h"
#include "core/point.h"

#include <QCommandLineParser>
#include <QTextStream>

#include <optional>
#include <vector>

namespace ridgepoint::cli {

QTextStream &out();
QTextStream &err();

// --hardware NAME|FILE.json, --peak, --bandwidth, --compute, --sustained.
void addHardwareOptions(QCommandLineParser &parser);

// The machine the options describe, with overrides applied; prints the reason and returns
// nullopt when they do not describe one. `required`: fail when neither --hardware nor
// --peak/--bandwidth is given.
std::optional<Hardware> hardwareFromOptions(const QCommandLineParser &parser);

// At most this many messages per file reach stderr; the rest are counted in one line.
inline constexpr std::size_t kMaxDiagnosticsShown = 20;
// Prints "file:line:column: message" lines, summarising past kMaxDiagnosticsShown.
void printDiagnostics(const std::vector<Diagnostic> &diagnostics);

// Which compute ceiling the points use: --compute when given; the ceiling --peak replaced (so
// a given peak is the one every point is held to); the single ceiling of a --peak/--bandwidth
// machine; otherwise each point's own precision decides (empty name).
AnalysisOptions analysisOptionsFromOptions(
    const QCommandLineParser &parser, const Hardware &hardware);

// Reads a generic points CSV. Row problems go to stderr as "file:line: reason" (summarised).
// Returns nullopt (after saying why) when the file cannot be read or has no usable point;
// `rowErrors` counts the rows left out.
std::optional<std::vector<KernelPoint>> readPointsFile(const QString &path, int &rowErrors);

// The built-in example data set (resources/examples/), as if read from a file.
std::vector<KernelPoint> examplePoints();

} // namespace ridgepoint::cli
