// The operators of a decoder-only transformer step, each with FLOPs and bytes per layer
// (docs/WORKLOADS.md "LLM inference": every formula and convention is written out there).
#include "core/workloads/llm.h"

#include "core/workloads/workloads.h"

#include <cmath>

namespace ridgepoint {
namespace {

double toDouble(std::int64_t value)
{
    return static_cast<double>(value);
}

// The shapes and sizes every operator formula uses.
struct Shape {
    double h = 0, hd = 0, heads = 0, hq = 0, hkv = 0, vocab = 0;
    double kvDim = 0; // elements cached per token and layer (K and V: 2·hkv)
    double b = 0, s = 0;
    double sa = 0, sw = 0, skv = 0;
    double newTokens = 0; // T: new tokens per sequence
    double pairs = 0; // P: (query, key) pairs per sequence and head, causal
    double m = 0; // b·T rows of every linear layer
    double scoreBytes = 0; // the score (or probability) matrix once, 0 when fused
    std::int64_t layers = 0;
};

Shape shapeOf(const ModelConfig &model, const LlmSpec &spec)
{
    Shape x;
    x.h = toDouble(model.hiddenSize);
    x.hd = toDouble(model.headDim);
    x.heads = toDouble(model.heads);
    x.hq = x.heads * x.hd;
    x.hkv = toDouble(model.kvHeads) * x.hd;
    x.vocab = toDouble(model.vocabSize);
    x.kvDim = model.kvCacheDim > 0 ? toDouble(model.kvCacheDim) : 2.0 * x.hkv;
    x.b = toDouble(spec.batch);
    x.s = toDouble(spec.seq);
    x.sa = llmActivationBytes(spec);
    x.sw = llmWeightBytes(spec);
    x.skv = bytesPerElement(spec.kv);
    const bool prefill = spec.phase == LlmPhase::Prefill;
    x.newTokens = prefill ? x.s : 1.0;
    x.pairs = prefill ? x.s * (x.s + 1.0) / 2.0 : x.s;
    x.m = x.b * x.newTokens;
    x.scoreBytes = spec.fusedAttention ? 0.0 : x.b * x.heads * x.pairs * x.sa;
    x.layers = model.layers;
    return x;
}

LlmOperator op(std::string kind, std::string group, double flops, double bytes, std::int64_t count)
{
    LlmOperator o;
    o.kind = std::move(kind);
    o.group = std::move(group);
    o.flopsPerLayer = flops;
    o.bytesPerLayer = bytes;
    o.count = count;
    return o;
}

// A matmul of `rows` tokens by an in×out weight: the weight, the input and the output once.
LlmOperator linear(std::string kind, std::string group, const Shape &x, double rows, double in,
    double out, std::int64_t count)
{
    LlmOperator o = op(std::move(kind), std::move(group), 2.0 * rows * in * out, 0.0, count);
    o.weightBytesPerLayer = in * out * x.sw;
    o.bytesPerLayer = o.weightBytesPerLayer + rows * in * x.sa + rows * out * x.sa;
    return o;
}

// RMSNorm of `rows` rows: x², the sum, the scale by 1/rms and the gain, 4 FLOPs an element;
// reads the rows and the gain (activation type), writes the rows.
LlmOperator rmsNorm(std::string kind, const Shape &x, double rows, std::int64_t count)
{
    return op(std::move(kind), "norm", 4.0 * rows * x.h,
        rows * x.h * x.sa + x.h * x.sa + rows * x.h * x.sa, count);
}

// A residual add: two rows in, one out, one FLOP an element.
LlmOperator residual(std::string kind, const Shape &x, std::int64_t count)
{
    return op(std::move(kind), "elementwise", x.m * x.h, 3.0 * x.m * x.h * x.sa, count);
}

void addAttention(std::vector<LlmOperator> &ops, const Shape &x, const LlmSpec &spec)
{
    const std::int64_t n = x.layers;
    ops.push_back(rmsNorm("attention norm", x, x.m, n));
    // Q, K and V as one projection reading its input once.
    ops.push_back(linear("QKV projection", "attention", x, x.m, x.h, x.hq + 2.0 * x.hkv, n));
    // Rotary embedding of Q and K: x·cos + rotate(x)·sin, 3 FLOPs an element; reads the
    // cos and sin of each token's position (hd/2 each) and Q, K; writes Q, K.
    const double rotated = x.m * (x.hq + x.hkv);
    ops.push_back(op("rotary embedding", "attention", 3.0 * rotated,
        2.0 * rotated * x.sa + x.m * x.hd * x.sa, n));
    // K and V of the new tokens into the cache in its type: one operation an element.
    LlmOperator write = op("KV-cache write", "attention", x.m * x.kvDim, 0.0, n);
    write.kvWriteBytesPerLayer = x.m * x.kvDim * x.skv;
    write.bytesPerLayer = x.m * x.kvDim * x.sa + write.kvWriteBytesPerLayer;
    ops.push_back(write);

    // Softmax: max, subtract, exp, sum, divide, 5 FLOPs a score.
    const double softmaxFlops = 5.0 * x.b * x.heads * x.pairs;
    LlmOperator score;
    score.kind = "attention score";
    score.group = "attention";
    score.flopsPerLayer
        = 2.0 * x.b * x.heads * x.pairs * x.hd + (spec.fusedAttention ? softmaxFlops : 0.0);
    // The keys, half the cache (grouped-query: the KV heads only).
    score.kvReadBytesPerLayer = x.b * x.s * x.kvDim / 2.0 * x.skv;
    score.bytesPerLayer = x.m * x.hq * x.sa + score.kvReadBytesPerLayer + x.scoreBytes;
    score.count = n;
    ops.push_back(score);
    if (!spec.fusedAttention)
        ops.push_back(op("softmax", "attention", softmaxFlops, 2.0 * x.scoreBytes, n));
    LlmOperator value = score;
    value.kind = "attention value";
    value.flopsPerLayer = 2.0 * x.b * x.heads * x.pairs * x.hd;
    value.bytesPerLayer = x.scoreBytes + value.kvReadBytesPerLayer + x.m * x.hq * x.sa;
    ops.push_back(value);
    ops.push_back(linear("output projection", "attention", x, x.m, x.hq, x.h, n));
    ops.push_back(residual("attention residual", x, n));
    ops.push_back(rmsNorm("FFN norm", x, x.m, n));
}

// A dense FFN of width `width` on `rows` rows: up (and gate), the activation, down.
void addFfn(std::vector<LlmOperator> &ops, const Shape &x, const ModelConfig &model,
    const std::string &prefix, double width, std::int64_t count)
{
    if (count == 0 || width == 0.0)
        return;
    ops.push_back(linear(prefix + " up", "ffn", x, x.m, x.h, width, count));
    if (model.gatedFfn)
        ops.push_back(linear(prefix + " gate", "ffn", x, x.m, x.h, width, count));
    // SiLU(gate)·up: 4 FLOPs for x/(1 + e^−x), 1 for the product; without a gate, 4.
    const double elements = x.m * width;
    ops.push_back(model.gatedFfn
            ? op(prefix + " activation", "ffn", 5.0 * elements, 3.0 * elements * x.sa, count)
            : op(prefix + " activation", "ffn", 4.0 * elements, 2.0 * elements * x.sa, count));
    ops.push_back(linear(prefix + " down", "ffn", x, x.m, width, x.h, count));
}

// The mixture-of-experts FFN: router, shared experts, routed experts, and the weighted sum.
void addExperts(std::vector<LlmOperator> &ops, const Shape &x, const ModelConfig &model)
{
    const std::int64_t n = model.layers - model.denseLayers;
    const double e = toDouble(model.experts);
    const double k = toDouble(model.expertsPerToken);
    const double fe = toDouble(model.moeFfnSize > 0 ? model.moeFfnSize : model.ffnSize);
    // Router: h×E logits, softmax and top-k; writes k gate weights and int32 indices a token.
    LlmOperator router = linear("router", "router", x, x.m, x.h, e, n);
    router.bytesPerLayer = router.weightBytesPerLayer + x.m * x.h * x.sa + x.m * k * (x.sa + 4.0);
    ops.push_back(router);
    addFfn(ops, x, model, "shared expert", toDouble(model.sharedExperts) * fe, n);

    // Each token visits k experts: m·k rows in all; the weights of the experts touched.
    const double rows = x.m * k;
    const double touched = expertsTouched(model, x.m);
    auto expert = [&](std::string kind, double in, double out) {
        LlmOperator o = op(std::move(kind), "expert", 2.0 * rows * in * out, 0.0, n);
        o.weightBytesPerLayer = touched * in * out * x.sw;
        o.bytesPerLayer = o.weightBytesPerLayer + rows * in * x.sa + rows * out * x.sa;
        return o;
    };
    ops.push_back(expert("expert up", x.h, fe));
    if (model.gatedFfn)
        ops.push_back(expert("expert gate", x.h, fe));
    const double elements = rows * fe;
    ops.push_back(model.gatedFfn
            ? op("expert activation", "expert", 5.0 * elements, 3.0 * elements * x.sa, n)
            : op("expert activation", "expert", 4.0 * elements, 2.0 * elements * x.sa, n));
    ops.push_back(expert("expert down", fe, x.h));
    // Σ gate·output over the k experts (2 FLOPs an element), plus the shared experts' output.
    const double shared = model.sharedExperts > 0 ? 1.0 : 0.0;
    ops.push_back(op("expert combine", "elementwise", (2.0 * k + shared) * x.m * x.h,
        (k + shared) * x.m * x.h * x.sa + x.m * k * x.sa + x.m * x.h * x.sa, n));
}

} // namespace

double expertsTouched(const ModelConfig &model, double tokens)
{
    if (model.experts == 0)
        return 0.0;
    const double e = toDouble(model.experts);
    const double k = toDouble(model.expertsPerToken);
    return e * (1.0 - std::pow(1.0 - k / e, tokens));
}

ridgepoint::Expected<std::vector<LlmOperator>, std::string> llmOperators(
    const ModelConfig &model, const LlmSpec &spec)
{
    if (spec.seq < 1)
        return ridgepoint::Unexpected("the sequence length must be a positive integer (got "
            + std::to_string(spec.seq) + ")");
    if (spec.batch < 1)
        return ridgepoint::Unexpected(
            "the batch size must be a positive integer (got " + std::to_string(spec.batch) + ")");
    const Shape x = shapeOf(model, spec);
    std::vector<LlmOperator> ops;
    // Token ids (int32) in, rows of the table (weight type) gathered and written out; one
    // operation an element written.
    ops.push_back(op(
        "embedding", "embedding", x.m * x.h, x.m * 4.0 + x.m * x.h * x.sw + x.m * x.h * x.sa, 1));
    addAttention(ops, x, spec);
    const std::int64_t denseLayers = model.experts > 0 ? model.denseLayers : model.layers;
    addFfn(ops, x, model, "FFN", toDouble(model.ffnSize), denseLayers);
    if (model.experts > 0)
        addExperts(ops, x, model);
    ops.push_back(residual("FFN residual", x, model.layers));
    // Generation needs the logits of the last position of each sequence only.
    ops.push_back(rmsNorm("final norm", x, x.b, 1));
    ops.push_back(linear("LM head", "head", x, x.b, x.h, x.vocab, 1));
    return ops;
}

} // namespace ridgepoint
