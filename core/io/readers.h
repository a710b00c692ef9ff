// One entry point for every file Ridgepoint reads: the format is recognised from the content
// (not the extension), then the matching reader runs. A file of no known shape gets one
// message naming each format tried and why it was rejected.
#pragma once

#include "core/io/formats/csv.h"
#include "core/io/formats/hardware_json.h"
#include "core/io/formats/ncu_reader.h"
#include "core/io/formats/rocprof_reader.h"

#include <optional>
#include <string>
#include <string_view>

namespace ridgepoint {

enum class FileFormat {
    PointsCsv,
    PointsJson,
    NcuDetails,
    NcuRaw,
    NcuSummary,
    NcuRooflineSection,
    RocprofPmcPerf,
    RocprofRoofline,
    AdvisorSurvey,
    AdvisorRoofs,
    Likwid,
    ErtJson,
    HardwareJson,
    NerscRoofline, // both: ceilings and points known by intensities and rate
    ErtSum,
    ProfilerPeaks,
    HwDb,
    AppsCsv,
    MetricValuesCsv,
};

std::string_view fileFormatName(FileFormat format); // "Nsight Compute CSV (details page)", ...

// The format of a file, from its content; nullopt when it matches no signature (a generic
// points CSV has none: it is what is left).
std::optional<FileFormat> detectFileFormat(std::string_view text);

// What a reader cannot know from the file itself: the choices a user makes for ncu and
// rocprof-compute files (FLOP per tensor instruction or per half FMA, decimal comma, one point
// per kernel instead of one per launch, LDS banks). The other readers take none.
struct ReadOptions {
    NcuOptions ncu;
    RocprofOptions rocprof;
};

// The ranges File ▸ Import options… and the command line accept (from 1): wide enough for any
// architecture, narrow enough that no product overflows.
inline constexpr int kMaxTensorFlopsPerInstruction = 1 << 20;
inline constexpr int kMaxLdsBanksPerCu = 1024;

struct PointsFileResult {
    std::optional<FileFormat> format; // the reader that ran; nullopt when none could
    PointsReadResult points;
};

// Points from any points format: Ridgepoint CSV/JSON, ncu details/raw/summary/section,
// rocprof-compute pmc_perf.csv, Advisor survey, likwid-perfctr -O, NERSC hierarchical text,
// mohamed/roofline apps.csv, the ncu-like Metric Name / Metric Value CSV.
PointsFileResult readPointsFile(
    std::string_view text, const std::string &fileName, const ReadOptions &options = {});

// The same, handing each point to `sink` instead of keeping it (`points` stays empty; the
// messages and counts are the same): a generic CSV's points as its rows are read, so a
// million-row file is never held as points.
PointsFileResult readPointsFile(std::string_view text, const std::string &fileName,
    const PointSink &sink, const ReadOptions &options = {});

struct HardwareFileResult {
    std::optional<FileFormat> format;
    HardwareReadResult hardware;
};

// Machines from any ceiling format: Ridgepoint hardware JSON, ERT roofline.json and sum,
// rocprof-compute roofline.csv, Advisor roofs CSV, ncu roofline section (or an ncu raw or
// details page that holds the roofline's peak metrics), NERSC hierarchical text,
// GPU-Roofline-Profiler peaks.csv, mohamed/roofline hw_db.csv.
HardwareFileResult readHardwareFile(
    std::string_view text, const std::string &fileName, const ReadOptions &options = {});

} // namespace ridgepoint
