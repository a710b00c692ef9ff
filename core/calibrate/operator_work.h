// The model FLOPs and main-memory bytes of a measured operator, from the model's dimensions,
// the tokens and the tensor-parallel degree: the operators of core/workloads/llm.h's
// llmOperators for one rank's share of a layer (docs/MODEL.md "Calibration").
#pragma once

#include "core/calibrate/measured.h"
#include "core/model/expected.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace ridgepoint {

// A transformer layer's dimensions as Vidur's operator files give them.
struct LayerDims {
    std::int64_t heads = 0; // n_head
    std::int64_t kvHeads = 0; // n_kv_head
    std::int64_t hidden = 0; // n_embd
    std::int64_t ffn = 0; // n_expanded_embd
    std::int64_t vocab = 0; // vocab_size
    bool gated = true; // use_gated_mlp
    std::int64_t tokens = 0; // num_tokens
    std::int64_t tp = 1; // num_tensor_parallel_workers
};

struct OperatorWork {
    OperatorClass kind = OperatorClass::Elementwise;
    double flops = 0.0;
    double bytes = 0.0;
    std::int64_t m = 0, n = 0, k = 0; // GEMM shape, 0 otherwise
};

// The work of one of Vidur's operators (emb, input_layernorm, attn_pre_proj, attn_rope,
// attn_post_proj, post_attention_layernorm, mlp_up_proj, mlp_act, mlp_down_proj, add) in
// 16-bit types; an error for other names or dimensions tp does not divide.
ridgepoint::Expected<OperatorWork, std::string> vidurOperatorWork(
    const LayerDims &dims, std::string_view op);

} // namespace ridgepoint
