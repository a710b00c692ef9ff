// LLM inference on the roofline (docs/MODEL.md §8, docs/WORKLOADS.md): one point per operator kind
// of a transformer decoder, plus the whole-model totals, for a prefill or a decode step. Formulas
// and conventions: docs/WORKLOADS.md.
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/diagnostic.h"
#include "core/model/hardware.h"
#include "core/model/point.h"

#include "core/model/expected.h"
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

// A decoder-only transformer's shape, as in resources/models/*.json.
struct ModelConfig {
    std::string name; // "Llama-2-7B"
    std::vector<std::string> aliases;
    std::string source; // where the numbers come from
    std::int64_t hiddenSize = 0; // h
    std::int64_t layers = 0;
    std::int64_t heads = 0; // query heads
    std::int64_t kvHeads = 0; // key/value heads (grouped-query attention when < heads)
    std::int64_t headDim = 0; // h / heads unless the file says otherwise
    std::int64_t ffnSize = 0; // intermediate size
    std::int64_t vocabSize = 0;
    bool gatedFfn = true; // SwiGLU: up and gate projections, then down
    // Mixture of experts (0 experts: a dense model). Each MoE layer routes every token to
    // expertsPerToken of `experts` routed experts plus `sharedExperts` always-on experts, each an
    // FFN of moeFfnSize (ffnSize when 0). The first denseLayers layers keep a dense FFN.
    std::int64_t experts = 0;
    std::int64_t expertsPerToken = 0;
    std::int64_t sharedExperts = 0;
    std::int64_t moeFfnSize = 0;
    std::int64_t denseLayers = 0;
    // Elements the KV cache stores per token and layer (0: K and V, 2·kvHeads·headDim). An
    // approximation for compressed caches such as DeepSeek's MLA (kv_lora_rank +
    // qk_rope_head_dim); the attention score and value each read half of it.
    std::int64_t kvCacheDim = 0;

    friend bool operator==(const ModelConfig &, const ModelConfig &) = default;
};

struct [[nodiscard]] ModelConfigReadResult {
    std::vector<ModelConfig> models;
    std::vector<Diagnostic> diagnostics;
};
// Reads one model file ({"format": "ridgepoint-model", ...}); every problem is a diagnostic.
ModelConfigReadResult readModelConfigJson(std::string_view text, const std::string &path);
// What is wrong with a model's shape, if anything: the query and key/value heads positive, the
// query heads a multiple of the key/value heads, and the mixture-of-experts fields consistent
// (experts per token within the experts, dense layers fewer than the layers). The model files and
// the sessions check a model with it, so both refuse the same models with the same reason.
std::optional<std::string> modelShapeProblem(const ModelConfig &model);
// The models shipped in resources/models/ (diagnostics of broken files in `problems`).
std::vector<ModelConfig> builtinModels(std::vector<Diagnostic> *problems = nullptr);
// By name or alias, ignoring case, spaces, '-', '_' and '.'; exact match, else a unique prefix.
ridgepoint::Expected<ModelConfig, std::string> findModel(
    const std::vector<ModelConfig> &models, std::string_view query);

enum class LlmPhase { Prefill, Decode };
std::string_view llmPhaseName(LlmPhase phase); // "prefill", "decode"
std::optional<LlmPhase> llmPhaseFromName(std::string_view name);

struct LlmSpec {
    LlmPhase phase = LlmPhase::Decode;
    // Prefill: tokens in the prompt. Decode: tokens in the context (KV cache) including the
    // one being generated.
    std::int64_t seq = 1;
    std::int64_t batch = 1; // sequences processed together
    Precision weights = Precision::BF16;
    Precision activations = Precision::BF16;
    Precision kv = Precision::BF16;
    // Flash-style fused attention: the score matrix stays on chip (no HBM write and read).
    bool fusedAttention = false;
    // Parallelism over chips (1: none): tensor, expert and pipeline parallel degrees.
    std::int64_t tp = 1;
    std::int64_t ep = 1;
    std::int64_t pp = 1;
    // Block scales of 4-bit tensors (docs/WORKLOADS.md "Precision modes"): every scaleBlock
    // elements of a 4-bit weight (fp4 or int4) or fp4 activation carry one scale of scaleBytes
    // (NVFP4: 16 and 1, MXFP4: 32 and 1, w4a16 groups: 128 and 2). 0: no scales counted.
    std::int64_t scaleBlock = 0;
    double scaleBytes = 0.0;
    // The --precision mode that set the types ("fp8", "w8a8", "nvfp4", ...); empty when the
    // types were chosen one by one.
    std::string precisionMode {};

    friend bool operator==(const LlmSpec &, const LlmSpec &) = default;
};

// A named precision mode: weight and activation types, block scales, and what it means.
struct LlmPrecisionMode {
    std::string name; // "fp8"
    std::string description; // "w8a8 fp8"
    Precision weights = Precision::BF16;
    Precision activations = Precision::BF16;
    std::int64_t scaleBlock = 0;
    double scaleBytes = 0.0;
};
const std::vector<LlmPrecisionMode> &llmPrecisionModes();
// Sets the weights, activations, scales and mode name; an error lists the known modes.
ridgepoint::Expected<LlmSpec, std::string> withLlmPrecisionMode(
    LlmSpec spec, std::string_view mode);
// Bytes per weight and per activation element, block scales included.
double llmWeightBytes(const LlmSpec &spec);
double llmActivationBytes(const LlmSpec &spec);
// Parameters of the model (norm gains left out; embedding and LM head untied), and those one
// token uses (routed experts: expertsPerToken of experts).
double llmTotalParameters(const ModelConfig &model);
double llmActiveParameters(const ModelConfig &model);
// Routed experts a step of `tokens` tokens touches under uniform routing: E·(1 − (1 − k/E)^T).
double expertsTouched(const ModelConfig &model, double tokens);

// The precision the matmuls run in: int8 when activations and weights are both 8 bits or
// narrower integers, else the activations' floating type (a bf16 ceiling for w8a16/w4a16).
Precision llmComputePrecision(const LlmSpec &spec);

struct LlmOperator {
    std::string kind; // "QKV projection", "attention score", ...
    double flopsPerLayer = 0.0;
    double bytesPerLayer = 0.0;
    double weightBytesPerLayer = 0.0;
    double kvReadBytesPerLayer = 0.0;
    double kvWriteBytesPerLayer = 0.0;
    std::int64_t count = 0; // how many times in the model (layers, or 1 for the LM head)
    // What the operator belongs to: "attention", "ffn", "expert", "router", "norm",
    // "elementwise", "embedding", "head", "collective". Parallelism (tp/ep/pp) splits by it.
    std::string group;
    // The memory level its bytes move through: nullopt is main memory; a collective's bytes sit
    // on a link level (NVLink, ICI, PCIe, ...) so the point lands on that roof.
    std::optional<MemoryLevel> level;
};

// The operator kinds with their per-layer counts (no hardware needed).
ridgepoint::Expected<std::vector<LlmOperator>, std::string> llmOperators(
    const ModelConfig &model, const LlmSpec &spec);

struct LlmResult {
    std::vector<AnalyzedPoint> operators; // one per operator kind, counts over all layers
    AnalyzedPoint total; // the whole model as one point
    // Σ over operators of their T_min: each kernel waits on its own roof, one after another.
    double estimatedSeconds = 0.0;
    double memoryBoundSeconds = 0.0; // the part of it spent in memory-bound operators
    double kvReadBytes = 0.0;
    double kvWriteBytes = 0.0;
    double weightBytes = 0.0;
    Precision computePrecision = Precision::BF16;
    std::string computeCeiling; // the compute roof the operators sit under ("FP8 tensor")
    double ridge = 0.0; // its ridge against main memory, FLOP/B
    double totalParameters = 0.0;
    double activeParameters = 0.0;
    // Mixture of experts: tokens per step from which the routed experts' FFN (up, gate, down)
    // reaches the ridge, and the tokens a dense FFN of the same shape needs (every weight used
    // by every token). nullopt for dense models or beyond 2^40 tokens.
    std::optional<double> expertCriticalTokens;
    std::optional<double> denseCriticalTokens;
};

ridgepoint::Expected<LlmResult, std::string> modelLlm(const ModelConfig &model, const LlmSpec &spec,
    const Hardware &hardware, const AnalysisOptions &options = {});

// The most generated tokens analyzeGeneration models: each is one decode step, so a larger
// count would run for minutes (prompt + generated must also fit an int64).
inline constexpr std::int64_t kMaxGeneratedTokens = 1'000'000;

// A measured generation (prompt length, generated tokens, measured time):
// the prefill of the prompt plus gen_tokens decode steps with a growing context, as one point
// timed by the measurement.
struct GenerationAnalysis {
    AnalyzedPoint point;
    double prefillFlops = 0.0, prefillBytes = 0.0;
    double decodeFlops = 0.0, decodeBytes = 0.0;
    double tokensPerSecond = 0.0; // generated tokens (all sequences) per measured second
    std::string bottleneck; // "memory-bound" or "compute-bound"
};
ridgepoint::Expected<GenerationAnalysis, std::string> analyzeGeneration(const ModelConfig &model,
    LlmSpec spec, std::int64_t promptLength, std::int64_t generatedTokens, double measuredSeconds,
    const Hardware &hardware, const AnalysisOptions &options = {});

} // namespace ridgepoint
