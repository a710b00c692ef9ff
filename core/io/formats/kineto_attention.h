// The attention shape of a profiler trace's point (docs/MODEL.md §12.1), read from its group,
// the operator with its tensor inputs as kineto_trace.cpp writes it:
// "aten::_scaled_dot_product_flash_attention(c10::BFloat16[1, 32, 8192, 128], ...)". Only the
// shapes are read: the operator's FLOPs and bytes stay those of kineto_ops (§11.5).
#pragma once

#include "core/analysis/io_bounds_attention.h"

#include <optional>
#include <string_view>

namespace ridgepoint::kineto {

// The shape of a forward attention operator's point (q, k, v its first three tensor inputs;
// [B, H, L, D] for scaled_dot_product_attention and its _scaled_dot_product_* kernels, [B, L, H,
// D] for _flash_attention_forward and _efficient_attention_forward); nullopt for any other
// operator, a backward pass, or shapes that do not fit. The group does not record is_causal, so
// the pairs and the K, V rows are a causal mask's (query i sees keys 0..i): the fewer, so the
// bound stays a lower bound whichever the kernel ran.
struct TraceAttention {
    AttentionShape shape;
    double keys = 0.0; // S, the key rows of each head (shape.nKv is min(S, L), a causal mask's)
    // 2·heads·L·S·(D + Dv): the FLOPs without a mask, the most the operator's point counts.
    double unmaskedFlops = 0.0;
};
std::optional<TraceAttention> attentionShapeOfGroup(std::string_view group);

} // namespace ridgepoint::kineto
