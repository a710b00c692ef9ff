// The I/O lower bound of an LLM step's fused attention (docs/MODEL.md §12.1): the "attention
// score" and "attention value" operators of a flash-style step are one kernel per layer, whose
// bytes together are held to attentionMinTraffic at the step's shape, per chip.
#pragma once

#include "core/analysis/io_bounds_attention.h"
#include "core/workloads/llm.h"

#include <optional>
#include <string_view>
#include <vector>

namespace ridgepoint {

struct LlmAttentionIo {
    AttentionShape shape; // one layer on one chip
    double layers = 0.0; // kernels (layers of the stage) the operators sum
    std::vector<AttentionIoBound> bounds; // per layer, in the machine's order
    double scoreBytes = 0.0; // the modelled bytes of both operators, all layers
    double valueBytes = 0.0;
};

// True for the two operators the bound covers.
bool isAttentionIoOperator(std::string_view kind);

// The step's attention shape and bounds; nullopt when the attention is not fused (its score
// matrix goes through memory: two matmuls and a softmax, each with its own traffic), the model
// caches a compressed latent (kv_cache_dim: not Q·Kᵀ of head size d), or the machine gives no
// capacity.
std::optional<LlmAttentionIo> llmAttentionIo(
    const ModelConfig &model, const LlmSpec &spec, const Hardware &hardware, const LlmResult &r);

// One operator of the two moved to `movedBytes` (its other stays as modelled): the bound the
// pair's bytes at main memory then break, with the bytes over all layers; nullopt when within.
std::optional<IoBoundExcess> llmAttentionExcess(
    const LlmAttentionIo &io, std::string_view movedKind, double movedBytes);

} // namespace ridgepoint
