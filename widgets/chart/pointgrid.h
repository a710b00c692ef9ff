// The point layer's grids, on plain data: the decimation that hands a point graph at most one
// point per pixel cell of the view, and the hit index that finds the point under the mouse
// without scanning a million. Both work on log10 coordinates, taken once per data change.
#pragma once

#include <qcustomplot.h>

#include <QPointF>
#include <QRect>
#include <QVector>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace ridgepoint::chart {

// Pixel position along a log axis as an affine function of log10 of the coordinate, so binning
// a million points costs a multiply-add each.
struct LogToPixel {
    double log0 = 0.0;
    double pixel0 = 0.0;
    double slope = 0.0; // pixels per decade

    LogToPixel() = default;
    LogToPixel(double logOrigin, double pixelOrigin, double pixelsPerDecade);
    // The map of `axis` over [lower, upper] (its range, or the one a series was binned for).
    LogToPixel(const QCPAxis *axis, double lower, double upper);
    double operator()(double logValue) const { return pixel0 + (logValue - log0) * slope; }
    // The log10 coordinate at `pixel`.
    double inverse(double pixel) const { return log0 + (pixel - pixel0) / slope; }
    bool valid() const;
};

// The view a series is binned for: axis ranges and the axis rect in pixels.
struct ViewKey {
    double xLower = 0.0, xUpper = 0.0, yLower = 0.0, yUpper = 0.0;
    QRect rect;
    friend bool operator==(const ViewKey &, const ViewKey &) = default;
};

// A series' full data: chart coordinates and their log10.
struct SeriesPoints {
    QVector<double> x, y;
    std::vector<double> lx, ly;
    // Fills lx, ly from x, y.
    void takeLogs();
};

// The points of `points` a graph draws in `rect` (pixels) under the maps `toX`, `toY`: the first
// point of each occupied `cell`×`cell` pixel cell, cells aligned on the rect's corner and
// reaching `margin` pixels beyond it (markers there still show). Sorted by key, as QCPGraph wants
// them. Points off the chart (non-positive coordinates) or beyond the margin are left out.
// `occupied` is scratch, kept by the caller between calls.
QVector<QCPGraphData> decimate(const SeriesPoints &points, const QRect &rect, const LogToPixel &toX,
    const LogToPixel &toY, double cell, double margin, std::vector<std::uint8_t> &occupied);

// The nearest of the points offered to it within `radius` pixels of `position`; ties go to the
// lowest index. With `reach` (per point, pixels; the dots drawn larger than the pick circle, as
// when dot area follows time), a point is within reach up to max(radius, reach[i]) and the
// nearest is the one with the least distance relative to its reach: the mouse on the edge of a
// big dot picks it, on a small dot drawn over a big one the small one.
class NearestPoint
{
public:
    NearestPoint(QPointF position, double radius, const std::vector<float> *reach = nullptr,
        double largestReach = 0.0)
        : m_position(position)
        , m_radius(radius)
        , m_search(std::max(radius, largestReach))
        , m_reach(reach)
    { }
    void consider(std::size_t index, double px, double py);
    int best() const { return m_best; } // -1 when none was close enough
    QPointF position() const { return m_position; }
    // The search radius: the pick radius, or the largest reach when that is larger.
    double radius() const { return m_search; }

private:
    QPointF m_position;
    double m_radius;
    double m_search;
    const std::vector<float> *m_reach;
    double m_score = 1.0; // distance / reach of the best so far
    int m_best = -1;
};

// Every drawn dot (point, level) in a coarse grid over log10 coordinates, so a mouse position
// finds its point without scanning them all.
class HitIndex
{
public:
    // 12 bytes, held once (sorted into buckets in place). A float's 1e-7 of a decade is far
    // below a pixel at any zoom the axes allow.
    struct Entry {
        float lx, ly;
        std::uint32_t point;
    };

    // About four dots to a bucket on a uniform cloud, at most 1024×1024 buckets.
    void build(std::vector<Entry> dots);
    bool empty() const { return m_entries.empty(); }
    std::size_t size() const { return m_entries.size(); }
    // Offers `nearest` every dot within its radius (and some beyond) on the view mapped by
    // `toX`, `toY`, but those of point `skip`.
    void findNear(NearestPoint &nearest, const LogToPixel &toX, const LogToPixel &toY,
        std::optional<std::size_t> skip) const;

private:
    double m_lx0 = 0.0, m_ly0 = 0.0, m_lxStep = 1.0, m_lyStep = 1.0;
    int m_columns = 0, m_rows = 0;
    std::vector<std::uint32_t> m_start; // per bucket, into entries (CSR)
    std::vector<Entry> m_entries;
};

} // namespace ridgepoint::chart
