#include "core/workloads/llm_parallel.h"

#include "core/io/json_detail.h"
#include "core/model/chip_link.h"
#include "core/model/units.h"
#include "core/workloads/workloads.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace ridgepoint {
namespace {

double toDouble(std::int64_t value)
{
    return static_cast<double>(value);
}

std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return (a + b - 1) / b;
}

std::optional<std::string> checkDegrees(const ModelConfig &model, const LlmSpec &spec)
{
    constexpr std::int64_t kMaxDegree = 65536;
    for (auto [name, value] :
        { std::pair { "tp", spec.tp }, { "ep", spec.ep }, { "pp", spec.pp } }) {
        if (value < 1 || value > kMaxDegree)
            return std::string("--") + name + " must be an integer from 1 to "
                + std::to_string(kMaxDegree) + " (got " + std::to_string(value) + ")";
    }
    if (model.heads % spec.tp != 0)
        return "tp " + std::to_string(spec.tp) + " does not divide the " + model.name + "'s "
            + std::to_string(model.heads) + " attention heads";
    if (spec.ep > 1 && model.experts == 0)
        return "ep " + std::to_string(spec.ep) + " needs a mixture-of-experts model (" + model.name
            + " has no experts)";
    if (spec.ep > 1 && model.experts % spec.ep != 0)
        return "ep " + std::to_string(spec.ep) + " does not divide the " + model.name + "'s "
            + std::to_string(model.experts) + " experts";
    if (spec.pp > model.layers)
        return "pp " + std::to_string(spec.pp) + " is more stages than " + model.name + "'s "
            + std::to_string(model.layers) + " layers";
    return std::nullopt;
}

// One operator made per chip: FLOPs and bytes over `split`; KV bytes over `kvSplit` (grouped-
// query KV heads are replicated once tp exceeds them).
void divide(LlmOperator &op, double split, double kvSplit)
{
    const double kv = op.kvReadBytesPerLayer + op.kvWriteBytesPerLayer;
    op.flopsPerLayer /= split;
    op.bytesPerLayer = (op.bytesPerLayer - kv) / split + kv / kvSplit;
    op.weightBytesPerLayer /= split;
    op.kvReadBytesPerLayer /= kvSplit;
    op.kvWriteBytesPerLayer /= kvSplit;
}

// The operator's group; operators from before groups were filled in are known by their kind.
std::string groupOf(const LlmOperator &op)
{
    if (!op.group.empty())
        return op.group;
    if (op.kind == "LM head")
        return "head";
    if (op.kind.starts_with("FFN"))
        return "ffn";
    if (op.kind == "QKV projection" || op.kind.starts_with("attention")
        || op.kind == "output projection")
        return "attention";
    return {};
}

LlmOperator collective(
    std::string kind, double flops, double bytes, std::int64_t count, MemoryLevel link)
{
    LlmOperator op;
    op.kind = std::move(kind);
    op.flopsPerLayer = flops;
    op.bytesPerLayer = bytes;
    op.count = count;
    op.group = "collective";
    op.level = link;
    return op;
}

} // namespace

bool llmIsParallel(const LlmSpec &spec)
{
    return spec.tp > 1 || spec.ep > 1 || spec.pp > 1;
}

std::int64_t llmChips(const LlmSpec &spec)
{
    return spec.tp * spec.ep * spec.pp;
}

const MemoryCeiling *llmLinkCeiling(const Hardware &hardware)
{
    if (const MemoryCeiling *link = chipLink(hardware))
        return link;
    return hardware.memoryFor(MemoryLevel::DCN);
}

ridgepoint::Expected<std::vector<LlmOperator>, std::string> parallelizeLlm(
    std::vector<LlmOperator> ops, const ModelConfig &model, const LlmSpec &spec,
    std::optional<MemoryLevel> link, std::string_view machineName)
{
    if (const auto problem = checkDegrees(model, spec))
        return ridgepoint::Unexpected(*problem);
    if (!llmIsParallel(spec))
        return ops;
    if (!link)
        return ridgepoint::Unexpected(std::string(machineName.empty() ? "the machine" : machineName)
            + " has no link ceiling (NVLink, ICI, PCIe or DCN) for the collectives of tp "
            + std::to_string(spec.tp) + ", ep " + std::to_string(spec.ep) + ", pp "
            + std::to_string(spec.pp));

    const double tp = toDouble(spec.tp);
    const double ep = toDouble(spec.ep);
    const double kvSplit = toDouble(std::min(spec.tp, std::max<std::int64_t>(1, model.kvHeads)));
    for (auto &op : ops) {
        const std::string group = groupOf(op);
        if (op.kind == "KV-cache write")
            // Each chip writes the K and V of its own KV heads, replicated once tp exceeds them:
            // the whole write (its activation read too) divides like the cache it fills.
            divide(op, kvSplit, kvSplit);
        else if (group == "attention")
            divide(op, tp, kvSplit);
        else if (group == "ffn" || group == "head")
            divide(op, tp, tp);
        else if (group == "expert")
            divide(op, tp * ep, tp * ep);
        // norm, elementwise, embedding, router: replicated on every chip (unchanged).
        if (spec.pp > 1 && group != "head" && group != "embedding")
            op.count = ceilDiv(op.count, spec.pp);
    }

    // Activations of one step: b · new tokens rows of h elements.
    const double newTokens = spec.phase == LlmPhase::Prefill ? toDouble(spec.seq) : 1.0;
    const double elements = toDouble(spec.batch) * newTokens * toDouble(model.hiddenSize);
    const double sa = bytesPerElement(spec.activations);
    const std::int64_t stageLayers = ceilDiv(model.layers, spec.pp);
    if (spec.tp > 1) {
        // Ring all-reduce: each chip sends 2(N−1)/N of the payload and adds (N−1)/N of its
        // elements (the reduce-scatter half).
        const double share = (tp - 1.0) / tp;
        for (const char *after : { "attention", "FFN" })
            ops.push_back(collective(std::string("TP all-reduce (") + after + ")", share * elements,
                2.0 * share * elements * sa, stageLayers, *link));
    }
    if (spec.ep > 1) {
        // Dispatch sends each token's activations to its k experts, (N−1)/N of them on other
        // chips; combine brings the outputs back and sums them weighted (a multiply and an add
        // per received element).
        const double share = (ep - 1.0) / ep;
        const double routed = elements * toDouble(std::max<std::int64_t>(1, model.expertsPerToken));
        const std::int64_t moeLayers = std::max<std::int64_t>(0, model.layers - model.denseLayers);
        if (moeLayers > 0)
            ops.push_back(collective("EP all-to-all (dispatch + combine)", 2.0 * share * routed,
                2.0 * share * routed * sa, ceilDiv(moeLayers, spec.pp), *link));
    }
    if (spec.pp > 1) {
        // The stage's output activations to the next stage; one FLOP per received element (the
        // residual stream it adds to), a convention so the point has an intensity.
        ops.push_back(collective("PP send/receive", elements, elements * sa, 1, *link));
    }
    return ops;
}

ridgepoint::Expected<std::vector<LlmOperator>, std::string> llmChipOperators(
    const ModelConfig &model, const LlmSpec &spec, const Hardware &hardware)
{
    auto ops = llmOperators(model, spec);
    if (!ops)
        return ridgepoint::Unexpected(ops.error());
    const MemoryCeiling *link = llmLinkCeiling(hardware);
    return parallelizeLlm(std::move(*ops), model, spec,
        link ? std::optional(link->level) : std::nullopt, hardware.name);
}

ridgepoint::Expected<std::optional<LlmNetworkBound>, std::string> llmNetworkBound(
    const ModelConfig &model, const LlmSpec &spec, const Hardware &hardware,
    const AnalysisOptions &options)
{
    if (!llmIsParallel(spec))
        return std::optional<LlmNetworkBound> {};
    const MemoryCeiling *link = llmLinkCeiling(hardware);
    if (!link)
        return ridgepoint::Unexpected(
            hardware.name + " has no link ceiling (NVLink, ICI, PCIe or DCN)");
    struct Split {
        double network = 0.0, rest = 0.0, restMath = 0.0;
    };
    auto split = [&](std::int64_t batch) -> ridgepoint::Expected<Split, std::string> {
        LlmSpec s = spec;
        s.batch = batch;
        auto r = modelLlm(model, s, hardware, options);
        if (!r)
            return ridgepoint::Unexpected(r.error());
        Split out;
        for (const auto &p : r->operators) {
            const bool onLink = !p.point.bytes.empty() && p.point.bytes.front().level
                && isNetwork(*p.point.bytes.front().level);
            (onLink ? out.network : out.rest) += p.analysis.tMin;
            if (!onLink)
                out.restMath += p.analysis.tMath;
        }
        return out;
    };
    auto here = split(spec.batch);
    if (!here)
        return ridgepoint::Unexpected(here.error());
    LlmNetworkBound n;
    n.linkCeiling = link->name;
    n.level = link->level;
    n.linkBandwidth = link->bandwidth; // as analyzePoint uses it
    n.networkSeconds = here->network;
    n.layerSeconds = here->rest;
    if (!(here->network > 0.0))
        return std::optional<LlmNetworkBound>(n);
    n.largeBatchRatio = here->restMath / here->network;
    n.criticalHidden = toDouble(model.hiddenSize) / n.largeBatchRatio;

    // Smallest batch with T_network >= the rest: doubling, then bisection.
    auto bound = [&](std::int64_t b) -> ridgepoint::Expected<bool, std::string> {
        auto at = split(b);
        if (!at)
            return ridgepoint::Unexpected(at.error());
        return at->network >= at->rest;
    };
    std::int64_t low = 0; // not network-bound at low (0: none tried)
    std::int64_t high = 1;
    for (;; high *= 2) {
        auto is = bound(high);
        if (!is)
            return ridgepoint::Unexpected(is.error());
        if (*is)
            break;
        low = high;
        if (high >= kMaxNetworkBoundBatch)
            return std::optional<LlmNetworkBound>(n);
    }
    while (high - low > 1) {
        const std::int64_t mid = low + (high - low) / 2;
        auto is = bound(mid);
        if (!is)
            return ridgepoint::Unexpected(is.error());
        (*is ? high : low) = mid;
    }
    n.batch = high;
    n.tokens = toDouble(high) * (spec.phase == LlmPhase::Prefill ? toDouble(spec.seq) : 1.0);
    return std::optional<LlmNetworkBound>(n);
}

std::string llmParallelText(const LlmSpec &spec, const LlmNetworkBound &n)
{
    std::string out = "\nper chip: tp " + std::to_string(spec.tp) + ", ep "
        + std::to_string(spec.ep) + ", pp " + std::to_string(spec.pp) + " ("
        + std::to_string(llmChips(spec)) + " chips); collectives on " + n.linkCeiling + " ("
        + formatQuantity(n.linkBandwidth, Dimension::ByteRate) + ")\n";
    out += "T_network (collectives, part of the estimated time): "
        + formatQuantity(n.networkSeconds, Dimension::Time) + "; the stage's other operators "
        + formatQuantity(n.layerSeconds, Dimension::Time) + "\n";
    if (n.networkSeconds > 0.0) {
        if (n.batch)
            out += "network-bound (T_network >= the rest) from batch " + std::to_string(*n.batch)
                + " (" + formatSignificant(*n.tokens, 4) + " tokens per step)\n";
        else
            out += "network-bound at no batch up to " + std::to_string(kMaxNetworkBoundBatch)
                + "\n";
        out += "T_math / T_network " + formatSignificant(n.largeBatchRatio, 3)
            + " at any batch: a model of this shape is network-bound at large batch when its "
              "hidden size is below "
            + formatSignificant(n.criticalHidden, 4) + "\n";
    }
    return out;
}

std::string llmJsonWithParallel(
    const std::string &llmJsonText, const LlmSpec &spec, const std::optional<LlmNetworkBound> &n)
{
    auto j = nlohmann::ordered_json::parse(llmJsonText, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return llmJsonText;
    j["tp"] = spec.tp;
    j["ep"] = spec.ep;
    j["pp"] = spec.pp;
    j["chips"] = llmChips(spec);
    if (n) {
        nlohmann::ordered_json p;
        p["link_ceiling"] = n->linkCeiling;
        p["link_level"] = memoryLevelName(n->level);
        p["link_bandwidth"] = n->linkBandwidth;
        p["network_seconds"] = n->networkSeconds;
        p["other_seconds"] = n->layerSeconds;
        p["math_to_network_ratio"] = n->largeBatchRatio;
        p["network_bound_batch"] = n->batch ? nlohmann::ordered_json(*n->batch) : nullptr;
        p["network_bound_tokens"] = n->tokens ? nlohmann::ordered_json(*n->tokens) : nullptr;
        p["critical_hidden_size"] = n->criticalHidden;
        j["parallel"] = p;
    }
    return j.dump(2) + "\n";
}

} // namespace ridgepoint
