#include "core/io/readers.h"

#include "core/calibrate/measured.h"
#include "core/io/file_io.h"
#include "core/io/inflate.h"
#include "core/io/input_check.h"
#include "core/io/sniff.h"

#include <algorithm>

namespace ridgepoint {
namespace {

// The text to read, or the input check's error. A gzip file (a `.json.gz` trace) is inflated
// first into `inflated`, never to more than an input may hold (kMaxInputBytes).
std::optional<Diagnostic> checkedText(std::string_view &text, std::optional<std::string> &inflated,
    std::optional<std::string> &converted, const std::string &fileName)
{
    if (isGzip(text)) {
        auto plain = gunzipCapped(text, kMaxInputBytes);
        if (!plain)
            return Diagnostic { Severity::Error, fileName, 0, 0,
                "gzip file: " + plain.error() + " (expected a whole gzip stream of text)" };
        inflated = std::move(*plain);
        text = *inflated;
    }
    TextCheck check = checkTextInput(text, fileName);
    if (check.error)
        return check.error;
    if (check.converted) {
        converted = std::move(check.converted);
        text = *converted;
    }
    return std::nullopt;
}

Diagnostic wrongSide(const FormatEntry &format, const std::string &fileName, ReadFor side)
{
    return { Severity::Error, fileName, 0, 0,
        "this file is in the " + std::string(format.name) + " format"
            + (side == ReadFor::Points
                    ? ": it gives ceilings, not points (open it as the machine instead)"
                    : ": it gives points, not ceilings (expected a hardware file)") };
}

// Measured collectives, nccl-tests' (or rccl-tests') output or Vidur's collective CSV, hold
// message sizes and times but no FLOPs to place on a roofline: `calibrate` and `predict` read
// them (docs/FORMATS.md §11), told apart as they tell them. Which of the two, or nothing.
std::optional<std::string_view> measuredCollectives(std::string_view text)
{
    switch (measuredFormatOf(text).value_or(MeasuredFormat::MeasuredCsv)) {
    case MeasuredFormat::NcclTests:
        return "nccl-tests output";
    case MeasuredFormat::VidurCollectives:
        return "Vidur's collective CSV";
    case MeasuredFormat::VidurOperators:
    case MeasuredFormat::MeasuredCsv:
        break;
    }
    return std::nullopt;
}

// Why no reader could take the file: ncu's log without a table and measured collectives are said
// as such, anything else gets the list of formats tried.
Diagnostic noFormat(std::string_view text, const std::string &fileName, ReadFor side)
{
    if (auto log = ncuLogWithoutTable(text, fileName))
        return *log;
    if (const auto what = measuredCollectives(text))
        return { Severity::Error, fileName, 0, 0,
            std::string(*what)
                + ": measured collective times, with no FLOPs or bytes to place on a roofline. "
                  "'ridgepoint calibrate --hardware MACHINE FILE -o OUT.json' fits their latency "
                  "and bus bandwidth; 'ridgepoint predict --hardware OUT.json FILE --chart "
                  "OUT.png' draws them on their link roof (docs/MODEL.md section 15)" };
    return { Severity::Error, fileName, 0, 0, triedEveryFormat(side) };
}

// Both readPointsFile()s: with a sink, a generic CSV's points go to it as their rows are read
// and the other formats' (small files) once their reader is done; `points` is then left empty.
// The room past the end of a string's text.
std::size_t roomAfter(const std::string &text)
{
    return text.capacity() - text.size();
}

PointsFileResult readPoints(std::string_view text, const std::string &fileName,
    const PointSink *sink, const ReadOptions &given, std::size_t padding)
{
    PointsFileResult out;
    std::optional<std::string> inflated;
    std::optional<std::string> converted;
    if (auto error = checkedText(text, inflated, converted, fileName)) {
        out.points.diagnostics.push_back(*error);
        return out;
    }
    ReadOptions options = given;
    options.textPadding = converted ? roomAfter(*converted)
        : inflated                  ? roomAfter(*inflated)
                                    : padding;
    const auto detected = detectFileFormat(text);
    const FormatEntry &format = detected ? formatEntry(*detected) : fallbackFormat();
    if (!format.readPoints) {
        out.points.diagnostics.push_back(wrongSide(format, fileName, ReadFor::Points));
        return out;
    }
    out.points = format.readPoints(text, fileName, options, sink);
    // What is left has no signature: a table without its header is no format at all.
    const bool noHeader = !detected
        && std::any_of(out.points.diagnostics.begin(), out.points.diagnostics.end(),
            [](const Diagnostic &d) { return d.message.starts_with("no header row found"); });
    if (noHeader) {
        out.points.diagnostics = { noFormat(text, fileName, ReadFor::Points) };
        out.points.points.clear();
        return out;
    }
    out.format = format.id;
    if (sink) {
        for (auto &point : out.points.points)
            (*sink)(std::move(point));
        out.points.points.clear();
    }
    return out;
}

} // namespace

std::string_view fileFormatName(FileFormat format)
{
    return formatEntry(format).name;
}

std::optional<FileFormat> detectFileFormat(std::string_view text)
{
    // A compressed file is recognised by the beginning of what it holds.
    std::string head;
    if (isGzip(text)) {
        head = gunzipHead(text, Sniff::kHeadBytes);
        text = head;
    }
    const Sniff sniff(text);
    for (const FormatEntry *format : formatsByPriority()) {
        if (format->detect(sniff))
            return format->id;
    }
    return std::nullopt;
}

PointsFileResult readPointsFile(
    std::string_view text, const std::string &fileName, const ReadOptions &options)
{
    return readPoints(text, fileName, nullptr, options, 0);
}

PointsFileResult readPointsFile(std::string_view text, const std::string &fileName,
    const PointSink &sink, const ReadOptions &options)
{
    return readPoints(text, fileName, &sink, options, 0);
}

PointsFileResult readPointsFileWithRoom(std::string_view text, std::size_t room,
    const std::string &fileName, const PointSink *sink, const ReadOptions &options)
{
    return readPoints(text, fileName, sink, options, room);
}

HardwareFileResult readHardwareFile(
    std::string_view text, const std::string &fileName, const ReadOptions &options)
{
    HardwareFileResult out;
    std::optional<std::string> inflated;
    std::optional<std::string> converted;
    if (auto error = checkedText(text, inflated, converted, fileName)) {
        out.hardware.diagnostics.push_back(*error);
        return out;
    }
    const auto detected = detectFileFormat(text);
    if (!detected) {
        out.hardware.diagnostics.push_back(noFormat(text, fileName, ReadFor::Machines));
        return out;
    }
    const FormatEntry &format = formatEntry(*detected);
    if (!format.readMachines) {
        out.hardware.diagnostics.push_back(wrongSide(format, fileName, ReadFor::Machines));
        return out;
    }
    out.hardware = format.readMachines(text, fileName, options);
    out.format = format.id;
    return out;
}

} // namespace ridgepoint
