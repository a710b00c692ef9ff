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
    parser.addPositionalArgument(
        "files", "Point files (CSV: name,flops,bytes,seconds,...).", "[FILE...]");
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

    const auto hardware = hardwareFromOptions(parser);
    if (!hardware)
        return kExitBadInput;

    std::vector<KernelPoint> points;
    int rowErrors = 0;
    bool unreadable = false;
    for (const QString &file : parser.positionalArguments()) {
        auto read = readPointsFile(file, rowErrors);
        if (!read) {
            unreadable = true;
            continue;
        }
        points.insert(points.end(), read->begin(), read->end());
    }
    if (parser.isSet("example")) {
        auto example = examplePoints();
        points.insert(points.end(), example.begin(), example.end());
    }

    const AnalysisOptions options = analysisOptionsFromOptions(parser, *hardware);
    std::vector<Diagnostic> problems;
    const auto analysed = analyzePoints(points, *hardware, options, problems);
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
    for (const QString &file : parser.positionalArguments()) {
        const std::string name = file.toStdString();
        const bool read = std::any_of(points.begin(), points.end(),
            [&](const KernelPoint &p) { return p.source.file == name; });
        const bool placed = std::any_of(analysed.begin(), analysed.end(),
            [&](const AnalyzedPoint &a) { return a.point.source.file == name; });
        if (read && !placed) {
            err() << file << ": no point could be placed on "
                  << QString::fromStdString(hardware->name) << Qt::endl;
            unreadable = true;
        }
    }
    const bool hadInput = !parser.positionalArguments().isEmpty() || parser.isSet("example");
    if (unreadable || (hadInput && analysed.empty()))
        return kExitBadInput;
    if (parser.isSet("strict") && rowErrors > 0)
        return kExitBadInput;
    return kExitOk;
}

} // namespace ridgepoint::cli
