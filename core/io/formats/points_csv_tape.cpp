#include "core/io/formats/points_csv_tape.h"

#include "core/io/formats/csv_row.h"
#include "core/io/formats/points_csv_pieces.h"
#include "core/model/point.h"

#include <algorithm>
#include <limits>
#include <string_view>

namespace ridgepoint {

namespace {

constexpr std::size_t kMaxSize = std::numeric_limits<std::uint16_t>::max();

} // namespace

bool PointsCsvTape::fits(const PointsCsvLayout &layout)
{
    int bytesColumns = 0;
    for (const csv::Column &column : layout.columns) {
        switch (column.role) {
        case csv::Role::Ignored:
        case csv::Role::Name:
        case csv::Role::Flops:
        case csv::Role::Time:
        case csv::Role::Precision:
        case csv::Role::Group:
            break;
        case csv::Role::Bytes:
            ++bytesColumns;
            break;
        case csv::Role::Rate:
        case csv::Role::Intensity:
        case csv::Role::TimeMin:
        case csv::Role::TimeMedian:
        case csv::Role::TimeMax:
        case csv::Role::TimeStddev:
            return false;
        }
    }
    return bytesColumns == 1;
}

PointsCsvTape::PointsCsvTape(const PointsCsvLayout &layout, std::size_t rows, std::size_t budget)
    : m_namedByLine(std::none_of(layout.columns.begin(), layout.columns.end(),
        [](const csv::Column &column) { return column.role == csv::Role::Name; }))
    , m_budget(budget)
{
    static_assert(sizeof(Row) == kRowBytes);
    if (rows * kRowBytes <= budget)
        m_rows.reserve(rows);
}

bool PointsCsvTape::keep(const KernelPoint &point, int line, Row &out) const
{
    // What the tape has no room for: every other member of KernelPoint (point.h).
    if (point.bytes.size() != 1 || point.measuredRate || point.intensity
        || !point.levelIntensities.empty() || !point.timeStatistics.empty()
        || point.unit != ComputeUnit::Unknown || (point.seconds && std::isnan(*point.seconds))
        || point.group.size() > kMaxSize || (!m_namedByLine && point.name.size() > kMaxSize))
        return false;
    if (line <= m_lastLine || static_cast<std::size_t>(line - m_lastLine) > kMaxSize)
        return false;
    out.lineStep = static_cast<std::uint16_t>(line - m_lastLine);
    out.nameSize = static_cast<std::uint16_t>(m_namedByLine ? 0 : point.name.size());
    out.groupSize = static_cast<std::uint16_t>(point.group.size());
    out.flops = point.flops;
    out.bytes = point.bytes.front().bytes;
    out.seconds = point.seconds.value_or(std::numeric_limits<double>::quiet_NaN());
    // Each enumerator in a byte below kNone (a later enumerator past it gives up, not wraps).
    const auto code = [](auto value, std::uint8_t &to) {
        const auto number = static_cast<unsigned>(value);
        to = static_cast<std::uint8_t>(number);
        return number < kNone;
    };
    return (!point.precision || code(*point.precision, out.precision))
        && (!point.bytes.front().level || code(*point.bytes.front().level, out.level));
}

void PointsCsvTape::record(const KernelPoint &point, int line, int firstLine)
{
    if (!m_complete)
        return;
    Row kept;
    if (!keep(point, line - firstLine + 1, kept)) {
        giveUp();
        return;
    }
    m_lastLine += kept.lineStep;
    // (The text's size, not its room: a string that grows by doubling may hold up to twice that
    // for a moment, until shrink().)
    if ((m_rows.size() + 1) * kRowBytes + m_text.size() + kept.nameSize + kept.groupSize
        > m_budget) {
        giveUp();
        return;
    }
    m_rows.push_back(kept);
    if (!m_namedByLine)
        m_text += point.name;
    m_text += point.group;
}

void PointsCsvTape::shrink()
{
    if (m_rows.capacity() - m_rows.size() > m_rows.size() / 8) // (the room made is mostly used)
        m_rows.shrink_to_fit();
    m_text.shrink_to_fit();
}

void PointsCsvTape::giveUp()
{
    m_complete = false;
    m_rows = {};
    m_text = {};
}

void PointsCsvTape::replay(int firstLine, const std::string &fileName, const PointSink &sink) const
{
    KernelPoint point; // its buffers reused from row to row, as the reader's
    int line = firstLine - 1;
    const char *text = m_text.data();
    for (const Row &row : m_rows) {
        line += row.lineStep;
        point.clear(); // NOLINT(bugprone-use-after-move): every member set again (point.h)
        if (m_namedByLine)
            point.name = csv::lineName(line);
        else
            point.name.assign(text, row.nameSize);
        text += row.nameSize;
        point.flops = row.flops;
        point.bytes.push_back(
            { row.level == kNone ? std::nullopt
                                 : std::optional(static_cast<MemoryLevel>(row.level)),
                row.bytes });
        if (!std::isnan(row.seconds))
            point.seconds = row.seconds;
        if (row.precision != kNone)
            point.precision = static_cast<Precision>(row.precision);
        point.group.assign(text, row.groupSize);
        text += row.groupSize;
        point.source.file = fileName;
        point.source.line = line;
        sink(std::move(point));
    }
}

} // namespace ridgepoint
