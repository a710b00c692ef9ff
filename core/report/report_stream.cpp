// Tables written as the rows come, with widths from a bounded look-ahead, and the running tally.
#include "core/report/report_stream.h"

#include "core/model/units.h"

#include <algorithm>
#include <utility>

namespace ridgepoint {
namespace {

bool continuationByte(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0U) == 0x80U;
}

} // namespace

std::size_t displayWidth(std::string_view text)
{
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return !continuationByte(c); }));
}

std::string truncatedToWidth(std::string_view text, std::size_t width)
{
    if (displayWidth(text) <= width)
        return std::string(text);
    if (width == 0)
        return {};
    // Keep width - 1 characters: stop at the lead byte of the width-th one.
    std::size_t kept = 0;
    std::size_t end = 0;
    for (; end < text.size(); ++end) {
        if (!continuationByte(text[end]) && kept++ == width - 1)
            break;
    }
    return std::string(text.substr(0, end)) + "…";
}

StreamedTable::StreamedTable(
    std::vector<StreamColumn> columns, TableStyle style, std::size_t lookAhead, ReportSink sink)
    : m_columns(std::move(columns))
    , m_style(style)
    , m_lookAhead(std::max<std::size_t>(lookAhead, 1))
    , m_sink(std::move(sink))
{ }

void StreamedTable::addRow(std::vector<std::string> cells)
{
    if (m_fixed) {
        writeRow(cells, false);
        return;
    }
    if (m_held.size() == m_lookAhead) {
        fixWidths(false);
        writeRow(cells, false);
        return;
    }
    m_held.push_back(std::move(cells));
    m_mostHeld = std::max(m_mostHeld, m_held.size());
}

void StreamedTable::finish()
{
    if (!m_fixed)
        fixWidths(true);
    flush();
}

// Measures the held rows and writes them. `wholeTable`: they are all the rows there are, so the
// widths are exact; otherwise each is at least its column's minimum, for the rows to come.
void StreamedTable::fixWidths(bool wholeTable)
{
    m_widths.assign(m_columns.size(), m_style == TableStyle::Pipe ? 3 : 0);
    for (const auto &row : m_held) {
        if (row.size() > m_widths.size())
            m_widths.resize(row.size(), 0);
        for (std::size_t i = 0; i < row.size(); ++i)
            m_widths[i] = std::max(m_widths[i], displayWidth(row[i]));
    }
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        if (!wholeTable)
            m_widths[i] = std::max(m_widths[i], m_columns[i].minWidth);
        if (m_columns[i].truncated && m_columns[i].maxWidth > 0)
            m_widths[i] = std::min(m_widths[i], m_columns[i].maxWidth);
    }
    m_fixed = true;
    for (const auto &row : m_held)
        writeRow(row, !m_wroteFirst);
    m_held.clear();
    m_held.shrink_to_fit();
}

void StreamedTable::writeRow(const std::vector<std::string> &cells, bool first)
{
    const auto cellAt = [&](std::size_t i) -> std::string {
        const bool cut = i < m_columns.size() && m_columns[i].truncated;
        const bool last = m_style == TableStyle::Aligned && i + 1 == cells.size();
        return cut && !last ? truncatedToWidth(cells[i], m_widths[i]) : cells[i];
    };
    const auto padded = [&](const std::string &cell, std::size_t i, bool padLeft) {
        const std::size_t width = displayWidth(cell);
        const std::string fill(width < m_widths[i] ? m_widths[i] - width : 0, ' ');
        return padLeft ? fill + cell : cell + fill;
    };
    if (m_style == TableStyle::Aligned) {
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const std::string cell = cellAt(i);
            const bool right = i < m_columns.size() && m_columns[i].rightAligned;
            if (i > 0)
                m_out += "  ";
            m_out += right || i + 1 < cells.size() ? padded(cell, i, right) : cell;
        }
        m_out += '\n';
    } else {
        m_out += '|';
        for (std::size_t i = 0; i < cells.size(); ++i)
            m_out += " " + padded(cellAt(i), i, m_columns[i].rightAligned) + " |";
        m_out += '\n';
        if (first) {
            m_out += '|';
            for (std::size_t i = 0; i < m_widths.size(); ++i)
                m_out += " "
                    + (m_columns[i].rightAligned ? std::string(m_widths[i] - 1, '-') + ":"
                                                 : std::string(m_widths[i], '-'))
                    + " |";
            m_out += '\n';
        }
    }
    m_wroteFirst = true;
    if (m_out.size() >= kFlushBytes)
        flush();
}

void StreamedTable::flush()
{
    if (!m_out.empty())
        m_sink(m_out);
    m_out.clear();
}

void BoundTally::add(const PointAnalysis &analysis)
{
    ++points;
    switch (analysis.bound) {
    case Bound::Compute:
        ++computeBound;
        break;
    case Bound::Latency:
        ++latencyBound;
        break;
    case Bound::Memory:
        ++memoryBound;
        break;
    }
    inconsistent += analysis.consistent ? 0 : 1;
}

std::string BoundTally::line() const
{
    std::string out = std::to_string(points) + (points == 1 ? " point: " : " points: ")
        + std::to_string(memoryBound) + " memory-bound, " + std::to_string(computeBound)
        + " compute-bound";
    if (latencyBound > 0)
        out += ", " + std::to_string(latencyBound) + " latency-bound";
    if (inconsistent > 0)
        out += ", " + std::to_string(inconsistent) + " faster than the roofline allows";
    return out;
}

void PayoffLeaders::add(const std::string &name, const std::optional<double> &payoff)
{
    if (!payoff || !(*payoff > 0.0))
        return; // nothing to gain (at or above its roof): not worth naming
    if (m_leaders.size() == kShown && !(*payoff > m_leaders.back().first))
        return; // a tie keeps the earlier point
    const auto at = std::find_if(m_leaders.begin(), m_leaders.end(),
        [&](const auto &leader) { return *payoff > leader.first; });
    m_leaders.insert(at, { *payoff, name });
    if (m_leaders.size() > kShown)
        m_leaders.pop_back();
}

std::string PayoffLeaders::line() const
{
    if (m_leaders.empty())
        return {};
    std::string out = "what next (payoff = time share × (1 − utilization)): ";
    for (std::size_t i = 0; i < m_leaders.size(); ++i) {
        if (i > 0)
            out += ", ";
        out += m_leaders[i].second + " " + formatSignificant(m_leaders[i].first * 100.0, 3) + " %";
    }
    return out + "\n";
}

} // namespace ridgepoint
