// Vidur's operators mapped onto the LLM operators of core/workloads/llm_operators.cpp, so a
// measured row and a planned `llm` step count FLOPs and bytes the same way.
#include "core/calibrate/operator_work.h"

#include "core/workloads/llm.h"

#include <algorithm>
#include <array>

namespace ridgepoint {
namespace {

struct VidurOperator {
    std::string_view name;
    std::string_view kind; // llmOperators's kind; the second of a fused pair after it
    std::string_view fusedWith;
    OperatorClass cls;
};

constexpr std::array kVidurOperators {
    VidurOperator { "emb", "embedding", "", OperatorClass::Elementwise },
    VidurOperator { "input_layernorm", "attention norm", "", OperatorClass::Elementwise },
    VidurOperator { "attn_pre_proj", "QKV projection", "", OperatorClass::Gemm },
    VidurOperator { "attn_rope", "rotary embedding", "", OperatorClass::Elementwise },
    VidurOperator { "attn_post_proj", "output projection", "", OperatorClass::Gemm },
    VidurOperator { "post_attention_layernorm", "FFN norm", "", OperatorClass::Elementwise },
    VidurOperator { "mlp_up_proj", "FFN up", "FFN gate", OperatorClass::Gemm },
    VidurOperator { "mlp_act", "FFN activation", "", OperatorClass::Elementwise },
    VidurOperator { "mlp_down_proj", "FFN down", "", OperatorClass::Gemm },
    VidurOperator { "add", "attention residual", "", OperatorClass::Elementwise },
};

const LlmOperator *findKind(const std::vector<LlmOperator> &ops, std::string_view kind)
{
    const auto it = std::find_if(
        ops.begin(), ops.end(), [&](const LlmOperator &o) { return o.kind == kind; });
    return it == ops.end() ? nullptr : &*it;
}

// One rank's share of a layer as a model of its own: heads and FFN width divided by tp.
ridgepoint::Expected<ModelConfig, std::string> rankModel(const LayerDims &dims)
{
    if (dims.heads < 1 || dims.kvHeads < 1 || dims.hidden < 1 || dims.ffn < 1 || dims.tokens < 1
        || dims.tp < 1)
        return ridgepoint::Unexpected(
            std::string("n_head, n_kv_head, n_embd, n_expanded_embd, num_tokens and "
                        "num_tensor_parallel_workers must be positive integers"));
    if (dims.hidden % dims.heads != 0)
        return ridgepoint::Unexpected("n_embd " + std::to_string(dims.hidden)
            + " is not a multiple of n_head " + std::to_string(dims.heads));
    if (dims.heads % dims.tp != 0 || dims.kvHeads % dims.tp != 0 || dims.ffn % dims.tp != 0)
        return ridgepoint::Unexpected("tensor-parallel degree " + std::to_string(dims.tp)
            + " does not divide n_head, n_kv_head and n_expanded_embd ("
            + std::to_string(dims.heads) + ", " + std::to_string(dims.kvHeads) + ", "
            + std::to_string(dims.ffn) + ")");
    ModelConfig model;
    model.name = "measured layer";
    model.hiddenSize = dims.hidden;
    model.layers = 1;
    model.heads = dims.heads / dims.tp;
    model.kvHeads = dims.kvHeads / dims.tp;
    model.headDim = dims.hidden / dims.heads;
    model.ffnSize = dims.ffn / dims.tp;
    model.vocabSize = std::max<std::int64_t>(dims.vocab, 1);
    model.gatedFfn = dims.gated;
    return model;
}

// M×K by K×N of each GEMM for one rank.
void setGemmShape(OperatorWork &work, const LayerDims &dims, std::string_view op)
{
    const std::int64_t hd = dims.hidden / dims.heads;
    const std::int64_t q = dims.heads / dims.tp * hd;
    const std::int64_t kv = dims.kvHeads / dims.tp * hd;
    const std::int64_t ffn = dims.ffn / dims.tp;
    work.m = dims.tokens;
    if (op == "attn_pre_proj") {
        work.k = dims.hidden;
        work.n = q + 2 * kv;
    } else if (op == "attn_post_proj") {
        work.k = q;
        work.n = dims.hidden;
    } else if (op == "mlp_up_proj") {
        work.k = dims.hidden;
        work.n = (dims.gated ? 2 : 1) * ffn;
    } else {
        work.k = ffn;
        work.n = dims.hidden;
    }
}

} // namespace

ridgepoint::Expected<OperatorWork, std::string> vidurOperatorWork(
    const LayerDims &dims, std::string_view op)
{
    const auto known = std::find_if(kVidurOperators.begin(), kVidurOperators.end(),
        [&](const VidurOperator &v) { return v.name == op; });
    if (known == kVidurOperators.end())
        return ridgepoint::Unexpected("no model of operator \"" + std::string(op)
            + "\"'s FLOPs and bytes (known: emb, input_layernorm, attn_pre_proj, attn_rope, "
              "attn_post_proj, post_attention_layernorm, mlp_up_proj, mlp_act, mlp_down_proj, "
              "add)");
    auto model = rankModel(dims);
    if (!model)
        return ridgepoint::Unexpected(model.error());
    LlmSpec spec;
    spec.phase = LlmPhase::Prefill;
    spec.seq = dims.tokens;
    spec.fusedAttention = true;
    auto ops = llmOperators(*model, spec);
    if (!ops)
        return ridgepoint::Unexpected(ops.error());
    const LlmOperator *first = findKind(*ops, known->kind);
    if (!first)
        return ridgepoint::Unexpected("no \"" + std::string(known->kind) + "\" operator");
    OperatorWork work;
    work.kind = known->cls;
    work.flops = first->flopsPerLayer;
    work.bytes = first->bytesPerLayer;
    // A fused up and gate projection reads its input once (llmOperators counts it for each).
    if (!known->fusedWith.empty() && dims.gated) {
        if (const LlmOperator *second = findKind(*ops, known->fusedWith)) {
            const double input
                = static_cast<double>(dims.tokens * dims.hidden) * llmActivationBytes(spec);
            work.flops += second->flopsPerLayer;
            work.bytes += second->bytesPerLayer - input;
        }
    }
    if (work.kind == OperatorClass::Gemm)
        setGemmShape(work, dims, op);
    return work;
}

} // namespace ridgepoint
