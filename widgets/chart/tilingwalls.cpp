#include "widgets/chart/tilingwalls.h"
#include "widgets/qtext.h"

#include "core/analysis/io_bounds.h"
#include "core/model/units.h"
#include "core/workloads/planned_workload.h"
#include "widgets/chart/chartdecorations.h"
#include "widgets/document/document.h"

#include <algorithm>
#include <set>
#include <variant>

namespace ridgepoint::chart {

std::vector<WallSpec> tilingWalls(const Document &document)
{
    const Hardware &hardware = document.hardware();
    if (hardware.limits.capacities.empty())
        return {};
    std::set<double> widths; // the narrowest operand of each planned matmul, in bytes
    const Workspace &workspace = document.workspace();
    for (std::size_t i = 0; i < workspace.pointCount(); ++i) {
        const Workload *planned = workspace.workload(i);
        const auto *matmul = planned ? std::get_if<MatmulWorkload>(&planned->model) : nullptr;
        if (!matmul)
            continue;
        const MatmulDtypes dtypes = matmulDtypes(matmul->spec.dtype, document.quantMode());
        widths.insert(std::min(
            { bytesPerElement(dtypes.x), bytesPerElement(dtypes.y), bytesPerElement(dtypes.z) }));
    }
    std::vector<WallSpec> out;
    for (const double width : widths) {
        for (const IoBound &bound : matmulIoBounds(hardware, width)) {
            if (!isMainMemory(bound.against))
                continue; // the chart's intensity is against main memory
            const MemoryCapacity &c = bound.capacity;
            out.push_back({ bound.maxIntensity,
                QObject::tr("%1 %2 tiling wall (%3-byte words)")
                    .arg(q(std::string(memoryLevelName(c.level))), q(capacityText(c.bytes)),
                        q(formatNumber(width))) });
        }
    }
    return out;
}

TilingWall::TilingWall(QCustomPlot *plot, const WallSpec &spec, const QColor &color)
    : m_plot(plot)
    , m_intensity(spec.intensity)
    , m_line(new QCPItemLine(plot))
    , m_label(new QCPItemText(plot))
{
    // From the bottom of the plot to its top at the wall's intensity, whatever the zoom.
    m_line->setLayer(kRoofLayer);
    for (QCPItemPosition *end : { m_line->start, m_line->end }) {
        end->setTypeX(QCPItemPosition::ptPlotCoords);
        end->setTypeY(QCPItemPosition::ptAxisRectRatio);
        end->setAxisRect(plot->axisRect());
    }
    m_line->start->setCoords(spec.intensity, 0.0);
    m_line->end->setCoords(spec.intensity, 1.0);
    m_line->setPen(QPen(color, 1.2, Qt::DotLine));
    m_line->setSelectable(false);

    // Read upwards along the line's left side, ending near the top of the plot.
    m_label->setLayer(kLabelLayer);
    m_label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    m_label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_label->position->setAxisRect(plot->axisRect());
    m_label->position->setCoords(spec.intensity, 0.04);
    m_label->setRotation(-90);
    m_label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_label->setText(spec.label);
    m_label->setColor(color);
    m_label->setSelectable(false);
}

QLineF TilingWall::pixelLine() const
{
    return chart::pixelLine(*m_line);
}

TilingWall::~TilingWall()
{
    removeItem(m_plot, m_line);
    removeItem(m_plot, m_label);
}

} // namespace ridgepoint::chart
