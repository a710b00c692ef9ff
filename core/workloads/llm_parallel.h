// Parallelism of an LLM step over chips (docs/WORKLOADS.md, "Parallelism"): the single-chip
// operator list made per chip for tensor (tp), expert (ep) and pipeline (pp) parallel degrees,
// plus the collectives each scheme needs as operators whose bytes sit on the machine's link level
// (NVLink, ICI, PCIe, DCN), so their points land on that roof; and the size at which a layer
// turns network-bound.
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/expected.h"
#include "core/model/hardware.h"
#include "core/workloads/llm.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {

// True when the spec asks for more than one chip.
bool llmIsParallel(const LlmSpec &spec);
// tp · ep · pp.
std::int64_t llmChips(const LlmSpec &spec);

// The link collectives cross: the machine's chip-to-chip link (chipLink in core/model/chip_link.h:
// NVLink, ICI, PCIe), else its DCN ceiling; nullptr when it has none.
const MemoryCeiling *llmLinkCeiling(const Hardware &hardware);

// The per-chip operators of one pipeline stage, plus the collectives (group "collective",
// `level` = `link`). With tp = ep = pp = 1 the list is returned unchanged and `link` may be
// nullopt. Errors: degrees below 1, tp not dividing the heads, ep without experts or not
// dividing them, pp above the layers, no link for a parallel spec.
ridgepoint::Expected<std::vector<LlmOperator>, std::string> parallelizeLlm(
    std::vector<LlmOperator> ops, const ModelConfig &model, const LlmSpec &spec,
    std::optional<MemoryLevel> link, std::string_view machineName = {});

// llmOperators of one step on `hardware`, made per chip by parallelizeLlm with the collectives
// on llmLinkCeiling: what `llm` and a calibrated prediction of it both place.
ridgepoint::Expected<std::vector<LlmOperator>, std::string> llmChipOperators(
    const ModelConfig &model, const LlmSpec &spec, const Hardware &hardware);

// The collectives' part of a parallel step and where a layer turns network-bound.
struct LlmNetworkBound {
    std::string linkCeiling; // "NVLink 4"
    MemoryLevel level = MemoryLevel::NVLink;
    double linkBandwidth = 0.0; // β_net, B/s (as the analysis uses it)
    double networkSeconds = 0.0; // T_network: Σ T_min of the collectives (part of T_min)
    double layerSeconds = 0.0; // Σ T_min of the other operators of the stage's layers
    // Per token as the batch grows: T_math of the layers over T_network (both ∝ tokens).
    // At or above 1 the network never binds; below 1 it may, unless memory time that grows
    // with the batch (each sequence's KV-cache reads) keeps the rest longer: `batch` decides.
    double largeBatchRatio = 0.0;
    // The smallest batch (and its tokens, batch · new tokens per sequence) at which
    // T_network >= the layers' other time; nullopt: not up to kMaxNetworkBoundBatch.
    std::optional<std::int64_t> batch;
    std::optional<double> tokens;
    // The hidden size below which a model of this shape (weights ∝ h², activations ∝ h) is
    // network-bound at a large batch: h / largeBatchRatio (docs/MODEL.md §5.3's critical D).
    double criticalHidden = 0.0;
};
inline constexpr std::int64_t kMaxNetworkBoundBatch = std::int64_t { 1 } << 24;

// nullopt for a single-chip spec.
ridgepoint::Expected<std::optional<LlmNetworkBound>, std::string> llmNetworkBound(
    const ModelConfig &model, const LlmSpec &spec, const Hardware &hardware,
    const AnalysisOptions &options = {});

// The text lines and the JSON object ("parallel") the CLI adds for a parallel step.
std::string llmParallelText(const LlmSpec &spec, const LlmNetworkBound &n);
// `llmJsonText` (llmJson's output) with "tp", "ep", "pp" and a "parallel" object added.
std::string llmJsonWithParallel(
    const std::string &llmJsonText, const LlmSpec &spec, const std::optional<LlmNetworkBound> &n);

} // namespace ridgepoint
