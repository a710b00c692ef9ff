#include "core/io/format_registry.h"

#include "core/io/formats/adhoc_reader.h"
#include "core/io/formats/advisor_reader.h"
#include "core/io/formats/csv.h"
#include "core/io/formats/ert_reader.h"
#include "core/io/formats/hardware_json.h"
#include "core/io/formats/kineto_trace.h"
#include "core/io/formats/likwid_reader.h"
#include "core/io/formats/ncu_reader.h"
#include "core/io/formats/points_json.h"
#include "core/io/formats/rocprof_reader.h"
#include "core/io/formats/vidur_points.h"
#include "core/io/sniff.h"
#include "core/io/text.h"

#include <algorithm>

namespace ridgepoint {
namespace {

// Readers that take no options, in the registry's shapes.
template<PointsReadResult (*Read)(std::string_view, const std::string &)>
PointsReadResult points(
    std::string_view text, const std::string &fileName, const ReadOptions &, const PointSink *)
{
    return Read(text, fileName);
}

template<HardwareReadResult (*Read)(std::string_view, const std::string &)>
HardwareReadResult machines(std::string_view text, const std::string &fileName, const ReadOptions &)
{
    return Read(text, fileName);
}

// A trace is parsed in place when the text has room past its end (ReadOptions::textPadding).
PointsReadResult kinetoTrace(std::string_view text, const std::string &fileName,
    const ReadOptions &options, const PointSink *)
{
    return readKinetoTrace(text, fileName, options.textPadding);
}

PointsReadResult pointsCsv(
    std::string_view text, const std::string &fileName, const ReadOptions &, const PointSink *sink)
{
    return sink ? readPointsCsv(text, fileName, *sink) : readPointsCsv(text, fileName);
}

PointsReadResult ncuPoints(std::string_view text, const std::string &fileName,
    const ReadOptions &options, const PointSink *)
{
    return readNcuCsv(text, fileName, options.ncu);
}

// A raw or details page holding ncu's roofline metrics (…peak_sustained) has ceilings too;
// without them the reader says the file gives points.
HardwareReadResult ncuMachines(
    std::string_view text, const std::string &fileName, const ReadOptions &options)
{
    return readNcuRooflineSection(text, fileName, options.ncu);
}

PointsReadResult rocprofPoints(std::string_view text, const std::string &fileName,
    const ReadOptions &options, const PointSink *)
{
    return readRocprofPmcPerf(text, fileName, options.rocprof);
}

HardwareReadResult hardwareJson(
    std::string_view text, const std::string &fileName, const ReadOptions &)
{
    return readHardwareJson(std::string(text), fileName);
}

constexpr std::string_view kNcuTriedAsPoints
    = "Nsight Compute CSV (no \"ID\",...,\"Kernel Name\" or \"Process ID\",...,\"Invocations\" "
      "header)";
constexpr std::string_view kNcuTriedAsMachines = "Nsight Compute roofline section (no \"Body "
                                                 "Item Label\" with \"... Precision Roofline\" "
                                                 "rows)";

// The registry. Its order is the order of the "tried every format" message and of the file
// dialog's lists: Ridgepoint's own formats, the profilers', then the roofline scripts'.
//
// The priority is the order detection tries the detectors, and it matters where signatures
// overlap:
//  - 5 a PyTorch profiler trace ("traceEvents" with "deviceProperties" or "schemaVersion")
//    before every other JSON: hardware JSON takes any JSON, and a trace is never a machine file.
//  - 10-30 JSON: points JSON and ERT roofline.json say so by a key; hardware JSON takes any
//    other JSON, so it comes after them, and before every text format (a JSON file that quotes
//    "Function Call Sites and Loops" is still JSON).
//  - 40 the ncu-like Metric Value CSV before Nsight Compute's (100): its "ID,Kernel Name" header
//    would pass for ncu's details page.
//  - 50-90 the script formats before ncu's, as they were when they came: NERSC text before the
//    ERT sum and the CSVs (its reader warns of the lines it does not know); apps.csv with its
//    "# name, intensity" header before hw_db.csv (whose data rows an apps.csv may also start
//    with); without that header the two are exclusive.
//  - 95 Vidur's per-operator CSV: a first line of time_stats.* columns no other format has.
//  - 100 ncu's four pages: one header search tells them apart, so their order is free.
//  - 110-150: first-line signatures that exclude one another (Dispatch_ID, device,HBMBw), then
//    signatures anywhere in the head (Advisor survey's header, likwid's STRUCT/TABLE lines), and
//    last Advisor roofs' Name,Bandwidth within five lines, the loosest.
// The generic points CSV has no detector: it is what is left.
const FormatEntry kFormats[] = {
    { FileFormat::PointsCsv, "points-csv", "points CSV", "CSV", Gives::Points, 0, nullptr,
        pointsCsv, nullptr, "*.csv *.txt", ReadOptionSet::None,
        "points CSV (no header row naming a kernel column and a flops, bytes or intensity column)",
        "", "real/simple_kernel_timing_rtx5070.csv" },
    { FileFormat::PointsJson, "points-json", "Ridgepoint points JSON", "points JSON", Gives::Points,
        10, looksLikePointsJson, points<readPointsJson>, nullptr, "*.json", ReadOptionSet::None,
        "points JSON (no \"format\": \"ridgepoint-points\")", "", "json/points.json" },
    { FileFormat::HardwareJson, "hardware-json", "Ridgepoint hardware JSON", "hardware JSON",
        Gives::Machine, 30, looksLikeHardwareJson, nullptr, hardwareJson, "*.json",
        ReadOptionSet::None, "",
        "hardware JSON (no \"compute\" and \"memory\" or \"format\": \"ridgepoint-hardware\")",
        "json/hardware.json" },
    { FileFormat::NcuDetails, "ncu-details", "Nsight Compute CSV (details page)", "Nsight Compute",
        Gives::Points, 100, looksLikeNcuDetails, ncuPoints, ncuMachines, "*.csv *.txt",
        ReadOptionSet::Ncu, kNcuTriedAsPoints, kNcuTriedAsMachines,
        "ncu/ncu_details_nersc_v100.csv" },
    { FileFormat::NcuRaw, "ncu-raw", "Nsight Compute CSV (raw page)", "Nsight Compute",
        Gives::Points, 100, looksLikeNcuRaw, ncuPoints, ncuMachines, "*.csv *.txt",
        ReadOptionSet::Ncu, kNcuTriedAsPoints, kNcuTriedAsMachines, "ncu/ncu_raw_page.csv" },
    { FileFormat::NcuSummary, "ncu-summary", "Nsight Compute CSV (per-kernel summary)",
        "Nsight Compute", Gives::Points, 100, looksLikeNcuSummary, ncuPoints, ncuMachines,
        "*.csv *.txt", ReadOptionSet::Ncu, kNcuTriedAsPoints, kNcuTriedAsMachines,
        "ncu/ncu_summary_per_kernel.csv" },
    { FileFormat::NcuRooflineSection, "ncu-roofline-section", "Nsight Compute roofline section",
        "Nsight Compute", Gives::Both, 100, looksLikeNcuRooflineSection, ncuPoints, ncuMachines,
        "*.csv *.txt", ReadOptionSet::Ncu, kNcuTriedAsPoints, kNcuTriedAsMachines,
        "real/ncu_section_roofline_chart_cublas_gemv.csv" },
    { FileFormat::RocprofPmcPerf, "rocprof-pmc-perf", "rocprof-compute pmc_perf.csv",
        "rocprof-compute", Gives::Points, 110, looksLikeRocprofPmcPerf, rocprofPoints, nullptr,
        "*.csv", ReadOptionSet::Rocprof,
        "rocprof-compute pmc_perf.csv (no Dispatch_ID,Kernel_Name header)", "",
        "rocprof/pmc_perf_mi300.csv" },
    { FileFormat::RocprofRoofline, "rocprof-roofline", "rocprof-compute roofline.csv",
        "rocprof-compute", Gives::Machine, 120, looksLikeRocprofRoofline, nullptr,
        machines<readRocprofRoofline>, "*.csv", ReadOptionSet::None, "",
        "rocprof-compute roofline.csv (no device,HBMBw,... header)", "rocprof/roofline_mi300.csv" },
    { FileFormat::AdvisorSurvey, "advisor-survey", "Intel Advisor survey CSV", "Advisor",
        Gives::Points, 130, looksLikeAdvisorSurvey, points<readAdvisorSurvey>, nullptr,
        "*.csv *.txt", ReadOptionSet::None,
        "Intel Advisor survey (no \"ID\",\"Function Call Sites and Loops\" header)", "",
        "advisor/survey_current.csv" },
    { FileFormat::AdvisorRoofs, "advisor-roofs", "Intel Advisor roofs CSV", "Advisor",
        Gives::Machine, 150, looksLikeAdvisorRoofs, nullptr, machines<readAdvisorRoofs>, "*.csv",
        ReadOptionSet::None, "", "Intel Advisor roofs (no Name,Bandwidth header)",
        "advisor/roofs.csv" },
    { FileFormat::Likwid, "likwid", "likwid-perfctr CSV", "likwid", Gives::Points, 140,
        looksLikeLikwid, points<readLikwidCsv>, nullptr, "*.csv *.txt", ReadOptionSet::None,
        "likwid-perfctr -O (no STRUCT,Info / TABLE, lines)", "", "likwid/mem_dp_region.csv" },
    { FileFormat::ErtJson, "ert-json", "ERT roofline.json", "ERT", Gives::Machine, 20,
        looksLikeErtJson, nullptr, machines<readErtJson>, "*.json", ReadOptionSet::None, "",
        "ERT roofline.json (no \"empirical\" object)", "ert/roofline_p100.json" },
    { FileFormat::ErtSum, "ert-sum", "ERT sum file", "ERT", Gives::Machine, 60, looksLikeErtSum,
        nullptr, machines<readErtSum>, "sum *.txt", ReadOptionSet::None, "",
        "ERT sum (no \"<number> GFLOPs\" first line)", "adhoc/ert_sum.txt" },
    { FileFormat::NerscRoofline, "nersc-text", "NERSC roofline text", "NERSC roofline text",
        Gives::Both, 50, looksLikeNerscText, points<readNerscPoints>, machines<readNerscCeilings>,
        "*.txt", ReadOptionSet::None,
        "NERSC roofline text (no memroofs, AI_<level> and FLOPS lines)",
        "NERSC roofline text (no memroofs and comproofs lines)", "adhoc/nersc_hierarchical.txt",
        nerscGives },
    { FileFormat::ProfilerPeaks, "gpu-roofline-profiler-peaks", "GPU-Roofline-Profiler peaks.csv",
        "GPU-Roofline-Profiler", Gives::Machine, 70, looksLikeProfilerPeaks, nullptr,
        machines<readProfilerPeaks>, "*.csv", ReadOptionSet::None, "",
        "GPU-Roofline-Profiler peaks.csv (no label,peak_flops,peak_bandwidth header)",
        "adhoc/peaks.csv" },
    { FileFormat::HwDb, "mohamed-hw-db", "mohamed/roofline hw_db.csv", "mohamed/roofline",
        Gives::Machine, 90, looksLikeHwDb, nullptr, machines<readHwDb>, "*.csv",
        ReadOptionSet::None, "", "mohamed/roofline hw_db.csv (no name,GFLOP/s,GB/s,price rows)",
        "adhoc/hw_db.csv" },
    { FileFormat::AppsCsv, "mohamed-apps", "mohamed/roofline apps.csv", "mohamed/roofline",
        Gives::Points, 80, looksLikeAppsCsv, points<readAppsCsv>, nullptr, "*.csv",
        ReadOptionSet::None, "mohamed/roofline apps.csv (no \"# name, intensity, ...\" header)", "",
        "adhoc/apps.csv" },
    { FileFormat::MetricValuesCsv, "metric-values-csv", "ncu-like Metric Name/Metric Value CSV",
        "ncu-like metric CSV", Gives::Points, 40, looksLikeMetricValuesCsv,
        points<readMetricValuesCsv>, nullptr, "*.csv", ReadOptionSet::None,
        "ncu-like metric CSV (no ID,Kernel Name,Host Name,Metric Name,Metric Value header)", "",
        "adhoc/metric_values.csv" },
    { FileFormat::KinetoTrace, "kineto-trace", "PyTorch profiler (Kineto) trace",
        "PyTorch profiler trace", Gives::Both, 5, looksLikeKinetoTrace, kinetoTrace,
        machines<readKinetoMachines>, "*.json *.json.gz *.pt.trace.json", ReadOptionSet::None,
        "PyTorch profiler trace (no \"traceEvents\" with \"deviceProperties\" or "
        "\"schemaVersion\")",
        "PyTorch profiler trace (no \"traceEvents\" with \"deviceProperties\")",
        "traces/small/example.json" },
    { FileFormat::VidurOperators, "vidur-operators", "Vidur per-operator CSV", "Vidur",
        Gives::Points, 95, looksLikeVidurOperators, points<readVidurOperatorPoints>, nullptr,
        "*.csv", ReadOptionSet::None,
        "Vidur per-operator CSV (no time_stats.<operator>...,num_tokens,..."
        "num_tensor_parallel_workers header)",
        "", "measured/vidur/h100_llama-2-7b_mlp.csv" },
};

bool givesSide(Gives gives, ReadFor side)
{
    return gives == Gives::Both || (gives == Gives::Points) == (side == ReadFor::Points);
}

// Splits "a b c" at spaces.
std::vector<std::string_view> patternsOf(const FormatEntry &format)
{
    return words(format.patterns);
}

} // namespace

std::span<const FormatEntry> fileFormats()
{
    return kFormats;
}

const FormatEntry &formatEntry(FileFormat id)
{
    for (const FormatEntry &format : kFormats) {
        if (format.id == id)
            return format;
    }
    // Not reached: every FileFormat has a row (tst_formatregistry checks it).
    return kFormats[0];
}

const std::vector<const FormatEntry *> &formatsByPriority()
{
    static const std::vector<const FormatEntry *> sorted = [] {
        std::vector<const FormatEntry *> out;
        for (const FormatEntry &format : kFormats) {
            if (format.detect)
                out.push_back(&format);
        }
        std::stable_sort(out.begin(), out.end(),
            [](const FormatEntry *a, const FormatEntry *b) { return a->priority < b->priority; });
        return out;
    }();
    return sorted;
}

const FormatEntry &fallbackFormat()
{
    return formatEntry(FileFormat::PointsCsv);
}

Gives givesOf(FileFormat id, std::string_view text)
{
    const FormatEntry &format = formatEntry(id);
    return format.givesByContent ? format.givesByContent(text) : format.gives;
}

ReadOptionSet readOptionsOf(FileFormat id)
{
    return formatEntry(id).options;
}

bool reads(const FormatEntry &format, ReadFor side)
{
    return side == ReadFor::Points ? format.readPoints != nullptr : format.readMachines != nullptr;
}

std::string triedEveryFormat(ReadFor side)
{
    std::vector<std::string_view> clauses;
    for (const FormatEntry &format : kFormats) {
        const std::string_view clause
            = side == ReadFor::Points ? format.triedAsPoints : format.triedAsMachines;
        if (reads(format, side)
            && std::find(clauses.begin(), clauses.end(), clause) == clauses.end())
            clauses.push_back(clause);
    }
    std::string text = "not a file Ridgepoint can read; tried ";
    for (std::size_t i = 0; i < clauses.size(); ++i)
        text.append(i == 0 ? "" : ", ").append(clauses[i]);
    return text;
}

std::vector<std::string> fileDialogPatterns(std::optional<ReadFor> side)
{
    std::vector<std::string> out;
    for (const FormatEntry &format : kFormats) {
        if (side && !givesSide(format.gives, *side))
            continue;
        for (const std::string_view pattern : patternsOf(format)) {
            if (std::find(out.begin(), out.end(), pattern) == out.end())
                out.emplace_back(pattern);
        }
    }
    return out;
}

std::string formatFamilies(ReadFor side)
{
    std::vector<std::string> families;
    for (const FormatEntry &format : kFormats) {
        if (givesSide(format.gives, side)
            && std::find(families.begin(), families.end(), format.family) == families.end())
            families.emplace_back(format.family);
    }
    return joinedList(families);
}

std::string fileDialogFilter(std::string_view title, ReadFor side)
{
    std::string patterns;
    for (const std::string &pattern : fileDialogPatterns(side))
        patterns.append(patterns.empty() ? "" : " ").append(pattern);
    return std::string(title) + ": " + formatFamilies(side) + " (" + patterns + ")";
}

} // namespace ridgepoint
