// Trajectories of an LLM step (docs/WORKLOADS.md, "Trajectories"): one path per operator over a
// swept batch or sequence length, with where each operator crosses its ridge, and the planned
// workloads (one per operator, collectives included) the window and `llm --render` draw.
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/expected.h"
#include "core/model/hardware.h"
#include "core/workloads/llm.h"
#include "core/workloads/planned_workload.h"
#include "core/workloads/sweep.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ridgepoint {

// The operator kinds modelLlm places for this spec on this machine (per chip, the collectives
// included), in its order.
ridgepoint::Expected<std::vector<std::string>, std::string> llmOperatorKinds(
    const ModelConfig &model, const LlmSpec &spec, const Hardware &hardware);

// One workload per operator kind (when `operators`) and the whole model, all in `group`.
ridgepoint::Expected<std::vector<Workload>, std::string> llmWorkloads(const ModelConfig &model,
    const LlmSpec &spec, const Hardware &hardware, const std::string &group, bool operators);

// `parameter` is "batch" or "seq". The workloads of every value, each operator kind (and the
// whole model) one sweep whose id `newId` gives, so the chart draws one path per operator.
// The kinds are those of the first value.
ridgepoint::Expected<std::vector<Workload>, std::string> llmSweepWorkloads(const ModelConfig &model,
    const LlmSpec &spec, const Hardware &hardware, const std::string &group, bool operators,
    const std::string &parameter, const std::vector<std::int64_t> &values,
    const std::function<int()> &newId);

// One operator's path over the values and where it crosses its ridge.
struct LlmTrajectory {
    std::string kind;
    SweepResult sweep;
};
ridgepoint::Expected<std::vector<LlmTrajectory>, std::string> llmTrajectories(
    const ModelConfig &model, const LlmSpec &spec, const Hardware &hardware,
    const AnalysisOptions &options, const std::string &parameter,
    const std::vector<std::int64_t> &values);

} // namespace ridgepoint
