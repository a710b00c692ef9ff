#include "app/cli.h"
#include "app/cli_commands.h"
#include "app/cli_common.h"

#include "core/analysis.h"
#include "core/presets.h"
#include "core/report.h"

#include <algorithm>

namespace ridgepoint::cli {

int runPresets(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription("List the hardware presets with their ceilings and ridges.");
    parser.addOption({ "json", "Print {\"presets\": [...]} instead of a table." });
    int status = kExitOk;
    if (!parseOrExplain(parser, arguments, status))
        return status;
    if (!parser.positionalArguments().isEmpty()) {
        err() << "presets takes no file arguments" << Qt::endl;
        return kExitBadInput;
    }
    const PresetDatabase presets = PresetDatabase::builtin();
    for (const auto &d : presets.diagnostics())
        err() << QString::fromStdString(d.toString()) << Qt::endl;
    const std::string text
        = parser.isSet("json") ? presetsJson(presets.machines()) : presetsTable(presets.machines());
    out() << QString::fromStdString(text);
    out().flush();
    return kExitOk;
}

int runAnalyze(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Place kernels on a machine's roofline: intensity per memory level, attainable "
        "performance, bound and limiting ceiling, utilization, T_min/T_max, consistency.");
    addHardwareOptions(parser);
    parser.addOption(
        { "json", "Print one JSON object (numbers in SI base units); --format json." });
    parser.addOption({ "format",
        "table (default, for people), json, csv (RFC 4180, SI base units, full precision) or "
        "markdown (a pipe table for review documents).",
        "table|json|csv|markdown", "table" });
    parser.addOption({ "strict", "Exit with status 2 if any row cannot be used." });
    parser.addOption({ "example", "Analyse the built-in example data set as well." });
    parser.addPositionalArgument("files",
        "Point files in any format Ridgepoint reads (CSV name,flops,bytes,seconds,..., points "
        "JSON, ncu, rocprof-compute, Advisor, likwid), or sessions: a .ridgepoint.json file or "
        "a PNG, SVG or PDF exported with its session embedded. A session's points are analysed as "
        "the window shows them (what-if moves applied) on the session's machine, unless "
        "--hardware names another.",
        "[FILE...]");
    int status = kExitOk;
    if (!parseOrExplain(parser, arguments, status))
        return status;

    const QString format = parser.isSet("json") ? QStringLiteral("json") : parser.value("format");
    if (!QStringList { "table", "json", "csv", "markdown" }.contains(format)) {
        err() << "--format: expected table, json, csv or markdown, got \"" << format << "\""
              << Qt::endl;
        return kExitBadInput;
    }
    if (parser.isSet("json") && parser.isSet("format") && parser.value("format") != "json") {
        err() << "--json and --format " << parser.value("format") << " contradict each other"
              << Qt::endl;
        return kExitBadInput;
    }

    // Read first: a session brings its own machine, used unless the options name another.
    const QStringList files = parser.positionalArguments();
    std::vector<std::optional<InputFile>> inputs;
    inputs.reserve(static_cast<std::size_t>(files.size())); // firstSession points into it
    int rowErrors = 0;
    bool unreadable = false;
    const Session *firstSession = nullptr;
    QString firstSessionFile;
    for (const QString &file : files) {
        inputs.push_back(readInputFile(file, rowErrors));
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
        } else if (!parser.isSet("hardware")
            && input->session->hardware.name != firstSession->hardware.name) {
            err() << file << ": saved on " << QString::fromStdString(input->session->hardware.name)
                  << ", " << firstSessionFile << " on "
                  << QString::fromStdString(firstSession->hardware.name)
                  << ": choose one machine with --hardware" << Qt::endl;
            return kExitBadInput;
        }
    }
    const bool sessionMachine = firstSession && !parser.isSet("hardware");
    const auto hardware
        = hardwareFromOptions(parser, firstSession ? &firstSession->hardware : nullptr);
    if (!hardware)
        return kExitBadInput;

    // Each file's points in order, remembering which file gave which, so a file none of whose
    // points can be placed is reported by name.
    std::vector<KernelPoint> points;
    std::vector<std::pair<std::size_t, std::size_t>> ranges; // per file: [first, last)
    for (auto &input : inputs) {
        const std::size_t first = points.size();
        if (input && input->session) {
            auto fromSession = sessionPoints(std::move(*input->session), *hardware);
            points.insert(points.end(), std::make_move_iterator(fromSession.begin()),
                std::make_move_iterator(fromSession.end()));
        } else if (input) {
            points.insert(points.end(), std::make_move_iterator(input->points.begin()),
                std::make_move_iterator(input->points.end()));
        }
        ranges.emplace_back(first, points.size());
    }
    if (parser.isSet("example")) {
        auto example = examplePoints();
        points.insert(points.end(), example.begin(), example.end());
    }

    const AnalysisOptions options = analysisOptionsFromOptions(parser, *hardware, sessionMachine);
    // Point by point rather than analyzePoints(), to know which file each placed point came from.
    std::vector<AnalyzedPoint> analysed;
    analysed.reserve(points.size());
    std::vector<Diagnostic> problems;
    std::vector<bool> placedAny(ranges.size(), false);
    for (std::size_t file = 0, i = 0; i < points.size(); ++i) {
        while (file < ranges.size() && i >= ranges[file].second)
            ++file;
        auto analysis = analyzePoint(points[i], *hardware, options);
        if (!analysis) {
            problems.push_back({ Severity::Error, points[i].source.file, points[i].source.line, 0,
                analysis.error() });
            continue;
        }
        if (file < ranges.size())
            placedAny[file] = true;
        analysed.push_back({ std::move(points[i]), std::move(*analysis) });
    }
    printDiagnostics(problems);
    rowErrors += static_cast<int>(problems.size());

    std::string text;
    if (format == "json")
        text = analysisJson(*hardware, analysed);
    else if (format == "csv")
        text = tableCsv(analysed);
    else if (format == "markdown")
        text = tableMarkdown(analysed);
    else
        text = analysisTable(*hardware, analysed);
    out() << QString::fromStdString(text);
    out().flush();

    int inconsistent = 0;
    for (const auto &a : analysed)
        inconsistent += a.analysis.consistent ? 0 : 1;
    if (inconsistent > 0)
        err() << inconsistent
              << " point(s) are faster than the roofline allows: counts or peaks "
                 "are off"
              << Qt::endl;
    // A file read but none of whose points could be placed counts as a file with no usable
    // point, even when other files had some.
    for (std::size_t file = 0; file < ranges.size(); ++file) {
        if (ranges[file].first < ranges[file].second && !placedAny[file]) {
            err() << files[static_cast<qsizetype>(file)] << ": no point could be placed on "
                  << QString::fromStdString(hardware->name) << Qt::endl;
            unreadable = true;
        }
    }
    const bool hadInput = !files.isEmpty() || parser.isSet("example");
    if (unreadable || (hadInput && analysed.empty()))
        return kExitBadInput;
    if (parser.isSet("strict") && rowErrors > 0)
        return kExitBadInput;
    return kExitOk;
}

} // namespace ridgepoint::cli
