#include "app/cli_common.h"

#include "core/csv.h"
#include "core/file_io.h"
#include "core/hardware_json.h"
#include "core/presets.h"
#include "core/readers.h"
#include "core/resources.h"
#include "core/units.h"
#include "widgets/document.h"
#include "widgets/figuresession.h"
#include "widgets/sessionfile.h"

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
        "Use sustained peaks (the machine's sustained fraction, reference 001 "
        "section 3.3) instead of vendor peaks." });
}

std::optional<Hardware> hardwareFromOptions(
    const QCommandLineParser &parser, const Hardware *fallback)
{
    std::optional<double> peak;
    std::optional<double> bandwidth;
    if (parser.isSet("peak")) {
        auto value = parsePositiveQuantity(parser.value("peak").toStdString(), Dimension::FlopRate);
        if (!value) {
            err() << "--peak: " << QString::fromStdString(value.error()) << Qt::endl;
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
        bandwidth = *value;
    }

    Hardware hardware;
    if (parser.isSet("hardware")) {
        const QString wanted = parser.value("hardware");
        const bool looksLikeFile
            = wanted.endsWith(".json", Qt::CaseInsensitive) || QFileInfo(wanted).isFile();
        if (looksLikeFile) {
            auto text = readTextFile(wanted.toStdString());
            if (!text) {
                err() << QString::fromStdString(text.error()) << Qt::endl;
                return std::nullopt;
            }
            // Any ceiling format: hardware JSON, ERT, rocprof-compute, Advisor, ncu section.
            auto result = readHardwareFile(*text, wanted.toStdString()).hardware;
            for (const auto &d : result.diagnostics)
                err() << QString::fromStdString(d.toString()) << Qt::endl;
            if (result.machines.empty()) {
                err() << wanted << ": no usable machine in this hardware file" << Qt::endl;
                return std::nullopt;
            }
            hardware = result.machines.front();
        } else {
            const PresetDatabase presets = PresetDatabase::builtin();
            auto found = presets.find(wanted.toStdString());
            if (!found) {
                err() << "--hardware: " << QString::fromStdString(found.error()) << Qt::endl;
                return std::nullopt;
            }
            hardware = **found;
        }
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
    auto custom = withOverrides(hardware, peak, bandwidth, computeName);
    if (!custom) {
        err() << QString::fromStdString(custom.error()) << Qt::endl;
        return std::nullopt;
    }
    if (parser.isSet("sustained"))
        return withSustainedPeaks(*custom);
    return *custom;
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

// Points from text already read, in any points format (core/readers.h).
std::optional<std::vector<KernelPoint>> readPointsText(
    const QString &path, std::string_view text, int &rowErrors)
{
    auto result = ridgepoint::readPointsFile(text, path.toStdString()).points;
    if (!reportPointsRead(path, result, result.points.size(), rowErrors))
        return std::nullopt;
    return std::move(result.points);
}

// A picture that may carry a session (PNG, SVG, PDF) or a session JSON: the content tells,
// whatever the name.
bool holdsSession(std::string_view text)
{
    const auto head = QByteArray::fromRawData(
        text.data(), static_cast<qsizetype>(std::min<std::size_t>(text.size(), 4096)));
    if (pictureKind(head) != PictureKind::None)
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

std::optional<std::vector<KernelPoint>> readPointsFile(const QString &path, int &rowErrors)
{
    auto text = readTextFile(path.toStdString());
    if (!text) {
        err() << QString::fromStdString(text.error()) << Qt::endl;
        return std::nullopt;
    }
    return readPointsText(path, *text, rowErrors);
}

std::optional<Session> readSession(const QString &path)
{
    SessionReadResult result = readSessionFile(path);
    printDiagnostics(result.diagnostics);
    if (!result.session && result.diagnostics.empty())
        err() << path << ": no session in this file" << Qt::endl;
    return std::move(result.session);
}

std::optional<InputFile> readInputFile(const QString &path, int &rowErrors, bool keepText)
{
    auto text = readTextFile(path.toStdString());
    if (!text) {
        err() << QString::fromStdString(text.error()) << Qt::endl;
        return std::nullopt;
    }
    InputFile input;
    if (holdsSession(*text)) {
        input.session = readSession(path);
        if (!input.session)
            return std::nullopt;
        return input;
    }
    if (keepText) {
        // Read once for the messages and to know whether any point is usable, the points
        // counted and dropped; the caller reads them again from the text, one at a time.
        std::size_t usable = 0;
        const auto result = ridgepoint::readPointsFile(
            *text, path.toStdString(), [&](KernelPoint &&) { ++usable; });
        if (!reportPointsRead(path, result.points, usable, rowErrors))
            return std::nullopt;
        input.text = std::move(*text);
        return input;
    }
    auto points = readPointsText(path, *text, rowErrors);
    if (!points)
        return std::nullopt;
    input.points = std::move(*points);
    return input;
}

std::vector<KernelPoint> sessionPoints(Session session, const Hardware &hardware)
{
    // Through a Document, so moves and workloads come out exactly as the window has them.
    session.hardware = hardware;
    Document document;
    document.loadSession(std::move(session));
    std::vector<KernelPoint> points;
    points.reserve(document.pointCount());
    for (std::size_t i = 0; i < document.pointCount(); ++i)
        points.push_back(document.point(i));
    return points;
}

std::vector<KernelPoint> examplePoints()
{
    const EmbeddedFile *file = embeddedFile("examples/h100-transformer-kernels.csv");
    if (!file)
        return {};
    return readPointsCsv(file->content, "example:h100-transformer-kernels.csv").points;
}

} // namespace ridgepoint::cli
