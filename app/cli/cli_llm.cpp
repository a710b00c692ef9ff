// `ridgepoint llm`: the operators of an LLM prefill or decode step on a machine's roofline, a
// sweep of its batch or sequence length, or the bottleneck of a measured generation.
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_llm_trajectory.h"
#include "app/cli/cli_option_groups.h"
#include "app/cli/cli_options.h"
#include "app/cli/cli_workload_options.h"
#include "core/model/checked_int.h"

#include "core/calibrate/llm_calibrated.h"
#include "core/model/units.h"
#include "core/report/workload_report.h"
#include "core/workloads/llm.h"
#include "core/workloads/llm_parallel.h"

namespace ridgepoint::cli {
namespace {

// What llm's options ask for: the model and the step, checked; the machine, read when it is
// made; a measured generation's figures, checked once the machine is known.
struct LlmRequest {
    ModelConfig model;
    LlmSpec spec;
    MachineRequest machine;
    std::optional<QString> measuredTime; // --measured-time
    std::optional<QString> promptLen; // --prompt-len
    std::optional<QString> genTokens; // --gen-tokens
    std::optional<QString> sweep; // PARAM=A:B[:xK|:+K]
    bool operators = false;
    std::optional<QString> render; // --render FILE
    QString title;
    bool embed = true; // not --no-embed
    bool json = false;
};

// llm's options, in the order --help lists them.
struct LlmOptions {
    MachineOptions machine;
    QCommandLineOption model { "model",
        "Model configuration by name (Llama-2-7B, Mistral-7B, ...).", "name" };
    QCommandLineOption phase { "phase", "prefill or decode.", "phase" };
    QCommandLineOption seq { "seq", "Prefill: prompt tokens. Decode: context length.", "N" };
    QCommandLineOption batch { "batch", "Sequences processed together (default 1).", "N" };
    QCommandLineOption precision { "precision",
        "Precision mode: bf16, fp16, fp8 (w8a8 fp8), w8a8 (int8), w8a16, w4a16, nvfp4, mxfp4 "
        "(weights and activations, block scales counted; instead of --weights/--activations).",
        "mode" };
    QCommandLineOption weights { "weights",
        "Weight type: bf16 (default), fp16, fp8, int8, int4, fp4.", "type" };
    QCommandLineOption activations { "activations",
        "Activation type: bf16 (default), fp16, fp8, int8, fp4.", "type" };
    QCommandLineOption kv { "kv", "KV-cache type: bf16 (default), fp16, fp8, int8.", "type" };
    QCommandLineOption flashAttention { "flash-attention",
        "Fused attention: scores never reach memory." };
    QCommandLineOption promptLen { "prompt-len", "Measured generation: prompt tokens.", "N" };
    QCommandLineOption genTokens { "gen-tokens", "Measured generation: generated tokens.", "N" };
    QCommandLineOption measuredTime { "measured-time",
        "Measured generation: wall time, e.g. 2.5 s.", "time" };
    QCommandLineOption tp { "tp",
        "Tensor-parallel chips (default 1): heads, FFN and LM head split.", "N" };
    QCommandLineOption ep { "ep", "Expert-parallel chips (default 1): experts split.", "N" };
    QCommandLineOption pp { "pp", "Pipeline stages (default 1): layers split.", "N" };
    QCommandLineOption sweep { "sweep", "Sweep batch or seq: PARAM=A:B[:xK|:+K].", "spec" };
    QCommandLineOption operators { "operators",
        "With --sweep: one trajectory per operator (its path over the values, and where it "
        "crosses its ridge) instead of the whole model." };
    QCommandLineOption render { "render",
        "Draw the operators (per chip, with the collectives on the link roof; with --sweep one "
        "path per operator) to a PNG, SVG or PDF file.",
        "file" };
    QCommandLineOption title { "title", "With --render: a title above the chart.", "text" };
    QCommandLineOption noEmbed = noEmbedOption("With --render: ");
    QCommandLineOption json { "json", "Print one JSON object (numbers in SI base units)." };

    void addTo(QCommandLineParser &parser) const;
    [[nodiscard]] std::optional<LlmRequest> read(const QCommandLineParser &parser) const;
    [[nodiscard]] std::optional<ModelConfig> readModel(const QCommandLineParser &parser) const;
    [[nodiscard]] std::optional<LlmSpec> readSpec(const QCommandLineParser &parser) const;
    [[nodiscard]] bool readTypes(const QCommandLineParser &parser, LlmSpec &spec) const;
};

void LlmOptions::addTo(QCommandLineParser &parser) const
{
    parser.setApplicationDescription(
        "Place the operators of an LLM prefill or decode step on a machine's roofline "
        "(docs/MODEL.md section 8): one point per operator kind plus the whole model. With "
        "--measured-time, find the bottleneck of a measured generation instead.");
    machine.addTo(parser);
    parser.addOptions(
        { model, phase, seq, batch, precision, weights, activations, kv, flashAttention, promptLen,
            genTokens, measuredTime, tp, ep, pp, sweep, operators, render, title, noEmbed, json });
}

// The built-in model --model names; nullopt (after saying why) when there is none.
std::optional<ModelConfig> LlmOptions::readModel(const QCommandLineParser &parser) const
{
    const auto name = givenValue(parser, model);
    if (!name) {
        err() << "llm needs --model NAME" << Qt::endl;
        return std::nullopt;
    }
    std::vector<Diagnostic> problems;
    const auto models = builtinModels(&problems);
    for (const auto &d : problems)
        err() << QString::fromStdString(d.toString()) << Qt::endl;
    auto found = findModel(models, name->toStdString());
    if (!found) {
        err() << "--model: " << QString::fromStdString(found.error()) << Qt::endl;
        return std::nullopt;
    }
    return std::move(*found);
}

// The step the options describe (--phase and --seq unless --measured-time, --batch, the types,
// --flash-attention); nullopt (after saying why) when they do not describe one.
std::optional<LlmSpec> LlmOptions::readSpec(const QCommandLineParser &parser) const
{
    LlmSpec spec;
    if (!parser.isSet(measuredTime)) {
        const auto phaseName = givenValue(parser, phase);
        if (!phaseName) {
            err() << "llm needs --phase prefill|decode (or --measured-time)" << Qt::endl;
            return std::nullopt;
        }
        const auto chosen = llmPhaseFromName(phaseName->toStdString());
        if (!chosen) {
            err() << "--phase: expected prefill|decode, got \"" << *phaseName << "\"" << Qt::endl;
            return std::nullopt;
        }
        spec.phase = *chosen;
        if (!parser.isSet(seq) && !parser.isSet(sweep)) {
            err() << "llm needs --seq N" << Qt::endl;
            return std::nullopt;
        }
    }
    if (!integerOption(parser, seq, spec.seq) || !integerOption(parser, batch, spec.batch)
        || !integerOption(parser, tp, spec.tp) || !integerOption(parser, ep, spec.ep)
        || !integerOption(parser, pp, spec.pp))
        return std::nullopt;
    if (!readTypes(parser, spec))
        return std::nullopt;
    spec.fusedAttention = parser.isSet(flashAttention);
    return spec;
}

// --precision, or --weights and --activations, and --kv into `spec`; false after saying why.
bool LlmOptions::readTypes(const QCommandLineParser &parser, LlmSpec &spec) const
{
    if (const auto mode = givenValue(parser, precision)) {
        if (parser.isSet(weights) || parser.isSet(activations)) {
            err() << "--precision sets the weights and activations: give it or "
                     "--weights/--activations, not both"
                  << Qt::endl;
            return false;
        }
        auto moded = withLlmPrecisionMode(spec, mode->toStdString());
        if (!moded) {
            err() << "--precision: " << QString::fromStdString(moded.error()) << Qt::endl;
            return false;
        }
        spec = *moded;
    }
    return precisionOption(parser, weights,
               { Precision::BF16, Precision::FP16, Precision::FP8, Precision::INT8, Precision::INT4,
                   Precision::FP4 },
               spec.weights)
        && precisionOption(parser, activations,
            { Precision::BF16, Precision::FP16, Precision::FP8, Precision::INT8, Precision::FP4 },
            spec.activations)
        && precisionOption(parser, kv,
            { Precision::BF16, Precision::FP16, Precision::FP8, Precision::INT8 }, spec.kv);
}

std::optional<LlmRequest> LlmOptions::read(const QCommandLineParser &parser) const
{
    if (!parser.positionalArguments().isEmpty()) {
        err() << "llm takes no file arguments" << Qt::endl;
        return std::nullopt;
    }
    auto chosenModel = readModel(parser);
    if (!chosenModel)
        return std::nullopt;
    const auto chosenSpec = readSpec(parser);
    if (!chosenSpec)
        return std::nullopt;
    LlmRequest request;
    request.model = std::move(*chosenModel);
    request.spec = *chosenSpec;
    request.machine = machine.read(parser);
    request.measuredTime = givenValue(parser, measuredTime);
    request.promptLen = givenValue(parser, promptLen);
    request.genTokens = givenValue(parser, genTokens);
    request.sweep = givenValue(parser, sweep);
    request.operators = parser.isSet(operators);
    request.render = givenValue(parser, render);
    request.title = parser.value(title);
    request.embed = !parser.isSet(noEmbed);
    request.json = parser.isSet(json);
    return request;
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
int analyzeMeasuredGeneration(const LlmRequest &request, const LlmRun &run)
{
    std::int64_t prompt = 0;
    std::int64_t generated = 0;
    if (!request.promptLen || !request.genTokens) {
        err() << "--measured-time needs --prompt-len and --gen-tokens" << Qt::endl;
        return kExitBadInput;
    }
    if (!positiveInteger("--prompt-len", request.promptLen, prompt)
        || !positiveInteger("--gen-tokens", request.genTokens, generated))
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
    const auto seconds = parsePositiveQuantity(
        request.measuredTime.value_or(QString()).toStdString(), Dimension::Time);
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

int sweepLlm(const QString &spec, const LlmRun &run)
{
    const auto range = sweepOption(spec, { "batch", "seq" });
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
    int status = kExitOk;
    const auto request = parseRequest(LlmOptions(), arguments, status);
    if (!request)
        return status;
    auto hardware = request->machine.machine();
    if (!hardware)
        return kExitBadInput;
    request->machine.adoptPrecision(*hardware, llmComputePrecision(request->spec));
    // Built whole, every option read first: GCC's release build could not follow a run whose
    // options were filled in after it was made (-Wmaybe-uninitialized on computeCeiling).
    AnalysisOptions options;
    options.computeCeiling = request->machine.computeName();
    const LlmRun run { request->model, request->spec, *hardware, std::move(options),
        request->json };

    if (request->measuredTime)
        return analyzeMeasuredGeneration(*request, run);
    if (request->render) {
        // The picture's target judged as the writer will, before any work.
        if (const QString problem = outputProblem(*request->render); !problem.isEmpty()) {
            err() << problem << Qt::endl;
            return kExitBadInput;
        }
        std::optional<SweepRange> range;
        if (request->sweep) {
            range = sweepOption(*request->sweep, { "batch", "seq" });
            if (!range)
                return kExitBadInput;
        }
        return renderLlm(*request->render, run.model, run.spec, run.hardware, range,
            { request->title, request->embed });
    }
    if (request->sweep && request->operators) {
        const auto range = sweepOption(*request->sweep, { "batch", "seq" });
        if (!range)
            return kExitBadInput;
        return printLlmTrajectories(
            run.model, run.spec, run.hardware, run.options, *range, run.json);
    }
    if (request->sweep)
        return sweepLlm(*request->sweep, run);
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
    // A calibrated machine times the step by its fits too (docs/MODEL.md §15.7).
    const auto calibrated = calibratedLlm(run.model, run.spec, run.hardware, *result);
    if (!calibrated) {
        err() << QString::fromStdString(calibrated.error()) << Qt::endl;
        return kExitBadInput;
    }
    if (run.json) {
        std::string text = llmJson(run.hardware, run.model, run.spec, *result);
        // (the precision and ridge lines are text only; JSON names each point's roof)
        if (llmIsParallel(run.spec))
            text = llmJsonWithParallel(text, run.spec, *network);
        if (*calibrated)
            text = llmJsonWithCalibrated(text, **calibrated, *run.hardware.calibration);
        printText(text);
    } else {
        std::string text = llmTable(run.hardware, run.model, run.spec, *result)
            + llmPrecisionAndRidgeText(run.model, run.spec, *result);
        if (*network)
            text += llmParallelText(run.spec, **network);
        if (*calibrated)
            text += calibratedLlmLine(**calibrated, *run.hardware.calibration);
        printText(text);
    }
    return kExitOk;
}

} // namespace ridgepoint::cli
