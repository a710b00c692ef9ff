#include "core/report/workload_report.h"

#include "core/model/units.h"
#include "core/report/report.h"
#include "core/workloads/llm_attention_io.h"

#include "core/io/json_detail.h"

namespace ridgepoint {
namespace {

using Json = nlohmann::ordered_json;

// The points exactly as `analyze --json` prints them, so every consumer reads one shape.
Json analysedPoints(
    const Hardware &hardware, const std::vector<AnalyzedPoint> &points, Json *machine)
{
    Json all = Json::parse(analysisJson(hardware, points));
    if (machine)
        *machine = all["hardware"];
    return all["points"];
}

std::string quantity(double value, Dimension dimension)
{
    return formatQuantity(value, dimension, 4);
}

// "io_bounds" and "beyond_io_bound" of a matmul (docs/MODEL.md §12), when the machine gives
// on-chip capacities; nothing otherwise.
void addIoBounds(const MatmulResult &r, Json &j)
{
    if (r.ioBounds.empty())
        return;
    j["io_word_bytes"] = r.ioWordBytes;
    Json bounds = Json::array();
    for (const IoBound &b : r.ioBounds) {
        Json one;
        one["level"] = memoryLevelName(b.capacity.level);
        one["name"] = b.capacity.name;
        one["capacity"] = b.capacity.bytes;
        one["per"] = b.capacity.per;
        one["against"] = memoryLevelName(b.against);
        one["max_intensity"] = b.maxIntensity;
        bounds.push_back(std::move(one));
    }
    j["io_bounds"] = std::move(bounds);
    j["beyond_io_bound"] = r.beyondIoBound.has_value();
    if (r.beyondIoBound) {
        const IoBoundExcess &e = *r.beyondIoBound;
        j["io_bound"] = { { "level", memoryLevelName(e.bound.capacity.level) },
            { "capacity", e.bound.capacity.bytes }, { "capacity_needed", e.capacityNeeded },
            { "min_traffic", e.minTrafficBytes }, { "explanation", ioBoundDiagnosis(e).evidence } };
    }
}

// One line: "L1 228 KiB per sm: 170.8 FLOP/B against L2; L2 50 MiB per chip: 2560 ...".
std::string ioBoundsLine(const MatmulResult &r)
{
    std::string out;
    for (const IoBound &b : r.ioBounds) {
        out += (out.empty() ? "" : "; ") + std::string(memoryLevelName(b.capacity.level)) + " "
            + capacityText(b.capacity.bytes)
            + (b.capacity.per.empty() ? std::string() : " per " + b.capacity.per) + ": "
            + formatSignificant(b.maxIntensity, 4) + " FLOP/B against "
            + std::string(memoryLevelName(b.against));
    }
    return out;
}

// The attention I/O bound of a fused step (docs/MODEL.md §12.1) on both operators it covers:
// "io_bounds" as for a matmul, with the bound's least bytes of the two operators together
// (all layers), the intensity that allows at this shape and the shape-free limit.
void addAttentionIoBounds(const LlmAttentionIo &io, Json &points)
{
    Json bounds = Json::array();
    for (const AttentionIoBound &a : io.bounds) {
        Json one;
        one["level"] = memoryLevelName(a.bound.capacity.level);
        one["name"] = a.bound.capacity.name;
        one["capacity"] = a.bound.capacity.bytes;
        one["per"] = a.bound.capacity.per;
        one["units"] = a.units;
        one["against"] = memoryLevelName(a.bound.against);
        one["min_traffic"] = a.minTrafficBytes * io.layers;
        one["max_intensity"] = a.bound.maxIntensity;
        one["limit_intensity"] = a.limitIntensity;
        bounds.push_back(std::move(one));
    }
    const AttentionShape &s = io.shape;
    const Json shape
        = { { "heads", s.heads }, { "kv_heads", s.kvHeads }, { "n", s.n }, { "n_kv", s.nKv },
              { "pairs", s.pairs }, { "d", s.d }, { "dv", s.dv }, { "layers", io.layers } };
    for (Json &p : points) {
        const std::string name = p.value("name", std::string());
        if (!isAttentionIoOperator(name))
            continue;
        p["io_word_bytes"] = attentionWordBytes(s);
        p["io_shape"] = shape;
        p["io_bounds"] = bounds;
        const double own = name == "attention score" ? io.scoreBytes : io.valueBytes;
        const auto excess = llmAttentionExcess(io, name, own);
        p["beyond_io_bound"] = excess.has_value();
        if (excess)
            p["io_bound"] = { { "level", memoryLevelName(excess->bound.capacity.level) },
                { "capacity_needed", excess->capacityNeeded },
                { "min_traffic", excess->minTrafficBytes },
                { "explanation", ioBoundDiagnosis(*excess).evidence } };
    }
}

// One line for the table: "attention I/O bound (score and value together): L1 228 KiB per sm:
// at least 446.6 MB, 2462 FLOP/B against L2; ...".
std::string attentionIoLine(const LlmAttentionIo &io)
{
    std::string out;
    for (const AttentionIoBound &a : io.bounds) {
        const MemoryCapacity &c = a.bound.capacity;
        out += (out.empty() ? "" : "; ") + std::string(memoryLevelName(c.level)) + " "
            + capacityText(c.bytes) + (c.per.empty() ? std::string() : " per " + c.per)
            + ": at least " + quantity(a.minTrafficBytes * io.layers, Dimension::Bytes) + ", "
            + formatSignificant(a.bound.maxIntensity, 4) + " FLOP/B against "
            + std::string(memoryLevelName(a.bound.against));
    }
    return "attention I/O bound (score and value together, MODEL.md §12.1): " + out + "\n";
}

} // namespace

std::string matmulJson(const MatmulResult &r)
{
    Json j;
    j["name"] = r.point.name;
    j["dtypes"] = { { "x", precisionName(r.dtypes.x) }, { "y", precisionName(r.dtypes.y) },
        { "z", precisionName(r.dtypes.z) }, { "compute", precisionName(r.dtypes.compute) } };
    j["flops"] = r.flops;
    Json bytes = Json::object();
    for (const auto &level : r.analysis.levels)
        bytes[std::string(memoryLevelName(level.level))] = level.bytes;
    j["bytes"] = bytes;
    j["tensor_bytes"] = { { "x", r.bytesX }, { "y", r.bytesY }, { "z", r.bytesZ } };
    j["intensity"] = r.intensity;
    j["ridge_intensity"] = r.ridge;
    j["compute_ceiling"] = r.computeCeiling;
    j["peak"] = r.peak;
    j["memory_ceiling"] = r.memoryCeiling;
    j["bandwidth"] = r.bandwidth;
    j["attainable"] = r.analysis.attainable;
    j["bound"] = boundName(r.analysis.bound);
    j["limiting_ceiling"] = r.analysis.limitingCeiling;
    j["t_math"] = r.tMath;
    j["t_mem"] = r.tMem;
    j["t_min"] = r.analysis.tMin;
    j["t_max"] = r.analysis.tMax;
    j["critical_batch"] = r.criticalBatch ? Json(*r.criticalBatch) : Json(nullptr);
    j["critical_batch_approx"] = r.criticalBatchApprox;
    j["intensity_limit"] = r.intensityLimit;
    if (r.tile) {
        j["tile"] = { { "bm", r.tile->bm }, { "bk", r.tile->bk }, { "bn", r.tile->bn } };
        j["tiles"] = { { "m", r.tilesM }, { "k", r.tilesK }, { "n", r.tilesN } };
        j["tile_intensity_approx"] = r.tileIntensityApprox;
    }
    if (r.chips > 1 || !r.networkCeiling.empty()) {
        j["shards"] = r.chips;
        j["network_ceiling"] = r.networkCeiling;
        j["network_bandwidth"] = r.networkBandwidth;
        j["network_bytes"] = r.networkBytes;
        j["t_network"] = r.tNetwork;
        j["critical_d"] = r.criticalD;
    }
    addIoBounds(r, j);
    return detail::dumpJson(j, 2) + "\n";
}

std::string matmulTable(const MatmulResult &r)
{
    std::vector<std::vector<std::string>> rows;
    auto row = [&](std::string key, std::string value) {
        rows.push_back({ std::move(key), std::move(value) });
    };
    row("workload", r.point.name);
    row("dtypes (X, Y, Z, compute)",
        std::string(precisionName(r.dtypes.x)) + ", " + std::string(precisionName(r.dtypes.y))
            + ", " + std::string(precisionName(r.dtypes.z)) + ", "
            + std::string(precisionName(r.dtypes.compute)));
    row("FLOPs", quantity(r.flops, Dimension::Flops));
    row("bytes (" + r.memoryCeiling + ")", quantity(r.bytes, Dimension::Bytes));
    row("intensity", formatSignificant(r.intensity, 5) + " FLOP/B");
    row("ridge " + r.computeCeiling + " / " + r.memoryCeiling,
        formatSignificant(r.ridge, 5) + " FLOP/B");
    row("attainable", quantity(r.analysis.attainable, Dimension::FlopRate));
    row("bound",
        std::string(boundName(r.analysis.bound)) + " (" + r.analysis.limitingCeiling + ")");
    row("T_math", quantity(r.tMath, Dimension::Time));
    row("T_mem", quantity(r.tMem, Dimension::Time));
    row("T_min / T_max",
        quantity(r.analysis.tMin, Dimension::Time) + " / "
            + quantity(r.analysis.tMax, Dimension::Time));
    row("critical batch (exact)",
        r.criticalBatch
            ? std::to_string(*r.criticalBatch)
            : "never (intensity tends to " + formatSignificant(r.intensityLimit, 4) + " < ridge)");
    row("critical batch (large D, F)", formatSignificant(r.criticalBatchApprox, 4));
    if (r.tile) {
        row("tiles (m, k, n)",
            std::to_string(r.tilesM) + ", " + std::to_string(r.tilesK) + ", "
                + std::to_string(r.tilesN));
        row("tile intensity (no writes)", formatSignificant(r.tileIntensityApprox, 5) + " FLOP/B");
    }
    if (!r.networkCeiling.empty()) {
        row("network bytes (" + r.networkCeiling + ")", quantity(r.networkBytes, Dimension::Bytes));
        row("T_network", quantity(r.tNetwork, Dimension::Time));
        row("critical D", formatSignificant(r.criticalD, 6));
    }
    if (!r.ioBounds.empty()) {
        row("I/O bound (" + formatNumber(r.ioWordBytes) + "-byte words)", ioBoundsLine(r));
        if (r.beyondIoBound)
            row("beyond the I/O bound", ioBoundDiagnosis(*r.beyondIoBound).evidence);
    }
    return alignedTable(rows, { false, false });
}

std::string llmJson(
    const Hardware &hardware, const ModelConfig &model, const LlmSpec &spec, const LlmResult &r)
{
    Json j;
    Json machine;
    j["points"] = analysedPoints(hardware, r.operators, &machine);
    if (const auto io = llmAttentionIo(model, spec, hardware, r))
        addAttentionIoBounds(*io, j["points"]);
    Json total = analysedPoints(hardware, { r.total }, nullptr);
    Json head;
    head["hardware"] = machine;
    head["model"] = { { "name", model.name }, { "source", model.source },
        { "hidden_size", model.hiddenSize }, { "layers", model.layers }, { "heads", model.heads },
        { "kv_heads", model.kvHeads }, { "head_dim", model.headDim }, { "ffn_size", model.ffnSize },
        { "vocab_size", model.vocabSize } };
    head["phase"] = llmPhaseName(spec.phase);
    head["seq"] = spec.seq;
    head["batch"] = spec.batch;
    head["weights"] = precisionName(spec.weights);
    head["activations"] = precisionName(spec.activations);
    head["kv"] = precisionName(spec.kv);
    head["fused_attention"] = spec.fusedAttention;
    head["compute_precision"] = precisionName(r.computePrecision);
    head["points"] = j["points"];
    head["total"] = total.front();
    head["bound"] = boundName(r.total.analysis.bound);
    head["estimated_seconds"] = r.estimatedSeconds;
    head["memory_bound_seconds"] = r.memoryBoundSeconds;
    head["weight_bytes"] = r.weightBytes;
    head["kv_read_bytes"] = r.kvReadBytes;
    head["kv_write_bytes"] = r.kvWriteBytes;
    return detail::dumpJson(head, 2) + "\n";
}

std::string llmTable(
    const Hardware &hardware, const ModelConfig &model, const LlmSpec &spec, const LlmResult &r)
{
    std::string out = model.name + " " + std::string(llmPhaseName(spec.phase)) + ", seq "
        + std::to_string(spec.seq) + ", batch " + std::to_string(spec.batch) + ", weights "
        + std::string(precisionName(spec.weights)) + ", activations "
        + std::string(precisionName(spec.activations)) + ", KV "
        + std::string(precisionName(spec.kv)) + " on " + hardware.name + "\n\n";
    std::vector<std::vector<std::string>> rows { { "operator", "FLOPs", "bytes", "intensity",
        "attainable", "bound", "T_min" } };
    auto add = [&](const AnalyzedPoint &p) {
        const auto &level = p.analysis.levels.front();
        rows.push_back({ p.point.name, quantity(p.point.flops, Dimension::Flops),
            quantity(level.bytes, Dimension::Bytes), formatSignificant(level.intensity, 4),
            quantity(p.analysis.attainable, Dimension::FlopRate),
            std::string(boundName(p.analysis.bound)), quantity(p.analysis.tMin, Dimension::Time) });
    };
    for (const auto &p : r.operators)
        add(p);
    add(r.total);
    out += alignedTable(rows, { false, true, true, true, true, false, true });
    out += "\nestimated time (operators one after another): "
        + quantity(r.estimatedSeconds, Dimension::Time) + ", "
        + formatSignificant(
            r.estimatedSeconds > 0 ? 100.0 * r.memoryBoundSeconds / r.estimatedSeconds : 0.0, 3)
        + " % of it memory-bound\nKV cache: read " + quantity(r.kvReadBytes, Dimension::Bytes)
        + ", written " + quantity(r.kvWriteBytes, Dimension::Bytes) + "; weights "
        + quantity(r.weightBytes, Dimension::Bytes) + "\n";
    if (const auto io = llmAttentionIo(model, spec, hardware, r))
        out += attentionIoLine(*io);
    return out;
}

std::string generationJson(const Hardware &hardware, const GenerationAnalysis &g)
{
    Json j;
    Json machine;
    Json points = analysedPoints(hardware, { g.point }, &machine);
    j["hardware"] = machine;
    j["point"] = points.front();
    j["bottleneck"] = g.bottleneck;
    j["prefill_flops"] = g.prefillFlops;
    j["prefill_bytes"] = g.prefillBytes;
    j["decode_flops"] = g.decodeFlops;
    j["decode_bytes"] = g.decodeBytes;
    j["tokens_per_second"] = g.tokensPerSecond;
    return detail::dumpJson(j, 2) + "\n";
}

std::string generationTable(const GenerationAnalysis &g)
{
    const auto &a = g.point.analysis;
    std::vector<std::vector<std::string>> rows;
    rows.push_back({ "generation", g.point.point.name });
    rows.push_back({ "FLOPs (prefill + decode)", quantity(g.point.point.flops, Dimension::Flops) });
    rows.push_back(
        { "bytes (prefill + decode)", quantity(g.prefillBytes + g.decodeBytes, Dimension::Bytes) });
    rows.push_back({ "intensity", formatSignificant(a.levels.front().intensity, 4) + " FLOP/B" });
    rows.push_back(
        { "achieved", a.performance ? quantity(*a.performance, Dimension::FlopRate) : "-" });
    rows.push_back({ "attainable", quantity(a.attainable, Dimension::FlopRate) });
    rows.push_back({ "utilization",
        a.utilization ? formatSignificant(*a.utilization * 100.0, 3) + " %" : "-" });
    rows.push_back({ "bottleneck", g.bottleneck });
    rows.push_back({ "tokens/s", formatSignificant(g.tokensPerSecond, 4) });
    if (!a.note.empty())
        rows.push_back({ "note", (a.consistent ? "" : "INCONSISTENT: ") + a.note });
    return alignedTable(rows, { false, false });
}

std::string sweepJson(const Hardware &hardware, const SweepResult &sweep)
{
    std::vector<AnalyzedPoint> points;
    for (const auto &s : sweep.samples)
        points.push_back(s.point);
    Json machine;
    Json list = analysedPoints(hardware, points, &machine);
    for (std::size_t i = 0; i < list.size(); ++i) {
        Json p;
        p["value"] = sweep.samples[i].value;
        for (auto it = list[i].begin(); it != list[i].end(); ++it)
            p[it.key()] = it.value();
        list[i] = std::move(p);
    }
    Json j;
    j["hardware"] = machine;
    j["parameter"] = sweep.parameter;
    j["points"] = list;
    auto crossings = Json::array();
    for (const auto &c : sweep.crossings)
        crossings.push_back({ { "before", c.before }, { "after", c.after },
            { "from", boundName(c.from) }, { "to", boundName(c.to) } });
    j["crossings"] = crossings;
    return detail::dumpJson(j, 2) + "\n";
}

std::string sweepTable(const SweepResult &sweep)
{
    std::vector<std::vector<std::string>> rows { { sweep.parameter, "FLOPs", "bytes", "intensity",
        "attainable", "bound", "T_min" } };
    for (const auto &s : sweep.samples) {
        const auto &a = s.point.analysis;
        rows.push_back({ formatNumber(s.value), quantity(s.point.point.flops, Dimension::Flops),
            quantity(a.levels.front().bytes, Dimension::Bytes),
            formatSignificant(a.levels.front().intensity, 4),
            quantity(a.attainable, Dimension::FlopRate), std::string(boundName(a.bound)),
            quantity(a.tMin, Dimension::Time) });
    }
    std::string out = alignedTable(rows, { true, true, true, true, true, false, true });
    if (sweep.crossings.empty())
        out += "\nno crossing: the bound stays "
            + std::string(
                sweep.samples.empty() ? "-" : boundName(sweep.samples.front().point.analysis.bound))
            + " over the range\n";
    for (const auto &c : sweep.crossings)
        out += "\ncrossing: " + std::string(boundName(c.from)) + " -> "
            + std::string(boundName(c.to)) + " between " + sweep.parameter + " = "
            + formatNumber(c.before) + " and " + formatNumber(c.after) + "\n";
    return out;
}

} // namespace ridgepoint
