#include "core/io/readers.h"

#include "core/io/formats/adhoc_reader.h"
#include "core/io/formats/advisor_reader.h"
#include "core/io/formats/ert_reader.h"
#include "core/io/input_check.h"
#include "core/io/formats/likwid_reader.h"
#include "core/io/formats/ncu_reader.h"
#include "core/io/formats/points_json.h"
#include "core/io/formats/rocprof_reader.h"

#include <algorithm>

namespace ridgepoint {
namespace {

std::string_view withoutBom(std::string_view text)
{
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    return text;
}

std::string firstLineLower(std::string_view text)
{
    text = withoutBom(text);
    std::string line(text.substr(0, std::min(text.find('\n'), text.size())));
    for (char &c : line)
        c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return line;
}

bool looksLikeJson(std::string_view text)
{
    text = withoutBom(text);
    const auto first = text.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

bool mentions(std::string_view text, std::string_view needle)
{
    return text.substr(0, std::min<std::size_t>(text.size(), 1 << 16)).find(needle)
        != std::string_view::npos;
}

// Why a file is none of the formats: one clause per format tried.
std::string triedAll(bool points)
{
    std::string text = "not a file Ridgepoint can read; tried ";
    if (points) {
        text
            += "points CSV (no header row naming a kernel column and a flops, bytes or intensity "
               "column), points JSON (no \"format\": \"ridgepoint-points\"), Nsight Compute CSV "
               "(no \"ID\",...,\"Kernel Name\" or \"Process ID\",...,\"Invocations\" "
               "header), rocprof-compute pmc_perf.csv (no "
               "Dispatch_ID,Kernel_Name header), Intel Advisor survey (no \"ID\",\"Function "
               "Call Sites and Loops\" header), likwid-perfctr -O (no STRUCT,Info / TABLE, lines), "
               "NERSC roofline text (no memroofs, AI_<level> and FLOPS lines), "
               "mohamed/roofline apps.csv (no \"# name, intensity, ...\" header), ncu-like "
               "metric CSV (no ID,Kernel Name,Host Name,Metric Name,Metric Value header)";
    } else {
        text += "hardware JSON (no \"compute\" and \"memory\" or \"format\": "
                "\"ridgepoint-hardware\"), ERT roofline.json (no \"empirical\" object), "
                "rocprof-compute roofline.csv (no device,HBMBw,... header), Intel Advisor roofs "
                "(no Name,Bandwidth header), Nsight Compute roofline section (no \"Body Item "
                "Label\" with \"... Precision Roofline\" rows), NERSC roofline text (no "
                "memroofs and comproofs lines), ERT sum (no \"<number> GFLOPs\" first line), "
                "GPU-Roofline-Profiler peaks.csv (no label,peak_flops,peak_bandwidth header), "
                "mohamed/roofline hw_db.csv (no name,GFLOP/s,GB/s,price rows)";
    }
    return text;
}

} // namespace

std::string_view fileFormatName(FileFormat format)
{
    switch (format) {
    case FileFormat::PointsCsv:
        return "points CSV";
    case FileFormat::PointsJson:
        return "Ridgepoint points JSON";
    case FileFormat::NcuDetails:
        return "Nsight Compute CSV (details page)";
    case FileFormat::NcuRaw:
        return "Nsight Compute CSV (raw page)";
    case FileFormat::NcuSummary:
        return "Nsight Compute CSV (per-kernel summary)";
    case FileFormat::NcuRooflineSection:
        return "Nsight Compute roofline section";
    case FileFormat::RocprofPmcPerf:
        return "rocprof-compute pmc_perf.csv";
    case FileFormat::RocprofRoofline:
        return "rocprof-compute roofline.csv";
    case FileFormat::AdvisorSurvey:
        return "Intel Advisor survey CSV";
    case FileFormat::AdvisorRoofs:
        return "Intel Advisor roofs CSV";
    case FileFormat::Likwid:
        return "likwid-perfctr CSV";
    case FileFormat::ErtJson:
        return "ERT roofline.json";
    case FileFormat::HardwareJson:
        return "Ridgepoint hardware JSON";
    case FileFormat::NerscRoofline:
        return "NERSC roofline text";
    case FileFormat::ErtSum:
        return "ERT sum file";
    case FileFormat::ProfilerPeaks:
        return "GPU-Roofline-Profiler peaks.csv";
    case FileFormat::HwDb:
        return "mohamed/roofline hw_db.csv";
    case FileFormat::AppsCsv:
        return "mohamed/roofline apps.csv";
    case FileFormat::MetricValuesCsv:
        return "ncu-like Metric Name/Metric Value CSV";
    }
    return "unknown";
}

std::optional<FileFormat> detectFileFormat(std::string_view text)
{
    if (looksLikeJson(text)) {
        if (mentions(text, "\"ridgepoint-points\""))
            return FileFormat::PointsJson;
        if (mentions(text, "\"empirical\""))
            return FileFormat::ErtJson;
        return FileFormat::HardwareJson;
    }
    // Before ncu's: the ncu-like metric CSV has an "ID",...,"Kernel Name" header too.
    switch (detectAdhocShape(text)) {
    case AdhocShape::NerscHierarchical:
        return FileFormat::NerscRoofline;
    case AdhocShape::ErtSum:
        return FileFormat::ErtSum;
    case AdhocShape::ProfilerPeaks:
        return FileFormat::ProfilerPeaks;
    case AdhocShape::HwDb:
        return FileFormat::HwDb;
    case AdhocShape::Apps:
        return FileFormat::AppsCsv;
    case AdhocShape::MetricValues:
        return FileFormat::MetricValuesCsv;
    case AdhocShape::None:
        break;
    }
    switch (detectNcuShape(text)) {
    case NcuShape::Details:
        return FileFormat::NcuDetails;
    case NcuShape::Raw:
        return FileFormat::NcuRaw;
    case NcuShape::Summary:
        return FileFormat::NcuSummary;
    case NcuShape::RooflineSection:
        return FileFormat::NcuRooflineSection;
    case NcuShape::None:
        break;
    }
    const std::string first = firstLineLower(text);
    if (first.starts_with("dispatch_id,") && mentions(first, "kernel_name"))
        return FileFormat::RocprofPmcPerf;
    if (first.starts_with("device,") && mentions(first, "hbmbw"))
        return FileFormat::RocprofRoofline;
    if (mentions(text, "Function Call Sites and Loops"))
        return FileFormat::AdvisorSurvey;
    if (mentions(text, "STRUCT,Info") || mentions(text, "\nTABLE,"))
        return FileFormat::Likwid;
    // Advisor roofs: a Name,Bandwidth header within the first lines.
    std::size_t start = 0;
    for (int i = 0; i < 5 && start < text.size(); ++i) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string line(text.substr(start, end - start));
        for (char &c : line)
            c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        line.erase(std::remove(line.begin(), line.end(), '"'), line.end());
        if (line.starts_with("name,bandwidth"))
            return FileFormat::AdvisorRoofs;
        start = end + 1;
    }
    return std::nullopt;
}

namespace {

// Both readPointsFile()s: with a sink, a generic CSV's points go to it as their rows are read
// and the other formats' (small files) once their reader is done; `points` is then left empty.
PointsFileResult readPoints(std::string_view text, const std::string &fileName,
    const PointSink *sink, const ReadOptions &options)
{
    PointsFileResult out;
    const TextCheck check = checkTextInput(text, fileName);
    if (check.error) {
        out.points.diagnostics.push_back(*check.error);
        return out;
    }
    if (check.converted)
        text = *check.converted;
    const auto format = detectFileFormat(text);
    switch (format.value_or(FileFormat::PointsCsv)) {
    case FileFormat::PointsJson:
        out.points = readPointsJson(text, fileName);
        break;
    case FileFormat::NcuDetails:
    case FileFormat::NcuRaw:
    case FileFormat::NcuSummary:
    case FileFormat::NcuRooflineSection:
        out.points = readNcuCsv(text, fileName, options.ncu);
        break;
    case FileFormat::RocprofPmcPerf:
        out.points = readRocprofPmcPerf(text, fileName, options.rocprof);
        break;
    case FileFormat::AdvisorSurvey:
        out.points = readAdvisorSurvey(text, fileName);
        break;
    case FileFormat::Likwid:
        out.points = readLikwidCsv(text, fileName);
        break;
    case FileFormat::NerscRoofline:
        out.points = readNerscPoints(text, fileName);
        break;
    case FileFormat::AppsCsv:
        out.points = readAppsCsv(text, fileName);
        break;
    case FileFormat::MetricValuesCsv:
        out.points = readMetricValuesCsv(text, fileName);
        break;
    case FileFormat::ErtSum:
    case FileFormat::ProfilerPeaks:
    case FileFormat::HwDb:
    case FileFormat::RocprofRoofline:
    case FileFormat::AdvisorRoofs:
    case FileFormat::ErtJson:
    case FileFormat::HardwareJson:
        out.points.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "this file is in the " + std::string(fileFormatName(*format)) + " format"
                + ": it gives ceilings, not points (use it as --hardware)" });
        return out;
    case FileFormat::PointsCsv: {
        out.points = sink ? readPointsCsv(text, fileName, *sink) : readPointsCsv(text, fileName);
        const bool noHeader
            = std::any_of(out.points.diagnostics.begin(), out.points.diagnostics.end(),
                [](const Diagnostic &d) { return d.message.starts_with("no header row found"); });
        if (noHeader) {
            // A log ncu wrote instead of a table is said as such.
            const auto log = ncuLogWithoutTable(text, fileName);
            out.points.diagnostics
                = { log ? *log : Diagnostic { Severity::Error, fileName, 0, 0, triedAll(true) } };
            return out;
        }
        break;
    }
    }
    out.format = format.value_or(FileFormat::PointsCsv);
    if (sink) {
        for (auto &point : out.points.points)
            (*sink)(std::move(point));
        out.points.points.clear();
    }
    return out;
}

} // namespace

PointsFileResult readPointsFile(
    std::string_view text, const std::string &fileName, const ReadOptions &options)
{
    return readPoints(text, fileName, nullptr, options);
}

PointsFileResult readPointsFile(std::string_view text, const std::string &fileName,
    const PointSink &sink, const ReadOptions &options)
{
    return readPoints(text, fileName, &sink, options);
}

HardwareFileResult readHardwareFile(
    std::string_view text, const std::string &fileName, const ReadOptions &options)
{
    HardwareFileResult out;
    const TextCheck check = checkTextInput(text, fileName);
    if (check.error) {
        out.hardware.diagnostics.push_back(*check.error);
        return out;
    }
    if (check.converted)
        text = *check.converted;
    const auto format = detectFileFormat(text);
    if (!format) {
        const auto log = ncuLogWithoutTable(text, fileName);
        out.hardware.diagnostics.push_back(
            log ? *log : Diagnostic { Severity::Error, fileName, 0, 0, triedAll(false) });
        return out;
    }
    switch (*format) {
    case FileFormat::HardwareJson:
        out.hardware = readHardwareJson(std::string(text), fileName);
        break;
    case FileFormat::ErtJson:
        out.hardware = readErtJson(text, fileName);
        break;
    case FileFormat::RocprofRoofline:
        out.hardware = readRocprofRoofline(text, fileName);
        break;
    case FileFormat::AdvisorRoofs:
        out.hardware = readAdvisorRoofs(text, fileName);
        break;
    case FileFormat::NerscRoofline:
        out.hardware = readNerscCeilings(text, fileName);
        break;
    case FileFormat::ErtSum:
        out.hardware = readErtSum(text, fileName);
        break;
    case FileFormat::ProfilerPeaks:
        out.hardware = readProfilerPeaks(text, fileName);
        break;
    case FileFormat::HwDb:
        out.hardware = readHwDb(text, fileName);
        break;
    case FileFormat::NcuRooflineSection:
    case FileFormat::NcuRaw:
    case FileFormat::NcuDetails:
    case FileFormat::NcuSummary:
        // A raw or details page holding ncu's roofline metrics (…peak_sustained) has ceilings
        // too; without them the reader says the file gives points.
        out.hardware = readNcuRooflineSection(text, fileName, options.ncu);
        break;
    default:
        out.hardware.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "this file is in the " + std::string(fileFormatName(*format)) + " format"
                + ": it gives points, not ceilings (expected a hardware file)" });
        return out;
    }
    out.format = format;
    return out;
}

} // namespace ridgepoint
