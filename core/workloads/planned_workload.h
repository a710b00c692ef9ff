// A planned workload behind a chart point: the core model (matmul, tiled or sharded matmul, an
// LLM operator) with the parameters the user chose, so the Document can recompute the point when
// the quantization mode or the machine changes. Formulas: docs/WORKLOADS.md.
#pragma once

#include "core/model/hardware.h"
#include "core/model/point.h"
#include "core/workloads/llm.h"
#include "core/workloads/workloads.h"

#include "core/model/expected.h"
#include <optional>
#include <string>
#include <variant>

namespace ridgepoint {

struct MatmulWorkload {
    MatmulSpec spec; // spec.quant is replaced by the document's mode
    std::optional<TileSpec> tile;
    std::optional<ShardSpec> shards;

    friend bool operator==(const MatmulWorkload &, const MatmulWorkload &) = default;
};

struct LlmWorkload {
    ModelConfig model;
    LlmSpec spec; // the dtypes chosen for the workload; the quantization mode overrides them
    std::string operatorKind; // "QKV projection", ...; empty: the whole model

    friend bool operator==(const LlmWorkload &, const LlmWorkload &) = default;
};

// A point of a sweep: the trajectory through all points with the same `id`, in `value` order.
struct SweepMembership {
    int id = 0;
    std::string parameter; // "b", "seq", ...
    double value = 0.0;

    friend bool operator==(const SweepMembership &, const SweepMembership &) = default;
};

struct Workload {
    std::variant<MatmulWorkload, LlmWorkload> model;
    std::string group; // the chart's group of the points added together
    std::optional<SweepMembership> sweep;

    // Every field: what a session must give back (tests/core/session/tst_session_workload.cpp).
    friend bool operator==(const Workload &, const Workload &) = default;
};

// The dtypes an LLM runs in under a quantization mode:
//   none   the workload's own weights/activations/KV dtypes
//   int8   int8 weights and activations (int8 compute ceiling), KV as chosen
//   w8a16  int8 weights, activations in the workload's float dtype (bf16 if it chose int8)
//   w4a16  int4 weights, activations as for w8a16
LlmSpec llmSpecForMode(LlmSpec spec, QuantMode mode);

// The point of a workload on a machine under a quantization mode; the error says what is
// missing ("… has no int8 compute ceiling (needed by quantization mode int8)").
ridgepoint::Expected<KernelPoint, std::string> workloadPoint(
    const Workload &workload, QuantMode mode, const Hardware &hardware);

// The machine the workload's point is analysed on: a sharded matmul's own link (shardedMachine:
// its networkBandwidth, not the machine's), else `hardware` itself. nullptr-free: when no link
// can be chosen, workloadPoint has refused the workload already and `hardware` is returned.
Hardware workloadMachine(const Workload &workload, const Hardware &hardware);
// True when workloadMachine differs from the machine (a sharded matmul).
bool hasOwnMachine(const Workload &workload);

// A matmul workload's point `moved` (its what-if applied) past its tiling wall on the machine
// under the mode (docs/MODEL.md §12): the bound its bytes at the modelled memory level break at
// the workload's shape; a fused LLM step's "attention score" or "attention value" past the
// attention bound (§12.1), its bytes and the other operator's together; else nullopt (other LLM
// operators, a machine without capacities, a point within its walls).
std::optional<IoBoundExcess> workloadIoExcess(
    const Workload &workload, QuantMode mode, const Hardware &hardware, const KernelPoint &moved);

// Sets parameter `name` of a workload ("b", "d", "f", "shards", "tile" for a matmul; "seq",
// "batch" for an LLM) to `value`. False when the workload has no such parameter.
bool setWorkloadParameter(Workload &workload, const std::string &name, std::int64_t value);

} // namespace ridgepoint
