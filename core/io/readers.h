// One entry point for every file Ridgepoint reads: the format is recognised from the content
// (not the extension), then the matching reader runs. A file of no known shape gets one
// message naming each format tried and why it was rejected. The formats, their detectors and
// readers are the rows of the registry (core/io/format_registry.h).
#pragma once

#include "core/io/format_registry.h"
#include "core/io/formats/csv.h"
#include "core/io/formats/hardware_json.h"
#include "core/io/formats/ncu_reader.h"
#include "core/io/formats/rocprof_reader.h"
#include "core/io/read_options.h"

#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ridgepoint {

std::string_view fileFormatName(FileFormat format); // "Nsight Compute CSV (details page)", ...

// The format of a file, from its content; nullopt when it matches no signature (a generic
// points CSV has none: it is what is left).
std::optional<FileFormat> detectFileFormat(std::string_view text);

struct [[nodiscard]] PointsFileResult {
    std::optional<FileFormat> format; // the reader that ran; nullopt when none could
    PointsReadResult points;
};

// Points from any format that gives them (fileFormats(): Ridgepoint CSV/JSON, ncu
// details/raw/summary/section, rocprof-compute pmc_perf.csv, Advisor survey, likwid-perfctr -O,
// NERSC hierarchical text, mohamed/roofline apps.csv, the ncu-like Metric Name / Metric Value
// CSV).
PointsFileResult readPointsFile(
    std::string_view text, const std::string &fileName, const ReadOptions &options = {});

// The same, handing each point to `sink` instead of keeping it (`points` stays empty; the
// messages and counts are the same): a generic CSV's points as its rows are read, so a
// million-row file is never held as points.
PointsFileResult readPointsFile(std::string_view text, const std::string &fileName,
    const PointSink &sink, const ReadOptions &options = {});

// The same two from a string, whose room past its end (its capacity) a reader may read: a
// profiler trace is then parsed where it lies instead of in a padded copy (readTextFile's
// strings have kTextPadding of room, core/io/text.h). Templates taking std::string alone, so a
// string literal still goes to the std::string_view forms.
PointsFileResult readPointsFileWithRoom(std::string_view text, std::size_t room,
    const std::string &fileName, const PointSink *sink, const ReadOptions &options);
template<std::same_as<std::string> Text>
PointsFileResult readPointsFile(
    const Text &text, const std::string &fileName, const ReadOptions &options = {})
{
    return readPointsFileWithRoom(text, text.capacity() - text.size(), fileName, nullptr, options);
}
template<std::same_as<std::string> Text>
PointsFileResult readPointsFile(const Text &text, const std::string &fileName,
    const PointSink &sink, const ReadOptions &options = {})
{
    return readPointsFileWithRoom(text, text.capacity() - text.size(), fileName, &sink, options);
}

struct [[nodiscard]] HardwareFileResult {
    std::optional<FileFormat> format;
    HardwareReadResult hardware;
};

// Machines from any format that gives them (hardware JSON, ERT roofline.json and sum,
// rocprof-compute roofline.csv, Advisor roofs CSV, ncu roofline section or an ncu raw or details
// page that holds the roofline's peak metrics, NERSC hierarchical text, GPU-Roofline-Profiler
// peaks.csv, mohamed/roofline hw_db.csv).
HardwareFileResult readHardwareFile(
    std::string_view text, const std::string &fileName, const ReadOptions &options = {});

} // namespace ridgepoint
