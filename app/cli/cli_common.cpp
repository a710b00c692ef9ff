#include "app/cli/cli_common.h"

#include "core/model/point_table.h"

#include "core/analysis/payoff.h"
#include "core/io/file_io.h"
#include "core/io/file_write.h"
#include "core/io/format_registry.h"
#include "core/io/formats/csv.h"
#include "core/io/formats/hardware_json.h"
#include "core/io/inflate.h"
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

} // namespace

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

bool readPointsFile(const QString &path, PointTable &into, int &rowErrors,
    const ReadOptions &options, std::optional<TraceSummary> *trace)
{
    auto text = readTextFile(path.toStdString());
    if (!text) {
        err() << QString::fromStdString(text.error()) << Qt::endl;
        return false;
    }
    const std::size_t before = into.size();
    auto read = ridgepoint::readPointsFile(
        *text, path.toStdString(), [&into](KernelPoint &&point) { into.push_back(point); },
        options);
    warnUnusedReadOptions(path, read.format, options);
    if (!reportPointsRead(path, read.points, into.size() - before, rowErrors))
        return false;
    if (trace)
        *trace = std::move(read.points.trace);
    return true;
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

namespace {

// What a file gives (points, a machine or both) and its format, told from its first 64 KiB, so a
// large points file is not read for it; nullopt for a session, or a file of no known format or
// that cannot be read (its reader says why).
std::optional<std::pair<FileFormat, Gives>> givesByHead(const QString &path)
{
    constexpr std::size_t kHead = std::size_t { 64 } * 1024; // enough to tell the format
    const auto head = readFileHead(path.toStdString(), kHead);
    if (!head || holdsSession(*head))
        return std::nullopt;
    const auto format = detectFileFormat(*head);
    if (!format)
        return std::nullopt;
    return std::pair { *format, givesOf(*format, *head) };
}

} // namespace

bool givesOnlyAMachine(const QString &path)
{
    const auto gives = givesByHead(path);
    if (!gives || gives->second != Gives::Machine)
        return false;
    // A session may name its format anywhere: the whole file tells, inflated when gzip'd
    // (machine files are small; one that cannot be read is left to the points reader to say why).
    const auto text = readTextFile(path.toStdString());
    if (!text)
        return false;
    if (!isGzip(*text))
        return !holdsSession(*text);
    const auto plain = gunzipCapped(*text, kMaxInputBytes);
    return plain && !holdsSession(*plain);
}

std::optional<Hardware> machineWithPoints(const QString &path, const ReadOptions &options)
{
    const auto gives = givesByHead(path);
    if (!gives || gives->first == FileFormat::KinetoTrace || gives->second != Gives::Both)
        return std::nullopt;
    const auto text = readTextFile(path.toStdString());
    if (!text)
        return std::nullopt;
    HardwareFileResult read = readHardwareFile(*text, path.toStdString(), options);
    if (read.hardware.machines.empty())
        return std::nullopt;
    return std::move(read.hardware.machines.front());
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
                  << QString::fromStdString(std::string(workspace.pointTable().name(i)))
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
