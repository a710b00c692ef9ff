// Many points as a density: above a threshold the chart bins every point's dots into a grid that
// is uniform in log intensity × log performance (the axes' own log scale, so the cells are equal
// squares on screen) and draws the counts as one cached image (a QCPColorMap) with a colour scale
// on a log axis; only the points that matter stay dots on top (pointsAsDots: the top N by
// measured time, the selection, moved points). Owned by RooflinePlot beside the PointLayer.
#pragma once

#include <qcustomplot.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgepoint {

class Document;
struct ChartTheme;

namespace chart {

// How the points are drawn: Auto is density above the threshold, dots below.
enum class PointsMode { Auto, Density, Dots };
inline constexpr std::size_t kDefaultDensityThreshold = 5000;
// The kernels drawn as dots over the density (besides the selection and moved points).
inline constexpr std::size_t kDensityTopDots = 50;
// At most this many cells of the density grid across the data's extent.
inline constexpr int kDensityBinsX = 600;
inline constexpr int kDensityBinsY = 600;

// "auto", "density", "dots" (sessions, settings, `render --points`).
const char *pointsModeKey(PointsMode mode);
std::optional<PointsMode> pointsModeFromKey(std::string_view key);
// Whether `count` points in `mode` are drawn as a density.
bool densityFor(PointsMode mode, std::size_t count, std::size_t threshold);

// The indices of the `n` points with the longest measured time (core/analysis/payoff.h
// pointSeconds), longest first, ties by index; points without a time are left out.
std::vector<std::size_t> longestPoints(const Document &document, std::size_t n);
// The same from each point's measured time (dotsize.h measuredSeconds), nullopt for none.
std::vector<std::size_t> longestPoints(
    const std::vector<std::optional<double>> &seconds, std::size_t n);

// Counts of (log10 x, log10 y) pairs in an nx × ny grid spanning their extent (a zero span is
// widened by half a decade each way). Cell (i, j) covers [x0 + i·dx, x0 + (i+1)·dx) and the same
// in y; the last cell is closed.
struct DensityGrid {
    int nx = 0;
    int ny = 0;
    double x0 = 0.0, x1 = 0.0; // log10 extent
    double y0 = 0.0, y1 = 0.0;
    std::vector<std::uint32_t> counts; // row-major by y: counts[j * nx + i]
    std::uint32_t max = 0;
    std::uint32_t at(int i, int j) const
    {
        return counts[static_cast<std::size_t>(j) * static_cast<std::size_t>(nx)
            + static_cast<std::size_t>(i)];
    }
};
// With `cellDecades` > 0 the cells are that many decades wide instead (nx, ny at most).
DensityGrid binLogDensity(const std::vector<std::pair<float, float>> &logPoints, int nx, int ny,
    double cellDecades = 0.0);
// The chart's cells: a fortieth of a decade (a few pixels at a usual size).
inline constexpr double kDensityCellDecades = 0.025;
// How many non-empty cells of `grid` meet the log10 box [lx0, lx1] × [ly0, ly1] (in any order):
// what a roof label or the legend would cover there.
int occupiedCells(const DensityGrid &grid, double lx0, double lx1, double ly0, double ly1);

class DensityLayer
{
public:
    explicit DensityLayer(QCustomPlot *plot);
    ~DensityLayer();
    DensityLayer(const DensityLayer &) = delete;
    DensityLayer &operator=(const DensityLayer &) = delete;

    // Bins every point of the document (all its level dots) and draws the grid with its colour
    // scale; the image is made once here and only scaled by a replot.
    void rebuild(const Document &document, const ChartTheme &theme);
    // Removes the map and the colour scale.
    void clear();
    bool active() const { return m_map != nullptr; }
    QCPColorMap *map() const { return m_map; }
    QCPColorScale *colorScale() const { return m_scale; }
    const DensityGrid &grid() const { return m_grid; }
    // The non-empty cells under a box of widget pixels in the current view; 0 when inactive.
    int occupiedIn(const QRectF &box) const;
    // Counts the grids made (each clear() and rebuild()): occupiedIn() answers the same for the
    // same view while this stays (the roofs' labels are placed again only when it changes).
    std::uint64_t revision() const { return m_revision; }

private:
    QCustomPlot *m_plot;
    QCPColorMap *m_map = nullptr;
    QCPColorScale *m_scale = nullptr;
    QCPMarginGroup *m_margins = nullptr;
    DensityGrid m_grid;
    std::uint64_t m_revision = 0;
};

} // namespace chart

} // namespace ridgepoint
