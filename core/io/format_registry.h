// Every file format Ridgepoint reads, registered once (core/io/format_registry.cpp): its id and
// names, what it gives, how it is recognised and in which order, its readers, its file-dialog
// patterns, the read options it takes, the clause naming it when a file is of no known format,
// and an example file for the tests. Detection, dispatch, the "tried every format" message, the
// import dialog's filters and the command line's option check all follow from the table, so a
// new format costs its reader file under core/io/formats/ and one row (docs/FORMATS.md §7.1).
#pragma once

#include "core/io/read_options.h"
#include "core/io/read_result.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

class Sniff;

// A format's id (a row of the registry); the tests and the window compare against it.
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
    KinetoTrace, // both: points, and the preset of the device it names
    VidurOperators, // measured operator times, placed with their model FLOPs and bytes
};

// What a file of a format holds: the window imports it as points, as a machine or as both.
enum class Gives { Points, Machine, Both };

// Which of ReadOptions a format's readers take.
enum class ReadOptionSet { None, Ncu, Rocprof };

// The two ways a file is read: for its points or for its machines (--hardware).
enum class ReadFor { Points, Machines };

using FormatDetector = bool (*)(const Sniff &sniff);
// `sink`, when given, may take the points as they are read (the generic CSV's streaming
// reader); points a reader returns anyway are handed to it by readPointsFile.
using PointsReader = PointsReadResult (*)(std::string_view text, const std::string &fileName,
    const ReadOptions &options, const PointSink *sink);
using MachineReader = HardwareReadResult (*)(
    std::string_view text, const std::string &fileName, const ReadOptions &options);
using GivesByContent = Gives (*)(std::string_view text);

// The fields are in the order a registry row reads (who, what it gives, how it is found and read,
// how it is named to the user); some twenty rows make the 8 bytes of padding that costs moot.
struct FormatEntry { // NOLINT(clang-analyzer-optin.performance.Padding)
    FileFormat id;
    std::string_view key; // stable id ("ncu-details"): lower case, never renamed
    std::string_view name; // "Nsight Compute CSV (details page)": messages and the window
    std::string_view family; // "Nsight Compute": the file dialog's and the help's lists
    Gives gives;
    int priority; // detection order, lower first (see the table for why it matters)
    FormatDetector detect; // nullptr: never detected, what is left (the generic points CSV)
    PointsReader readPoints; // nullptr: the format gives no points
    MachineReader readMachines; // nullptr: it gives no machines
    std::string_view patterns; // file-dialog patterns, space separated: "*.csv", "sum", ...
    ReadOptionSet options;
    // Its clause in the message for a file of no known format, read for points or for
    // machines: "rocprof-compute pmc_perf.csv (no Dispatch_ID,Kernel_Name header)". Formats of
    // one family may share a clause; it is said once.
    std::string_view triedAsPoints;
    std::string_view triedAsMachines;
    std::string_view example; // a file of the format, relative to tests/data
    // When the content decides what a file gives (a NERSC text of roofs only gives a machine).
    GivesByContent givesByContent = nullptr;
};

// The registry, in its order: the order of the "tried every format" message and of the file
// dialog's lists.
std::span<const FormatEntry> fileFormats();

// The row of a format.
const FormatEntry &formatEntry(FileFormat id);

// The formats with a detector, in the order detection tries them.
const std::vector<const FormatEntry *> &formatsByPriority();

// The format detection falls back on when no detector takes a text (the generic points CSV).
const FormatEntry &fallbackFormat();

// What this text of this format gives (the window's import: points, a machine, both).
Gives givesOf(FileFormat id, std::string_view text);

// Which read options the format takes.
ReadOptionSet readOptionsOf(FileFormat id);

// Whether a format can be read for points or for machines.
bool reads(const FormatEntry &format, ReadFor side);

// "not a file Ridgepoint can read; tried points CSV (...), points JSON (...), ...": each format
// that can be read for `side` once, in registry order.
std::string triedEveryFormat(ReadFor side);

// The file-dialog patterns of the formats that give `side` (nullopt: every format), each once,
// in registry order: "*.csv", "*.txt", "*.json", "sum", ...
std::vector<std::string> fileDialogPatterns(std::optional<ReadFor> side);

// The families of the formats that give `side`, each once, in registry order: "CSV, points
// JSON, Nsight Compute, ...".
std::string formatFamilies(ReadFor side);

// One file-dialog filter: "<title>: <families> (<patterns>)".
std::string fileDialogFilter(std::string_view title, ReadFor side);

} // namespace ridgepoint
