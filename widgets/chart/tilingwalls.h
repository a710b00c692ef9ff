// The tiling walls of matmul points (docs/MODEL.md §12) and the attention walls of attention
// points (§12.1): at each on-chip capacity's I/O bound against main memory, a dotted vertical
// line labelled with the level and the capacity. A machine without capacities, or a chart
// without planned matmuls or attention points, has none. Internal to the
// chart; owned by RoofLayer.
#pragma once

#include <qcustomplot.h>

#include <QLineF>
#include <QString>

#include <vector>

namespace ridgepoint {

class Document;

namespace chart {

struct WallSpec {
    double intensity = 0.0; // √(C/w) / w, FLOP/B
    QString label; // "L2 50 MiB tiling wall (2-byte words)"
};

// The walls the document's planned matmuls meet on its machine: one per capacity that bounds
// main memory and per operand width among those matmuls, in the machine's order; then the
// attention walls (MODEL.md §12.1) of its fused LLM attention operators and of a trace's
// attention kernels, at their shapes (a few at most).
std::vector<WallSpec> tilingWalls(const Document &document);

// One wall: its line on the roof layer and its label on the label layer, removed with it.
class TilingWall
{
public:
    TilingWall(QCustomPlot *plot, const WallSpec &spec, const QColor &color);
    ~TilingWall();
    TilingWall(const TilingWall &) = delete;
    TilingWall &operator=(const TilingWall &) = delete;

    double intensity() const { return m_intensity; }
    QCPItemText *label() const { return m_label; }
    // Its line in widget pixels for the current axes.
    QLineF pixelLine() const;

private:
    QCustomPlot *m_plot;
    double m_intensity;
    QCPItemLine *m_line;
    QCPItemText *m_label;
};

} // namespace chart

} // namespace ridgepoint
