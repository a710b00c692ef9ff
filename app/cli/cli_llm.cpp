// `ridgepoint llm`: the operators of an LLM prefill or decode step on a machine's roofline, a
// sweep of its batch or sequence length, or the bottleneck of a measured generation.
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_llm_trajectory.h"
#include "app/cli/cli_options.h"
#include "app/cli/cli_workload_options.h"
#include "core/model/checked_int.h"

#include "core/model/units.h"
#include "core/report/workload_report.h"
#include "core/workloads/llm.h"
#include "core/workloads/llm_parallel.h"

namespace ridgepoint::cli {
namespace {

void addLlmOptions(QCommandLineParser &parser)
{
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
    parser.addOption({ "precision",
        "Precision mode: bf16, fp16, fp8 (w8a8 fp8), w8a8 (int8), w8a16, w4a16, nvfp4, mxfp4 "
        "(weights and activations, block scales counted; instead of --weights/--activations).",
        "mode" });
    parser.addOption(
        { "weights", "Weight type: bf16 (default), fp16, fp8, int8, int4, fp4.", "type" });
    parser.addOption(
        { "activations", "Activation type: bf16 (default), fp16, fp8, int8, fp4.", "type" });
    parser.addOption({ "kv", "KV-cache type: bf16 (default), fp16, fp8, int8.", "type" });
    parser.addOption({ "flash-attention", "Fused attention: scores never reach memory." });
    parser.addOption({ "prompt-len", "Measured generation: prompt tokens.", "N" });
    parser.addOption({ "gen-tokens", "Measured generation: generated tokens.", "N" });
    parser.addOption({ "measured-time", "Measured generation: wall time, e.g. 2.5 s.", "time" });
    parser.addOption(
        { "tp", "Tensor-parallel chips (default 1): heads, FFN and LM head split.", "N" });
    parser.addOption({ "ep", "Expert-parallel chips (default 1): experts split.", "N" });
    parser.addOption({ "pp", "Pipeline stages (default 1): layers split.", "N" });
    parser.addOption({ "sweep", "Sweep batch or seq: PARAM=A:B[:xK|:+K].", "spec" });
    parser.addOption({ "operators",
        "With --sweep: one trajectory per operator (its path over the values, and where it "
        "crosses its ridge) instead of the whole model." });
    parser.addOption({ "render",
        "Draw the operators (per chip, with the collectives on the link roof; with --sweep one "
        "path per operator) to a PNG, SVG or PDF file.",
        "file" });
    parser.addOption({ "title", "With --render: a title above the chart.", "text" });
    addNoEmbedOption(parser, "With --render: ");
    parser.addOption({ "json", "Print one JSON object (numbers in SI base units)." });
}

// The built-in model --model names; nullopt (after saying why) when there is none.
std::optional<ModelConfig> modelFromOptions(const QCommandLineParser &parser)
{
    if (!parser.isSet("model")) {
        err() << "llm needs --model NAME" << Qt::endl;
        return std::nullopt;
    }
    std::vector<Diagnostic> problems;
    const auto models = builtinModels(&problems);
    for (const auto &d : problems)
        err() << QString::fromStdString(d.toString()) << Qt::endl;
    auto model = findModel(models, parser.value("model").toStdString());
    if (!model) {
        err() << "--model: " << QString::fromStdString(model.error()) << Qt::endl;
        return std::nullopt;
    }
    return std::move(*model);
}

// The step the options describe (--phase and --seq unless --measured-time, --batch, the types,
// --flash-attention); nullopt (after saying why) when they do not describe one.
std::optional<LlmSpec> llmSpecFromOptions(const QCommandLineParser &parser)
{
    LlmSpec spec;
    if (!parser.isSet("measured-time")) {
        if (!parser.isSet("phase")) {
            err() << "llm needs --phase prefill|decode (or --measured-time)" << Qt::endl;
            return std::nullopt;
        }
        const auto phase = llmPhaseFromName(parser.value("phase").toStdString());
        if (!phase) {
            err() << "--phase: expected prefill|decode, got \"" << parser.value("phase") << "\""
                  << Qt::endl;
            return std::nullopt;
        }
        spec.phase = *phase;
        if (!parser.isSet("seq") && !parser.isSet("sweep")) {
            err() << "llm needs --seq N" << Qt::endl;
            return std::nullopt;
        }
    }
    if (!integerOption(parser, "seq", spec.seq) || !integerOption(parser, "batch", spec.batch)
        || !integerOption(parser, "tp", spec.tp) || !integerOption(parser, "ep", spec.ep)
        || !integerOption(parser, "pp", spec.pp))
        return std::nullopt;
    if (parser.isSet("precision")) {
        if (parser.isSet("weights") || parser.isSet("activations")) {
            err() << "--precision sets the weights and activations: give it or "
                     "--weights/--activations, not both"
                  << Qt::endl;
            return std::nullopt;
        }
        auto moded = withLlmPrecisionMode(spec, parser.value("precision").toStdString());
        if (!moded) {
            err() << "--precision: " << QString::fromStdString(moded.error()) << Qt::endl;
            return std::nullopt;
        }
        spec = *moded;
    }
    if (!precisionOption(parser, "weights",
            { Precision::BF16, Precision::FP16, Precision::FP8, Precision::INT8, Precision::INT4,
                Precision::FP4 },
            spec.weights)
        || !precisionOption(parser, "activations",
            { Precision::BF16, Precision::FP16, Precision::FP8, Precision::INT8, Precision::FP4 },
            spec.activations)
        || !precisionOption(parser, "kv",
            { Precision::BF16, Precision::FP16, Precision::FP8, Precision::INT8 }, spec.kv))
        return std::nullopt;
    spec.fusedAttention = parser.isSet("flash-attention");
    return spec;
}

// What the options ask of the model on the machine.
struct LlmRun {
    const ModelConfig &model;
    const LlmSpec &spec;
    const Hardware &hardware;
    AnalysisOptions options;
    bool json = false;
};

// --measured-time: the bottleneck of a measured generation of --prompt-len + --gen-tokens.
int analyzeMeasuredGeneration(const QCommandLineParser &parser, const LlmRun &run)
{
    std::int64_t prompt = 0;
    std::int64_t generated = 0;
    if (!parser.isSet("prompt-len") || !parser.isSet("gen-tokens")) {
        err() << "--measured-time needs --prompt-len and --gen-tokens" << Qt::endl;
        return kExitBadInput;
    }
    if (!integerOption(parser, "prompt-len", prompt)
        || !integerOption(parser, "gen-tokens", generated))
        return kExitBadInput;
    // The context grows to prompt + generated tokens: checked before any model adds them.
    if (!checkedAdd(prompt, generated)) {
        err() << "--prompt-len + --gen-tokens: " << prompt << " + " << generated
              << " does not fit a 64-bit count (the largest is 9223372036854775807)" << Qt::endl;
        return kExitBadInput;
    }
    if (generated > kMaxGeneratedTokens) {
        err() << "--gen-tokens: " << generated << " is more than " << kMaxGeneratedTokens
              << " generated tokens (each is one decode step to model)" << Qt::endl;
        return kExitBadInput;
    }
    const auto seconds
        = parsePositiveQuantity(parser.value("measured-time").toStdString(), Dimension::Time);
    if (!seconds) {
        err() << "--measured-time: " << QString::fromStdString(seconds.error()) << Qt::endl;
        return kExitBadInput;
    }
    auto g = analyzeGeneration(
        run.model, run.spec, prompt, generated, *seconds, run.hardware, run.options);
    if (!g) {
        err() << QString::fromStdString(g.error()) << Qt::endl;
        return kExitBadInput;
    }
    printText(run.json ? generationJson(run.hardware, *g) : generationTable(*g));
    return kExitOk;
}

// The compute roof the mode chose, and for a mixture of experts the parameters a token uses
// and the tokens per step at which the routed experts' weights are amortized.
std::string llmPrecisionAndRidgeText(
    const ModelConfig &model, const LlmSpec &spec, const LlmResult &r)
{
    std::string mode;
    for (const auto &m : llmPrecisionModes()) {
        if (m.name == spec.precisionMode)
            mode = m.name + ": " + m.description;
    }
    if (mode.empty())
        mode = "weights " + std::string(precisionName(spec.weights)) + ", activations "
            + std::string(precisionName(spec.activations));
    std::string out = "compute roof: " + r.computeCeiling + " (" + mode + "), ridge "
        + formatSignificant(r.ridge, 4) + " FLOP/B; weight "
        + formatSignificant(llmWeightBytes(spec), 4) + " B, activation "
        + formatSignificant(llmActivationBytes(spec), 4) + " B, KV "
        + formatSignificant(bytesPerElement(spec.kv), 4) + " B an element\n";
    out += "parameters: " + formatSignificant(r.totalParameters / 1e9, 4) + " billion in all, "
        + formatSignificant(r.activeParameters / 1e9, 4) + " billion active per token\n";
    const double tokens = static_cast<double>(spec.batch)
        * static_cast<double>(spec.phase == LlmPhase::Prefill ? spec.seq : 1);
    if (model.experts > 0) {
        out += "active-parameter ridge: the routed experts ("
            + std::to_string(model.expertsPerToken) + " of " + std::to_string(model.experts)
            + " a token) reach the ridge at ";
        out += r.expertCriticalTokens
            ? formatSignificant(*r.expertCriticalTokens, 6) + " tokens per step"
            : std::string("no step below 2^40 tokens");
        if (r.denseCriticalTokens)
            out += " (a dense FFN of the active shape: "
                + formatSignificant(*r.denseCriticalTokens, 6) + "); this step has "
                + formatSignificant(tokens, 6) + " tokens and touches "
                + formatSignificant(expertsTouched(model, tokens), 4) + " experts per layer";
        out += "\n";
    }
    return out;
}

int sweepLlm(const QCommandLineParser &parser, const LlmRun &run)
{
    const auto range = sweepOption(parser, { "batch", "seq" });
    if (!range)
        return kExitBadInput;
    return runIntegerSweep(*range, run.hardware, run.json,
        [&](std::int64_t v) -> ridgepoint::Expected<AnalyzedPoint, std::string> {
            LlmSpec s = run.spec;
            (range->parameter == "batch" ? s.batch : s.seq) = v;
            auto r = modelLlm(run.model, s, run.hardware, run.options);
            if (!r)
                return ridgepoint::Unexpected(r.error());
            return r->total;
        });
}

} // namespace

int runLlm(const QStringList &arguments)
{
    QCommandLineParser parser;
    addLlmOptions(parser);
    int status = kExitOk;
    if (!parseOrExplain(parser, arguments, status))
        return status;
    if (!parser.positionalArguments().isEmpty()) {
        err() << "llm takes no file arguments" << Qt::endl;
        return kExitBadInput;
    }
    const auto model = modelFromOptions(parser);
    if (!model)
        return kExitBadInput;
    const auto spec = llmSpecFromOptions(parser);
    if (!spec)
        return kExitBadInput;
    auto hardware = hardwareFromOptions(parser);
    if (!hardware)
        return kExitBadInput;
    adoptPrecision(parser, *hardware, llmComputePrecision(*spec));
    // Built whole, every option read first: GCC's release build could not follow a run whose
    // options were filled in after it was made (-Wmaybe-uninitialized on computeCeiling).
    AnalysisOptions options;
    options.computeCeiling = parser.value("compute").toStdString();
    const bool json = parser.isSet("json");
    const LlmRun run { *model, *spec, *hardware, std::move(options), json };

    if (parser.isSet("measured-time"))
        return analyzeMeasuredGeneration(parser, run);
    if (parser.isSet("render")) {
        // The picture's target judged as the writer will, before any work.
        if (const QString problem = outputProblem(parser.value("render")); !problem.isEmpty()) {
            err() << problem << Qt::endl;
            return kExitBadInput;
        }
        std::optional<SweepRange> range;
        if (parser.isSet("sweep")) {
            range = sweepOption(parser, { "batch", "seq" });
            if (!range)
                return kExitBadInput;
        }
        return renderLlm(parser.value("render"), run.model, run.spec, run.hardware, range,
            { parser.value("title"), !parser.isSet("no-embed") });
    }
    if (parser.isSet("sweep") && parser.isSet("operators")) {
        const auto range = sweepOption(parser, { "batch", "seq" });
        if (!range)
            return kExitBadInput;
        return printLlmTrajectories(
            run.model, run.spec, run.hardware, run.options, *range, run.json);
    }
    if (parser.isSet("sweep"))
        return sweepLlm(parser, run);
    auto result = modelLlm(run.model, run.spec, run.hardware, run.options);
    if (!result) {
        err() << QString::fromStdString(result.error()) << Qt::endl;
        return kExitBadInput;
    }
    auto network = llmNetworkBound(run.model, run.spec, run.hardware, run.options);
    if (!network) {
        err() << QString::fromStdString(network.error()) << Qt::endl;
        return kExitBadInput;
    }
    if (run.json) {
        const std::string text = llmJson(run.hardware, run.model, run.spec, *result);
        // (the precision and ridge lines are text only; JSON names each point's roof)
        printText(llmIsParallel(run.spec) ? llmJsonWithParallel(text, run.spec, *network) : text);
    } else {
        std::string text = llmTable(run.hardware, run.model, run.spec, *result)
            + llmPrecisionAndRidgeText(run.model, run.spec, *result);
        if (*network)
            text += llmParallelText(run.spec, **network);
        printText(text);
    }
    return kExitOk;
}

} // namespace ridgepoint::cli
