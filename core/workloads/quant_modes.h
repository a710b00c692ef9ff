// The one vocabulary of the quantization modes (issue 27): every place that names a mode (the
// toolbar's switch, the LLM form's weight and activation types it sets, --quant, the session,
// the status bar, a workload's group and its legend entry) takes its words from this table, and
// matmulDtypes and llmSpecForMode take the types from it (docs/MODEL.md §6).
#pragma once

#include "core/model/hardware.h"
#include "core/workloads/workloads.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

struct QuantModeInfo {
    QuantMode mode;
    std::string_view name; // "w8a16": --quant, the session's "quantization", the group suffix
    std::string_view alias; // the llm command's --precision word for the same types, or empty
    std::optional<Precision> weights; // nullopt: each workload's own type
    std::optional<Precision> activations; // nullopt: each workload's own (a float; bf16 default)
    std::string_view meaning; // in the LLM form's words: "int8 weights, bf16 activations"
};

// none, int8, w8a16, w4a16, in the toolbar's order.
const std::vector<QuantModeInfo> &quantModes();
const QuantModeInfo &quantModeInfo(QuantMode mode);
// "w8a16 — int8 weights, bf16 activations": the toolbar's item and the status bar's words.
std::string quantModeLabel(QuantMode mode);
// "none, int8 (or w8a8), w8a16 or w4a16": what --quant and a session accept.
std::string quantModeChoices();

// The group a workload's point shows under a mode: "matmul 1×8192×8192 bf16 · w8a16"; the
// group itself under "none". The workload keeps its own group (what a session saves); measured
// points are never quantized, so never renamed.
std::string quantizedGroup(const std::string &group, QuantMode mode);

} // namespace ridgepoint
