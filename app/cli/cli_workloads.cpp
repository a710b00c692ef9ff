// The workload subcommands: `matmul` and `llm` (each with --sweep PARAM=A:B[:xSTEP]).
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"

#include "core/workloads/llm.h"
#include "core/workloads/sweep.h"
#include "core/model/units.h"
#include "core/report/workload_report.h"
#include "core/workloads/workloads.h"

#include <cmath>
#include <functional>

namespace ridgepoint::cli {
namespace {

void print(const std::string &text)
{
    out() << QString::fromStdString(text);
    out().flush();
}

bool fail(const QString &message)
{
    err() << message << Qt::endl;
    return false;
}

// A positive integer option; `fallback` when absent.
bool integerOption(const QCommandLineParser &parser, const QString &name, std::int64_t &value)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const qlonglong parsed = parser.value(name).toLongLong(&ok);
    if (!ok || parsed < 1)
        return fail(
            "--" + name + ": expected a positive integer, got \"" + parser.value(name) + "\"");
    value = parsed;
    return true;
}

bool precisionOption(const QCommandLineParser &parser, const QString &name,
    const std::vector<Precision> &allowed, Precision &value)
{
    if (!parser.isSet(name))
        return true;
    const auto parsed = precisionFromName(parser.value(name).toStdString());
    if (parsed && std::ranges::find(allowed, *parsed) != allowed.end()) {
        value = *parsed;
        return true;
    }
    QString names;
    for (Precision p : allowed)
        names
            += (names.isEmpty() ? "" : "|") + QString::fromStdString(std::string(precisionName(p)));
    return fail("--" + name + ": expected " + names + ", got \"" + parser.value(name) + "\"");
}

// Without --hardware the machine is one ceiling from --peak and --bandwidth: let it stand for
// the precision the workload computes in.
void adoptPrecision(const QCommandLineParser &parser, Hardware &hardware, Precision precision)
{
    if (!parser.isSet("hardware") && hardware.compute.size() == 1)
        hardware.compute.front().precision = precision;
}

std::optional<SweepRange> sweepOption(
    const QCommandLineParser &parser, const QStringList &parameters)
{
    auto range = parseSweep(parser.value("sweep").toStdString());
    if (!range) {
        fail("--sweep: " + QString::fromStdString(range.error()));
        return std::nullopt;
    }
    if (!parameters.contains(QString::fromStdString(range->parameter))) {
        fail("--sweep: unknown parameter \"" + QString::fromStdString(range->parameter)
            + "\" (one of " + parameters.join(", ") + ")");
        return std::nullopt;
    }
    return *range;
}

// Sweeps integer parameters: values are rounded and repeats dropped.
int runIntegerSweep(const SweepRange &range, const Hardware &hardware, bool json,
    const std::function<ridgepoint::Expected<AnalyzedPoint, std::string>(std::int64_t)> &model)
{
    auto values = sweepValues(range);
    if (!values) {
        fail("--sweep: " + QString::fromStdString(values.error()));
        return kExitBadInput;
    }
    std::vector<double> rounded;
    for (double v : *values) {
        const double r = std::round(v);
        if (rounded.empty() || rounded.back() != r)
            rounded.push_back(r);
    }
    auto result = runSweep(
        range.parameter, rounded, [&](double v) { return model(static_cast<std::int64_t>(v)); });
    if (!result) {
        fail(QString::fromStdString(result.error()));
        return kExitBadInput;
    }
    print(json ? sweepJson(hardware, *result) : sweepTable(*result));
    return kExitOk;
}

} // namespace

int runMatmul(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Place a planned matmul X[B,D]·Y[D,F] on a machine's roofline (docs/MODEL.md sections "
        "5.2-5.4 and 6): FLOPs 2BDF, bytes of every tensor, intensity, bound, and the exact "
        "critical batch next to the large-D approximation.");
    addHardwareOptions(parser);
    parser.addOption({ "b", "Batch (rows of X).", "B" });
    parser.addOption({ "d", "Contracted dimension.", "D" });
    parser.addOption({ "f", "Columns of Y.", "F" });
    parser.addOption({ "dtype", "Element type: bf16 (default), fp16, fp32, fp8, int8.", "type" });
    parser.addOption({ "quant", "Quantization: none (default), int8, w8a16, w4a16.", "mode" });
    parser.addOption({ "tile", "Tile sizes for the tiled byte count (section 4.4).", "BM,BK,BN" });
    parser.addOption(
        { "shards", "Chips sharing D (section 4.3); partial sums cross the network.", "N" });
    parser.addOption(
        { "network", "Network ceiling or level (ICI, NVLink, PCIe) for --shards.", "name" });
    parser.addOption(
        { "network-bandwidth", "Bandwidth of the network link, e.g. 45 GB/s.", "B/s" });
    parser.addOption(
        { "sweep", "Sweep a parameter (b, d, f, shards, tile): PARAM=A:B[:xK|:+K].", "spec" });
    parser.addOption({ "json", "Print one JSON object (numbers in SI base units)." });
    int status = kExitOk;
    if (!parseOrExplain(parser, arguments, status))
        return status;
    if (!parser.positionalArguments().isEmpty()) {
        err() << "matmul takes no file arguments" << Qt::endl;
        return kExitBadInput;
    }

    MatmulSpec spec;
    const QString swept = parser.value("sweep").section('=', 0, 0);
    for (const char *name : { "b", "d", "f" }) {
        if (!parser.isSet(name) && swept != name) {
            err() << "matmul needs --b, --d and --f (--" << name << " is missing)" << Qt::endl;
            return kExitBadInput;
        }
    }
    if (!integerOption(parser, "b", spec.b) || !integerOption(parser, "d", spec.d)
        || !integerOption(parser, "f", spec.f))
        return kExitBadInput;
    if (!precisionOption(parser, "dtype",
            { Precision::BF16, Precision::FP16, Precision::FP32, Precision::FP8, Precision::INT8 },
            spec.dtype))
        return kExitBadInput;
    if (parser.isSet("quant")) {
        const auto mode = quantModeFromName(parser.value("quant").toStdString());
        if (!mode) {
            err() << "--quant: expected none|int8|w8a16|w4a16, got \"" << parser.value("quant")
                  << "\"" << Qt::endl;
            return kExitBadInput;
        }
        spec.quant = *mode;
    }
    std::optional<TileSpec> tile;
    if (parser.isSet("tile")) {
        const QStringList parts = parser.value("tile").split(',');
        std::vector<std::int64_t> sizes;
        for (const QString &part : parts) {
            bool ok = false;
            const qlonglong v = part.trimmed().toLongLong(&ok);
            if (ok && v > 0)
                sizes.push_back(v);
        }
        if (parts.size() != 3 || sizes.size() != 3) {
            err() << "--tile: expected three positive integers BM,BK,BN, got \""
                  << parser.value("tile") << "\"" << Qt::endl;
            return kExitBadInput;
        }
        tile = TileSpec { sizes[0], sizes[1], sizes[2] };
    }
    std::optional<ShardSpec> shards;
    if (parser.isSet("shards") || parser.isSet("network") || parser.isSet("network-bandwidth")) {
        ShardSpec s;
        if (!integerOption(parser, "shards", s.chips))
            return kExitBadInput;
        s.network = parser.value("network").toStdString();
        if (parser.isSet("network-bandwidth")) {
            auto bw = parsePositiveQuantity(
                parser.value("network-bandwidth").toStdString(), Dimension::ByteRate);
            if (!bw) {
                err() << "--network-bandwidth: " << QString::fromStdString(bw.error()) << Qt::endl;
                return kExitBadInput;
            }
            s.networkBandwidth = *bw;
        }
        shards = s;
    }

    auto hardware = hardwareFromOptions(parser);
    if (!hardware)
        return kExitBadInput;
    adoptPrecision(parser, *hardware, matmulDtypes(spec.dtype, spec.quant).compute);
    CeilingChoice choice;
    choice.computeName = parser.value("compute").toStdString();
    const bool json = parser.isSet("json");

    if (parser.isSet("sweep")) {
        const auto range = sweepOption(parser, { "b", "d", "f", "shards", "tile" });
        if (!range)
            return kExitBadInput;
        if (range->parameter == "tile" && !tile)
            tile = TileSpec {};
        if (range->parameter == "shards" && !shards)
            shards = ShardSpec {};
        return runIntegerSweep(*range, *hardware, json,
            [&](std::int64_t v) -> ridgepoint::Expected<AnalyzedPoint, std::string> {
                MatmulSpec s = spec;
                auto t = tile;
                auto n = shards;
                if (range->parameter == "b")
                    s.b = v;
                else if (range->parameter == "d")
                    s.d = v;
                else if (range->parameter == "f")
                    s.f = v;
                else if (range->parameter == "shards")
                    n->chips = v;
                else
                    t->bm = t->bn = v;
                auto r = modelMatmul(s, *hardware, choice, t, n);
                if (!r)
                    return ridgepoint::Unexpected(r.error());
                return AnalyzedPoint { r->point, r->analysis };
            });
    }

    auto result = modelMatmul(spec, *hardware, choice, tile, shards);
    if (!result) {
        err() << QString::fromStdString(result.error()) << Qt::endl;
        return kExitBadInput;
    }
    print(json ? matmulJson(*result) : matmulTable(*result));
    return kExitOk;
}

int runLlm(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Place the operators of an LLM prefill or decode step on a machine's roofline "
        "(docs/MODEL.md section 8): one point per operator kind plus the whole model. With "
        "--measured-time, find the bottleneck of a measured generation instead.");
    addHardwareOptions(parser);
    parser.addOption(
        { "model", "Model configuration by name (Llama-2-7B, Mistral-7B, ...).", "name" });
    parser.addOption({ "phase", "prefill or decode.", "phase" });
    parser.addOption({ "seq", "Prefill: prompt tokens. Decode: context length.", "N" });
    parser.addOption({ "batch", "Sequences processed together (default 1).", "N" });
    parser.addOption({ "weights", "Weight type: bf16 (default), fp16, int8, int4.", "type" });
    parser.addOption({ "activations", "Activation type: bf16 (default), fp16, int8.", "type" });
    parser.addOption({ "kv", "KV-cache type: bf16 (default), fp16, int8.", "type" });
    parser.addOption({ "flash-attention", "Fused attention: scores never reach memory." });
    parser.addOption({ "prompt-len", "Measured generation: prompt tokens.", "N" });
    parser.addOption({ "gen-tokens", "Measured generation: generated tokens.", "N" });
    parser.addOption({ "measured-time", "Measured generation: wall time, e.g. 2.5 s.", "time" });
    parser.addOption({ "sweep", "Sweep batch or seq: PARAM=A:B[:xK|:+K].", "spec" });
    parser.addOption({ "json", "Print one JSON object (numbers in SI base units)." });
    int status = kExitOk;
    if (!parseOrExplain(parser, arguments, status))
        return status;
    if (!parser.positionalArguments().isEmpty()) {
        err() << "llm takes no file arguments" << Qt::endl;
        return kExitBadInput;
    }
    if (!parser.isSet("model")) {
        err() << "llm needs --model NAME" << Qt::endl;
        return kExitBadInput;
    }
    std::vector<Diagnostic> problems;
    const auto models = builtinModels(&problems);
    for (const auto &d : problems)
        err() << QString::fromStdString(d.toString()) << Qt::endl;
    const auto model = findModel(models, parser.value("model").toStdString());
    if (!model) {
        err() << "--model: " << QString::fromStdString(model.error()) << Qt::endl;
        return kExitBadInput;
    }

    LlmSpec spec;
    const bool measured = parser.isSet("measured-time");
    if (!measured) {
        if (!parser.isSet("phase")) {
            err() << "llm needs --phase prefill|decode (or --measured-time)" << Qt::endl;
            return kExitBadInput;
        }
        const auto phase = llmPhaseFromName(parser.value("phase").toStdString());
        if (!phase) {
            err() << "--phase: expected prefill|decode, got \"" << parser.value("phase") << "\""
                  << Qt::endl;
            return kExitBadInput;
        }
        spec.phase = *phase;
        if (!parser.isSet("seq") && !parser.isSet("sweep")) {
            err() << "llm needs --seq N" << Qt::endl;
            return kExitBadInput;
        }
    }
    if (!integerOption(parser, "seq", spec.seq) || !integerOption(parser, "batch", spec.batch))
        return kExitBadInput;
    if (!precisionOption(parser, "weights",
            { Precision::BF16, Precision::FP16, Precision::INT8, Precision::INT4 }, spec.weights)
        || !precisionOption(parser, "activations",
            { Precision::BF16, Precision::FP16, Precision::INT8 }, spec.activations)
        || !precisionOption(
            parser, "kv", { Precision::BF16, Precision::FP16, Precision::INT8 }, spec.kv))
        return kExitBadInput;
    spec.fusedAttention = parser.isSet("flash-attention");

    auto hardware = hardwareFromOptions(parser);
    if (!hardware)
        return kExitBadInput;
    adoptPrecision(parser, *hardware, llmComputePrecision(spec));
    AnalysisOptions options;
    options.computeCeiling = parser.value("compute").toStdString();
    const bool json = parser.isSet("json");

    if (measured) {
        std::int64_t prompt = 0;
        std::int64_t generated = 0;
        if (!parser.isSet("prompt-len") || !parser.isSet("gen-tokens")) {
            err() << "--measured-time needs --prompt-len and --gen-tokens" << Qt::endl;
            return kExitBadInput;
        }
        if (!integerOption(parser, "prompt-len", prompt)
            || !integerOption(parser, "gen-tokens", generated))
            return kExitBadInput;
        const auto seconds
            = parsePositiveQuantity(parser.value("measured-time").toStdString(), Dimension::Time);
        if (!seconds) {
            err() << "--measured-time: " << QString::fromStdString(seconds.error()) << Qt::endl;
            return kExitBadInput;
        }
        auto g = analyzeGeneration(*model, spec, prompt, generated, *seconds, *hardware, options);
        if (!g) {
            err() << QString::fromStdString(g.error()) << Qt::endl;
            return kExitBadInput;
        }
        print(json ? generationJson(*hardware, *g) : generationTable(*g));
        return kExitOk;
    }

    if (parser.isSet("sweep")) {
        const auto range = sweepOption(parser, { "batch", "seq" });
        if (!range)
            return kExitBadInput;
        return runIntegerSweep(*range, *hardware, json,
            [&](std::int64_t v) -> ridgepoint::Expected<AnalyzedPoint, std::string> {
                LlmSpec s = spec;
                (range->parameter == "batch" ? s.batch : s.seq) = v;
                auto r = modelLlm(*model, s, *hardware, options);
                if (!r)
                    return ridgepoint::Unexpected(r.error());
                return r->total;
            });
    }

    auto result = modelLlm(*model, spec, *hardware, options);
    if (!result) {
        err() << QString::fromStdString(result.error()) << Qt::endl;
        return kExitBadInput;
    }
    print(json ? llmJson(*hardware, *model, spec, *result)
               : llmTable(*hardware, *model, spec, *result));
    return kExitOk;
}

} // namespace ridgepoint::cli
