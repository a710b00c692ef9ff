#include "widgets/chart/geometry/legendgrid.h"

#include <algorithm>

namespace ridgepoint::chart {

QSize legendSize(const LegendGrid &grid, int rows)
{
    const int count = static_cast<int>(grid.entries.size());
    rows = std::clamp(rows, 1, std::max(1, count));
    const int columns = (count + rows - 1) / rows;
    std::vector<int> widths(static_cast<std::size_t>(columns), 0);
    std::vector<int> heights(static_cast<std::size_t>(std::min(rows, count)), 0);
    for (int i = 0; i < count; ++i) {
        const QSize &entry = grid.entries[static_cast<std::size_t>(i)];
        int &width = widths[static_cast<std::size_t>(i / rows)];
        int &height = heights[static_cast<std::size_t>(i % rows)];
        width = std::max(width, entry.width());
        height = std::max(height, entry.height());
    }
    QSize size(
        grid.margins.left() + grid.margins.right(), grid.margins.top() + grid.margins.bottom());
    for (const int width : widths)
        size.rwidth() += width;
    for (const int height : heights)
        size.rheight() += height;
    size.rwidth() += std::max(0, static_cast<int>(widths.size()) - 1) * grid.spacing.width();
    size.rheight() += std::max(0, static_cast<int>(heights.size()) - 1) * grid.spacing.height();
    return size;
}

namespace {

// The most columns `width` could hold: each at least as wide as the narrowest entry. A bound
// that keeps the search below a few layouts of the grid with thousands of groups.
int mostColumns(const LegendGrid &grid, int width)
{
    int narrowest = grid.entries.empty() ? 1 : grid.entries.front().width();
    for (const QSize &entry : grid.entries)
        narrowest = std::min(narrowest, entry.width());
    const int room = width - grid.margins.left() - grid.margins.right() + grid.spacing.width();
    return std::max(1, room / std::max(1, narrowest + grid.spacing.width()));
}

} // namespace

int stripRows(const LegendGrid &grid, int width)
{
    const int count = static_cast<int>(grid.entries.size());
    const int columns = std::min(std::max(1, count), mostColumns(grid, width));
    for (int rows = (count + columns - 1) / columns; rows < count; ++rows) {
        if (legendSize(grid, std::max(1, rows)).width() <= width)
            return std::max(1, rows);
    }
    return std::max(1, count);
}

std::optional<int> cornerRows(const LegendGrid &grid, QSize room)
{
    // One column, then two, …: each as high as its share of the entries (8 in two columns are
    // 4 rows, not 7 and 1).
    const int count = std::max(1, static_cast<int>(grid.entries.size()));
    const int most = std::min(count, mostColumns(grid, room.width()));
    for (int columns = 1; columns <= most; ++columns) {
        const int rows = (count + columns - 1) / columns;
        const QSize size = legendSize(grid, rows);
        if (size.width() <= room.width() && size.height() <= room.height())
            return rows;
    }
    return std::nullopt;
}

} // namespace ridgepoint::chart
