#include "core/calibrate/llm_calibrated.h"

#include "core/calibrate/fit.h"
#include "core/calibrate/measured.h"
#include "core/model/units.h"
#include "core/workloads/llm_parallel.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ridgepoint {
namespace {

const KernelFit *classFit(const Calibration &calibration, OperatorClass kind)
{
    const auto it = std::ranges::find(calibration.classes, kind, &KernelFit::kind);
    return it == calibration.classes.end() ? nullptr : &*it;
}

// The layout of `collective` on `ranks`: one inside a node (every rank on it) first, else the
// first the calibration lists.
const CollectiveFit *collectiveFit(
    const Calibration &calibration, const std::string &collective, std::int64_t ranks)
{
    const CollectiveFit *any = nullptr;
    for (const CollectiveFit &fit : calibration.collectives) {
        if (fit.collective != collective || fit.ranks != ranks)
            continue;
        if (fit.ranksPerNode == ranks)
            return &fit;
        if (!any)
            any = &fit;
    }
    return any;
}

void note(std::vector<std::string> &list, std::string text)
{
    if (std::ranges::find(list, text) == list.end())
        list.push_back(std::move(text));
}

// T = max(F / (c·π), B / (μ·β)) + f per launch (§15.2 with F′ = F: the step's operators keep no
// GEMM shape to quantize; a GEMM's c is what its largest tile sustains).
double kernelTime(const KernelFit &fit, const Calibration &calibration, double flops, double bytes)
{
    const double c = sustainedComputeFraction(fit, calibration);
    const double compute = flops > 0.0 ? flops / (c * calibration.peak) : 0.0;
    const double memory = bytes > 0.0 ? bytes / (fit.memoryFraction * calibration.bandwidth) : 0.0;
    return std::max(compute, memory) + fit.floorSeconds;
}

} // namespace

OperatorClass llmOperatorClass(const LlmOperator &op)
{
    if (op.group == "collective")
        return OperatorClass::Collective;
    if (op.weightBytesPerLayer > 0.0 && op.group != "embedding")
        return OperatorClass::Gemm;
    if (op.kind == "attention score" || op.kind == "attention value" || op.kind == "softmax")
        return OperatorClass::Attention;
    return OperatorClass::Elementwise;
}

std::optional<LlmCollectiveCall> llmCollectiveCall(const LlmOperator &op, const LlmSpec &spec)
{
    // The operator's bytes are what each chip sends (llm_parallel.cpp): the message times the
    // collective's bus factor, per call (all-to-all: dispatch and combine).
    if (op.kind.starts_with("TP all-reduce") && spec.tp > 1)
        return LlmCollectiveCall { "all_reduce", spec.tp,
            op.bytesPerLayer / busBytesFactor("all_reduce", spec.tp), 1 };
    if (op.kind.starts_with("EP all-to-all") && spec.ep > 1)
        return LlmCollectiveCall { "all_to_all", spec.ep,
            op.bytesPerLayer / (2.0 * busBytesFactor("all_to_all", spec.ep)), 2 };
    if (op.kind.starts_with("PP send/receive") && spec.pp > 1)
        return LlmCollectiveCall { "send_recv", 2, op.bytesPerLayer, 1 };
    return std::nullopt;
}

ridgepoint::Expected<std::optional<CalibratedLlm>, std::string> calibratedLlm(
    const ModelConfig &model, const LlmSpec &spec, const Hardware &hardware,
    const LlmResult &result)
{
    if (!hardware.calibration)
        return std::optional<CalibratedLlm> {};
    const Calibration &calibration = *hardware.calibration;
    const auto ops = llmChipOperators(model, spec, hardware);
    if (!ops)
        return ridgepoint::Unexpected(ops.error());
    if (ops->size() != result.operators.size())
        return ridgepoint::Unexpected(std::string("the step's operators changed between runs"));
    const bool sameRoof = result.computeCeiling == calibration.computeCeiling;
    CalibratedLlm out;
    for (std::size_t i = 0; i < ops->size(); ++i) {
        const LlmOperator &op = (*ops)[i];
        CalibratedLlmOperator c { op.kind, llmOperatorClass(op), 0.0,
            result.operators[i].analysis.tMin, false };
        const double count = static_cast<double>(op.count);
        if (c.cls == OperatorClass::Collective) {
            const auto call = llmCollectiveCall(op, spec);
            const CollectiveFit *fit
                = call ? collectiveFit(calibration, call->collective, call->ranks) : nullptr;
            if (fit) {
                c.seconds = count * call->calls * collectiveSeconds(*fit, call->messageBytes);
                c.calibrated = true;
                note(out.used, call->collective + " on " + std::to_string(call->ranks) + " ranks");
            } else {
                note(out.notUsed,
                    call
                        ? call->collective + " on " + std::to_string(call->ranks) + " ranks: no fit"
                        : op.kind + ": no fit");
            }
        } else if (const KernelFit *fit = classFit(calibration, c.cls); fit && sameRoof) {
            const double bytes = op.level ? 0.0 : op.bytesPerLayer;
            c.seconds = count * kernelTime(*fit, calibration, op.flopsPerLayer, bytes);
            c.calibrated = true;
            note(out.used, std::string(operatorClassName(c.cls)) + " fit");
        } else {
            note(out.notUsed,
                std::string(operatorClassName(c.cls))
                    + (fit ? ": its fit is of " + calibration.computeCeiling + ", the step runs on "
                                + result.computeCeiling
                           : ": no fit"));
        }
        if (!c.calibrated)
            c.seconds = c.rooflineSeconds;
        out.seconds += c.seconds;
        out.rooflineSeconds += c.rooflineSeconds;
        out.operators.push_back(std::move(c));
    }
    return std::optional(std::move(out));
}

std::string calibratedLlmLine(const CalibratedLlm &c, const Calibration &calibration)
{
    std::string files;
    for (const std::string &file : calibration.files) {
        const auto slash = file.find_last_of('/');
        files += (files.empty() ? "" : ", ")
            + file.substr(slash == std::string::npos ? 0 : slash + 1);
    }
    std::string used;
    for (const std::string &u : c.used)
        used += (used.empty() ? "" : ", ") + u;
    std::string line = "calibrated: " + formatQuantity(c.seconds, Dimension::Time)
        + " per step against the roofline's " + formatQuantity(c.rooflineSeconds, Dimension::Time)
        + " (calibration of " + (files.empty() ? std::string("unnamed files") : files) + ", "
        + std::to_string(calibration.rowsUsed)
        + " rows: " + (used.empty() ? "no fit applies" : used);
    if (!c.notUsed.empty()) {
        line += "; roofline for ";
        for (std::size_t i = 0; i < c.notUsed.size(); ++i)
            line += (i ? ", " : "") + c.notUsed[i];
    }
    return line + ")\n";
}

std::string llmJsonWithCalibrated(
    const std::string &llmJsonText, const CalibratedLlm &c, const Calibration &calibration)
{
    auto j = nlohmann::ordered_json::parse(llmJsonText, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return llmJsonText;
    nlohmann::ordered_json out;
    out["seconds"] = c.seconds;
    out["roofline_seconds"] = c.rooflineSeconds;
    out["files"] = calibration.files;
    out["rows_used"] = calibration.rowsUsed;
    out["fits_used"] = c.used;
    out["roofline_for"] = c.notUsed;
    auto ops = nlohmann::ordered_json::array();
    for (const CalibratedLlmOperator &op : c.operators) {
        nlohmann::ordered_json o;
        o["operator"] = op.kind;
        o["class"] = std::string(operatorClassName(op.cls));
        o["seconds"] = op.seconds;
        o["roofline_seconds"] = op.rooflineSeconds;
        o["calibrated"] = op.calibrated;
        ops.push_back(std::move(o));
    }
    out["operators"] = std::move(ops);
    j["calibrated"] = std::move(out);
    return j.dump(2) + "\n";
}

} // namespace ridgepoint
