// The operator families beyond matmuls, elementwise operators, softmax, layer norm and copies
// (those are in kineto_ops.cpp): reductions, losses, the optimizer's multi-tensor operators,
// convolutions, scaled-dot-product attention, group, RMS and batch norms, and the operators that
// only move data. Conventions: docs/MODEL.md §11.5.
#include "core/io/formats/kineto_ops_detail.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace ridgepoint::kineto::detail {
namespace {

// The element size assumed for a TensorList, whose type the profiler does not record: fp32,
// PyTorch's default dtype (and an optimizer's master weights and state under mixed precision).
constexpr double kListElementBytes = 4.0;

std::string opText(std::string_view op)
{
    return std::string(op);
}

// ---- Reductions -----------------------------------------------------------------------------

struct PerElement {
    std::string_view name;
    double flops;
};

// FLOPs per input element: an add or a comparison; the norm squares too; variance subtracts
// the mean, squares and adds; logsumexp compares (the maximum), exponentiates and adds.
constexpr std::array kReductions {
    PerElement { "sum", 1 },
    PerElement { "nansum", 1 },
    PerElement { "mean", 1 },
    PerElement { "prod", 1 },
    PerElement { "amax", 1 },
    PerElement { "amin", 1 },
    PerElement { "max", 1 },
    PerElement { "min", 1 },
    PerElement { "argmax", 1 },
    PerElement { "argmin", 1 },
    PerElement { "any", 1 },
    PerElement { "all", 1 },
    PerElement { "norm", 2 },
    PerElement { "linalg_vector_norm", 2 },
    PerElement { "var", 3 },
    PerElement { "std", 3 },
    PerElement { "var_mean", 3 },
    PerElement { "std_mean", 3 },
    PerElement { "logsumexp", 3 },
};

// The input read once, the output written once. The output's elements: the input's over the
// sizes of the reduced dims when "Concrete Inputs" records them, else one (a full reduction).
Cost reductionCost(std::string_view op, double perElement, const std::vector<Tensor> &t,
    const std::vector<OperatorInput> &inputs)
{
    if (t.empty())
        return Unexpected(opText(op) + ": no tensor input recorded");
    const Tensor &x = t[0];
    const double e = x.elements();
    double out = 1.0;
    if (const auto dims = intList(concreteAt(inputs, 1)); dims && !dims->empty()) {
        const auto rank = static_cast<std::int64_t>(x.dims.size());
        double reduced = 1.0;
        for (const std::int64_t d : *dims) {
            if (d < -rank || d >= std::max<std::int64_t>(rank, 1))
                return Unexpected(opText(op) + ": dim " + std::to_string(d) + " is outside "
                    + shapeText(x.dims) + " (expected -" + std::to_string(rank) + " to "
                    + std::to_string(rank - 1) + ")");
            if (rank > 0)
                reduced *= static_cast<double>(x.dims[static_cast<std::size_t>((d + rank) % rank)]);
        }
        out = reduced > 0.0 ? e / reduced : 0.0;
    }
    const bool indices = op.ends_with("argmax") || op.ends_with("argmin");
    return OperatorCost { perElement * e, x.bytes() + out * (indices ? 8.0 : x.elementBytes),
        x.precision };
}

// ---- Losses ---------------------------------------------------------------------------------

// mse_loss(x, y, reduction): a subtraction, a square and the reduction's add per element (3);
// x and y read, the output written: one element with reduction mean (1) or sum (2), all of
// them with none (0). mse_loss_backward(grad, x, y, reduction): 3 per element (subtract, scale
// by 2/N, times the gradient); every tensor read, the input's gradient written.
// binary_cross_entropy_with_logits(x, t, ...): max(x, 0) − x·t + log(1 + exp(−|x|)): 8 per
// element; x, t and any weights read, the output written as for mse_loss.
Cost lossCost(std::string_view op, std::string_view base, const std::vector<Tensor> &t,
    const std::vector<OperatorInput> &inputs)
{
    const bool backward = base == "mse_loss_backward";
    const std::size_t need = backward ? 3 : 2;
    if (t.size() < need)
        return Unexpected(opText(op) + ": " + std::to_string(t.size()) + " tensor inputs (expected "
            + std::to_string(need) + ")");
    const Tensor &x = t[backward ? 1 : 0];
    if (t[backward ? 2 : 1].elements() != x.elements())
        return Unexpected(opText(op) + ": shapes " + shapesText(t)
            + " do not match (expected the input and the target of one shape)");
    double read = 0.0;
    for (const Tensor &input : t)
        read += input.bytes();
    const double e = x.elements();
    if (backward)
        return OperatorCost { 3.0 * e, read + x.bytes(), x.precision };
    // The reduction is the last input: 0 none, 1 mean, 2 sum.
    const auto reduction = intList(inputs.empty() ? std::string() : inputs.back().concrete);
    const double out = reduction && reduction->size() == 1 && reduction->front() == 0 ? e : 1.0;
    const double perElement = base == "mse_loss" ? 3.0 : 8.0;
    return OperatorCost { perElement * e, read + out * x.elementBytes, x.precision };
}

// ---- The optimizer's multi-tensor operators -------------------------------------------------

constexpr std::array kForeach {
    PerElement { "add", 1 }, PerElement { "sub", 1 }, PerElement { "mul", 1 },
    PerElement { "div", 1 }, PerElement { "neg", 1 }, PerElement { "abs", 1 },
    PerElement { "sqrt", 1 }, PerElement { "exp", 1 }, PerElement { "reciprocal", 1 },
    PerElement { "maximum", 1 }, PerElement { "minimum", 1 }, PerElement { "clamp_min", 1 },
    PerElement { "clamp_max", 1 }, PerElement { "sign", 1 },
    PerElement { "addcmul", 2 }, // a + s·b·c
    PerElement { "addcdiv", 2 }, // a + s·b/c
    PerElement { "lerp", 3 }, // a + w·(b − a)
    PerElement { "norm", 2 }, // Σ x², one output per tensor
};

double listElements(const OperatorInput &input)
{
    double n = 0.0;
    for (const auto &dims : input.list)
        n += product(dims);
    return n;
}

// A size of a tensor list that is negative or was not a whole number (kept as -1).
bool badListSize(const OperatorInput &input)
{
    for (const auto &dims : input.list) {
        if (std::any_of(dims.begin(), dims.end(), [](std::int64_t d) { return d < 0; }))
            return true;
    }
    return false;
}

std::string badListText(std::string_view op)
{
    return std::string(op)
        + ": a size in its tensor list is not a whole number of at least 0 (expected \"Input "
          "Dims\" with one list of sizes per tensor)";
}

std::vector<const OperatorInput *> tensorLists(const std::vector<OperatorInput> &inputs)
{
    std::vector<const OperatorInput *> out;
    for (const OperatorInput &input : inputs) {
        if (input.type == "TensorList")
            out.push_back(&input);
    }
    return out;
}

// _foreach_OP(_)(lists..., scalars): f FLOPs per element of the first list; every list read,
// the first written (in place) or a list of its shapes written. _fused_adam(w)_(params, grads,
// exp_avgs, exp_avg_sqs, ...): 12 FLOPs an element (first moment 3, second 4, the update 5),
// four lists read and three written. Elements of a TensorList are taken as fp32.
Cost foreachCost(std::string_view op, std::string_view base, const std::vector<OperatorInput> &in)
{
    const auto lists = tensorLists(in);
    if (lists.empty() || lists.front()->list.empty())
        return Unexpected(opText(op)
            + ": the shapes of its tensor lists are not recorded (expected \"Input Dims\" "
              "with one shape per tensor)");
    for (const OperatorInput *list : lists) {
        if (badListSize(*list))
            return Unexpected(badListText(op));
        if (!list->list.empty() && list->list.size() != lists.front()->list.size())
            return Unexpected(opText(op) + ": tensor lists of "
                + std::to_string(lists.front()->list.size()) + " and "
                + std::to_string(list->list.size()) + " tensors (expected lists of one length)");
    }
    const double e = listElements(*lists.front());
    double read = 0.0;
    for (const OperatorInput *list : lists)
        read += listElements(*list) * kListElementBytes;
    if (base == "_fused_adam_" || base == "_fused_adamw_" || base == "_fused_adam"
        || base == "_fused_adamw") {
        if (lists.size() < 4)
            return Unexpected(opText(op) + ": " + std::to_string(lists.size())
                + " tensor lists (expected params, grads, exp_avgs and exp_avg_sqs)");
        return OperatorCost { 12.0 * e, 7.0 * e * kListElementBytes, Precision::FP32 };
    }
    std::string_view name = base.substr(std::string_view("_foreach_").size());
    if (name.ends_with('_'))
        name.remove_suffix(1);
    for (const PerElement &f : kForeach) {
        if (f.name != name)
            continue;
        const double written = name == "norm"
            ? static_cast<double>(lists.front()->list.size()) * kListElementBytes
            : e * kListElementBytes;
        return OperatorCost { f.flops * e, read + written, Precision::FP32 };
    }
    return Unexpected(noModel(op));
}

// ---- Operators that only move data ----------------------------------------------------------

// No FLOPs (their kernels are listed as moving data only); the bytes they read and write:
// cat (tensor lists, fp32) reads and writes every element; index_select(x, dim, index) and
// gather(x, dim, index) read the index and the selected elements and write them; embedding(w
// [V, D], indices) reads the indices and indices·D rows and writes them; fill_ and zero_ write.
Cost moverCost(std::string_view op, std::string_view base, const std::vector<Tensor> &t,
    const std::vector<OperatorInput> &inputs)
{
    if (base == "cat") {
        const auto lists = tensorLists(inputs);
        if (lists.empty() || lists.front()->list.empty())
            return Unexpected(opText(op)
                + ": the shapes of its tensor list are not recorded (expected \"Input Dims\" "
                  "with one shape per tensor)");
        if (badListSize(*lists.front()))
            return Unexpected(badListText(op));
        return OperatorCost { 0.0, 2.0 * listElements(*lists.front()) * kListElementBytes, {} };
    }
    if (t.empty())
        return Unexpected(opText(op) + ": no tensor input recorded");
    if (base == "fill_" || base == "zero_")
        return OperatorCost { 0.0, t[0].bytes(), t[0].precision };
    if (t.size() < 2)
        return Unexpected(opText(op) + ": " + std::to_string(t.size())
            + " tensor inputs (expected the data and the indices)");
    const Tensor &data = t[0];
    const Tensor &index = t[1];
    double out = index.elements();
    if (base == "embedding") {
        if (data.dims.size() != 2)
            return Unexpected(opText(op) + ": weight " + shapeText(data.dims)
                + " is not a table (expected [V, D])");
        out *= static_cast<double>(data.dims[1]);
    } else if (base == "index_select") {
        const auto dim = intList(concreteAt(inputs, 1));
        const auto rank = static_cast<std::int64_t>(data.dims.size());
        if (!dim || dim->size() != 1 || rank == 0 || dim->front() < -rank || dim->front() >= rank)
            return Unexpected(
                opText(op) + ": its dim is not recorded or outside " + shapeText(data.dims));
        const auto along = data.dims[static_cast<std::size_t>((dim->front() + rank) % rank)];
        out = along > 0 ? data.elements() / static_cast<double>(along) * index.elements() : 0.0;
    }
    return OperatorCost { 0.0, index.bytes() + 2.0 * out * data.elementBytes, data.precision };
}

// embedding_bag(w [V, D], indices [N], offsets [B], scale_grad_by_freq, mode, sparse,
// per_sample_weights, include_last_offset, ...) (and its inner _embedding_bag and
// _embedding_bag_forward_only, same arguments): N rows of D gathered and reduced into B bags (B − 1
// with include_last_offset). Reads the indices, the offsets and the N·D elements, writes B·D.
// FLOPs by mode (input 4): sum N·D additions, mean those and B·D divisions, max none (it compares);
// per-sample weights (sum only) read N more elements and add N·D multiplications.
Cost embeddingBagCost(
    std::string_view op, const std::vector<Tensor> &t, const std::vector<OperatorInput> &inputs)
{
    if (t.size() < 3 || t[0].dims.size() != 2)
        return Unexpected(opText(op) + ": " + shapesText(t)
            + " are not a table [V, D], the indices and the offsets");
    const auto mode = intList(concreteAt(inputs, 4));
    if (!mode || mode->size() != 1 || mode->front() < 0 || mode->front() > 2)
        return Unexpected(opText(op) + ": its mode (0 sum, 1 mean, 2 max) is not recorded");
    const Tensor &table = t[0];
    const double d = static_cast<double>(table.dims[1]);
    const double n = t[1].elements();
    double bags = t[2].elements();
    if (concreteAt(inputs, 7) == "True" && bags > 0.0)
        bags -= 1.0;
    double flops = mode->front() == 2 ? 0.0 : n * d;
    if (mode->front() == 1)
        flops += bags * d;
    double bytes = t[1].bytes() + t[2].bytes() + (n + bags) * d * table.elementBytes;
    if (t.size() > 3 && mode->front() == 0) {
        flops += n * d;
        bytes += t[3].bytes();
    }
    return OperatorCost { flops, bytes, table.precision };
}

// sort(x), argsort(x) and topk(x, k, dim) order data: comparisons and swaps, no arithmetic, so
// no FLOPs (their kernels are listed as moving data only), and the bytes of one pass: x read, and
// the values (in x's type) and their int64 indices written: E of each for sort, the indices
// alone for argsort, and E / size(dim) · k of each for topk. A radix sort's several passes over
// the keys are not counted.
Cost orderCost(std::string_view op, std::string_view base, const std::vector<Tensor> &t,
    const std::vector<OperatorInput> &inputs)
{
    if (t.empty())
        return Unexpected(opText(op) + ": no tensor input recorded");
    const Tensor &x = t[0];
    constexpr double kIndexBytes = 8.0;
    double out = x.elements();
    if (base == "topk") {
        const auto k = intList(concreteAt(inputs, 1));
        const auto given = intList(concreteAt(inputs, 2));
        const std::int64_t dim = given && given->size() == 1 ? given->front() : -1;
        const auto rank = static_cast<std::int64_t>(x.dims.size());
        if (!k || k->size() != 1 || rank == 0 || dim < -rank || dim >= rank)
            return Unexpected(opText(op) + ": its k and dim are not recorded or do not fit "
                + shapeText(x.dims) + " (expected \"Concrete Inputs\" with k)");
        const auto along = x.dims[static_cast<std::size_t>((dim + rank) % rank)];
        if (k->front() < 0 || k->front() > along)
            return Unexpected(opText(op) + ": k = " + std::to_string(k->front())
                + " is more than the " + std::to_string(along) + " elements along dim "
                + std::to_string(dim) + " of " + shapeText(x.dims));
        out = along > 0
            ? x.elements() / static_cast<double>(along) * static_cast<double>(k->front())
            : 0.0;
    }
    const double values = base == "argsort" ? 0.0 : out * x.elementBytes;
    return OperatorCost { 0.0, x.bytes() + values + out * kIndexBytes, x.precision };
}

} // namespace

std::optional<std::vector<std::int64_t>> intList(std::string_view text)
{
    std::vector<std::int64_t> out;
    const bool bracketed = text.starts_with('[') && text.ends_with(']');
    if (bracketed)
        text = text.substr(1, text.size() - 2);
    else if (text.empty())
        return std::nullopt;
    while (!text.empty()) {
        while (!text.empty() && (text.front() == ' ' || text.front() == ','))
            text.remove_prefix(1);
        if (text.empty())
            break;
        std::int64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc())
            return std::nullopt;
        out.push_back(value);
        text.remove_prefix(static_cast<std::size_t>(end - text.data()));
    }
    return out;
}

const std::string &concreteAt(const std::vector<OperatorInput> &inputs, std::size_t i)
{
    static const std::string kNone;
    return i < inputs.size() ? inputs[i].concrete : kNone;
}

std::optional<Cost> moreFamilies(std::string_view op, std::string_view base,
    const std::vector<Tensor> &tensors, const std::vector<OperatorInput> &inputs)
{
    for (const PerElement &r : kReductions) {
        if (r.name == base)
            return reductionCost(op, r.flops, tensors, inputs);
    }
    if (base == "mse_loss" || base == "mse_loss_backward"
        || base == "binary_cross_entropy_with_logits")
        return lossCost(op, base, tensors, inputs);
    if (base.starts_with("_foreach_") || base.starts_with("_fused_adam"))
        return foreachCost(op, base, inputs);
    if (base == "cat" || base == "fill_" || base == "zero_" || base == "index_select"
        || base == "gather" || base == "embedding")
        return moverCost(op, base, tensors, inputs);
    if (base == "embedding_bag" || base == "_embedding_bag"
        || base == "_embedding_bag_forward_only")
        return embeddingBagCost(op, tensors, inputs);
    if (base == "convolution" || base == "_convolution" || base == "conv1d" || base == "conv2d"
        || base == "conv3d" || base == "convolution_backward")
        return convolutionCost(op, base, tensors, inputs);
    if (isAttention(base))
        return attentionCost(op, base, tensors, inputs);
    if (base == "sort" || base == "argsort" || base == "topk")
        return orderCost(op, base, tensors, inputs);
    if (base == "group_norm" || base == "native_group_norm" || base == "rms_norm"
        || base == "_fused_rms_norm" || base == "batch_norm" || base == "native_batch_norm"
        || base == "_native_batch_norm_legit" || base == "cudnn_batch_norm")
        return normCost(op, base, tensors, inputs);
    return std::nullopt;
}

} // namespace ridgepoint::kineto::detail
