#include "core/workloads/llm_attention_io.h"

#include "core/workloads/llm_parallel.h"
#include "core/workloads/workloads.h"

#include <algorithm>

namespace ridgepoint {
namespace {

double toDouble(std::int64_t value)
{
    return static_cast<double>(value);
}

const AnalyzedPoint *findOperator(const LlmResult &r, std::string_view kind)
{
    const auto it = std::find_if(r.operators.begin(), r.operators.end(),
        [&](const AnalyzedPoint &p) { return p.point.name == kind; });
    return it == r.operators.end() ? nullptr : &*it;
}

} // namespace

bool isAttentionIoOperator(std::string_view kind)
{
    return kind == "attention score" || kind == "attention value";
}

std::optional<LlmAttentionIo> llmAttentionIo(
    const ModelConfig &model, const LlmSpec &spec, const Hardware &hardware, const LlmResult &r)
{
    if (!spec.fusedAttention || model.kvCacheDim > 0 || hardware.limits.capacities.empty())
        return std::nullopt;
    const AnalyzedPoint *score = findOperator(r, "attention score");
    const AnalyzedPoint *value = findOperator(r, "attention value");
    if (!score || !value || score->point.bytes.empty() || value->point.bytes.empty())
        return std::nullopt;
    LlmAttentionIo io;
    // Per chip as llm_parallel.cpp divides it: the query heads over tp, the KV heads over
    // min(tp, kv heads) (replicated once tp exceeds them); the stage's layers under pp.
    const double kvSplit = toDouble(std::min(spec.tp, std::max<std::int64_t>(1, model.kvHeads)));
    const double batch = toDouble(spec.batch);
    const double seq = toDouble(spec.seq);
    const bool prefill = spec.phase == LlmPhase::Prefill;
    AttentionShape &s = io.shape;
    s.heads = batch * toDouble(model.heads) / toDouble(spec.tp);
    s.kvHeads = batch * toDouble(model.kvHeads) / kvSplit;
    s.n = prefill ? seq : 1.0;
    s.nKv = seq;
    // The step's queries are the last n of its context, as §8 counts them.
    s.pairs = prefill ? seq * (seq + 1.0) / 2.0 : seq;
    s.d = toDouble(model.headDim);
    s.dv = s.d;
    s.qWordBytes = llmActivationBytes(spec);
    s.kvWordBytes = bytesPerElement(spec.kv);
    io.layers = toDouble((model.layers + spec.pp - 1) / spec.pp);
    io.bounds = attentionIoBounds(hardware, s);
    io.scoreBytes = score->point.bytes.front().bytes;
    io.valueBytes = value->point.bytes.front().bytes;
    return io;
}

std::optional<IoBoundExcess> llmAttentionExcess(
    const LlmAttentionIo &io, std::string_view movedKind, double movedBytes)
{
    if (!isAttentionIoOperator(movedKind) || !(io.layers > 0.0))
        return std::nullopt;
    const double other = movedKind == "attention score" ? io.valueBytes : io.scoreBytes;
    // Every layer is its own kernel held to the bound, so the layers' mean is too.
    auto excess = beyondAttentionIoBound(
        io.shape, io.bounds, MemoryLevel::HBM, (movedBytes + other) / io.layers);
    if (excess) {
        excess->trafficBytes *= io.layers;
        excess->minTrafficBytes *= io.layers;
        excess->compulsoryBytes *= io.layers;
    }
    return excess;
}

} // namespace ridgepoint
