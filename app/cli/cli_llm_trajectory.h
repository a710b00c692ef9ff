// `ridgepoint llm` trajectories and pictures: --sweep with --operators (one path per operator,
// where each crosses its ridge) and --render FILE (the operators, or their paths, drawn on the
// machine's roofline as the window's Workloads dock draws them, the session embedded unless
// --no-embed). docs/WORKLOADS.md, "Trajectories".
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/hardware.h"
#include "core/workloads/llm.h"
#include "core/workloads/sweep.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace ridgepoint::cli {

// The values of an integer sweep: rounded, repeats dropped; nullopt after saying why.
std::optional<std::vector<std::int64_t>> integerSweepValues(const SweepRange &range);

// Prints one trajectory per operator (a summary line each, or JSON); the exit status.
int printLlmTrajectories(const ModelConfig &model, const LlmSpec &spec, const Hardware &hardware,
    const AnalysisOptions &options, const SweepRange &range, bool json);

struct LlmPicture {
    QString title; // above the chart; empty: none
    bool embedSession = true; // false: --no-embed
};

// Draws the step's operators (and the whole model) to `output` (PNG, SVG or PDF), each a path
// over the sweep when there is one, with the session (the model's workloads on the machine)
// embedded as `render` embeds it unless told not to; the exit status.
int renderLlm(const QString &output, const ModelConfig &model, const LlmSpec &spec,
    const Hardware &hardware, const std::optional<SweepRange> &range, const LlmPicture &picture);

} // namespace ridgepoint::cli
