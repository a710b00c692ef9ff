// The generic points CSV's rows kept on a tape and replayed (analyze on every core, the second
// pass: core/io/formats/points_csv_tape.h) against the same rows read from the text: the same
// points, member for member, whatever the text. Any input without a quote whose header gives a
// layout (the condition of the pieces) is read whole and in two pieces cut at a line end.
#include "fuzz_checks.h"

#include "core/io/formats/points_csv_pieces.h"
#include "core/io/formats/points_csv_tape.h"

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

namespace {

using ridgepoint::KernelPoint;

bool same(double a, double b)
{
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

bool same(const std::optional<double> &a, const std::optional<double> &b)
{
    return a.has_value() == b.has_value() && (!a || same(*a, *b));
}

// Every member of KernelPoint (core/model/point.h), numbers bit for bit.
bool same(const KernelPoint &a, const KernelPoint &b)
{
    const auto sameBytes = [](const ridgepoint::LevelBytes &x, const ridgepoint::LevelBytes &y) {
        return x.level == y.level && same(x.bytes, y.bytes);
    };
    const auto sameIntensity
        = [](const ridgepoint::LevelIntensity &x, const ridgepoint::LevelIntensity &y) {
              return x.level == y.level && same(x.intensity, y.intensity);
          };
    return a.name == b.name && same(a.flops, b.flops)
        && std::equal(a.bytes.begin(), a.bytes.end(), b.bytes.begin(), b.bytes.end(), sameBytes)
        && same(a.seconds, b.seconds) && same(a.measuredRate, b.measuredRate)
        && same(a.intensity, b.intensity)
        && std::equal(a.levelIntensities.begin(), a.levelIntensities.end(),
            b.levelIntensities.begin(), b.levelIntensities.end(), sameIntensity)
        && same(a.timeStatistics.min, b.timeStatistics.min)
        && same(a.timeStatistics.median, b.timeStatistics.median)
        && same(a.timeStatistics.max, b.timeStatistics.max)
        && same(a.timeStatistics.stddev, b.timeStatistics.stddev) && a.precision == b.precision
        && a.group == b.group && a.source.file == b.source.file && a.source.line == b.source.line;
}

// The points of `piece` (first line `firstLine`) read from the text, and replayed from a tape
// when it holds them.
void compare(const ridgepoint::PointsCsvLayout &layout, std::string_view piece, int firstLine)
{
    const std::string name = "fuzz.csv";
    std::vector<KernelPoint> read;
    ridgepoint::readPointsCsvPiece(
        layout, piece, firstLine, name, [&](KernelPoint &&point) { read.push_back(point); });
    ridgepoint::PointsCsvTape tape(layout, 0, std::size_t { 1 } << 30);
    ridgepoint::readPointsCsvPiece(
        layout, piece, 1, name, [](KernelPoint &&) {}, 0, &tape);
    if (!tape.complete())
        return;
    std::vector<KernelPoint> replayed;
    tape.replay(firstLine, name, [&](KernelPoint &&point) { replayed.push_back(point); });
    fuzz::require(read.size() == replayed.size());
    for (std::size_t i = 0; i < read.size(); ++i)
        fuzz::require(same(read[i], replayed[i]));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text = fuzz::text(data, size);
    if (text.find('"') != std::string_view::npos)
        return 0;
    const auto layout = ridgepoint::pointsCsvLayout(text, "fuzz.csv");
    if (!layout || !ridgepoint::PointsCsvTape::fits(*layout))
        return 0;
    const std::string_view rows = text.substr(layout->rowsBegin);
    compare(*layout, rows, layout->rowsLine);
    // Two pieces, cut after the line end nearest the middle.
    const std::size_t cut = rows.find('\n', rows.size() / 2);
    if (cut == std::string_view::npos)
        return 0;
    const std::string_view first = rows.substr(0, cut + 1);
    compare(*layout, first, layout->rowsLine);
    compare(*layout, rows.substr(cut + 1),
        layout->rowsLine + static_cast<int>(std::count(first.begin(), first.end(), '\n')));
    return 0;
}
