#include "widgets/chart/pointgrid.h"

#include <algorithm>
#include <cmath>

namespace ridgepoint::chart {

LogToPixel::LogToPixel(double logOrigin, double pixelOrigin, double pixelsPerDecade)
    : log0(logOrigin)
    , pixel0(pixelOrigin)
    , slope(pixelsPerDecade)
{ }

LogToPixel::LogToPixel(const QCPAxis *axis, double lower, double upper)
{
    log0 = std::log10(lower);
    pixel0 = axis->coordToPixel(lower);
    slope = (axis->coordToPixel(upper) - pixel0) / (std::log10(upper) - log0);
}

bool LogToPixel::valid() const
{
    return std::isfinite(log0) && std::isfinite(slope) && slope != 0.0;
}

void SeriesPoints::takeLogs()
{
    lx.resize(static_cast<std::size_t>(x.size()));
    ly.resize(static_cast<std::size_t>(y.size()));
    for (qsizetype k = 0; k < x.size(); ++k) {
        lx[k] = std::log10(x[k]);
        ly[k] = std::log10(y[k]);
    }
}

QVector<QCPGraphData> decimate(const SeriesPoints &points, const QRect &r, const LogToPixel &toX,
    const LogToPixel &toY, double cell, double margin, std::vector<std::uint8_t> &occupied)
{
    QVector<QCPGraphData> kept;
    if (r.width() <= 0 || r.height() <= 0 || !toX.valid() || !toY.valid())
        return kept;
    // Cells aligned on the axis rect's corner; markers within `margin` outside it still show.
    const int pad = static_cast<int>(std::ceil(margin / cell));
    const int columns = static_cast<int>(std::ceil(r.width() / cell)) + 2 * pad;
    const int rows = static_cast<int>(std::ceil(r.height() / cell)) + 2 * pad;
    const double left = r.left() - pad * cell;
    const double top = r.top() - pad * cell;
    occupied.assign(static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows), 0);
    // Cell column and row as one multiply-add of the logarithm each.
    const double ax = (toX.pixel0 - toX.log0 * toX.slope - left) / cell;
    const double bx = toX.slope / cell;
    const double ay = (toY.pixel0 - toY.log0 * toY.slope - top) / cell;
    const double by = toY.slope / cell;
    // Kept points bucketed by column: QCustomPlot wants them sorted by key, and a column's
    // points only need sorting among themselves.
    std::vector<std::uint32_t> columnOf;
    std::vector<std::uint32_t> keptIndex;
    std::vector<std::uint32_t> perColumn(static_cast<std::size_t>(columns) + 1, 0);
    const auto count = static_cast<std::size_t>(points.x.size());
    for (std::size_t k = 0; k < count; ++k) {
        const double cx = ax + bx * points.lx[k];
        const double cy = ay + by * points.ly[k];
        // Written so NaN (a non-positive coordinate) fails too; truncation is floor here.
        if (!(cx >= 0.0 && cx < columns && cy >= 0.0 && cy < rows))
            continue;
        const auto column = static_cast<std::uint32_t>(cx);
        const std::size_t at = column + static_cast<std::size_t>(cy) * columns;
        if (occupied[at])
            continue;
        occupied[at] = 1;
        columnOf.push_back(column);
        keptIndex.push_back(static_cast<std::uint32_t>(k));
        ++perColumn[column + 1];
    }
    for (std::size_t c = 1; c < perColumn.size(); ++c)
        perColumn[c] += perColumn[c - 1];
    kept.resize(static_cast<qsizetype>(keptIndex.size()));
    std::vector<std::uint32_t> fill(perColumn.begin(), perColumn.end() - 1);
    for (std::size_t j = 0; j < keptIndex.size(); ++j) {
        const std::uint32_t k = keptIndex[j];
        kept[fill[columnOf[j]]++] = QCPGraphData(points.x[k], points.y[k]);
    }
    const auto byKey = [](const QCPGraphData &a, const QCPGraphData &b) { return a.key < b.key; };
    if (bx > 0.0) {
        for (std::size_t c = 0; c + 1 < perColumn.size(); ++c)
            std::sort(kept.begin() + perColumn[c], kept.begin() + perColumn[c + 1], byKey);
    } else { // a reversed axis: columns run against the key
        std::sort(kept.begin(), kept.end(), byKey);
    }
    return kept;
}

void NearestPoint::consider(std::size_t i, double px, double py)
{
    const double d = std::hypot(px - m_position.x(), py - m_position.y());
    double reach = m_radius;
    if (m_reach && i < m_reach->size())
        reach = std::max(reach, static_cast<double>((*m_reach)[i]));
    if (!(reach > 0.0))
        return;
    const double score = d / reach;
    if (score < m_score || (score == m_score && m_best >= 0 && static_cast<int>(i) < m_best)) {
        m_score = score;
        m_best = static_cast<int>(i);
    }
}

void HitIndex::build(std::vector<Entry> dots)
{
    *this = {};
    if (dots.empty())
        return;
    // The bounds of the stored (rounded) values, so that none falls outside them.
    double lxLow = 1e300, lxHigh = -1e300, lyLow = 1e300, lyHigh = -1e300;
    for (const Entry &dot : dots) {
        lxLow = std::min<double>(lxLow, dot.lx);
        lxHigh = std::max<double>(lxHigh, dot.lx);
        lyLow = std::min<double>(lyLow, dot.ly);
        lyHigh = std::max<double>(lyHigh, dot.ly);
    }
    // About four dots per bucket on a uniform cloud.
    const int side
        = std::clamp(static_cast<int>(std::sqrt(static_cast<double>(dots.size()) / 4.0)), 1, 1024);
    m_columns = side;
    m_rows = side;
    m_lx0 = lxLow;
    m_ly0 = lyLow;
    m_lxStep = std::max((lxHigh - lxLow) / side, 1e-12);
    m_lyStep = std::max((lyHigh - lyLow) / side, 1e-12);
    const auto bucket = [this](const Entry &e) {
        const int c = std::min(static_cast<int>((e.lx - m_lx0) / m_lxStep), m_columns - 1);
        const int r = std::min(static_cast<int>((e.ly - m_ly0) / m_lyStep), m_rows - 1);
        return static_cast<std::size_t>(r) * m_columns + static_cast<std::size_t>(c);
    };
    m_start.assign(static_cast<std::size_t>(side) * side + 1, 0);
    for (const auto &e : dots)
        ++m_start[bucket(e) + 1];
    for (std::size_t b = 1; b < m_start.size(); ++b)
        m_start[b] += m_start[b - 1];
    // Each dot moved into its bucket's range in place, following the cycles of the permutation
    // (an American flag sort), so the dots are never held twice. Not stable: the order inside
    // a bucket does not matter, since NearestPoint gives ties to the lowest index.
    std::vector<std::uint32_t> next(m_start.begin(), m_start.end() - 1);
    for (std::size_t b = 0; b < next.size(); ++b) {
        while (next[b] < m_start[b + 1]) {
            Entry moving = dots[next[b]];
            for (std::size_t home = bucket(moving); home != b; home = bucket(moving))
                std::swap(moving, dots[next[home]++]);
            dots[next[b]++] = moving;
        }
    }
    m_entries = std::move(dots);
}

void HitIndex::findNear(NearestPoint &nearest, const LogToPixel &toX, const LogToPixel &toY,
    std::optional<std::size_t> skip) const
{
    if (m_entries.empty() || !toX.valid() || !toY.valid())
        return;
    // The pick circle's bounding box in log10 coordinates, then the buckets it touches.
    const double radius = nearest.radius();
    const auto span = [radius](const LogToPixel &map, double pixel) {
        const double a = map.inverse(pixel - radius);
        const double b = map.inverse(pixel + radius);
        return std::pair(std::min(a, b), std::max(a, b));
    };
    const auto [lxLow, lxHigh] = span(toX, nearest.position().x());
    const auto [lyLow, lyHigh] = span(toY, nearest.position().y());
    const auto cells = [](double low, double high, double origin, double step, int count) {
        const double first = std::floor((low - origin) / step);
        const double last = std::floor((high - origin) / step);
        return std::pair(static_cast<int>(std::clamp(first, 0.0, count - 1.0)),
            static_cast<int>(std::clamp(last, 0.0, count - 1.0)));
    };
    const auto [c0, c1] = cells(lxLow, lxHigh, m_lx0, m_lxStep, m_columns);
    const auto [r0, r1] = cells(lyLow, lyHigh, m_ly0, m_lyStep, m_rows);
    for (int r = r0; r <= r1; ++r) {
        for (int c = c0; c <= c1; ++c) {
            const std::size_t b = static_cast<std::size_t>(r) * m_columns + c;
            for (std::uint32_t e = m_start[b]; e < m_start[b + 1]; ++e) {
                const Entry &entry = m_entries[e];
                if (skip && entry.point == *skip)
                    continue;
                nearest.consider(entry.point, toX(entry.lx), toY(entry.ly));
            }
        }
    }
}

} // namespace ridgepoint::chart
