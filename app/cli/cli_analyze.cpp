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
#include "core/stream/pieced_file.h"
#include "core/stream/pieced_report.h"
#include "core/stream/worker_pool.h"
#include "widgets/chart/baselineindex.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <string_view>
#include <system_error>
#include <thread>
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

// The report written to stdout on a second thread: formatting the numbers is more than half the
// work of analyze, and this thread meanwhile reads and analyses the next points. Points travel in
// batches, a few batches at most in flight; the text leaves in the writer's pieces. So memory
// holds a few batches and the writer's look-ahead, whatever the number of points.
// A written batch comes back with its points in it, and the next points are assigned over them:
// their strings and vectors keep their buffers, so after the first batches a point costs no
// allocation, and no block is freed on another thread than the one that allocated it.
// The writer is made with the first batch: a run that places no point writes nothing at all on
// stdout (no machine block, no empty table), only its errors on stderr.
class BackgroundReport
{
public:
    // `baseline`: each point's speed-up over it (CSV and Markdown columns); it is read by the
    // writing thread, so it must not change until finish().
    BackgroundReport(ReportFormat format, const Hardware &hardware,
        const ReportWriterOptions &options, const BaselineIndex *baseline = nullptr)
        : m_format(format)
        , m_hardware(hardware)
        , m_options(options)
        , m_baseline(baseline)
    {
        m_batch.points.reserve(kBatchPoints);
        try {
            m_thread = std::thread([this] { writeBatches(); });
        } catch (const std::system_error &) {
            // No thread to be had (a process limit): each batch is written here when full.
        }
    }
    BackgroundReport(const BackgroundReport &) = delete;
    BackgroundReport &operator=(const BackgroundReport &) = delete;
    ~BackgroundReport() { stop(); }

    // Takes `point` and `analysis`, leaving in them the buffers of a point already written (the
    // reader fills them again).
    void add(KernelPoint &point, PointAnalysis &analysis)
    {
        if (m_batch.size < m_batch.points.size()) {
            AnalyzedPoint &slot = m_batch.points[m_batch.size];
            std::swap(slot.point, point);
            std::swap(slot.analysis, analysis);
        } else {
            m_batch.points.push_back({ std::move(point), std::move(analysis) });
        }
        if (++m_batch.size == kBatchPoints)
            handOver();
    }

    // Writes what is left and the end of the document; nothing may be added after. Throws what
    // the writing thread threw.
    void finish()
    {
        handOver();
        stop();
        if (m_failure)
            std::rethrow_exception(m_failure);
        if (m_writer)
            m_writer->finish();
        std::fflush(stdout);
    }

private:
    static constexpr std::size_t kBatchPoints = 4096; // about 3 MB of points
    static constexpr std::size_t kBatchesInFlight = 3;

    // Points [0, size) are this batch's; the rest are kept only for their buffers.
    struct Batch {
        std::vector<AnalyzedPoint> points;
        std::size_t size = 0;
    };

    void handOver()
    {
        if (m_batch.size == 0)
            return;
        if (!m_thread.joinable()) { // no writing thread (finish() calls this before stop())
            write(m_batch);
            m_batch.size = 0;
            return;
        }
        std::unique_lock lock(m_mutex);
        m_room.wait(lock, [&] { return m_queue.size() < kBatchesInFlight; });
        m_queue.push_back(std::move(m_batch));
        m_batch = {};
        if (!m_written.empty()) {
            m_batch = std::move(m_written.back());
            m_written.pop_back();
        }
        lock.unlock();
        m_ready.notify_one();
        m_batch.size = 0;
        m_batch.points.reserve(kBatchPoints);
    }

    void stop()
    {
        if (!m_thread.joinable())
            return;
        {
            const std::lock_guard lock(m_mutex);
            m_done = true;
        }
        m_ready.notify_one();
        m_thread.join();
    }

    void writeBatches()
    {
        while (true) {
            Batch batch;
            {
                std::unique_lock lock(m_mutex);
                m_ready.wait(lock, [&] { return !m_queue.empty() || m_done; });
                if (m_queue.empty())
                    return;
                batch = std::move(m_queue.front());
                m_queue.pop_front();
            }
            m_room.notify_one();
            write(batch);
            const std::lock_guard lock(m_mutex);
            m_written.push_back(std::move(batch));
        }
    }

    void write(const Batch &batch)
    {
        if (m_failure)
            return; // keep taking batches, so the reading thread never waits for room
        try {
            if (!m_writer)
                m_writer = makeReportWriter(
                    m_format, m_hardware,
                    [](std::string_view piece) {
                        std::fwrite(piece.data(), 1, piece.size(), stdout);
                    },
                    m_options);
            for (std::size_t i = 0; i < batch.size; ++i)
                m_writer->add(batch.points[i].point, batch.points[i].analysis,
                    m_baseline ? m_baseline->speedupOf(batch.points[i].point) : std::nullopt);
        } catch (...) {
            m_failure = std::current_exception(); // read by finish() after the join
        }
    }

    ReportFormat m_format;
    const Hardware &m_hardware;
    ReportWriterOptions m_options;
    const BaselineIndex *m_baseline;
    std::unique_ptr<ReportWriter> m_writer; // made and used by the thread until it is joined
    Batch m_batch; // being filled by this thread
    std::mutex m_mutex;
    std::condition_variable m_ready; // a batch is queued, or the end
    std::condition_variable m_room; // a batch was taken
    std::deque<Batch> m_queue;
    std::vector<Batch> m_written; // back from the writer, to be filled again
    bool m_done = false;
    std::exception_ptr m_failure; // the writing thread's, once it failed
    std::thread m_thread; // started by the constructor once every member it uses exists
};

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

// Every point in file order (then the example's), each analysed and written as soon as it is read
// (a points file's rows from the text readInputFile kept), so memory stays at the input's text
// whatever the number of points. The report goes to stdout directly; the analysis problems
// follow it on stderr.
int analyzeStreamed(const AnalyzeRequest &request, std::vector<std::optional<InputFile>> &inputs,
    const Hardware &hardware, const AnalysisOptions &options, int rowErrors, bool unreadable,
    const std::optional<Baseline> &baseline)
{
    const QStringList &files = request.files;
    const ReportFormat format = request.format;
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
    ReportWriterOptions writerOptions
        = reportOptions(request, options, presets, payoffTotal(inputs, sessions, example));
    // A profiler trace's GPU time heads the report (the first trace's, when there are several).
    for (const auto &input : inputs) {
        if (input && input->trace && !writerOptions.trace)
            writerOptions.trace = &*input->trace;
    }
    std::optional<BaselineComparison> compared;
    if (baseline)
        compared.emplace(*baseline, currentPoints(inputs, sessions, example), writerOptions);
    out().flush();
    BackgroundReport report(format, hardware, writerOptions, compared ? &compared->index : nullptr);
    // The first messages, as many as are shown, and the count of all: a file of a million
    // unplaceable rows must not hold a million messages.
    std::vector<Diagnostic> problems;
    std::size_t problemCount = 0;
    std::vector<bool> readAny(inputs.size(), false);
    std::vector<bool> placedAny(inputs.size(), false);
    // Input `file` (none: the example data set).
    const auto place = [&](KernelPoint &&point, std::optional<std::size_t> file,
                           const Hardware *machine = nullptr) {
        if (file)
            readAny[*file] = true;
        auto analysis = analyzePoint(point, machine ? *machine : hardware, options);
        if (!analysis) {
            if (++problemCount <= kMaxDiagnosticsShown) {
                // A session's or a picture's points carry no file of their own: the input's name.
                std::string where = point.source.file;
                if (where.empty())
                    where = file ? files[static_cast<qsizetype>(*file)].toStdString() : "--example";
                problems.push_back(
                    { Severity::Error, std::move(where), point.source.line, 0, analysis.error() });
            }
            return;
        }
        if (file)
            placedAny[*file] = true;
        ++outcome.placed;
        outcome.inconsistent += analysis->consistent ? 0 : 1;
        report.add(point, *analysis);
    };
    for (std::size_t file = 0; file < inputs.size(); ++file) {
        auto &input = inputs[file];
        if (!input)
            continue;
        if (input->session) {
            auto &fromSession = sessions[sessionOf[file]];
            outcome.rowErrors += fromSession.refused;
            for (std::size_t i = 0; i < fromSession.points.size(); ++i) {
                const auto own = fromSession.machines.find(i);
                place(std::move(fromSession.points[i]), file,
                    own == fromSession.machines.end() ? nullptr : &own->second);
            }
        } else if (input->text) {
            // Its messages were given when it was first read.
            std::ignore = ridgepoint::readPointsFile(
                *input->text, files[static_cast<qsizetype>(file)].toStdString(),
                [&](KernelPoint &&point) { place(std::move(point), file); }, request.readOptions);
            input->text.reset();
        } else {
            for (KernelPoint &point : input->points)
                place(std::move(point), file);
        }
    }
    for (KernelPoint &point : example)
        place(std::move(point), std::nullopt);
    report.finish();

    printProblems(problems, problemCount);
    outcome.rowErrors += static_cast<int>(problemCount);
    for (std::size_t file = 0; file < inputs.size(); ++file)
        outcome.readButNonePlaced.push_back(readAny[file] && !placedAny[file]);
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
        "Threads for a file read in pieces (default: one per core, up to four; tests compare "
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
              "machine, unless --hardware names another.",
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
bool traceMachineOf(const AnalyzeRequest &request,
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
                  << QString::fromStdString(found.error()) << Qt::endl;
            return false;
        }
        machine = std::move(*found);
        return true;
    }
    return true;
}

} // namespace

int runAnalyze(const QStringList &arguments)
{
    int status = kExitOk;
    const auto request = parseRequest(AnalyzeOptions(), arguments, status);
    if (!request)
        return status;

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
    if (!firstSession && !traceMachineOf(*request, inputs, traceHardware))
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
