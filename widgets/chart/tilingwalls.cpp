#include "widgets/chart/tilingwalls.h"
#include "widgets/qtext.h"

#include "core/analysis/io_bounds.h"
#include "core/analysis/io_bounds_attention.h"
#include "core/io/formats/kineto_attention.h"
#include "core/model/units.h"
#include "core/workloads/llm_attention_io.h"
#include "core/workloads/planned_workload.h"
#include "widgets/chart/chartdecorations.h"
#include "widgets/document/document.h"

#include <algorithm>
#include <set>
#include <variant>

namespace ridgepoint::chart {
namespace {

// "L2 50 MiB attention wall (n 8192, d 128)": the level, its capacity and the shape it holds.
QString attentionLabel(const IoBound &bound, const AttentionShape &shape)
{
    const MemoryCapacity &c = bound.capacity;
    return QObject::tr("%1 %2 attention wall (n %3, d %4)")
        .arg(q(std::string(memoryLevelName(c.level))), q(capacityText(c.bytes)),
            q(formatNumber(shape.n)), q(formatNumber(shape.d)));
}

// The walls of a fused LLM step's attention (docs/MODEL.md §12.1): the step's score and value
// FLOPs over the least bytes both move, per capacity that bounds main memory.
void addLlmAttentionWalls(
    const Document &document, const LlmWorkload &llm, std::set<std::pair<double, QString>> &walls)
{
    const Hardware &hardware = document.hardware();
    const LlmSpec spec = llmSpecForMode(llm.spec, document.quantMode());
    const auto modelled = modelLlm(llm.model, spec, hardware);
    if (!modelled)
        return;
    const auto io = llmAttentionIo(llm.model, spec, hardware, *modelled);
    if (!io)
        return;
    double flops = 0.0;
    for (const auto &op : modelled->operators)
        flops += isAttentionIoOperator(op.point.name) ? op.point.flops : 0.0;
    for (const AttentionIoBound &a : io->bounds) {
        if (isMainMemory(a.bound.against) && a.minTrafficBytes > 0.0)
            walls.insert(
                { flops / (a.minTrafficBytes * io->layers), attentionLabel(a.bound, io->shape) });
    }
}

// The walls of a profiler trace's attention point at its shape: the FLOPs of the shape without
// a mask over the least bytes with one (the group does not say which ran), so the wall stands
// where neither could pass it.
void addTraceAttentionWalls(
    const Hardware &hardware, const KernelPoint &point, std::set<std::pair<double, QString>> &walls)
{
    const auto trace = kineto::attentionShapeOfGroup(point.group);
    if (!trace)
        return;
    for (const AttentionIoBound &a : attentionIoBounds(hardware, trace->shape)) {
        if (isMainMemory(a.bound.against) && a.minTrafficBytes > 0.0)
            walls.insert({ trace->unmaskedFlops / a.minTrafficBytes,
                attentionLabel(a.bound, trace->shape) });
    }
}

} // namespace

std::vector<WallSpec> tilingWalls(const Document &document)
{
    const Hardware &hardware = document.hardware();
    if (hardware.limits.capacities.empty())
        return {};
    std::set<double> widths; // the narrowest operand of each planned matmul, in bytes
    std::set<std::pair<double, QString>> attention; // attention walls, by intensity
    std::set<const LlmWorkload *> llmSteps;
    const Workspace &workspace = document.workspace();
    for (std::size_t i = 0; i < workspace.pointCount(); ++i) {
        const Workload *planned = workspace.workload(i);
        if (!planned) {
            // A trace's attention kernel: its group names the operator ("aten::…attention…(").
            const std::string &group = workspace.measuredPoint(i).group;
            if (group.find("attention") != std::string::npos)
                addTraceAttentionWalls(hardware, workspace.measuredPoint(i), attention);
            continue;
        }
        const auto *llm = std::get_if<LlmWorkload>(&planned->model);
        if (llm && isAttentionIoOperator(llm->operatorKind) && llmSteps.insert(llm).second)
            addLlmAttentionWalls(document, *llm, attention);
        const auto *matmul = std::get_if<MatmulWorkload>(&planned->model);
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
    // A trace with many attention shapes would fence the chart: the first few, left to right.
    constexpr std::size_t kMostAttentionWalls = 4;
    for (const auto &[intensity, label] : attention) {
        if (out.size() >= kMostAttentionWalls + widths.size() * hardware.limits.capacities.size())
            break;
        out.push_back({ intensity, label });
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
