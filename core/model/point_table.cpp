#include "core/model/point_table.h"

#include <limits>
#include <stdexcept>
#include <utility>

namespace ridgepoint {

namespace {

// Whether a point needs a side-table entry: anything a row does not hold.
bool needsExtra(const KernelPoint &point)
{
    return point.bytes.size() > 1 || point.measuredRate || point.intensity
        || !point.levelIntensities.empty() || !point.timeStatistics.empty();
}

} // namespace

std::uint32_t PointTable::StringTable::add(std::string_view text)
{
    if (const auto it = index.find(text); it != index.end())
        return it->second;
    if (strings.size() >= std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("too many distinct groups or files");
    const auto id = static_cast<std::uint32_t>(strings.size());
    strings.emplace_back(text);
    index.emplace(std::string(text), id);
    return id;
}

std::size_t PointTable::StringTable::bytesUsed() const
{
    std::size_t bytes = 0;
    for (const std::string &s : strings)
        bytes += 2 * (sizeof(std::string) + s.size() + sizeof(std::uint32_t));
    return bytes;
}

PointTable::PointTable(const std::vector<KernelPoint> &points)
{
    m_rows.reserve(points.size());
    for (const KernelPoint &point : points)
        push_back(point);
}

void PointTable::clear()
{
    *this = PointTable();
}

PointTable::Row PointTable::makeRow(const KernelPoint &point)
{
    Row row;
    row.flops = point.flops;
    if (!point.bytes.empty()) {
        row.flags |= kHasBytes;
        row.bytes = point.bytes.front().bytes;
        if (point.bytes.front().level) {
            row.flags |= kHasLevel;
            row.level = static_cast<std::uint8_t>(*point.bytes.front().level);
        }
    }
    if (point.seconds) {
        row.flags |= kHasSeconds;
        row.seconds = *point.seconds;
    }
    if (point.precision) {
        row.flags |= kHasPrecision;
        row.precision = static_cast<std::uint8_t>(*point.precision);
    }
    row.unit = point.unit;
    if (point.name.size() > std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("a point's name is too long");
    row.nameOffset = m_names.size();
    row.nameLength = static_cast<std::uint32_t>(point.name.size());
    m_names += point.name;
    row.group = m_groups.add(point.group);
    row.file = m_files.add(point.source.file);
    row.line = point.source.line;
    if (needsExtra(point)) {
        Extra extra;
        extra.moreBytes.assign(
            point.bytes.begin() + (point.bytes.empty() ? 0 : 1), point.bytes.end());
        extra.measuredRate = point.measuredRate;
        extra.intensity = point.intensity;
        extra.levelIntensities = point.levelIntensities;
        extra.timeStatistics = point.timeStatistics;
        if (m_extras.size() >= kNoExtra)
            throw std::length_error("too many points with more than one level or a spread");
        row.extra = static_cast<std::uint32_t>(m_extras.size());
        m_extras.push_back(std::move(extra));
    }
    return row;
}

void PointTable::push_back(const KernelPoint &point)
{
    static_assert(sizeof(Row) == 56, "a row is the issue's 56 bytes; say so in PERFORMANCE.md");
    m_rows.push_back(makeRow(point));
}

void PointTable::insert(std::size_t index, const KernelPoint &point)
{
    const Row row = makeRow(point);
    m_rows.insert(m_rows.begin() + static_cast<std::ptrdiff_t>(index), row);
}

void PointTable::erase(std::size_t index)
{
    forget(m_rows[index]);
    m_rows.erase(m_rows.begin() + static_cast<std::ptrdiff_t>(index));
    compactIfWasteful();
}

void PointTable::set(std::size_t index, const KernelPoint &point)
{
    forget(m_rows[index]);
    m_rows[index] = makeRow(point);
    compactIfWasteful();
}

void PointTable::forget(const Row &row)
{
    // The name and the side-table entry stay where they are, unused, until they are a good part
    // of the whole (the window's edits erase or replace a handful of rows at a time).
    m_deadNameBytes += row.nameLength;
    if (row.extra != kNoExtra)
        ++m_deadExtras;
}

void PointTable::compactIfWasteful()
{
    constexpr std::size_t kSlack = 4096;
    if (m_deadNameBytes <= kSlack + m_names.size() / 2
        && m_deadExtras <= kSlack + m_extras.size() / 2)
        return;
    std::string names;
    std::vector<Extra> extras;
    for (Row &row : m_rows) {
        const std::uint64_t offset = names.size();
        names.append(m_names, row.nameOffset, row.nameLength);
        row.nameOffset = offset;
        if (row.extra != kNoExtra) {
            extras.push_back(std::move(m_extras[row.extra]));
            row.extra = static_cast<std::uint32_t>(extras.size() - 1);
        }
    }
    m_names = std::move(names);
    m_extras = std::move(extras);
    m_deadNameBytes = 0;
    m_deadExtras = 0;
}

const PointTable::Extra *PointTable::extraOf(const Row &row) const
{
    return row.extra == kNoExtra ? nullptr : &m_extras[row.extra];
}

void PointTable::fill(std::size_t index, KernelPoint &out) const
{
    const Row &row = m_rows[index];
    const Extra *extra = extraOf(row);
    out.name.assign(name(index));
    out.flops = row.flops;
    out.bytes.clear();
    if ((row.flags & kHasBytes) != 0) {
        LevelBytes first;
        first.bytes = row.bytes;
        if ((row.flags & kHasLevel) != 0)
            first.level = static_cast<MemoryLevel>(row.level);
        out.bytes.push_back(first);
    }
    if (extra)
        out.bytes.insert(out.bytes.end(), extra->moreBytes.begin(), extra->moreBytes.end());
    out.seconds = seconds(index);
    out.measuredRate = extra ? extra->measuredRate : std::nullopt;
    out.intensity = extra ? extra->intensity : std::nullopt;
    out.levelIntensities.clear();
    if (extra)
        out.levelIntensities = extra->levelIntensities;
    out.timeStatistics = extra ? extra->timeStatistics : RepeatStatistics {};
    out.precision = (row.flags & kHasPrecision) != 0
        ? std::optional(static_cast<Precision>(row.precision))
        : std::nullopt;
    out.unit = row.unit;
    out.group.assign(group(index));
    out.source.file.assign(file(index));
    out.source.line = row.line;
}

KernelPoint PointTable::at(std::size_t index) const
{
    KernelPoint point;
    fill(index, point);
    return point;
}

std::vector<KernelPoint> PointTable::toVector() const
{
    std::vector<KernelPoint> points(m_rows.size());
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        fill(i, points[i]);
    return points;
}

std::string_view PointTable::name(std::size_t index) const
{
    const Row &row = m_rows[index];
    return std::string_view(m_names).substr(row.nameOffset, row.nameLength);
}

std::string_view PointTable::group(std::size_t index) const
{
    return m_groups.strings[m_rows[index].group];
}

std::string_view PointTable::file(std::size_t index) const
{
    return m_files.strings[m_rows[index].file];
}

std::optional<double> PointTable::seconds(std::size_t index) const
{
    const Row &row = m_rows[index];
    return (row.flags & kHasSeconds) != 0 ? std::optional(row.seconds) : std::nullopt;
}

std::optional<double> PointTable::measuredRate(std::size_t index) const
{
    const Extra *extra = extraOf(m_rows[index]);
    return extra ? extra->measuredRate : std::nullopt;
}

std::optional<double> PointTable::performance(std::size_t index) const
{
    return achievedRate(flops(index), seconds(index), measuredRate(index));
}

std::size_t PointTable::bytesUsed() const
{
    std::size_t bytes = m_rows.capacity() * sizeof(Row) + m_names.capacity()
        + m_extras.capacity() * sizeof(Extra) + m_groups.bytesUsed() + m_files.bytesUsed();
    for (const Extra &extra : m_extras)
        bytes += extra.moreBytes.capacity() * sizeof(LevelBytes)
            + extra.levelIntensities.capacity() * sizeof(LevelIntensity);
    return bytes;
}

} // namespace ridgepoint
