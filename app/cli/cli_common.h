// What the subcommands share beyond their options (those are in cli_option_groups.h): stdout and
// stderr, an output's check, and reading points files, sessions and pictures with their messages.
#pragma once

#include "core/analysis/analysis.h"
#include "core/io/readers.h"
#include "core/model/diagnostic.h"
#include "core/model/hardware.h"
#include "core/model/point.h"
#include "core/session/session.h"

#include <QTextStream>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {
class PointTable;
}

namespace ridgepoint::cli {

QTextStream &out();
QTextStream &err();

// Checks before any long work that `output` can be written, as the writer will judge it
// (core/io/file_write.h outputTargetProblem): a new or regular file's folder exists and takes a
// file (a temporary file made and removed; an existing file is untouched), a character device
// or FIFO is writable, anything else is refused. An empty string, else why not ("x.json: the
// folder /no/such does not exist", "d: is a directory (expected a file name)").
[[nodiscard]] QString outputProblem(const QString &output);

// At most this many messages per file reach stderr; the rest are counted in one line.
inline constexpr std::size_t kMaxDiagnosticsShown = 20;
// What a command says after traceMachine()'s reason when a trace's device gives no machine.
inline constexpr const char *kGiveTheMachine
    = ": give the machine with --hardware NAME|FILE (see 'ridgepoint presets')";
// Prints "file:line:column: message" lines, summarising past kMaxDiagnosticsShown.
void printDiagnostics(const std::vector<Diagnostic> &diagnostics);

// Reads a points file (any points format, read with `options`). Row problems go to stderr as
// "file:line: reason" (summarised); `rowErrors` counts the rows left out. A profiler trace's
// summary (its GPU time and device) goes to `trace` when given.
// The points are added to `into` as they are read (a generic CSV's row by row), so a million-row
// file is never held as KernelPoints. Returns false (after saying why, nothing added) when the
// file cannot be read or has no usable point.
bool readPointsFile(const QString &path, PointTable &into, int &rowErrors,
    const ReadOptions &options, std::optional<TraceSummary> *trace = nullptr);

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

// The first machine of a points file that brings its own (an Nsight Compute roofline section,
// an ncu page holding the roofline's peak metrics), nullopt for any other file (a profiler
// trace's is traceMachine's). Its format is told from the file's head, so a large points file
// is not read again.
std::optional<Hardware> machineWithPoints(const QString &path, const ReadOptions &options);

// Whether the file gives a machine and no points (a hardware JSON, ERT's output, Advisor's
// roofs, rocprof-compute's roofline.csv, a NERSC roofs file), told by content; a session or a
// picture carrying one does not.
bool givesOnlyAMachine(const QString &path);

// Whether the text is a session JSON or a picture (PNG, SVG, PDF) that may carry one.
bool holdsSession(std::string_view text);

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
