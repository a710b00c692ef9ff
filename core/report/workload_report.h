// JSON and table output of the workload models (the command line shares them with exports).
#pragma once

#include "core/model/hardware.h"
#include "core/workloads/llm.h"
#include "core/workloads/sweep.h"
#include "core/workloads/workloads.h"

#include <string>

namespace ridgepoint {

// One object with the keys of the matmul subcommand: flops, bytes (by level), intensity,
// ridge_intensity, compute_ceiling, attainable, bound, t_math, t_mem, t_min, t_max,
// critical_batch (null when never compute-bound), critical_batch_approx; with shards also
// network_bytes, t_network, critical_d; with tiles also tiles and tile_intensity_approx.
std::string matmulJson(const MatmulResult &result);
std::string matmulTable(const MatmulResult &result);

// {"hardware", "model", "phase", ..., "points": [operators, as `analyze` prints them],
//  "total": {point}, "estimated_seconds", "kv_read_bytes", ...}
std::string llmJson(const Hardware &hardware, const ModelConfig &model, const LlmSpec &spec,
    const LlmResult &result);
std::string llmTable(const Hardware &hardware, const ModelConfig &model, const LlmSpec &spec,
    const LlmResult &result);

std::string generationJson(const Hardware &hardware, const GenerationAnalysis &generation);
std::string generationTable(const GenerationAnalysis &generation);

// {"parameter", "points": [{"value", ...point keys as `analyze`}], "crossings": [...]}
std::string sweepJson(const Hardware &hardware, const SweepResult &sweep);
std::string sweepTable(const SweepResult &sweep);

} // namespace ridgepoint
