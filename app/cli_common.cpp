#include "app/cli_common.h"

#include "core/csv.h"
#include "core/file_io.h"
#include "core/hardware_json.h"
#include "core/presets.h"
#include "core/readers.h"
#include "core/resources.h"
#include "core/units.h"

#include <QFileInfo>

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

std::optional<Hardware> hardwareFromOptions(const QCommandLineParser &parser)
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
    const QCommandLineParser &parser, const Hardware &hardware)
{
    AnalysisOptions options;
    if (parser.isSet("compute")) {
        options.computeCeiling = parser.value("compute").toStdString();
    } else if (parser.isSet("peak") || !parser.isSet("hardware")) {
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

std::optional<std::vector<KernelPoint>> readPointsFile(const QString &path, int &rowErrors)
{
    auto text = readTextFile(path.toStdString());
    if (!text) {
        err() << QString::fromStdString(text.error()) << Qt::endl;
        return std::nullopt;
    }
    // Any points format, recognised by content (core/readers.h).
    auto result = ridgepoint::readPointsFile(*text, path.toStdString()).points;
    printDiagnostics(result.diagnostics);
    rowErrors += result.rowsSkipped;
    if (result.rowsSkipped > 0) {
        err() << path << ": " << result.rowsSkipped << " of " << result.rowsRead << " rows skipped"
              << Qt::endl;
    }
    if (result.points.empty()) {
        err() << path << ": no usable point" << Qt::endl;
        return std::nullopt;
    }
    return result.points;
}

std::vector<KernelPoint> examplePoints()
{
    const EmbeddedFile *file = embeddedFile("examples/h100-transformer-kernels.csv");
    if (!file)
        return {};
    return readPointsCsv(file->content, "example:h100-transformer-kernels.csv").points;
}

} // namespace ridgepoint::cli
