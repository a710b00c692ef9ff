// Planned workloads in a session: the model and its parameters, written and read back so the
// point can be recomputed on load.
#include "core/session/session_json.h"
#include "core/workloads/llm.h"

#include <utility>

namespace ridgepoint::session_json {
namespace {

Json modelObject(const ModelConfig &model)
{
    Json json;
    json["name"] = model.name;
    if (!model.aliases.empty())
        json["aliases"] = model.aliases;
    if (!model.source.empty())
        json["source"] = model.source;
    json["hiddenSize"] = model.hiddenSize;
    json["layers"] = model.layers;
    json["heads"] = model.heads;
    json["kvHeads"] = model.kvHeads;
    json["headDim"] = model.headDim;
    json["ffnSize"] = model.ffnSize;
    json["vocabSize"] = model.vocabSize;
    json["gatedFfn"] = model.gatedFfn;
    // Mixture of experts and a compressed KV cache: written when set (absent: 0, a dense model
    // with K and V cached), so a dense model's object is the one version 1 wrote.
    const std::pair<const char *, std::int64_t> optional[] { { "experts", model.experts },
        { "expertsPerToken", model.expertsPerToken }, { "sharedExperts", model.sharedExperts },
        { "moeFfnSize", model.moeFfnSize }, { "denseLayers", model.denseLayers },
        { "kvCacheDim", model.kvCacheDim } };
    for (const auto &[key, value] : optional) {
        if (value != 0)
            json[key] = value;
    }
    return json;
}

// The mixture-of-experts fields and the KV cache's width into `model`; false after an error.
bool readMoe(const Json &json, const std::string &path, Reader &in, ModelConfig &model)
{
    const std::pair<const char *, std::int64_t *> fields[] { { "experts", &model.experts },
        { "expertsPerToken", &model.expertsPerToken }, { "sharedExperts", &model.sharedExperts },
        { "moeFfnSize", &model.moeFfnSize }, { "denseLayers", &model.denseLayers },
        { "kvCacheDim", &model.kvCacheDim } };
    bool ok = true;
    for (const auto &[key, field] : fields) {
        const auto value = in.count(json, key, path, 0);
        if (value)
            *field = *value;
        ok = ok && value.has_value();
    }
    return ok;
}

std::optional<ModelConfig> readModel(const Json &json, const std::string &path, Reader &in)
{
    if (!json.is_object()) {
        in.error(path, "expected a model object");
        return std::nullopt;
    }
    in.checkKeys(json, path,
        { "name", "aliases", "source", "hiddenSize", "layers", "heads", "kvHeads", "headDim",
            "ffnSize", "vocabSize", "gatedFfn", "experts", "expertsPerToken", "sharedExperts",
            "moeFfnSize", "denseLayers", "kvCacheDim" });
    ModelConfig model;
    const auto name = in.string(json, "name", path);
    const auto source = in.string(json, "source", path, std::string());
    const auto hidden = in.integer(json, "hiddenSize", path);
    const auto layers = in.integer(json, "layers", path);
    const auto heads = in.integer(json, "heads", path);
    const auto kvHeads = in.integer(json, "kvHeads", path);
    const auto headDim = in.integer(json, "headDim", path);
    const auto ffn = in.integer(json, "ffnSize", path);
    const auto vocab = in.integer(json, "vocabSize", path);
    const auto gated = in.boolean(json, "gatedFfn", path, true);
    if (const auto it = json.find("aliases"); it != json.end()) {
        if (!it->is_array()) {
            in.error(path + ".aliases", "expected a list of names");
        } else {
            for (const auto &alias : *it) {
                if (alias.is_string())
                    model.aliases.push_back(alias.get<std::string>());
                else
                    in.error(path + ".aliases", "expected a list of names");
            }
        }
    }
    const bool moe = readMoe(json, path, in, model);
    if (!name || !source || !hidden || !layers || !heads || !kvHeads || !headDim || !ffn || !vocab
        || !gated || !moe)
        return std::nullopt;
    model.name = *name;
    model.source = *source;
    model.hiddenSize = *hidden;
    model.layers = *layers;
    model.heads = *heads;
    model.kvHeads = *kvHeads;
    model.headDim = *headDim;
    model.ffnSize = *ffn;
    model.vocabSize = *vocab;
    model.gatedFfn = *gated;
    // The checks a model file gets (core/workloads/llm_config.cpp), with the same reasons.
    if (auto problem = modelShapeProblem(model)) {
        in.error(path, *problem);
        return std::nullopt;
    }
    return model;
}

// {"id", "parameter", "value"} of a sweep's point; false after an error.
bool readSweep(const Json &json, const std::string &at, Reader &in, Workload &workload)
{
    if (!json.is_object()) {
        in.error(at, "expected {\"id\", \"parameter\", \"value\"}");
        return false;
    }
    const auto id = in.integer(json, "id", at);
    const auto parameter = in.string(json, "parameter", at);
    const auto value = in.number(json, "value", at, std::nullopt, true);
    if (!id || !parameter || !value)
        return false;
    workload.sweep = SweepMembership { static_cast<int>(*id), *parameter, *value };
    return true;
}

std::optional<ShardSpec> readShards(const Json &json, const std::string &at, Reader &in)
{
    ShardSpec shards;
    const auto chips = in.integer(json, "chips", at);
    const auto network = in.string(json, "network", at, std::string());
    if (!chips || !network)
        return std::nullopt;
    shards.chips = *chips;
    shards.network = *network;
    if (json.contains("networkBandwidth")) {
        shards.networkBandwidth = in.number(json, "networkBandwidth", at, std::nullopt, true);
        if (!shards.networkBandwidth)
            return std::nullopt;
    }
    return shards;
}

std::optional<MatmulWorkload> readMatmul(const Json &json, const std::string &path, Reader &in)
{
    in.checkKeys(
        json, path, { "kind", "b", "d", "f", "dtype", "tile", "shards", "group", "sweep" });
    MatmulWorkload m;
    const auto b = in.integer(json, "b", path);
    const auto d = in.integer(json, "d", path);
    const auto f = in.integer(json, "f", path);
    const auto dtype = in.precision(json, "dtype", path, Precision::BF16);
    if (!b || !d || !f || !dtype)
        return std::nullopt;
    m.spec.b = *b;
    m.spec.d = *d;
    m.spec.f = *f;
    m.spec.dtype = *dtype;
    if (const auto it = json.find("tile"); it != json.end()) {
        const auto bm = in.integer(*it, "bm", path + ".tile");
        const auto bk = in.integer(*it, "bk", path + ".tile");
        const auto bn = in.integer(*it, "bn", path + ".tile");
        if (!bm || !bk || !bn)
            return std::nullopt;
        m.tile = TileSpec { *bm, *bk, *bn };
    }
    if (const auto it = json.find("shards"); it != json.end()) {
        m.shards = readShards(*it, path + ".shards", in);
        if (!m.shards)
            return std::nullopt;
    }
    return m;
}

// The block scales of 4-bit tensors: both keys or neither (absent: no scales); false after an
// error.
bool readScales(const Json &json, const std::string &path, Reader &in, LlmSpec &spec)
{
    const bool hasBlock = json.contains("scaleBlock");
    const bool hasBytes = json.contains("scaleBytes");
    if (!hasBlock && !hasBytes)
        return true;
    if (!hasBytes) {
        in.error(path + ".scaleBytes", "missing (expected the bytes of a scale with scaleBlock)");
        return false;
    }
    if (!hasBlock) {
        in.error(
            path + ".scaleBlock", "missing (expected the elements a scale covers with scaleBytes)");
        return false;
    }
    const auto block = in.count(json, "scaleBlock", path, 0);
    const auto bytes = in.number(json, "scaleBytes", path, std::nullopt, false);
    if (bytes && *bytes < 0.0) {
        in.error(path + ".scaleBytes",
            "expected a non-negative finite number, found " + dump(json["scaleBytes"]));
        return false;
    }
    if (!block || !bytes)
        return false;
    spec.scaleBlock = *block;
    spec.scaleBytes = *bytes;
    return true;
}

// Parallelism (absent: 1), block scales (absent: none) and the precision mode's name (absent:
// the types chosen one by one) into `spec`; false after an error.
bool readParallelAndPrecision(const Json &json, const std::string &path, Reader &in, LlmSpec &spec)
{
    const auto tp = in.integer(json, "tp", path, 1);
    const auto ep = in.integer(json, "ep", path, 1);
    const auto pp = in.integer(json, "pp", path, 1);
    const bool scales = readScales(json, path, in, spec);
    const auto mode = in.string(json, "precisionMode", path, std::string());
    if (mode && !mode->empty()) {
        // Only the name is taken: the types and scales are the saved ones.
        if (auto known = withLlmPrecisionMode(LlmSpec {}, *mode); !known) {
            in.error(path + ".precisionMode", known.error());
            return false;
        }
    }
    if (!tp || !ep || !pp || !scales || !mode)
        return false;
    spec.tp = *tp;
    spec.ep = *ep;
    spec.pp = *pp;
    spec.precisionMode = *mode;
    return true;
}

std::optional<LlmWorkload> readLlm(const Json &json, const std::string &path, Reader &in)
{
    in.checkKeys(json, path,
        { "kind", "model", "phase", "seq", "batch", "weights", "activations", "kv",
            "fusedAttention", "tp", "ep", "pp", "scaleBlock", "scaleBytes", "precisionMode",
            "operator", "group", "sweep" });
    LlmWorkload l;
    const auto model
        = json.contains("model") ? readModel(json["model"], path + ".model", in) : std::nullopt;
    if (!json.contains("model"))
        in.error(path + ".model", "missing (expected the model's shape)");
    const auto phaseName = in.string(json, "phase", path);
    const auto seq = in.integer(json, "seq", path);
    const auto batch = in.integer(json, "batch", path);
    const auto weights = in.precision(json, "weights", path);
    const auto activations = in.precision(json, "activations", path);
    const auto kv = in.precision(json, "kv", path);
    const auto fused = in.boolean(json, "fusedAttention", path, false);
    const bool rest = readParallelAndPrecision(json, path, in, l.spec);
    const auto op = in.string(json, "operator", path, std::string());
    std::optional<LlmPhase> phase;
    if (phaseName) {
        phase = llmPhaseFromName(*phaseName);
        if (!phase)
            in.error(path + ".phase",
                "unknown phase \"" + *phaseName + "\" (expected prefill or decode)");
    }
    if (!model || !phase || !seq || !batch || !weights || !activations || !kv || !fused || !rest
        || !op)
        return std::nullopt;
    l.model = *model;
    l.spec.phase = *phase;
    l.spec.seq = *seq;
    l.spec.batch = *batch;
    l.spec.weights = *weights;
    l.spec.activations = *activations;
    l.spec.kv = *kv;
    l.spec.fusedAttention = *fused;
    l.operatorKind = *op;
    return l;
}

// The LLM step's parameters beyond version 1's, each written when it differs from its default.
void writeParallelAndPrecision(const LlmSpec &spec, Json &json)
{
    const std::pair<const char *, std::int64_t> degrees[] { { "tp", spec.tp }, { "ep", spec.ep },
        { "pp", spec.pp } };
    for (const auto &[key, value] : degrees) {
        if (value != 1)
            json[key] = value;
    }
    if (spec.scaleBlock != 0 || spec.scaleBytes != 0.0) {
        json["scaleBlock"] = spec.scaleBlock;
        json["scaleBytes"] = spec.scaleBytes;
    }
    if (!spec.precisionMode.empty())
        json["precisionMode"] = spec.precisionMode;
}

} // namespace

Json workloadObject(const Workload &workload)
{
    Json json;
    if (const auto *m = std::get_if<MatmulWorkload>(&workload.model)) {
        json["kind"] = "matmul";
        json["b"] = m->spec.b;
        json["d"] = m->spec.d;
        json["f"] = m->spec.f;
        json["dtype"] = precisionName(m->spec.dtype);
        if (m->tile)
            json["tile"] = { { "bm", m->tile->bm }, { "bk", m->tile->bk }, { "bn", m->tile->bn } };
        if (m->shards) {
            Json shards { { "chips", m->shards->chips } };
            if (!m->shards->network.empty())
                shards["network"] = m->shards->network;
            if (m->shards->networkBandwidth)
                shards["networkBandwidth"] = *m->shards->networkBandwidth;
            json["shards"] = std::move(shards);
        }
    } else {
        const auto &l = std::get<LlmWorkload>(workload.model);
        json["kind"] = "llm";
        json["model"] = modelObject(l.model);
        json["phase"] = llmPhaseName(l.spec.phase);
        json["seq"] = l.spec.seq;
        json["batch"] = l.spec.batch;
        json["weights"] = precisionName(l.spec.weights);
        json["activations"] = precisionName(l.spec.activations);
        json["kv"] = precisionName(l.spec.kv);
        json["fusedAttention"] = l.spec.fusedAttention;
        writeParallelAndPrecision(l.spec, json);
        if (!l.operatorKind.empty())
            json["operator"] = l.operatorKind;
    }
    if (!workload.group.empty())
        json["group"] = workload.group;
    if (workload.sweep)
        json["sweep"] = { { "id", workload.sweep->id }, { "parameter", workload.sweep->parameter },
            { "value", workload.sweep->value } };
    return json;
}

std::optional<Workload> readWorkload(const Json &json, const std::string &path, Reader &in)
{
    if (!json.is_object()) {
        in.error(path, "expected a workload object");
        return std::nullopt;
    }
    Workload workload;
    const auto kind = in.string(json, "kind", path);
    if (!kind)
        return std::nullopt;
    const auto group = in.string(json, "group", path, std::string());
    if (group)
        workload.group = *group;
    if (const auto it = json.find("sweep"); it != json.end()) {
        if (!readSweep(*it, path + ".sweep", in, workload))
            return std::nullopt;
    }
    if (*kind == "matmul") {
        auto m = readMatmul(json, path, in);
        if (!m)
            return std::nullopt;
        workload.model = std::move(*m);
        return workload;
    }
    if (*kind == "llm") {
        auto l = readLlm(json, path, in);
        if (!l)
            return std::nullopt;
        workload.model = std::move(*l);
        return workload;
    }
    in.error(path + ".kind", "unknown workload \"" + *kind + "\" (expected matmul or llm)");
    return std::nullopt;
}

} // namespace ridgepoint::session_json
