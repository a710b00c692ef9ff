#include "core/workloads/llm.h"

#include "core/model/checked_int.h"

#include "core/report/json_detail.h"

#include "core/presets/resources.h"
#include "core/workloads/llm_parallel.h"
#include "core/workloads/workloads.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace ridgepoint {
namespace {

using Json = nlohmann::json;

std::string normalized(std::string_view text)
{
    std::string out;
    for (char c : text) {
        if (c == ' ' || c == '-' || c == '_' || c == '.')
            continue;
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

double toDouble(std::int64_t value)
{
    return static_cast<double>(value);
}

std::optional<ModelConfig> readModel(
    const Json &in, const std::string &path, std::vector<Diagnostic> &diagnostics)
{
    auto error = [&](const std::string &message) {
        diagnostics.push_back({ Severity::Error, path, 0, 0, message });
    };
    if (!in.is_object()) {
        error("a model configuration must be a JSON object");
        return std::nullopt;
    }
    if (const auto it = in.find("format");
        it == in.end() || !it->is_string() || it->get<std::string>() != "ridgepoint-model") {
        error("\"format\" must be \"ridgepoint-model\"");
        return std::nullopt;
    }
    ModelConfig m;
    bool ok = true;
    auto text = [&](const char *key, bool required) -> std::string {
        const auto it = in.find(key);
        if (it == in.end() || !it->is_string() || it->get<std::string>().empty()) {
            if (required || it != in.end()) {
                error(std::string("\"") + key + "\" must be a non-empty string");
                ok = false;
            }
            return {};
        }
        return it->get<std::string>();
    };
    auto count = [&](const char *key, bool required) -> std::int64_t {
        const auto it = in.find(key);
        if (it == in.end()) {
            if (required) {
                error(std::string("\"") + key + "\" is missing (a positive integer)");
                ok = false;
            }
            return 0;
        }
        if (!it->is_number_integer() || it->get<std::int64_t>() < 1) {
            error(std::string("\"") + key + "\" must be a positive integer, found "
                + detail::dumpJson(*it));
            ok = false;
            return 0;
        }
        return it->get<std::int64_t>();
    };
    m.name = text("name", true);
    m.source = text("source", true);
    if (const auto it = in.find("aliases"); it != in.end()) {
        if (!it->is_array()) {
            error("\"aliases\" must be a list of strings");
            ok = false;
        } else {
            for (const auto &alias : *it) {
                if (alias.is_string())
                    m.aliases.push_back(alias.get<std::string>());
            }
        }
    }
    m.hiddenSize = count("hidden_size", true);
    m.layers = count("layers", true);
    m.heads = count("heads", true);
    m.kvHeads = count("kv_heads", true);
    m.headDim = count("head_dim", false);
    m.ffnSize = count("ffn_size", true);
    m.vocabSize = count("vocab_size", true);
    if (const auto it = in.find("gated_ffn"); it != in.end()) {
        if (!it->is_boolean()) {
            error("\"gated_ffn\" must be true or false");
            ok = false;
        } else {
            m.gatedFfn = it->get<bool>();
        }
    }
    if (!ok)
        return std::nullopt;
    if (m.heads % m.kvHeads != 0) {
        error("\"heads\" (" + std::to_string(m.heads) + ") must be a multiple of \"kv_heads\" ("
            + std::to_string(m.kvHeads) + ")");
        return std::nullopt;
    }
    if (m.headDim == 0) {
        if (m.hiddenSize % m.heads != 0) {
            error("\"hidden_size\" is not a multiple of \"heads\": give \"head_dim\"");
            return std::nullopt;
        }
        m.headDim = m.hiddenSize / m.heads;
    }
    return m;
}

} // namespace

ModelConfigReadResult readModelConfigJson(std::string_view text, const std::string &path)
{
    ModelConfigReadResult result;
    const auto document = detail::parseJson<Json>(text, path, result.diagnostics);
    if (!document)
        return result;
    if (auto model = readModel(*document, path, result.diagnostics))
        result.models.push_back(std::move(*model));
    return result;
}

std::vector<ModelConfig> builtinModels(std::vector<Diagnostic> *problems)
{
    std::vector<ModelConfig> out;
    for (const auto &file : embeddedFilesUnder("models/")) {
        auto read = readModelConfigJson(file.content, std::string(file.path));
        out.insert(out.end(), read.models.begin(), read.models.end());
        if (problems)
            problems->insert(problems->end(), read.diagnostics.begin(), read.diagnostics.end());
    }
    return out;
}

ridgepoint::Expected<ModelConfig, std::string> findModel(
    const std::vector<ModelConfig> &models, std::string_view query)
{
    const std::string wanted = normalized(query);
    std::vector<const ModelConfig *> prefixed;
    for (const auto &model : models) {
        std::vector<std::string> names { normalized(model.name) };
        for (const auto &alias : model.aliases)
            names.push_back(normalized(alias));
        if (std::ranges::find(names, wanted) != names.end())
            return model;
        if (!wanted.empty() && std::ranges::any_of(names, [&](const std::string &n) {
                return n.starts_with(wanted);
            }))
            prefixed.push_back(&model);
    }
    if (prefixed.size() == 1)
        return *prefixed.front();
    std::string list;
    for (const auto *m : prefixed)
        list += (list.empty() ? "" : ", ") + m->name;
    if (prefixed.empty()) {
        for (const auto &m : models)
            list += (list.empty() ? "" : ", ") + m.name;
        return ridgepoint::Unexpected(
            "no model named \"" + std::string(query) + "\" (known: " + list + ")");
    }
    return ridgepoint::Unexpected(
        "\"" + std::string(query) + "\" matches several models: " + list + " (be more specific)");
}

std::string_view llmPhaseName(LlmPhase phase)
{
    return phase == LlmPhase::Prefill ? "prefill" : "decode";
}

std::optional<LlmPhase> llmPhaseFromName(std::string_view name)
{
    if (normalized(name) == "prefill")
        return LlmPhase::Prefill;
    if (normalized(name) == "decode")
        return LlmPhase::Decode;
    return std::nullopt;
}

Precision llmComputePrecision(const LlmSpec &spec)
{
    const bool intActivations = spec.activations == Precision::INT8;
    const bool intWeights = spec.weights == Precision::INT8 || spec.weights == Precision::INT4;
    if (intActivations && intWeights)
        return Precision::INT8;
    if (intActivations) // int8 activations against wider weights: computed in the weights' type
        return spec.weights;
    return spec.activations;
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

    const double h = toDouble(model.hiddenSize);
    const double hd = toDouble(model.headDim);
    const double heads = toDouble(model.heads);
    const double hq = heads * hd;
    const double hkv = toDouble(model.kvHeads) * hd;
    const double ffn = toDouble(model.ffnSize);
    const double vocab = toDouble(model.vocabSize);
    const double b = toDouble(spec.batch);
    const double s = toDouble(spec.seq);
    const double sa = bytesPerElement(spec.activations);
    const double sw = bytesPerElement(spec.weights);
    const double skv = bytesPerElement(spec.kv);
    const bool prefill = spec.phase == LlmPhase::Prefill;
    // New tokens per sequence, (query, key) pairs per sequence and head (causal), and keys
    // (and values) read from the KV cache per sequence.
    const double newTokens = prefill ? s : 1.0;
    const double pairs = prefill ? s * (s + 1.0) / 2.0 : s;
    const double keys = s;
    const double m = b * newTokens; // rows of every linear layer
    const double scoreBytes = spec.fusedAttention ? 0.0 : b * heads * pairs * sa;

    std::vector<LlmOperator> ops;
    auto linear = [&](std::string kind, double rows, double in, double out, std::int64_t count) {
        LlmOperator op;
        op.kind = std::move(kind);
        op.flopsPerLayer = 2.0 * rows * in * out;
        op.weightBytesPerLayer = in * out * sw;
        op.bytesPerLayer = op.weightBytesPerLayer + rows * in * sa + rows * out * sa;
        op.count = count;
        return op;
    };

    // Q, K and V as one projection; K and V go to the KV cache in its dtype.
    LlmOperator qkv = linear("QKV projection", m, h, hq + 2.0 * hkv, model.layers);
    qkv.kvWriteBytesPerLayer = m * 2.0 * hkv * skv;
    qkv.bytesPerLayer
        = qkv.weightBytesPerLayer + m * h * sa + m * hq * sa + qkv.kvWriteBytesPerLayer;
    ops.push_back(qkv);

    LlmOperator score;
    score.kind = "attention score";
    score.flopsPerLayer = 2.0 * b * heads * pairs * hd;
    score.kvReadBytesPerLayer = b * keys * hkv * skv; // grouped-query: only the KV heads
    score.bytesPerLayer = b * newTokens * hq * sa + score.kvReadBytesPerLayer + scoreBytes;
    score.count = model.layers;
    ops.push_back(score);

    LlmOperator value;
    value.kind = "attention value";
    value.flopsPerLayer = 2.0 * b * heads * pairs * hd;
    value.kvReadBytesPerLayer = b * keys * hkv * skv;
    value.bytesPerLayer = scoreBytes + value.kvReadBytesPerLayer + b * newTokens * hq * sa;
    value.count = model.layers;
    ops.push_back(value);

    ops.push_back(linear("output projection", m, hq, h, model.layers));
    ops.push_back(linear("FFN up", m, h, ffn, model.layers));
    if (model.gatedFfn)
        ops.push_back(linear("FFN gate", m, h, ffn, model.layers));
    ops.push_back(linear("FFN down", m, ffn, h, model.layers));
    // Generation needs the logits of the last position of each sequence only.
    ops.push_back(linear("LM head", b, h, vocab, 1));
    return ops;
}

ridgepoint::Expected<LlmResult, std::string> modelLlm(const ModelConfig &model, const LlmSpec &spec,
    const Hardware &hardware, const AnalysisOptions &options)
{
    auto ops = llmOperators(model, spec);
    if (!ops)
        return ridgepoint::Unexpected(ops.error());
    // Per chip, plus the collectives on the link (llm_parallel.h); unchanged for one chip.
    const MemoryCeiling *link = llmLinkCeiling(hardware);
    ops = parallelizeLlm(std::move(*ops), model, spec,
        link ? std::optional(link->level) : std::nullopt, hardware.name);
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
    double linkBytes = 0.0; // collectives (llm_parallel.h)
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
        r.operators.push_back({ std::move(p), std::move(*analysis) });
    }
    total.bytes.push_back({ std::nullopt, totalBytes });
    if (linkBytes > 0.0)
        total.bytes.push_back({ link->level, linkBytes });
    auto analysis = analyzePoint(total, hardware, options);
    if (!analysis)
        return ridgepoint::Unexpected(analysis.error());
    r.total = { std::move(total), std::move(*analysis) };
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
