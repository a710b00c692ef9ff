#include "app/cli/cli_common.h"

#include "core/analysis/payoff.h"
#include "core/io/file_io.h"
#include "core/io/file_write.h"
#include "core/io/formats/csv.h"
#include "core/io/formats/hardware_json.h"
#include "core/io/picture_session.h"
#include "core/io/readers.h"
#include "core/model/units.h"
#include "core/model/value_ranges.h"
#include "core/presets/presets.h"
#include "core/presets/resources.h"
#include "core/workspace/workspace.h"
#include "widgets/document/sessionfile.h"

#include <QDir>
#include <QFileInfo>

#include <string_view>

namespace ridgepoint::cli {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

QString outputProblem(const QString &output)
{
    return QString::fromStdString(outputTargetProblem(output.toStdString()));
}

void addHardwareOptions(QCommandLineParser &parser)
{
    parser.addOption({ "hardware",
        "Machine: a preset name (case-insensitive, unique prefix) or a hardware "
        ".json file.",
        "name|file" });
    parser.addOption({ "peak",
        "Peak compute, e.g. \"989 TFLOP/s\" or 1.97e14. Replaces the chosen compute "
        "ceiling; alone, makes a one-ceiling machine.",
        "FLOP/s" });
    parser.addOption({ "bandwidth",
        "Memory bandwidth, e.g. \"3.35 TB/s\". Replaces the main-memory ceiling; "
        "alone, makes a one-ceiling machine.",
        "B/s" });
    parser.addOption({ "compute", "Compute ceiling to use for every point, by name.", "name" });
    parser.addOption({ "sustained",
        "Use sustained peaks (the machine's sustained fraction, docs/MODEL.md "
        "section 4.5) instead of vendor peaks." });
    parser.addOption({ "figures",
        "Where a ceiling holds two figures, which one the analysis uses: measured (the "
        "default, when the file has one) or spec (the datasheet's or derived figure).",
        "measured|spec" });
}

namespace {

// --figures measured|spec, else `fallback`; nullopt after the reason when the value is neither.
std::optional<FigureChoice> figuresOption(const QCommandLineParser &parser, FigureChoice fallback)
{
    if (!parser.isSet("figures"))
        return fallback;
    const auto choice = figureChoiceFromName(parser.value("figures").toStdString());
    if (!choice)
        err() << "--figures: expected measured or spec, got \"" << parser.value("figures") << "\""
              << Qt::endl;
    return choice;
}

} // namespace

std::optional<Hardware> machineNamed(
    const QString &wanted, const QString &option, const ReadOptions &readOptions)
{
    const bool looksLikeFile
        = wanted.endsWith(".json", Qt::CaseInsensitive) || QFileInfo::exists(wanted);
    if (looksLikeFile) {
        auto text = readTextFile(wanted.toStdString());
        if (!text) {
            err() << QString::fromStdString(text.error()) << Qt::endl;
            return std::nullopt;
        }
        // Any ceiling format: hardware JSON, ERT, rocprof-compute, Advisor, ncu section.
        auto result = readHardwareFile(*text, wanted.toStdString(), readOptions).hardware;
        for (const auto &d : result.diagnostics)
            err() << QString::fromStdString(d.toString()) << Qt::endl;
        if (result.machines.empty()) {
            err() << wanted << ": no usable machine in this hardware file" << Qt::endl;
            return std::nullopt;
        }
        return result.machines.front();
    }
    const PresetDatabase presets = PresetDatabase::builtin();
    auto found = presets.find(wanted.toStdString());
    if (!found) {
        err() << option << ": " << QString::fromStdString(found.error()) << Qt::endl;
        return std::nullopt;
    }
    return **found;
}

std::optional<Hardware> hardwareFromOptions(const QCommandLineParser &parser,
    const Hardware *fallback, const ReadOptions &readOptions, FigureChoice figures)
{
    const auto chosenFigures = figuresOption(parser, figures);
    if (!chosenFigures)
        return std::nullopt;
    std::optional<double> peak;
    std::optional<double> bandwidth;
    if (parser.isSet("peak")) {
        auto value = parsePositiveQuantity(parser.value("peak").toStdString(), Dimension::FlopRate);
        if (!value) {
            err() << "--peak: " << QString::fromStdString(value.error()) << Qt::endl;
            return std::nullopt;
        }
        if (auto problem = valueProblem(*value, Quantity::Peak)) {
            err() << "--peak: " << QString::fromStdString(*problem) << Qt::endl;
            return std::nullopt;
        }
        peak = *value;
    }
    if (parser.isSet("bandwidth")) {
        auto value
            = parsePositiveQuantity(parser.value("bandwidth").toStdString(), Dimension::ByteRate);
        if (!value) {
            err() << "--bandwidth: " << QString::fromStdString(value.error()) << Qt::endl;
            return std::nullopt;
        }
        if (auto problem = valueProblem(*value, Quantity::Bandwidth)) {
            err() << "--bandwidth: " << QString::fromStdString(*problem) << Qt::endl;
            return std::nullopt;
        }
        bandwidth = *value;
    }

    Hardware hardware;
    if (parser.isSet("hardware")) {
        auto named = machineNamed(parser.value("hardware"), "--hardware", readOptions);
        if (!named)
            return std::nullopt;
        hardware = std::move(*named);
    } else if (fallback) {
        hardware = *fallback;
    } else if (peak && bandwidth) {
        hardware = makeSimpleMachine(*peak, *bandwidth);
        peak.reset();
        bandwidth.reset();
    } else {
        err() << "no machine given: use --hardware NAME|FILE.json, or both --peak and "
                 "--bandwidth (see 'ridgepoint presets')"
              << Qt::endl;
        return std::nullopt;
    }

    const std::string computeName = parser.value("compute").toStdString();
    if (!computeName.empty() && !hardware.findCompute(computeName)) {
        QString names;
        for (const auto &c : hardware.compute)
            names += (names.isEmpty() ? "" : ", ") + QString::fromStdString(c.name);
        err() << "--compute: no compute ceiling named \"" << parser.value("compute") << "\" on "
              << QString::fromStdString(hardware.name) << " (it has: " << names << ")" << Qt::endl;
        return std::nullopt;
    }
    auto custom
        = withOverrides(withFigures(hardware, *chosenFigures), peak, bandwidth, computeName);
    if (!custom) {
        err() << QString::fromStdString(custom.error()) << Qt::endl;
        return std::nullopt;
    }
    if (parser.isSet("sustained"))
        return withSustainedPeaks(*custom);
    return *custom;
}

namespace {

// The value of `option` as a whole number in [1, max]; nullopt (after `expected`) otherwise.
// The ranges are File ▸ Import options…'s (widgets/document/pointsloader.h).
std::optional<qint64> wholeNumberOption(
    const QCommandLineParser &parser, const QString &option, qint64 max, const char *expected)
{
    const QString text = parser.value(option);
    bool ok = false;
    const qint64 value = text.trimmed().toLongLong(&ok);
    if (!ok || value < 1 || value > max) {
        err() << "--" << option << ": expected " << expected << ", a whole number from 1 to " << max
              << ", got \"" << text << "\"" << Qt::endl;
        return std::nullopt;
    }
    return value;
}

} // namespace

void addHiddenOption(QCommandLineParser &parser, const QString &name, const QString &description,
    const QString &valueName)
{
    QCommandLineOption option(name, description, valueName);
    option.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(option);
}

void addReadOptions(QCommandLineParser &parser)
{
    parser.addOption({ "per-kernel",
        "One point per kernel name instead of one per launch (Nsight Compute) or per dispatch "
        "(rocprof-compute pmc_perf.csv): FLOPs, bytes and time summed over them, so intensity "
        "= sum(FLOP)/sum(bytes) and performance = sum(FLOP)/sum(time)." });
    parser.addOption({ "tensor-flops-per-inst",
        "Nsight Compute: FLOP per sm__inst_executed_pipe_tensor instruction, 512 (default, "
        "V100) or e.g. 1024 (A100). Used when a file has no sm__ops_path_tensor_* operation "
        "counts, and for the tensor roof of an ncu page given as --hardware.",
        "N" });
    parser.addOption({ "half-fma-flops",
        "Nsight Compute: FLOP per half-precision FMA thread instruction (..._hfma_pred_on): 2 "
        "(default; NERSC: 2*hfma + hadd + hmul) or 4 (ncu's own roofline, a packed HFMA2).",
        "2|4" });
    parser.addOption({ "decimal-comma",
        "Nsight Compute: numbers are written with a decimal comma (\"65,77\" = 65.77, "
        "\"27.595.520\" = 27595520). Default: told from each file." });
    parser.addOption({ "decimal-point",
        "Nsight Compute: numbers are written with a decimal point, a comma only groups "
        "thousands (\"53,261,312\"). Default: told from each file." });
    parser.addOption({ "lds-banks",
        "rocprof-compute pmc_perf.csv: LDS banks per compute unit, 32 (default, MI200 and "
        "MI300; lds_banks_per_cu in sysinfo.csv). LDS bytes = (SQ_LDS_IDX_ACTIVE - "
        "SQ_LDS_BANK_CONFLICT) * 4 B * N.",
        "N" });
}

std::optional<ReadOptions> readOptionsFromOptions(const QCommandLineParser &parser)
{
    ReadOptions options;
    options.ncu.sumLaunchesOfAKernel = parser.isSet("per-kernel");
    options.rocprof.sumDispatchesOfAKernel = parser.isSet("per-kernel");
    if (parser.isSet("tensor-flops-per-inst")) {
        const auto value
            = wholeNumberOption(parser, "tensor-flops-per-inst", kMaxTensorFlopsPerInstruction,
                "FLOP per tensor instruction (512 on V100, 1024 on A100)");
        if (!value)
            return std::nullopt;
        options.ncu.tensorFlopsPerInstruction = static_cast<double>(*value);
    }
    if (parser.isSet("half-fma-flops")) {
        const QString text = parser.value("half-fma-flops").trimmed();
        if (text != "2" && text != "4") {
            err() << "--half-fma-flops: expected 2 (NERSC) or 4 (ncu's roofline, a packed "
                     "HFMA2), got \""
                  << parser.value("half-fma-flops") << "\"" << Qt::endl;
            return std::nullopt;
        }
        options.ncu.halfFlopsPerFma = text.toDouble();
    }
    if (parser.isSet("decimal-comma") && parser.isSet("decimal-point")) {
        err() << "--decimal-comma and --decimal-point contradict each other: give one of them "
                 "(or neither, to tell from each file)"
              << Qt::endl;
        return std::nullopt;
    }
    if (parser.isSet("decimal-comma"))
        options.ncu.decimalComma = true;
    else if (parser.isSet("decimal-point"))
        options.ncu.decimalComma = false;
    if (parser.isSet("lds-banks")) {
        const auto value = wholeNumberOption(parser, "lds-banks", kMaxLdsBanksPerCu,
            "LDS banks per compute unit (32 on MI200 and MI300)");
        if (!value)
            return std::nullopt;
        options.rocprof.ldsBanksPerCu = static_cast<double>(*value);
    }
    return options;
}

AnalysisOptions analysisOptionsFromOptions(
    const QCommandLineParser &parser, const Hardware &hardware, bool sessionMachine)
{
    AnalysisOptions options;
    if (parser.isSet("compute")) {
        options.computeCeiling = parser.value("compute").toStdString();
    } else if (parser.isSet("peak") || (!parser.isSet("hardware") && !sessionMachine)) {
        if (const ComputeCeiling *ceiling = hardware.defaultComputeCeiling())
            options.computeCeiling = ceiling->name;
    }
    return options;
}

void printDiagnostics(const std::vector<Diagnostic> &diagnostics)
{
    const std::size_t shown = std::min(diagnostics.size(), kMaxDiagnosticsShown);
    for (std::size_t i = 0; i < shown; ++i)
        err() << QString::fromStdString(diagnostics[i].toString()) << Qt::endl;
    if (diagnostics.size() > shown) {
        const std::string &file = diagnostics.front().file;
        err() << QString::fromStdString(file.empty() ? std::string("<input>") : file)
              << ": ... and " << diagnostics.size() - shown << " more messages not shown"
              << Qt::endl;
    }
}

namespace {

// The messages of reading a points file with `usable` usable points; false when there were none.
bool reportPointsRead(
    const QString &path, const PointsReadResult &result, std::size_t usable, int &rowErrors)
{
    printDiagnostics(result.diagnostics);
    rowErrors += result.rowsSkipped;
    if (result.rowsSkipped > 0) {
        err() << path << ": " << result.rowsSkipped << " of " << result.rowsRead << " rows skipped"
              << Qt::endl;
    }
    if (usable == 0) {
        err() << path << ": no usable point" << Qt::endl;
        return false;
    }
    return true;
}

// A reading option given on the command line that the file's format has no use for is said
// once per file, so a user who asked for --per-kernel on a CSV of their own is not left
// believing the launches were summed. (The options left at their defaults say nothing.)
void warnUnusedReadOptions(
    const QString &path, std::optional<FileFormat> format, const ReadOptions &options)
{
    if (!format)
        return;
    // Which options the format takes is its registry row's (core/io/format_registry.cpp).
    const bool ncu = readOptionsOf(*format) == ReadOptionSet::Ncu;
    const bool rocprof = readOptionsOf(*format) == ReadOptionSet::Rocprof;
    const ReadOptions defaults;
    QStringList unused;
    if (!ncu && !rocprof
        && (options.ncu.sumLaunchesOfAKernel || options.rocprof.sumDispatchesOfAKernel))
        unused << "--per-kernel";
    if (!ncu) {
        if (options.ncu.tensorFlopsPerInstruction != defaults.ncu.tensorFlopsPerInstruction)
            unused << "--tensor-flops-per-inst";
        if (options.ncu.halfFlopsPerFma != defaults.ncu.halfFlopsPerFma)
            unused << "--half-fma-flops";
        if (options.ncu.decimalComma)
            unused << (*options.ncu.decimalComma ? "--decimal-comma" : "--decimal-point");
    }
    if (!rocprof && options.rocprof.ldsBanksPerCu != defaults.rocprof.ldsBanksPerCu)
        unused << "--lds-banks";
    if (unused.isEmpty())
        return;
    const char *forWhom = ncu ? "rocprof-compute"
        : rocprof             ? "Nsight Compute"
                              : "Nsight Compute and rocprof-compute";
    err() << path << ": warning: " << unused.join(", ") << (unused.size() == 1 ? " does" : " do")
          << " not apply to this " << QString::fromStdString(std::string(fileFormatName(*format)))
          << " file (" << (unused.size() == 1 ? "it is" : "they are") << " for " << forWhom
          << " files); read without " << (unused.size() == 1 ? "it" : "them") << Qt::endl;
}

// Points from text already read, in any points format (core/io/readers.h).
std::optional<std::vector<KernelPoint>> readPointsText(
    const QString &path, std::string_view text, int &rowErrors, const ReadOptions &options)
{
    auto read = ridgepoint::readPointsFile(text, path.toStdString(), options);
    warnUnusedReadOptions(path, read.format, options);
    auto &result = read.points;
    if (!reportPointsRead(path, result, result.points.size(), rowErrors))
        return std::nullopt;
    return std::move(result.points);
}

// A picture that may carry a session (PNG, SVG, PDF) or a session JSON: the content tells,
// whatever the name.
bool holdsSession(std::string_view text)
{
    if (pictureKind(text.substr(0, 4096)) != PictureKind::None)
        return true;
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || text[first] != '{')
        return false;
    // {"format": "ridgepoint-session", ...}: the format key, wherever it stands.
    constexpr std::string_view kValue = "\"ridgepoint-session\"";
    const auto trimmed
        = [](std::string_view s) { return s.substr(0, s.find_last_not_of(" \t\r\n") + 1); };
    for (std::size_t at = text.find(kValue); at != std::string_view::npos;
         at = text.find(kValue, at + 1)) {
        const std::string_view before = trimmed(text.substr(0, at));
        if (before.ends_with(':')
            && trimmed(before.substr(0, before.size() - 1)).ends_with("\"format\""))
            return true;
    }
    return false;
}

} // namespace

std::optional<std::vector<KernelPoint>> readPointsFile(
    const QString &path, int &rowErrors, const ReadOptions &options)
{
    auto text = readTextFile(path.toStdString());
    if (!text) {
        err() << QString::fromStdString(text.error()) << Qt::endl;
        return std::nullopt;
    }
    return readPointsText(path, *text, rowErrors, options);
}

namespace {

std::optional<Session> reportSession(SessionReadResult &&result, const QString &path)
{
    printDiagnostics(result.diagnostics);
    if (!result.session && result.diagnostics.empty())
        err() << path << ": no session in this file" << Qt::endl;
    return std::move(result.session);
}

} // namespace

std::optional<Session> readSession(const QString &path)
{
    return reportSession(readSessionFile(path), path);
}

std::optional<InputFile> readInputFile(
    const QString &path, int &rowErrors, const ReadOptions &options, bool keepText)
{
    auto text = readTextFile(path.toStdString());
    if (!text) {
        err() << QString::fromStdString(text.error()) << Qt::endl;
        return std::nullopt;
    }
    InputFile input;
    if (holdsSession(*text)) {
        input.session = reportSession(readSessionBytes(std::move(*text), path.toStdString()), path);
        if (!input.session)
            return std::nullopt;
        return input;
    }
    // A profiler trace sums its kernels into few points: it is read once and its points kept,
    // not read a second time from the text (docs/PERFORMANCE.md, "Profiler traces").
    if (keepText && detectFileFormat(*text) != FileFormat::KinetoTrace) {
        // Read once for the messages and to know whether any point is usable, the points
        // counted and dropped; the caller reads them again from the text, one at a time.
        std::size_t usable = 0;
        const auto result = ridgepoint::readPointsFile(
            *text, path.toStdString(),
            [&](KernelPoint &&point) {
                ++usable;
                input.seconds += pointSeconds(point).value_or(0.0);
            },
            options);
        warnUnusedReadOptions(path, result.format, options);
        if (!reportPointsRead(path, result.points, usable, rowErrors))
            return std::nullopt;
        input.text = std::move(*text);
        input.trace = result.points.trace;
        return input;
    }
    auto read = ridgepoint::readPointsFile(*text, path.toStdString(), options);
    warnUnusedReadOptions(path, read.format, options);
    if (!reportPointsRead(path, read.points, read.points.points.size(), rowErrors))
        return std::nullopt;
    input.points = std::move(read.points.points);
    input.trace = std::move(read.points.trace);
    return input;
}

std::optional<Baseline> readBaselineFile(
    const QString &path, int &rowErrors, const ReadOptions &options)
{
    auto text = readTextFile(path.toStdString());
    if (!text) {
        err() << QString::fromStdString(text.error()) << Qt::endl;
        return std::nullopt;
    }
    auto read = ridgepoint::readPointsFile(*text, path.toStdString(), options);
    warnUnusedReadOptions(path, read.format, options);
    if (!reportPointsRead(path, read.points, read.points.points.size(), rowErrors))
        return std::nullopt;
    // A trace's kernel names differ between machines; its operators and shapes do not.
    const MatchBy match = read.points.trace ? MatchBy::Operator : MatchBy::Name;
    return Baseline { path.toStdString(), std::move(read.points.points), match };
}

SessionPoints sessionPoints(Session session, const Hardware &hardware)
{
    // Through a core Workspace (no Document, no QObject): moves applied and planned workloads
    // recomputed for `hardware`, exactly as the window has them.
    session.hardware = hardware;
    Workspace workspace;
    workspace.loadSession(std::move(session));
    SessionPoints out;
    out.points.reserve(workspace.pointCount());
    for (std::size_t i = 0; i < workspace.pointCount(); ++i) {
        const Workload *workload = workspace.workload(i);
        if (const std::string *error = workspace.workloadError(i)) {
            err() << "session: workload \""
                  << QString::fromStdString(workspace.measuredPoint(i).name)
                  << "\" cannot be recomputed on " << QString::fromStdString(hardware.name) << ": "
                  << QString::fromStdString(*error) << " (left out, not shown with its saved point)"
                  << Qt::endl;
            ++out.refused;
            continue;
        }
        if (workload && hasOwnMachine(*workload))
            out.machines.emplace(out.points.size(), workloadMachine(*workload, hardware));
        out.points.push_back(workspace.point(i));
    }
    return out;
}

} // namespace ridgepoint::cli
