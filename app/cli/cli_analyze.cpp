#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_option_groups.h"
#include "core/presets/example_points.h"
#include "core/presets/presets.h"

#include "core/analysis/analysis.h"
#include "core/analysis/payoff.h"
#include "core/io/formats/kineto_trace.h"
#include "core/io/readers.h"
#include "core/report/report.h"
#include "core/report/report_stream.h"
#include "core/stream/fed_report.h"
#include "core/stream/pieced_file.h"
#include "core/stream/pieced_report.h"
#include "core/stream/worker_pool.h"
#include "widgets/chart/baselineindex.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <tuple>
#include <utility>

namespace ridgepoint::cli {

namespace {

// --threads: more than enough for any machine's cores, few enough to start.
constexpr std::size_t kMaxThreads = 64;

// What analyze's options ask for, every value checked (AnalyzeOptions::read).
struct AnalyzeRequest {
    MachineRequest machine; // checked once the inputs are read: a session brings its own
    ReadOptions readOptions;
    bool readOptionsGiven = false; // any of them on the command line
    ReportFormat format = ReportFormat::Table;
    bool compact = false; // --compact: JSON Lines
    bool strict = false;
    bool example = false;
    bool sequential = false; // never in pieces
    bool expectPieces = false; // fail unless in pieces
    std::size_t pieceBytes = kPieceBytes; // 0: an unusable --piece-bytes, read sequentially
    std::size_t threads = defaultThreadCount(); // for a file read in pieces
    std::optional<QString> baseline; // --baseline FILE
    QStringList files;
};

// What analyze has to say after its report, gathered by either path below.
struct Outcome {
    int rowErrors = 0; // rows and points left out
    bool unreadable = false; // a file that could not be used at all
    std::size_t placed = 0;
    int inconsistent = 0; // points faster than the roofline allows
    std::vector<bool> readButNonePlaced; // per file
};

// The messages after the report, and the exit status.
int conclude(const AnalyzeRequest &request, const Hardware &hardware, Outcome outcome)
{
    if (outcome.inconsistent > 0)
        err() << outcome.inconsistent
              << " point(s) are faster than the roofline allows: counts or peaks "
                 "are off"
              << Qt::endl;
    // A file read but none of whose points could be placed counts as a file with no usable
    // point, even when other files had some.
    for (std::size_t file = 0; file < outcome.readButNonePlaced.size(); ++file) {
        if (outcome.readButNonePlaced[file]) {
            err() << request.files[static_cast<qsizetype>(file)] << ": no point could be placed on "
                  << QString::fromStdString(hardware.name) << Qt::endl;
            outcome.unreadable = true;
        }
    }
    const bool hadInput = !request.files.isEmpty() || request.example;
    if (outcome.unreadable || (hadInput && outcome.placed == 0))
        return kExitBadInput;
    if (request.strict && outcome.rowErrors > 0)
        return kExitBadInput;
    return kExitOk;
}

// The measured time each payoff is a share of: Σ pointSeconds over every point read (placed or
// not; a kernel that cannot be placed still took its time). A points file's sum comes from its
// first reading (readInputFile), so no pass is added; sessions and the example are in memory.
double payoffTotal(const std::vector<std::optional<InputFile>> &inputs,
    const std::vector<SessionPoints> &sessions, const std::vector<KernelPoint> &example)
{
    double total = 0.0;
    const auto add = [&](const std::vector<KernelPoint> &points) {
        for (const KernelPoint &point : points)
            total += pointSeconds(point).value_or(0.0);
    };
    for (const auto &input : inputs) {
        if (input && input->trace)
            total += input->trace->gpuSeconds; // unplaced kernels took their time too
        else if (input && input->text)
            total += input->seconds;
        else if (input && !input->session)
            add(input->points);
    }
    for (const SessionPoints &session : sessions)
        add(session.points);
    add(example);
    return std::isfinite(total) ? total : 0.0;
}

// The points that could not be placed: the first messages, then how many more there were.
void printProblems(const std::vector<Diagnostic> &problems, std::size_t problemCount)
{
    printDiagnostics(problems);
    if (problemCount > problems.size()) {
        const std::string &file = problems.front().file;
        err() << QString::fromStdString(file.empty() ? std::string("<input>") : file)
              << ": ... and " << problemCount - problems.size() << " more messages not shown"
              << Qt::endl;
    }
}

// The report's options that do not depend on the inputs' kinds.
ReportWriterOptions reportOptions(const AnalyzeRequest &request, const AnalysisOptions &options,
    const PresetDatabase &presets, double totalSeconds)
{
    ReportWriterOptions writerOptions;
    writerOptions.summary = request.format == ReportFormat::Table;
    // The table's notes name another machine the impossible points fit (machine_fit.h).
    if (writerOptions.summary) {
        writerOptions.otherMachines = &presets.machines();
        writerOptions.analysisOptions = options;
    }
    writerOptions.totalSeconds = totalSeconds;
    writerOptions.compact = request.compact;
    return writerOptions;
}

// Every point read, copied (with --baseline the points files are read whole, not kept as text).
std::vector<KernelPoint> currentPoints(const std::vector<std::optional<InputFile>> &inputs,
    const std::vector<SessionPoints> &sessions, const std::vector<KernelPoint> &example)
{
    std::vector<KernelPoint> points;
    for (const auto &input : inputs) {
        if (input && !input->session)
            points.insert(points.end(), input->points.begin(), input->points.end());
    }
    for (const SessionPoints &session : sessions)
        points.insert(points.end(), session.points.begin(), session.points.end());
    points.insert(points.end(), example.begin(), example.end());
    return points;
}

// --baseline: each point's speed-up (the CSV's and Markdown's columns) and the change per
// operator (the table's and Markdown's section, the JSON's "baseline").
struct BaselineComparison {
    BaselineComparison(const Baseline &baseline, const std::vector<KernelPoint> &current,
        ReportWriterOptions &writerOptions)
        : changes(compareOperators(baseline.points, current, baseline.match))
    {
        index.rebuild(baseline);
        index.setCurrent(current);
        writerOptions.withSpeedup = true;
        writerOptions.changes = &changes;
        writerOptions.baselineFile = baseline.file;
    }
    BaselineComparison(const BaselineComparison &) = delete;
    BaselineComparison &operator=(const BaselineComparison &) = delete;

    OperatorChanges changes;
    BaselineIndex index;
};

// Every point in file order (then the example's), each analysed as soon as it is read (a points
// file's rows from the text readInputFile kept) and written by the general path's pipeline
// (core/stream/fed_report.h), so memory stays at the input's text whatever the number of points.
// The report goes to stdout directly; the analysis problems follow it on stderr.
int analyzeStreamed(const AnalyzeRequest &request, std::vector<std::optional<InputFile>> &inputs,
    const Hardware &hardware, const AnalysisOptions &options, int rowErrors, bool unreadable,
    const std::optional<Baseline> &baseline)
{
    const QStringList &files = request.files;
    Outcome outcome;
    outcome.rowErrors = rowErrors;
    outcome.unreadable = unreadable;
    // Sessions' points as the window shows them, made first so their times join the total.
    std::vector<SessionPoints> sessions;
    std::vector<std::size_t> sessionOf(inputs.size(), 0);
    for (std::size_t file = 0; file < inputs.size(); ++file) {
        if (inputs[file] && inputs[file]->session) {
            sessionOf[file] = sessions.size();
            sessions.push_back(sessionPoints(std::move(*inputs[file]->session), hardware));
        }
    }
    std::vector<KernelPoint> example;
    if (request.example)
        example = examplePoints();
    const PresetDatabase presets = PresetDatabase::builtin();
    FedReport report;
    report.format = request.format;
    report.options
        = reportOptions(request, options, presets, payoffTotal(inputs, sessions, example));
    // A profiler trace's GPU time heads the report (the first trace's, when there are several).
    for (const auto &input : inputs) {
        if (input && input->trace && !report.options.trace)
            report.options.trace = &*input->trace;
    }
    std::optional<BaselineComparison> compared;
    if (baseline) {
        compared.emplace(*baseline, currentPoints(inputs, sessions, example), report.options);
        report.speedup = [&index = compared->index](
                             const KernelPoint &point) { return index.speedupOf(point); };
    }
    report.problemsShown = kMaxDiagnosticsShown;
    for (const QString &file : files)
        report.inputNames.push_back(file.toStdString());
    const std::size_t exampleInput = report.inputNames.size();
    report.inputNames.emplace_back("--example");
    report.sink = [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); };
    // The source: every input's points in order, then the example's.
    const auto source = [&](PointFeed &feed) {
        for (std::size_t file = 0; file < inputs.size(); ++file) {
            auto &input = inputs[file];
            if (!input)
                continue;
            if (input->session) {
                auto &fromSession = sessions[sessionOf[file]];
                outcome.rowErrors += fromSession.refused;
                for (std::size_t i = 0; i < fromSession.points.size(); ++i) {
                    const auto own = fromSession.machines.find(i);
                    feed.add(std::move(fromSession.points[i]), file,
                        own == fromSession.machines.end() ? nullptr : &own->second);
                }
            } else if (input->text) {
                // Its messages were given when it was first read.
                std::ignore = ridgepoint::readPointsFile(
                    *input->text, files[static_cast<qsizetype>(file)].toStdString(),
                    [&](KernelPoint &&point) { feed.add(std::move(point), file); },
                    request.readOptions);
                input->text.reset();
            } else {
                for (KernelPoint &point : input->points)
                    feed.add(std::move(point), file);
            }
        }
        for (KernelPoint &point : example)
            feed.add(std::move(point), exampleInput);
    };
    out().flush();
    // The writing on a second thread: formatting the numbers is more than half of analyze's
    // work, and the reading and analysing go on meanwhile. --threads 1: all on this thread.
    WorkerPool pool(std::min<std::size_t>(request.threads, 2));
    const FedOutcome fed = analyzeFed(source, hardware, options, std::move(report), pool);
    std::fflush(stdout);

    printProblems(fed.problems, fed.problemCount);
    outcome.rowErrors += static_cast<int>(fed.problemCount);
    outcome.placed = fed.placed;
    outcome.inconsistent = fed.inconsistent;
    for (std::size_t file = 0; file < inputs.size(); ++file)
        outcome.readButNonePlaced.push_back(fed.readAny[file] && !fed.placedAny[file]);
    return conclude(request, hardware, std::move(outcome));
}

// One clean points CSV on every core (core/stream/pipeline.h): the report and messages of
// analyzeStreamed for the same file.
int analyzeInPieces(const AnalyzeRequest &request, const PiecedFile &file, const Hardware &hardware,
    const AnalysisOptions &options, WorkerPool &pool)
{
    PiecedReport report;
    report.format = request.format;
    report.options.totalSeconds = std::isfinite(file.seconds) ? file.seconds : 0.0;
    report.options.compact = request.compact;
    report.problemsShown = kMaxDiagnosticsShown;
    report.sink = [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); };
    out().flush();
    const PiecedOutcome pieced = analyzePieced(file, hardware, options, std::move(report), pool);
    std::fflush(stdout);
    printProblems(pieced.problems, pieced.problemCount);
    Outcome outcome;
    outcome.rowErrors = static_cast<int>(pieced.problemCount);
    outcome.placed = pieced.placed;
    outcome.inconsistent = pieced.inconsistent;
    outcome.readButNonePlaced.push_back(pieced.placed == 0); // it has usable points
    return conclude(request, hardware, std::move(outcome));
}

// Whether the options allow analyzeInPieces: one points file, a CSV or JSON report (the
// table's widths come from a look-ahead), no reading option (their warnings belong to the
// sequential path). The file decides the rest (readPiecedFile).
bool piecesAllowed(const AnalyzeRequest &request)
{
    return request.files.size() == 1 && !request.example && !request.sequential
        && (request.format == ReportFormat::Csv || request.format == ReportFormat::Json)
        && !request.readOptionsGiven && request.pieceBytes != 0 && !request.baseline;
}

// analyze's options, in the order --help lists them.
struct AnalyzeOptions {
    MachineOptions machine;
    QCommandLineOption json { "json",
        "Print one JSON object (numbers in SI base units); --format json." };
    QCommandLineOption format { "format",
        "table (default, for people), json, csv (RFC 4180, SI base units, full precision) or "
        "markdown (a pipe table for review documents).",
        "table|json|csv|markdown", "table" };
    QCommandLineOption compact { "compact",
        "JSON Lines: the machine on the first line, then one compact JSON object per point "
        "(about half the bytes of --json, and faster); implies --format json." };
    QCommandLineOption strict { "strict", "Exit with status 2 if any row cannot be used." };
    QCommandLineOption baseline { "baseline",
        "Compare with a previous run in FILE: the table and Markdown end with the change per "
        "operator, the JSON has it as \"baseline\", CSV and Markdown give each point's "
        "speed-up (baseline time / this time). A profiler trace is matched by operator and "
        "shapes, other files by kernel name.",
        "file" };
    QCommandLineOption example { "example", "Analyse the built-in example data set as well." };
    ReadOptionGroup reading;
    QCommandLineOption sequential = hiddenOption("sequential",
        "Read, analyse and write one point after another even where the file could be read in "
        "pieces on every core (tests compare both).");
    QCommandLineOption pieceBytes = hiddenOption("piece-bytes",
        "Bytes of text per piece when a file is read on every core (tests use small pieces).",
        "bytes");
    QCommandLineOption threads = hiddenOption("threads",
        "Threads for a file read in pieces (default: one per core, up to four), and for any "
        "other input at most two (1: read, analyse and write on one thread; tests compare "
        "counts).",
        "count");
    QCommandLineOption expectPieces = hiddenOption("expect-pieces",
        "Fail unless the file is read in pieces on every core (tests check which path a file "
        "takes).");

    void addTo(QCommandLineParser &parser) const;
    [[nodiscard]] std::optional<ReportFormat> readFormat(const QCommandLineParser &parser) const;
    [[nodiscard]] std::optional<AnalyzeRequest> read(const QCommandLineParser &parser) const;
};

void AnalyzeOptions::addTo(QCommandLineParser &parser) const
{
    parser.setApplicationDescription(
        "Place kernels on a machine's roofline: intensity per memory level, attainable "
        "performance, bound and limiting ceiling, utilization, T_min/T_max, consistency.");
    machine.addTo(parser);
    parser.addOptions({ json, format, compact, strict, baseline, example });
    reading.addTo(parser);
    parser.addOptions({ sequential, pieceBytes, threads, expectPieces });
    parser.addPositionalArgument("files",
        "Point files in any format Ridgepoint reads ("
            + QString::fromStdString(formatFamilies(ReadFor::Points))
            + "; a CSV is name,flops,bytes,seconds,...), or sessions: a .ridgepoint.json file or "
              "a PNG, SVG or PDF exported with its session embedded. A session's points are "
              "analysed as the window shows them (what-if moves applied) on the session's "
              "machine, unless --hardware names another. Without a machine option, a file that "
              "gives only a machine (a hardware JSON, ERT, Advisor's roofs, rocprof-compute's "
              "roofline.csv, ...) is the machine.",
        "[FILE...]");
}

// --format, or --json; nullopt (after saying why) for another format or a contradiction.
std::optional<ReportFormat> AnalyzeOptions::readFormat(const QCommandLineParser &parser) const
{
    const bool jsonGiven = parser.isSet(json);
    const bool compactGiven = parser.isSet(compact);
    const std::optional<QString> formatGiven = givenValue(parser, format);
    if (compactGiven && formatGiven && *formatGiven != "json") {
        err() << "--compact and --format " << *formatGiven << " contradict each other" << Qt::endl;
        return std::nullopt;
    }
    const QString chosen
        = jsonGiven || compactGiven ? QStringLiteral("json") : parser.value(format);
    if (!QStringList { "table", "json", "csv", "markdown" }.contains(chosen)) {
        err() << "--format: expected table, json, csv or markdown, got \"" << chosen << "\""
              << Qt::endl;
        return std::nullopt;
    }
    if (jsonGiven && formatGiven && *formatGiven != "json") {
        err() << "--json and --format " << *formatGiven << " contradict each other" << Qt::endl;
        return std::nullopt;
    }
    if (chosen == "json")
        return ReportFormat::Json;
    if (chosen == "csv")
        return ReportFormat::Csv;
    return chosen == "markdown" ? ReportFormat::Markdown : ReportFormat::Table;
}

std::optional<AnalyzeRequest> AnalyzeOptions::read(const QCommandLineParser &parser) const
{
    AnalyzeRequest request;
    const auto chosenFormat = readFormat(parser);
    if (!chosenFormat)
        return std::nullopt;
    request.format = *chosenFormat;
    const auto readOptions = reading.read(parser);
    if (!readOptions)
        return std::nullopt;
    request.readOptions = *readOptions;
    request.readOptionsGiven = reading.anyGiven(parser);
    request.machine = machine.read(parser);
    request.compact = parser.isSet(compact);
    request.strict = parser.isSet(strict);
    request.example = parser.isSet(example);
    request.baseline = givenValue(parser, baseline);
    request.sequential = parser.isSet(sequential);
    request.expectPieces = parser.isSet(expectPieces);
    if (const auto bytes = givenValue(parser, pieceBytes)) {
        bool ok = false;
        request.pieceBytes = bytes->toULongLong(&ok);
        if (!ok)
            request.pieceBytes = 0;
    }
    if (const auto count = givenValue(parser, threads)) {
        bool ok = false;
        request.threads = count->toULongLong(&ok);
        if (!ok || request.threads < 1 || request.threads > kMaxThreads) {
            err() << "--threads: expected a whole number from 1 to " << kMaxThreads << ", got \""
                  << *count << "\"" << Qt::endl;
            return std::nullopt;
        }
    }
    request.files = parser.positionalArguments();
    return request;
}

// Without --hardware (or --peak and --bandwidth), a profiler trace's machine is the preset of
// the device it names (`machine`); false after saying why when it names none or an unknown one.
// Without a trace, the roofs a points file brings, if one does.
bool fileMachineOf(const AnalyzeRequest &request,
    const std::vector<std::optional<InputFile>> &inputs, std::optional<Hardware> &machine)
{
    if (request.machine.namesMachine() || request.machine.describesMachine())
        return true;
    for (std::size_t file = 0; file < inputs.size(); ++file) {
        if (!inputs[file] || !inputs[file]->trace)
            continue;
        auto found = traceMachine(*inputs[file]->trace);
        if (!found) {
            err() << request.files[static_cast<qsizetype>(file)] << ": "
                  << QString::fromStdString(found.error()) << kGiveTheMachine << Qt::endl;
            return false;
        }
        machine = std::move(*found);
        return true;
    }
    // Else the roofs a points file brings (an Nsight Compute roofline section).
    for (std::size_t file = 0; file < inputs.size() && !machine; ++file) {
        if (inputs[file])
            machine = machineWithPoints(
                request.files[static_cast<qsizetype>(file)], request.readOptions);
    }
    return true;
}

// Whether there are points to analyze, after a file that gives only a machine is taken as the
// machine (MachineRequest::takeMachineFile); else says what to give, after the machine's own
// problems (until 2026-11-30 a machine alone printed nothing and succeeded).
bool somethingToAnalyze(AnalyzeRequest &request)
{
    const bool hadFiles = !request.files.isEmpty();
    if (!request.machine.takeMachineFile(request.files))
        return false;
    if (!request.files.isEmpty() || request.example)
        return true;
    const bool machineOption = request.machine.namesMachine() || request.machine.describesMachine();
    if (machineOption && !request.machine.machine(nullptr, request.readOptions))
        return false;
    if (!hadFiles) {
        err() << "analyze: nothing to analyze: give a points file, a session or --example (a "
                 "machine's ceilings alone: ridgepoint presets NAME|FILE)"
              << Qt::endl;
        return false;
    }
    const QString &file = *request.machine.hardware;
    err() << "analyze: no points to place on it: give the kernels' file after it (ridgepoint "
             "analyze "
          << file << " KERNELS...), or see its ceilings with 'ridgepoint presets " << file << "'"
          << Qt::endl;
    return false;
}

} // namespace

int runAnalyze(const QStringList &arguments)
{
    int status = kExitOk;
    auto request = parseRequest(AnalyzeOptions(), arguments, status);
    if (!request)
        return status;
    if (!somethingToAnalyze(*request))
        return kExitBadInput;
    // Read first: a session brings its own machine, used unless the options name another.
    const QStringList &files = request->files;
    // A big clean points CSV on every core; any other input as before.
    if (piecesAllowed(*request)) {
        WorkerPool pool(request->threads);
        const auto pieced
            = readPiecedFile(request->files.front().toStdString(), request->pieceBytes, pool);
        if (pieced) {
            const auto hardware = request->machine.machine(nullptr, request->readOptions);
            if (!hardware)
                return kExitBadInput;
            return analyzeInPieces(
                *request, *pieced, *hardware, request->machine.analysisOptions(*hardware), pool);
        }
    }
    if (request->expectPieces) {
        err() << "analyze: not read in pieces (--expect-pieces)" << Qt::endl;
        return kExitBadInput;
    }
    std::vector<std::optional<InputFile>> inputs;
    inputs.reserve(static_cast<std::size_t>(files.size())); // firstSession points into it
    int rowErrors = 0;
    bool unreadable = false;
    const Session *firstSession = nullptr;
    QString firstSessionFile;
    for (const QString &file : files) {
        // Each point is analysed and written as its row is read, so a million-row file needs
        // neither its points nor the whole report in memory (1.1 GB of JSON).
        inputs.push_back(readInputFile(file, rowErrors, request->readOptions, !request->baseline));
        const auto &input = inputs.back();
        if (!input) {
            unreadable = true;
            continue;
        }
        if (!input->session)
            continue;
        if (!firstSession) {
            firstSession = &*input->session;
            firstSessionFile = file;
        } else if (!request->machine.namesMachine()
            && input->session->hardware.name != firstSession->hardware.name) {
            err() << file << ": saved on " << QString::fromStdString(input->session->hardware.name)
                  << ", " << firstSessionFile << " on "
                  << QString::fromStdString(firstSession->hardware.name)
                  << ": choose one machine with --hardware" << Qt::endl;
            return kExitBadInput;
        }
    }
    // Nothing to report: each file's reason is already on stderr, and a machine block with an
    // empty table would only bury it.
    const bool anyInput = std::any_of(
        inputs.begin(), inputs.end(), [](const auto &input) { return input.has_value(); });
    if (unreadable && !anyInput && !request->example)
        return kExitBadInput;
    std::optional<Baseline> baseline;
    if (request->baseline
        && !(baseline = readBaselineFile(*request->baseline, rowErrors, request->readOptions)))
        return kExitBadInput;
    std::optional<Hardware> traceHardware;
    if (!firstSession && !fileMachineOf(*request, inputs, traceHardware))
        return kExitBadInput;
    const Hardware *fallback = firstSession ? &firstSession->hardware
        : traceHardware                     ? &*traceHardware
                                            : nullptr;
    // A session's or a trace's machine: each point's precision picks its compute roof.
    const bool ownMachine = fallback && !request->machine.namesMachine();
    const auto hardware = request->machine.machine(fallback, request->readOptions,
        firstSession ? firstSession->figures : FigureChoice::Measured);
    if (!hardware)
        return kExitBadInput;

    const AnalysisOptions options = request->machine.analysisOptions(*hardware, ownMachine);
    return analyzeStreamed(*request, inputs, *hardware, options, rowErrors, unreadable, baseline);
}

} // namespace ridgepoint::cli
