// Pieces every subcommand shares: the hardware options and reading point files.
#pragma once

#include "core/analysis/analysis.h"
#include "core/io/readers.h"
#include "core/model/diagnostic.h"
#include "core/model/hardware.h"
#include "core/model/point.h"
#include "core/session/session.h"

#include <QCommandLineParser>
#include <QTextStream>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint::cli {

QTextStream &out();
QTextStream &err();

// Checks before any long work that `output` can be written, as the writer will judge it
// (core/io/file_write.h outputTargetProblem): a new or regular file's folder exists and takes a
// file (a temporary file made and removed; an existing file is untouched), a character device
// or FIFO is writable, anything else is refused. An empty string, else why not ("x.json: the
// folder /no/such does not exist", "d: is a directory (expected a file name)").
[[nodiscard]] QString outputProblem(const QString &output);

// --hardware NAME|FILE.json, --peak, --bandwidth, --compute, --sustained, --figures.
void addHardwareOptions(QCommandLineParser &parser);

// A machine by preset name (case-insensitive, unique prefix) or hardware file (any ceiling
// format); nullopt after saying why, the message starting with `option` ("--hardware").
std::optional<Hardware> machineNamed(
    const QString &wanted, const QString &option, const ReadOptions &readOptions);

// The machine the options describe, with overrides applied; prints the reason and returns
// nullopt when they do not describe one. Without --hardware the machine is `fallback` (a
// session's) when there is one, else --peak with --bandwidth; failing all three is an error.
// A --hardware file is read with `readOptions` (an ncu page's tensor and FP16 roofs depend on
// them). Where a ceiling holds a spec and a measured figure, --figures (else `figures`, a
// session's choice) picks the one the analysis uses (withFigures) before --peak/--bandwidth
// replace any.
std::optional<Hardware> hardwareFromOptions(const QCommandLineParser &parser,
    const Hardware *fallback = nullptr, const ReadOptions &readOptions = {},
    FigureChoice figures = FigureChoice::Measured);

// An option for tests and benchmarks, left out of --help.
void addHiddenOption(QCommandLineParser &parser, const QString &name, const QString &description,
    const QString &valueName = {});

// What the profilers' files do not say themselves (core/io/readers.h ReadOptions): --per-kernel,
// --tensor-flops-per-inst, --half-fma-flops, --decimal-comma, --decimal-point, --lds-banks.
void addReadOptions(QCommandLineParser &parser);

// The ReadOptions those options give (the readers' defaults where none is set); prints the
// reason and returns nullopt on a bad value or a contradiction.
std::optional<ReadOptions> readOptionsFromOptions(const QCommandLineParser &parser);

// At most this many messages per file reach stderr; the rest are counted in one line.
inline constexpr std::size_t kMaxDiagnosticsShown = 20;
// Prints "file:line:column: message" lines, summarising past kMaxDiagnosticsShown.
void printDiagnostics(const std::vector<Diagnostic> &diagnostics);

// Which compute ceiling the points use: --compute when given; the ceiling --peak replaced (so
// a given peak is the one every point is held to); the single ceiling of a --peak/--bandwidth
// machine; otherwise each point's own precision decides (empty name), as it does on a
// session's machine (`sessionMachine`: the window opens sessions that way).
AnalysisOptions analysisOptionsFromOptions(
    const QCommandLineParser &parser, const Hardware &hardware, bool sessionMachine = false);

// Reads a points file (any points format, read with `options`). Row problems go to stderr as
// "file:line: reason" (summarised). Returns nullopt (after saying why) when the file cannot be
// read or has no usable point; `rowErrors` counts the rows left out.
std::optional<std::vector<KernelPoint>> readPointsFile(
    const QString &path, int &rowErrors, const ReadOptions &options);

// What a file given to analyze or render holds: points (any points format), or a whole
// session (a session JSON, or a PNG, SVG or PDF exported with its session embedded).
struct InputFile {
    std::vector<KernelPoint> points;
    std::optional<Session> session;
    // A points file read with `keepText`: its text instead of its points.
    std::optional<std::string> text;
    // With `keepText`: Σ pointSeconds of the points read (placed or not), the payoff's total.
    double seconds = 0.0;
    // A profiler trace's GPU time, placed and not, and the device it names.
    std::optional<TraceSummary> trace;
};

// Reads a points file (with `options`) or a session, told apart by content (not by name).
// Problems go to stderr as for readPointsFile and readSession; nullopt when the file gives
// nothing usable.
// `keepText`: a points file is checked the same way (same messages) but its text is kept
// instead of its points, for the caller to read them one at a time with the sink overload of
// ridgepoint::readPointsFile (analyze --json: a million points are 300 MB, their text 60 MB).
std::optional<InputFile> readInputFile(
    const QString &path, int &rowErrors, const ReadOptions &options, bool keepText = false);

// A points file as the baseline run (--baseline): a profiler trace's points are matched by
// operator and shapes, any other file's by name. nullopt after saying why (as readPointsFile).
std::optional<Baseline> readBaselineFile(
    const QString &path, int &rowErrors, const ReadOptions &options);

// A session file, or an image exported with its session embedded. Warnings and errors go to
// stderr (file:line:column); nullopt when there is no usable session.
std::optional<Session> readSession(const QString &path);

// The points of a session as the window shows them on `hardware`: what-if moves applied and
// planned workloads recomputed from their models for that machine.
// A workload that cannot be recomputed there (an unknown network or operator, a missing
// ceiling) is left out with a message naming it and why, never shown with its stale saved
// point. A sharded matmul is analysed on its own link (`machines`, by index into `points`).
struct SessionPoints {
    std::vector<KernelPoint> points;
    std::map<std::size_t, Hardware> machines;
    int refused = 0;
};
SessionPoints sessionPoints(Session session, const Hardware &hardware);

} // namespace ridgepoint::cli
