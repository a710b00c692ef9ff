// FLOPs and bytes of a PyTorch operator from the input shapes and types a profiler trace records
// ("Input Dims", "Input type" with record_shapes=True). One convention per operator family,
// written down in docs/MODEL.md §11: matmuls count 2·M·N·K, elementwise operators a fixed number
// of FLOPs per output element, and every tensor input is read once and every output written once.
#pragma once

#include "core/io/formats/kineto_events.h"
#include "core/model/expected.h"
#include "core/model/hardware.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint::kineto {

struct OperatorCost {
    double flops = 0.0;
    double bytes = 0.0;
    std::optional<Precision> precision; // of the floating-point data; none for integer data
};

// Bytes per element of a tensor type as the trace names it ("float" 4, "c10::Half" 2,
// "c10::BFloat16" 2, "double" 8, "long int" 8, "int" 4, "bool" 1, ...); nullopt when the name
// is not a tensor type this knows.
std::optional<double> elementBytes(std::string_view type);

// The precision of a tensor type: fp64, fp32, fp16, bf16, fp8; nullopt for integers and bool.
std::optional<Precision> precisionOfType(std::string_view type);

// The operator's cost, or why it cannot be had: "operator aten::nonzero has no model yet",
// "aten::mm: shapes [2, 3] and [4, 5] do not multiply (expected [M, K] × [K, N])", ...
Expected<OperatorCost, std::string> operatorCost(
    std::string_view name, const std::vector<OperatorInput> &inputs);

} // namespace ridgepoint::kineto
