#include "core/io/formats/kineto_ops.h"

#include "core/io/formats/kineto_ops_detail.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace ridgepoint::kineto {
namespace {

struct TypeInfo {
    std::string_view name;
    double bytes;
    std::optional<Precision> precision;
};

// The type names torch.profiler writes: an operator input's C++ name, with and without c10::,
// and a collective's dtype as c10::ScalarType names it (record_param_comms: "Float", "Long").
constexpr std::array kTypes {
    TypeInfo { "float", 4, Precision::FP32 },
    TypeInfo { "double", 8, Precision::FP64 },
    TypeInfo { "c10::Half", 2, Precision::FP16 },
    TypeInfo { "Half", 2, Precision::FP16 },
    TypeInfo { "c10::BFloat16", 2, Precision::BF16 },
    TypeInfo { "BFloat16", 2, Precision::BF16 },
    TypeInfo { "c10::Float8_e4m3fn", 1, Precision::FP8 },
    TypeInfo { "c10::Float8_e5m2", 1, Precision::FP8 },
    TypeInfo { "long int", 8, std::nullopt },
    TypeInfo { "long", 8, std::nullopt },
    TypeInfo { "int64_t", 8, std::nullopt },
    TypeInfo { "int", 4, std::nullopt },
    TypeInfo { "short int", 2, std::nullopt },
    TypeInfo { "short", 2, std::nullopt },
    TypeInfo { "signed char", 1, std::nullopt },
    TypeInfo { "unsigned char", 1, std::nullopt },
    TypeInfo { "bool", 1, std::nullopt },
    TypeInfo { "Float", 4, Precision::FP32 },
    TypeInfo { "Double", 8, Precision::FP64 },
    TypeInfo { "Float8_e4m3fn", 1, Precision::FP8 },
    TypeInfo { "Float8_e5m2", 1, Precision::FP8 },
    TypeInfo { "Long", 8, std::nullopt },
    TypeInfo { "Int", 4, std::nullopt },
    TypeInfo { "Short", 2, std::nullopt },
    TypeInfo { "Char", 1, std::nullopt },
    TypeInfo { "Byte", 1, std::nullopt },
    TypeInfo { "Bool", 1, std::nullopt },
};

const TypeInfo *typeInfo(std::string_view type)
{
    for (const TypeInfo &info : kTypes) {
        if (info.name == type)
            return &info;
    }
    return nullptr;
}

} // namespace

namespace detail {

// What is no tensor: a scalar, a list of numbers or tensors, an absent optional.
bool notATensor(std::string_view type)
{
    return type.empty() || type == "Scalar" || type == "ScalarList" || type == "TensorList"
        || type == "GenericList" || type == "Device" || type == "Layout";
}

std::string shapeText(const std::vector<std::int64_t> &dims)
{
    std::string out = "[";
    for (std::size_t i = 0; i < dims.size(); ++i)
        out.append(i == 0 ? "" : ", ").append(std::to_string(dims[i]));
    return out + "]";
}

// The tensor inputs in order, or why the inputs cannot be used.
Expected<std::vector<Tensor>, std::string> tensorsOf(
    std::string_view op, const std::vector<OperatorInput> &inputs)
{
    std::vector<Tensor> out;
    for (const OperatorInput &input : inputs) {
        if (notATensor(input.type))
            continue;
        const TypeInfo *info = typeInfo(input.type);
        if (!info)
            return Unexpected(std::string(op) + ": input type \"" + input.type
                + "\" has no known element size (expected float, c10::Half, c10::BFloat16, "
                  "double, long int, int, bool, ...)");
        if (!input.listed)
            return Unexpected(std::string(op) + ": an input's dims are not a list of sizes");
        for (const std::int64_t d : input.dims) {
            if (d < 0)
                return Unexpected(std::string(op) + ": negative size in " + shapeText(input.dims)
                    + " (expected sizes of at least 0)");
        }
        out.push_back({ input.dims, info->bytes, info->precision });
    }
    return out;
}

std::string noModel(std::string_view op)
{
    return "operator " + std::string(op) + " has no model yet";
}

// numpy's broadcasting of several shapes; nullopt when two sizes differ and neither is 1.
std::optional<std::vector<std::int64_t>> broadcast(const std::vector<Tensor> &tensors)
{
    std::size_t rank = 0;
    for (const Tensor &t : tensors)
        rank = std::max(rank, t.dims.size());
    std::vector<std::int64_t> out(rank, 1);
    for (const Tensor &t : tensors) {
        const std::size_t offset = rank - t.dims.size();
        for (std::size_t i = 0; i < t.dims.size(); ++i) {
            std::int64_t &o = out[offset + i];
            const std::int64_t d = t.dims[i];
            if (d == o || d == 1)
                continue;
            if (o != 1)
                return std::nullopt;
            o = d;
        }
    }
    return out;
}

std::string shapesText(const std::vector<Tensor> &tensors)
{
    std::string out;
    for (std::size_t i = 0; i < tensors.size(); ++i)
        out.append(i == 0 ? "" : (i + 1 == tensors.size() ? " and " : ", "))
            .append(shapeText(tensors[i].dims));
    return out;
}

double product(const std::vector<std::int64_t> &dims)
{
    double n = 1.0;
    for (const std::int64_t d : dims)
        n *= static_cast<double>(d);
    return n;
}

} // namespace detail

namespace {

using namespace detail;

// C[M,N] = A[M,K]·B[K,N] over `batch` matrices; bias (addmm, baddbmm, linear) adds M·N FLOPs.
OperatorCost matmulCost(
    const Tensor &a, double batch, double m, double n, double k, double otherBytes, bool bias)
{
    OperatorCost cost;
    cost.flops = 2.0 * batch * m * n * k + (bias ? batch * m * n : 0.0);
    cost.bytes = otherBytes + batch * m * n * a.elementBytes;
    cost.precision = a.precision;
    return cost;
}

Cost mmFamily(std::string_view op, std::string_view base, const std::vector<Tensor> &t)
{
    const bool withBias = base == "addmm" || base == "baddbmm";
    const bool batched = base == "bmm" || base == "baddbmm";
    const std::size_t need = withBias ? 3 : 2;
    const std::size_t rank = batched ? 3 : 2;
    const std::string expected
        = batched ? " (expected [B, M, K] × [B, K, N])" : " (expected [M, K] × [K, N])";
    if (t.size() != need)
        return Unexpected(std::string(op) + ": " + std::to_string(t.size())
            + " tensor inputs (expected " + std::to_string(need) + ")");
    const Tensor &a = t[need - 2];
    const Tensor &b = t[need - 1];
    if (a.dims.size() != rank || b.dims.size() != rank || a.dims[rank - 1] != b.dims[rank - 2]
        || (batched && a.dims[0] != b.dims[0]))
        return Unexpected(std::string(op) + ": shapes " + shapeText(a.dims) + " and "
            + shapeText(b.dims) + " do not multiply" + expected);
    const double batch = batched ? static_cast<double>(a.dims[0]) : 1.0;
    const auto dim = [](const Tensor &x, std::size_t i) { return static_cast<double>(x.dims[i]); };
    const double m = dim(a, rank - 2);
    const double k = dim(a, rank - 1);
    const double n = dim(b, rank - 1);
    double read = a.bytes() + b.bytes();
    if (withBias)
        read += t[0].bytes();
    return matmulCost(a, batch, m, n, k, read, withBias);
}

// torch.matmul: 1-D operands become a row or a column, the leading dims broadcast as a batch.
Cost matmulGeneral(std::string_view op, const std::vector<Tensor> &t)
{
    if (t.size() != 2 || t[0].dims.empty() || t[1].dims.empty())
        return Unexpected(std::string(op) + ": expected two tensors of at least one dimension");
    std::vector<std::int64_t> a = t[0].dims;
    std::vector<std::int64_t> b = t[1].dims;
    if (a.size() == 1)
        a.insert(a.begin(), 1);
    if (b.size() == 1)
        b.push_back(1);
    if (a.back() != b[b.size() - 2])
        return Unexpected(std::string(op) + ": shapes " + shapeText(t[0].dims) + " and "
            + shapeText(t[1].dims) + " do not multiply (expected [..., M, K] × [..., K, N])");
    const Tensor batchA { { a.begin(), a.end() - 2 }, 0.0, {} };
    const Tensor batchB { { b.begin(), b.end() - 2 }, 0.0, {} };
    const auto batch = broadcast({ batchA, batchB });
    if (!batch)
        return Unexpected(std::string(op) + ": batch dims of " + shapeText(t[0].dims) + " and "
            + shapeText(t[1].dims) + " do not broadcast");
    const double m = static_cast<double>(a[a.size() - 2]);
    return matmulCost(t[0], product(*batch), m, static_cast<double>(b.back()),
        static_cast<double>(a.back()), t[0].bytes() + t[1].bytes(), false);
}

// linear(x[..., K], W[N, K], bias[N]?): M = elements of x / K.
Cost linearCost(std::string_view op, const std::vector<Tensor> &t)
{
    if (t.size() < 2 || t.size() > 3 || t[0].dims.empty() || t[1].dims.size() != 2
        || t[0].dims.back() != t[1].dims[1])
        return Unexpected(std::string(op) + ": shapes " + shapesText(t)
            + " do not fit (expected x [..., K], weight [N, K] and an optional bias [N])");
    const double k = static_cast<double>(t[1].dims[1]);
    const double n = static_cast<double>(t[1].dims[0]);
    const double m = k > 0.0 ? t[0].elements() / k : 0.0;
    double read = t[0].bytes() + t[1].bytes();
    if (t.size() == 3)
        read += t[2].bytes();
    return matmulCost(t[0], 1.0, m, n, k, read, t.size() == 3);
}

// FLOPs per output element of the elementwise operators (docs/MODEL.md §11.3): one per
// arithmetic operation or comparison, one per transcendental function (exp, tanh, erf, log).
struct Elementwise {
    std::string_view name;
    double flops;
};
constexpr std::array kElementwise {
    Elementwise { "add", 1 }, Elementwise { "sub", 1 }, Elementwise { "rsub", 1 },
    Elementwise { "mul", 1 }, Elementwise { "div", 1 }, Elementwise { "maximum", 1 },
    Elementwise { "minimum", 1 }, Elementwise { "where", 1 }, Elementwise { "neg", 1 },
    Elementwise { "abs", 1 }, Elementwise { "relu", 1 }, Elementwise { "clamp_min", 1 },
    Elementwise { "clamp_max", 1 }, Elementwise { "clamp", 2 }, Elementwise { "exp", 1 },
    Elementwise { "log", 1 }, Elementwise { "sqrt", 1 }, Elementwise { "rsqrt", 1 },
    Elementwise { "reciprocal", 1 }, Elementwise { "tanh", 1 },
    Elementwise { "sigmoid", 4 }, // 1 / (1 + exp(-x))
    Elementwise { "gelu", 5 }, // x · 0.5 · (1 + erf(x / √2))
    Elementwise { "silu", 5 }, // x · sigmoid(x)
    Elementwise { "threshold_backward", 1 }, // relu's gradient: a select
    Elementwise { "tanh_backward", 3 }, // g · (1 − y²)
    Elementwise { "sigmoid_backward", 3 }, // g · y · (1 − y)
};

// Every tensor input read once, the broadcast output written once in the type of the first
// floating-point input (where's condition is bool), else of the first input.
Cost elementwiseCost(std::string_view op, double perElement, const std::vector<Tensor> &t)
{
    if (t.empty())
        return Unexpected(std::string(op) + ": no tensor input recorded");
    const auto floating
        = std::find_if(t.begin(), t.end(), [](const Tensor &x) { return x.precision.has_value(); });
    const Tensor &lead = floating != t.end() ? *floating : t[0];
    const auto out = broadcast(t);
    if (!out)
        return Unexpected(
            std::string(op) + ": shapes " + shapesText(t) + " do not broadcast to one shape");
    OperatorCost cost;
    const double elements = product(*out);
    cost.flops = perElement * elements;
    for (const Tensor &x : t)
        cost.bytes += x.bytes();
    cost.bytes += elements * lead.elementBytes;
    cost.precision = lead.precision;
    return cost;
}

// Softmax and log-softmax: max, subtract, exp, sum, divide (or log and subtract): 5 per element.
Cost softmaxCost(std::string_view op, const std::vector<Tensor> &t)
{
    if (t.empty())
        return Unexpected(std::string(op) + ": no tensor input recorded");
    const Tensor &x = t[0];
    return OperatorCost { 5.0 * x.elements(), 2.0 * x.bytes(), x.precision };
}

// layer_norm(x, normalized_shape, weight?, bias?): rows of N = the weight's elements (else x's
// last dim); 8 FLOPs an element; x read, y written, the weight and bias read, mean and rstd
// (fp32, one per row) written.
Cost layerNormCost(std::string_view op, const std::vector<Tensor> &t)
{
    if (t.empty() || t[0].dims.empty())
        return Unexpected(std::string(op) + ": no input tensor of at least one dimension");
    const Tensor &x = t[0];
    const double n = t.size() > 1 ? t[1].elements() : static_cast<double>(x.dims.back());
    const double e = x.elements();
    if (n <= 0.0 || std::fmod(e, n) != 0.0)
        return Unexpected(std::string(op) + ": rows of " + std::to_string(std::llround(n))
            + " elements do not divide the input " + shapeText(x.dims));
    double bytes = 2.0 * x.bytes() + 2.0 * 4.0 * (e / n);
    for (std::size_t i = 1; i < t.size(); ++i)
        bytes += t[i].bytes();
    return OperatorCost { 8.0 * e, bytes, x.precision };
}

// native_layer_norm_backward(grad, x, shape, mean, rstd, weight?, bias?): 13 FLOPs an element;
// every tensor input read, grad_input written, and grad_weight and grad_bias when there is a
// weight.
Cost layerNormBackwardCost(std::string_view op, const std::vector<Tensor> &t)
{
    if (t.size() < 4)
        return Unexpected(std::string(op) + ": " + std::to_string(t.size())
            + " tensor inputs (expected grad, input, mean, rstd and the weights)");
    const Tensor &x = t[1];
    double bytes = x.bytes();
    for (const Tensor &input : t)
        bytes += input.bytes();
    if (t.size() > 4)
        bytes += 2.0 * t[4].bytes();
    return OperatorCost { 13.0 * x.elements(), bytes, x.precision };
}

// copy_(dst, src): src read, dst written, no FLOPs; to, clone, contiguous: one read, one write.
Cost copyCost(std::string_view op, std::string_view base, const std::vector<Tensor> &t)
{
    if (t.empty())
        return Unexpected(std::string(op) + ": no tensor input recorded");
    if (base != "copy_")
        return OperatorCost { 0.0, 2.0 * t[0].bytes(), t[0].precision };
    if (t.size() != 2)
        return Unexpected(std::string(op) + ": " + std::to_string(t.size())
            + " tensor inputs (expected the destination and the source)");
    const auto out = broadcast(t);
    if (!out || *out != t[0].dims)
        return Unexpected(std::string(op) + ": the source " + shapeText(t[1].dims)
            + " does not broadcast to the destination " + shapeText(t[0].dims));
    return OperatorCost { 0.0, t[0].bytes() + t[1].bytes(), t[0].precision };
}

Cost costOfFamily(std::string_view op, std::string_view base, const std::vector<Tensor> &t,
    const std::vector<OperatorInput> &inputs)
{
    if (base == "mm" || base == "addmm" || base == "bmm" || base == "baddbmm")
        return mmFamily(op, base, t);
    if (base == "matmul")
        return matmulGeneral(op, t);
    if (base == "linear")
        return linearCost(op, t);
    if (base == "softmax" || base == "_softmax" || base == "log_softmax" || base == "_log_softmax")
        return softmaxCost(op, t);
    if (base == "layer_norm" || base == "native_layer_norm")
        return layerNormCost(op, t);
    if (base == "native_layer_norm_backward")
        return layerNormBackwardCost(op, t);
    if (base == "copy_" || base == "to" || base == "_to_copy" || base == "clone"
        || base == "contiguous")
        return copyCost(op, base, t);
    if (auto more = moreFamilies(op, base, t, inputs))
        return std::move(*more);
    // In-place forms (add_, relu_) cost what the operator does.
    const std::string_view plain
        = base.ends_with('_') && base.size() > 1 ? base.substr(0, base.size() - 1) : base;
    for (const Elementwise &e : kElementwise) {
        if (e.name == plain)
            return elementwiseCost(op, e.flops, t);
    }
    return Unexpected(noModel(op));
}

} // namespace

std::optional<double> elementBytes(std::string_view type)
{
    const TypeInfo *info = typeInfo(type);
    return info ? std::optional(info->bytes) : std::nullopt;
}

std::optional<Precision> precisionOfType(std::string_view type)
{
    const TypeInfo *info = typeInfo(type);
    return info ? info->precision : std::nullopt;
}

Expected<OperatorCost, std::string> operatorCost(
    std::string_view name, const std::vector<OperatorInput> &inputs)
{
    constexpr std::string_view kAten = "aten::";
    if (!name.starts_with(kAten))
        return Unexpected(noModel(name));
    auto tensors = tensorsOf(name, inputs);
    if (!tensors)
        return Unexpected(tensors.error());
    auto cost = costOfFamily(name, name.substr(kAten.size()), *tensors, inputs);
    if (cost && (!std::isfinite(cost->flops) || !std::isfinite(cost->bytes)))
        return Unexpected(std::string(name) + ": shapes too large to count");
    return cost;
}

} // namespace ridgepoint::kineto
