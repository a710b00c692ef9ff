#include "core/workloads/llm.h"

#include "core/model/checked_int.h"

#include "core/workloads/llm_parallel.h"
#include "core/workloads/quant_modes.h"
#include "core/workloads/workloads.h"

#include <cmath>

namespace ridgepoint {
namespace {

double toDouble(std::int64_t value)
{
    return static_cast<double>(value);
}

} // namespace

Precision llmComputePrecision(const LlmSpec &spec)
{
    const Precision w = spec.weights;
    const Precision a = spec.activations;
    const bool intWeights = w == Precision::INT8 || w == Precision::INT4;
    if (a == Precision::INT8) // int8 activations against wider weights: the weights' type
        return intWeights ? Precision::INT8 : w;
    if (a == Precision::FP4) // fp4 × fp4 on the fp4 roof; wider weights set the type
        return w == Precision::FP4 || w == Precision::INT4 ? Precision::FP4 : w;
    if (a == Precision::FP8) // fp8 activations with fp8 or narrower weights: the fp8 roof
        return bytesPerElement(w) <= 1.0 ? Precision::FP8 : w;
    return a; // 16-bit activations: weight-only quantization keeps their ceiling
}

const std::vector<LlmPrecisionMode> &llmPrecisionModes()
{
    static const std::vector<LlmPrecisionMode> modes {
        { "bf16", "bf16 weights and activations", Precision::BF16, Precision::BF16, 0, 0.0 },
        { "fp16", "fp16 weights and activations", Precision::FP16, Precision::FP16, 0, 0.0 },
        { "fp8", "w8a8 fp8", Precision::FP8, Precision::FP8, 0, 0.0 },
        // The window's int8 and w8a16 (quant_modes.h), in the same words.
        { "w8a8", std::string(quantModeInfo(QuantMode::Int8).meaning), Precision::INT8,
            Precision::INT8, 0, 0.0 },
        { "w8a16", std::string(quantModeInfo(QuantMode::W8A16).meaning), Precision::INT8,
            Precision::BF16, 0, 0.0 },
        { "w4a16", "int4 weights in groups of 128 with an fp16 scale, bf16 activations",
            Precision::INT4, Precision::BF16, 128, 2.0 },
        { "nvfp4", "NVFP4 w4a4: fp4 (E2M1) with an fp8 E4M3 scale per 16 elements", Precision::FP4,
            Precision::FP4, 16, 1.0 },
        { "mxfp4", "MXFP4 w4a4: fp4 (E2M1) with an E8M0 scale per 32 elements", Precision::FP4,
            Precision::FP4, 32, 1.0 },
    };
    return modes;
}

ridgepoint::Expected<LlmSpec, std::string> withLlmPrecisionMode(LlmSpec spec, std::string_view mode)
{
    std::string known;
    for (const auto &m : llmPrecisionModes()) {
        if (m.name == mode) {
            spec.weights = m.weights;
            spec.activations = m.activations;
            spec.scaleBlock = m.scaleBlock;
            spec.scaleBytes = m.scaleBytes;
            spec.precisionMode = m.name;
            return spec;
        }
        known += (known.empty() ? "" : "|") + m.name;
    }
    return ridgepoint::Unexpected(
        "unknown precision mode \"" + std::string(mode) + "\" (known: " + known + ")");
}

double llmWeightBytes(const LlmSpec &spec)
{
    const bool fourBit = spec.weights == Precision::FP4 || spec.weights == Precision::INT4;
    const double scales
        = fourBit && spec.scaleBlock > 0 ? spec.scaleBytes / toDouble(spec.scaleBlock) : 0.0;
    return bytesPerElement(spec.weights) + scales;
}

double llmActivationBytes(const LlmSpec &spec)
{
    const double scales = spec.activations == Precision::FP4 && spec.scaleBlock > 0
        ? spec.scaleBytes / toDouble(spec.scaleBlock)
        : 0.0;
    return bytesPerElement(spec.activations) + scales;
}

namespace {

// Weights of one layer: attention, then the FFN a token uses (`routed` experts of the routed
// ones) in an MoE layer or the dense FFN.
struct LayerParameters {
    double attention = 0, denseFfn = 0, moeAll = 0, moeActive = 0;
};

LayerParameters layerParameters(const ModelConfig &m)
{
    const double h = toDouble(m.hiddenSize), hd = toDouble(m.headDim);
    const double hq = toDouble(m.heads) * hd, hkv = toDouble(m.kvHeads) * hd;
    const double matrices = m.gatedFfn ? 3.0 : 2.0;
    LayerParameters p;
    p.attention = h * (hq + 2.0 * hkv) + hq * h;
    p.denseFfn = matrices * h * toDouble(m.ffnSize);
    if (m.experts > 0) {
        const double fe = toDouble(m.moeFfnSize > 0 ? m.moeFfnSize : m.ffnSize);
        const double fixed
            = h * toDouble(m.experts) + toDouble(m.sharedExperts) * matrices * h * fe;
        p.moeAll = fixed + toDouble(m.experts) * matrices * h * fe;
        p.moeActive = fixed + toDouble(m.expertsPerToken) * matrices * h * fe;
    }
    return p;
}

double parameters(const ModelConfig &m, bool active)
{
    const LayerParameters p = layerParameters(m);
    const double moeLayers = m.experts > 0 ? toDouble(m.layers - m.denseLayers) : 0.0;
    const double denseLayers = toDouble(m.layers) - moeLayers;
    return toDouble(m.layers) * p.attention + denseLayers * p.denseFfn
        + moeLayers * (active ? p.moeActive : p.moeAll)
        + 2.0 * toDouble(m.hiddenSize) * toDouble(m.vocabSize);
}

// The intensity of the routed experts' up, gate and down at `tokens` tokens in a decode step:
// the weights of the experts uniform routing touches, or with `dense` those of expertsPerToken
// experts only (a dense FFN of the active shape: every token uses the same weights).
double expertFfnIntensity(const ModelConfig &model, LlmSpec spec, double tokens, bool dense)
{
    spec.phase = LlmPhase::Decode;
    spec.seq = 1;
    spec.batch = static_cast<std::int64_t>(tokens);
    const auto ops = llmOperators(model, spec);
    double flops = 0.0, bytes = 0.0;
    for (const auto &op : ops ? *ops : std::vector<LlmOperator> {}) {
        if (op.group != "expert" || op.kind == "expert activation")
            continue;
        flops += op.flopsPerLayer;
        bytes += op.bytesPerLayer;
        if (dense)
            bytes += op.weightBytesPerLayer
                * (toDouble(model.expertsPerToken) / expertsTouched(model, tokens) - 1.0);
    }
    return bytes > 0.0 ? flops / bytes : 0.0;
}

// The fewest tokens per step at which the expert FFN reaches `ridge` (bisection on a rising
// intensity); nullopt beyond 2^40.
std::optional<double> criticalTokens(
    const ModelConfig &model, const LlmSpec &spec, double ridge, bool dense)
{
    auto reaches = [&](double t) { return expertFfnIntensity(model, spec, t, dense) >= ridge; };
    double hi = 1.0;
    while (!reaches(hi)) {
        hi *= 2.0;
        if (hi > 1099511627776.0)
            return std::nullopt;
    }
    double lo = hi / 2.0;
    if (hi == 1.0)
        return 1.0;
    while (hi - lo > 1.0) {
        const double mid = std::floor((lo + hi) / 2.0);
        (reaches(mid) ? hi : lo) = mid;
    }
    return hi;
}

} // namespace

double llmTotalParameters(const ModelConfig &model)
{
    return parameters(model, false);
}

double llmActiveParameters(const ModelConfig &model)
{
    return parameters(model, true);
}

ridgepoint::Expected<LlmResult, std::string> modelLlm(const ModelConfig &model, const LlmSpec &spec,
    const Hardware &hardware, const AnalysisOptions &options)
{
    // Per chip, plus the collectives on the link (llm_parallel.h); unchanged for one chip.
    const auto ops = llmChipOperators(model, spec, hardware);
    if (!ops)
        return ridgepoint::Unexpected(ops.error());
    LlmResult r;
    r.computePrecision = llmComputePrecision(spec);
    if (options.computeCeiling.empty() && !hardware.computeFor(r.computePrecision))
        return ridgepoint::Unexpected(hardware.name + " has no "
            + std::string(precisionName(r.computePrecision))
            + " compute ceiling (needed by the chosen weight and activation types)");

    const std::string group = model.name + " " + std::string(llmPhaseName(spec.phase)) + " seq "
        + std::to_string(spec.seq) + " batch " + std::to_string(spec.batch);
    KernelPoint total;
    total.name = model.name + " " + std::string(llmPhaseName(spec.phase)) + " (whole model)";
    total.group = group;
    total.precision = r.computePrecision;
    double totalBytes = 0.0;
    double linkBytes = 0.0; // collectives (llm_parallel.h), on the level they carry
    std::optional<MemoryLevel> link;
    for (const auto &op : *ops) {
        const double n = toDouble(op.count);
        KernelPoint p;
        p.name = op.kind;
        p.group = group;
        p.flops = op.flopsPerLayer * n;
        p.bytes.push_back({ op.level, op.bytesPerLayer * n });
        p.precision = r.computePrecision;
        auto analysis = analyzePoint(p, hardware, options);
        if (!analysis)
            return ridgepoint::Unexpected(analysis.error());
        r.estimatedSeconds += analysis->tMin;
        if (analysis->bound == Bound::Memory)
            r.memoryBoundSeconds += analysis->tMin;
        r.kvReadBytes += op.kvReadBytesPerLayer * n;
        r.kvWriteBytes += op.kvWriteBytesPerLayer * n;
        r.weightBytes += op.weightBytesPerLayer * n;
        total.flops += p.flops;
        (op.level ? linkBytes : totalBytes) += p.bytes.front().bytes;
        link = op.level ? op.level : link;
        r.operators.push_back({ std::move(p), std::move(*analysis) });
    }
    total.bytes.push_back({ std::nullopt, totalBytes });
    if (link)
        total.bytes.push_back({ link, linkBytes });
    auto analysis = analyzePoint(total, hardware, options);
    if (!analysis)
        return ridgepoint::Unexpected(analysis.error());
    r.computeCeiling = analysis->computeCeiling;
    r.ridge = analysis->levels.front().bandwidth > 0.0
        ? analysis->peak / analysis->levels.front().bandwidth
        : 0.0;
    r.total = { std::move(total), std::move(*analysis) };
    r.totalParameters = llmTotalParameters(model);
    r.activeParameters = llmActiveParameters(model);
    if (model.experts > 0 && r.ridge > 0.0) {
        r.expertCriticalTokens = criticalTokens(model, spec, r.ridge, false);
        r.denseCriticalTokens = criticalTokens(model, spec, r.ridge, true);
    }
    return r;
}

ridgepoint::Expected<GenerationAnalysis, std::string> analyzeGeneration(const ModelConfig &model,
    LlmSpec spec, std::int64_t promptLength, std::int64_t generatedTokens, double measuredSeconds,
    const Hardware &hardware, const AnalysisOptions &options)
{
    if (promptLength < 1)
        return ridgepoint::Unexpected("the prompt length must be a positive integer");
    if (generatedTokens < 1)
        return ridgepoint::Unexpected("the number of generated tokens must be a positive integer");
    if (!checkedAdd(promptLength, generatedTokens))
        return ridgepoint::Unexpected(
            "the prompt length plus the generated tokens do not fit a 64-bit count");
    if (generatedTokens > kMaxGeneratedTokens)
        return ridgepoint::Unexpected("more than " + std::to_string(kMaxGeneratedTokens)
            + " generated tokens (each is one decode step to model)");
    if (!(measuredSeconds > 0.0) || !std::isfinite(measuredSeconds))
        return ridgepoint::Unexpected("the measured time must be a positive number of seconds");

    GenerationAnalysis g;
    auto sum = [](const std::vector<LlmOperator> &ops, double &flops, double &bytes) {
        for (const auto &op : ops) {
            flops += op.flopsPerLayer * toDouble(op.count);
            bytes += op.bytesPerLayer * toDouble(op.count);
        }
    };
    // The prefill yields the first token; each later token is one decode step whose context
    // holds the prompt and the tokens generated so far.
    spec.phase = LlmPhase::Prefill;
    spec.seq = promptLength;
    auto prefill = llmOperators(model, spec);
    if (!prefill)
        return ridgepoint::Unexpected(prefill.error());
    sum(*prefill, g.prefillFlops, g.prefillBytes);
    spec.phase = LlmPhase::Decode;
    for (std::int64_t i = 1; i < generatedTokens; ++i) {
        spec.seq = promptLength + i;
        auto step = llmOperators(model, spec);
        if (!step)
            return ridgepoint::Unexpected(step.error());
        sum(*step, g.decodeFlops, g.decodeBytes);
    }

    KernelPoint p;
    p.name = model.name + " generation " + std::to_string(promptLength) + "+"
        + std::to_string(generatedTokens) + " tokens";
    p.group = model.name + " measured";
    p.flops = g.prefillFlops + g.decodeFlops;
    p.bytes.push_back({ std::nullopt, g.prefillBytes + g.decodeBytes });
    p.seconds = measuredSeconds;
    p.precision = llmComputePrecision(spec);
    auto analysis = analyzePoint(p, hardware, options);
    if (!analysis)
        return ridgepoint::Unexpected(analysis.error());
    g.bottleneck = std::string(boundName(analysis->bound)) + "-bound";
    g.tokensPerSecond = toDouble(generatedTokens) * toDouble(spec.batch) / measuredSeconds;
    g.point = { std::move(p), std::move(*analysis) };
    return g;
}

} // namespace ridgepoint
