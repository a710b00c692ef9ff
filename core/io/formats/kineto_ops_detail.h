// What the operator models of core/io/formats/kineto_ops.cpp and kineto_ops_more.cpp share: a
// tensor input with its element size, shape helpers, and the second file's families.
#pragma once

#include "core/io/formats/kineto_ops.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint::kineto::detail {

struct Tensor {
    std::vector<std::int64_t> dims;
    double elementBytes = 0.0;
    std::optional<Precision> precision;

    double elements() const
    {
        double n = 1.0;
        for (const std::int64_t d : dims)
            n *= static_cast<double>(d);
        return n;
    }
    double bytes() const { return elements() * elementBytes; }
};

using Cost = Expected<OperatorCost, std::string>;

// What is no tensor: a scalar, a list of numbers or tensors, an absent optional.
bool notATensor(std::string_view type);
std::string shapeText(const std::vector<std::int64_t> &dims); // "[2, 3]"
std::string shapesText(const std::vector<Tensor> &tensors); // "[2, 3], [3] and [4]"
double product(const std::vector<std::int64_t> &dims);
std::string noModel(std::string_view op); // "operator X has no model yet"
// numpy's broadcasting of several shapes; nullopt when two sizes differ and neither is 1.
std::optional<std::vector<std::int64_t>> broadcast(const std::vector<Tensor> &tensors);
// The tensor inputs in order, or why the inputs cannot be used.
Expected<std::vector<Tensor>, std::string> tensorsOf(
    std::string_view op, const std::vector<OperatorInput> &inputs);

// Reductions, losses, the optimizer's multi-tensor operators, convolutions, attention, group,
// RMS and batch norms, and the data movers (cat, index, embedding, fill): docs/MODEL.md §11.5.
// nullopt when `base` (the name without "aten::") is none of them.
std::optional<Cost> moreFamilies(std::string_view op, std::string_view base,
    const std::vector<Tensor> &tensors, const std::vector<OperatorInput> &inputs);

// "[1, 2]" or "3" as whole numbers; nullopt for anything else ("", "True", "1.5").
std::optional<std::vector<std::int64_t>> intList(std::string_view text);
// The "Concrete Inputs" entry of input i; empty when not recorded.
const std::string &concreteAt(const std::vector<OperatorInput> &inputs, std::size_t i);

// core/io/formats/kineto_ops_shaped.cpp: convolutions and their backward, scaled-dot-product
// attention, group, RMS and batch norms.
Cost convolutionCost(std::string_view op, std::string_view base, const std::vector<Tensor> &t,
    const std::vector<OperatorInput> &inputs);
// Whether `base` is one of scaled-dot-product attention's operators, forward or backward.
bool isAttention(std::string_view base);
Cost attentionCost(std::string_view op, std::string_view base, const std::vector<Tensor> &t,
    const std::vector<OperatorInput> &inputs);
Cost normCost(std::string_view op, std::string_view base, const std::vector<Tensor> &t,
    const std::vector<OperatorInput> &inputs);

} // namespace ridgepoint::kineto::detail
