#include "core/workloads/planned_workload.h"

#include "core/workloads/llm_attention_io.h"
#include "core/workloads/quant_modes.h"

#include <algorithm>

namespace ridgepoint {
namespace {

bool isInteger(Precision p)
{
    return p == Precision::INT8 || p == Precision::INT4;
}

ridgepoint::Expected<KernelPoint, std::string> matmulPoint(
    const MatmulWorkload &w, QuantMode mode, const Hardware &hardware)
{
    MatmulSpec spec = w.spec;
    spec.quant = mode;
    auto result = modelMatmul(spec, hardware, {}, w.tile, w.shards);
    if (!result)
        return ridgepoint::Unexpected(result.error());
    return std::move(result->point);
}

ridgepoint::Expected<KernelPoint, std::string> llmPoint(
    const LlmWorkload &w, QuantMode mode, const Hardware &hardware)
{
    auto result = modelLlm(w.model, llmSpecForMode(w.spec, mode), hardware);
    if (!result)
        return ridgepoint::Unexpected(result.error());
    if (w.operatorKind.empty())
        return std::move(result->total.point);
    const auto op = std::find_if(result->operators.begin(), result->operators.end(),
        [&](const AnalyzedPoint &p) { return p.point.name == w.operatorKind; });
    if (op == result->operators.end())
        return ridgepoint::Unexpected(w.model.name + " has no operator \"" + w.operatorKind + "\"");
    return std::move(op->point);
}

} // namespace

LlmSpec llmSpecForMode(LlmSpec spec, QuantMode mode)
{
    if (mode == QuantMode::None)
        return spec;
    const QuantModeInfo &info = quantModeInfo(mode);
    // A weight-only mode keeps the workload's float activations (bf16 for integer ones).
    const Precision floatActivations
        = isInteger(spec.activations) ? Precision::BF16 : spec.activations;
    spec.weights = info.weights.value_or(spec.weights);
    spec.activations = info.activations.value_or(floatActivations);
    // The bytes of `llm --precision` for the same word: w4a16's fp16 scale per group of 128
    // weights counts here too (0.516 B a weight, not 0.5), and an 8-bit mode has no scales.
    const std::string_view word = info.alias.empty() ? info.name : info.alias;
    const auto &modes = llmPrecisionModes();
    const auto same = std::find_if(
        modes.begin(), modes.end(), [&](const LlmPrecisionMode &m) { return m.name == word; });
    spec.scaleBlock = same != modes.end() ? same->scaleBlock : 0;
    spec.scaleBytes = same != modes.end() ? same->scaleBytes : 0.0;
    return spec;
}

// A fused attention operator of an LLM step moved to `moved`: both operators' bytes against the
// attention bound at the step's shape (docs/MODEL.md §12.1).
std::optional<IoBoundExcess> llmIoExcess(
    const LlmWorkload &w, QuantMode mode, const Hardware &hardware, const KernelPoint &moved)
{
    if (!isAttentionIoOperator(w.operatorKind) || moved.bytes.empty())
        return std::nullopt;
    const LlmSpec spec = llmSpecForMode(w.spec, mode);
    const auto modelled = modelLlm(w.model, spec, hardware);
    if (!modelled)
        return std::nullopt;
    const auto io = llmAttentionIo(w.model, spec, hardware, *modelled);
    if (!io)
        return std::nullopt;
    return llmAttentionExcess(*io, w.operatorKind, moved.bytes.front().bytes);
}

std::optional<IoBoundExcess> workloadIoExcess(
    const Workload &workload, QuantMode mode, const Hardware &hardware, const KernelPoint &moved)
{
    if (const auto *llm = std::get_if<LlmWorkload>(&workload.model))
        return llmIoExcess(*llm, mode, hardware, moved);
    const auto *matmul = std::get_if<MatmulWorkload>(&workload.model);
    if (!matmul)
        return std::nullopt;
    MatmulSpec spec = matmul->spec;
    spec.quant = mode;
    const auto modelled = modelMatmul(spec, hardware, {}, matmul->tile, matmul->shards);
    if (!modelled || modelled->ioBounds.empty() || modelled->point.bytes.empty()
        || moved.bytes.empty() || !modelled->point.bytes.front().level)
        return std::nullopt;
    // The matmul's own bytes come first (the network's after them when sharded); a what-if
    // scales every level alike, so the moved point's first entry is the same traffic.
    const double d = static_cast<double>(spec.d) / static_cast<double>(modelled->chips);
    const MatmulShape shape { static_cast<double>(spec.b), static_cast<double>(spec.f), d,
        modelled->ioWordBytes };
    return beyondIoBound(
        shape, modelled->ioBounds, *modelled->point.bytes.front().level, moved.bytes.front().bytes);
}

ridgepoint::Expected<KernelPoint, std::string> workloadPoint(
    const Workload &workload, QuantMode mode, const Hardware &hardware)
{
    auto point = std::visit(
        [&](const auto &w) -> ridgepoint::Expected<KernelPoint, std::string> {
            if constexpr (std::is_same_v<std::decay_t<decltype(w)>, MatmulWorkload>)
                return matmulPoint(w, mode, hardware);
            else
                return llmPoint(w, mode, hardware);
        },
        workload.model);
    if (!point)
        return point;
    // The group names the mode the point is placed under, so a table row, a legend entry and
    // an exported picture say "matmul … · w8a16"; measured points never pass here.
    point->group = quantizedGroup(workload.group.empty() ? point->group : workload.group, mode);
    if (workload.sweep && std::holds_alternative<LlmWorkload>(workload.model))
        point->name += " (" + workload.sweep->parameter + "="
            + std::to_string(static_cast<std::int64_t>(workload.sweep->value)) + ")";
    return point;
}

bool hasOwnMachine(const Workload &workload)
{
    const auto *matmul = std::get_if<MatmulWorkload>(&workload.model);
    return matmul && matmul->shards;
}

Hardware workloadMachine(const Workload &workload, const Hardware &hardware)
{
    const auto *matmul = std::get_if<MatmulWorkload>(&workload.model);
    if (!matmul || !matmul->shards)
        return hardware;
    auto machine = shardedMachine(hardware, *matmul->shards);
    if (!machine)
        return hardware;
    return std::move(*machine);
}

bool setWorkloadParameter(Workload &workload, const std::string &name, std::int64_t value)
{
    if (auto *m = std::get_if<MatmulWorkload>(&workload.model)) {
        if (name == "b")
            m->spec.b = value;
        else if (name == "d")
            m->spec.d = value;
        else if (name == "f")
            m->spec.f = value;
        else if (name == "shards" && m->shards)
            m->shards->chips = value;
        else if (name == "tile" && m->tile)
            m->tile = TileSpec { value, value, value };
        else
            return false;
        return true;
    }
    auto &l = std::get<LlmWorkload>(workload.model);
    if (name == "seq")
        l.spec.seq = value;
    else if (name == "batch")
        l.spec.batch = value;
    else
        return false;
    return true;
}

} // namespace ridgepoint
