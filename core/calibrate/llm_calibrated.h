// An LLM step timed by a calibrated machine (docs/MODEL.md §15.7): each operator of `llm`
// (after tp/ep/pp, core/workloads/llm_parallel.h) by its class's fit (§15.2) and each collective
// by the fit of its collective on its ranks (§15.3), beside the roofline's T_min. What has no fit
// keeps its T_min, and the summary says which.
#pragma once

#include "core/calibrate/calibration.h"
#include "core/model/hardware.h"
#include "core/workloads/llm.h"

#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {

// The class an `llm` operator is timed as: a collective by its group; an operator with weights
// (projections, FFN, experts, LM head; not the embedding) a GEMM; the attention score, value
// and softmax attention; every other (norms, residuals, rotary, activations, KV write,
// embedding) elementwise.
OperatorClass llmOperatorClass(const LlmOperator &op);

// The collective a parallel step's collective operator is and the message one call moves:
// "TP all-reduce" is all_reduce on tp ranks of bytes / (2(tp−1)/tp); "EP all-to-all" two
// all_to_all calls on ep ranks of bytes / (2(ep−1)/ep) each; "PP send/receive" one send_recv
// on 2 ranks of its bytes.
struct LlmCollectiveCall {
    std::string collective;
    std::int64_t ranks = 0;
    double messageBytes = 0.0;
    int calls = 1;
};
std::optional<LlmCollectiveCall> llmCollectiveCall(const LlmOperator &op, const LlmSpec &spec);

struct CalibratedLlmOperator {
    std::string kind;
    OperatorClass cls = OperatorClass::Elementwise;
    double seconds = 0.0; // all its launches (count × per layer)
    double rooflineSeconds = 0.0; // its T_min
    bool calibrated = false; // false: no fit applies; `seconds` is the T_min
};

struct CalibratedLlm {
    std::vector<CalibratedLlmOperator> operators;
    double seconds = 0.0; // Σ
    double rooflineSeconds = 0.0; // Σ T_min (LlmResult::estimatedSeconds)
    std::vector<std::string> used; // "gemm fit", "all_reduce on 2 ranks", ...
    std::vector<std::string> notUsed; // "attention: no fit", ...
};

// Nullopt when the machine has no calibration. `result` is modelLlm's for the same model, spec
// and machine (its operators in parallelizeLlm's order). The kernel fits apply only when the
// step's compute ceiling is the one the calibration's fractions are of.
ridgepoint::Expected<std::optional<CalibratedLlm>, std::string> calibratedLlm(
    const ModelConfig &model, const LlmSpec &spec, const Hardware &hardware,
    const LlmResult &result);

// One line: "calibrated: 1.2 ms per step against the roofline's 0.98 ms (calibration of
// h100cal.csv, 9926 rows: gemm fit, elementwise fit, all_reduce on 2 ranks; roofline for
// attention: no fit)".
std::string calibratedLlmLine(const CalibratedLlm &c, const Calibration &calibration);

// `llmJsonText` (an object) with "calibrated": {"seconds", "roofline_seconds", "files",
// "rows_used", "fits_used", "roofline_for", "operators": [{"operator", "class", "seconds",
// "roofline_seconds", "calibrated"}]}; seconds in SI units.
std::string llmJsonWithCalibrated(
    const std::string &llmJsonText, const CalibratedLlm &c, const Calibration &calibration);

} // namespace ridgepoint
