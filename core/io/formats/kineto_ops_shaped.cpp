// Operators whose cost needs more than the shapes' sizes: convolutions (stride, padding,
// dilation and groups from "Concrete Inputs"), scaled-dot-product attention (causal or not), and
// group, RMS and batch norms. Conventions: docs/MODEL.md §11.5.
#include "core/io/formats/kineto_ops_detail.h"

#include <array>
#include <cmath>

namespace ridgepoint::kineto::detail {
namespace {

std::string opText(std::string_view op)
{
    return std::string(op);
}

// A per-dimension setting: one value for all spatial dims, or one each.
std::optional<std::vector<std::int64_t>> spatial(
    const std::vector<OperatorInput> &inputs, std::size_t i, std::size_t dims)
{
    auto values = intList(concreteAt(inputs, i));
    if (!values || values->empty())
        return std::nullopt;
    if (values->size() == 1) {
        const std::int64_t all = values->front();
        values->resize(dims, all);
    }
    if (values->size() != dims)
        return std::nullopt;
    return values;
}

// Where conv's settings are: conv1d/2d/3d (x, w, b, stride, padding, dilation, groups);
// convolution and _convolution (..., dilation, transposed, output_padding, groups).
struct ConvSettings {
    std::vector<std::int64_t> stride, padding, dilation;
    std::int64_t groups = 1;
    bool same = false; // padding "same": the output keeps the input's size
};

Expected<ConvSettings, std::string> convSettings(std::string_view op, std::string_view base,
    const std::vector<OperatorInput> &inputs, std::size_t dims)
{
    const bool general = base == "convolution" || base == "_convolution";
    ConvSettings s;
    if (general && concreteAt(inputs, 6) == "True")
        return Unexpected(opText(op) + ": a transposed convolution has no model yet");
    const std::string &padding = concreteAt(inputs, 4);
    s.same = padding == "same" || padding == "'same'";
    const bool valid = padding == "valid" || padding == "'valid'";
    auto stride = spatial(inputs, 3, dims);
    auto pad = s.same || valid ? std::optional(std::vector<std::int64_t>(dims, 0))
                               : spatial(inputs, 4, dims);
    auto dilation = spatial(inputs, 5, dims);
    const auto groups = intList(concreteAt(inputs, general ? 8 : 6));
    if (!stride || !pad || !dilation || !groups || groups->size() != 1)
        return Unexpected(opText(op)
            + ": its stride, padding, dilation and groups are not recorded (expected them in "
              "\"Concrete Inputs\")");
    s.stride = std::move(*stride);
    s.padding = std::move(*pad);
    s.dilation = std::move(*dilation);
    s.groups = groups->front();
    return s;
}

// x [N, C, *in], w [K, C/g, *k]: FLOPs 2·N·K·(C/g)·Πk·Πout (+ N·K·Πout with a bias); x, w and
// the bias read, the output [N, K, *out] written.
Cost convolutionForward(std::string_view op, std::string_view base, const std::vector<Tensor> &t,
    const std::vector<OperatorInput> &inputs)
{
    if (t.size() < 2 || t[0].dims.size() < 3 || t[1].dims.size() != t[0].dims.size())
        return Unexpected(opText(op) + ": shapes " + shapesText(t)
            + " do not fit (expected x [N, C, ...] and a weight [K, C/groups, ...] of its rank)");
    const Tensor &x = t[0];
    const Tensor &w = t[1];
    const std::size_t dims = x.dims.size() - 2;
    auto settings = convSettings(op, base, inputs, dims);
    if (!settings)
        return Unexpected(settings.error());
    const ConvSettings &s = *settings;
    if (s.groups < 1 || x.dims[1] != w.dims[1] * s.groups || w.dims[0] % s.groups != 0)
        return Unexpected(opText(op) + ": shapes " + shapeText(x.dims) + " and " + shapeText(w.dims)
            + " do not fit " + std::to_string(s.groups)
            + " groups (expected C = weight's dim 1 × groups)");
    double out = 1.0;
    for (std::size_t i = 0; i < dims; ++i) {
        const std::int64_t in = x.dims[i + 2];
        const std::int64_t k = w.dims[i + 2];
        const std::int64_t span = in + 2 * s.padding[i] - s.dilation[i] * (k - 1) - 1;
        if (s.stride[i] < 1 || (!s.same && span < 0))
            return Unexpected(opText(op) + ": kernel " + shapeText(w.dims) + " does not fit input "
                + shapeText(x.dims) + " with this stride, padding and dilation");
        out *= static_cast<double>(s.same ? in : span / s.stride[i] + 1);
    }
    const double n = static_cast<double>(x.dims[0]);
    const double kOut = static_cast<double>(w.dims[0]);
    const double window = w.elements() / kOut; // (C/g)·Πk
    const bool bias = t.size() > 2;
    OperatorCost cost;
    cost.flops = 2.0 * n * kOut * window * out + (bias ? n * kOut * out : 0.0);
    cost.bytes
        = x.bytes() + w.bytes() + (bias ? t[2].bytes() : 0.0) + n * kOut * out * x.elementBytes;
    cost.precision = x.precision;
    return cost;
}

// convolution_backward(grad_out [N, K, *out], x [N, C, *in], w [K, C/g, *k], ...,
// output_mask): the input's gradient and the weight's each 2·N·K·(C/g)·Πk·Πout FLOPs, the
// bias's N·K·Πout, as the mask asks (all three when it is not recorded); grad_out, x and w
// read, the gradients asked for written.
Cost convolutionBackward(
    std::string_view op, const std::vector<Tensor> &t, const std::vector<OperatorInput> &inputs)
{
    if (t.size() < 3 || t[0].dims.size() < 3 || t[1].dims.size() != t[0].dims.size()
        || t[2].dims.size() != t[0].dims.size() || t[0].dims[0] != t[1].dims[0]
        || t[0].dims[1] != t[2].dims[0])
        return Unexpected(opText(op) + ": shapes " + shapesText(t)
            + " do not fit (expected grad [N, K, ...], x [N, C, ...], weight [K, C/groups, ...])");
    const Tensor &grad = t[0];
    const Tensor &x = t[1];
    const Tensor &w = t[2];
    std::array<bool, 3> mask { true, true, true };
    const std::string &text = concreteAt(inputs, 10);
    if (text.starts_with('[')) {
        std::size_t at = 0;
        for (std::size_t i = 0; i < 3; ++i) {
            const std::size_t next = text.find_first_of("TF", at);
            if (next == std::string::npos)
                break;
            mask[i] = text[next] == 'T';
            at = next + 1;
        }
    }
    const double n = static_cast<double>(grad.dims[0]);
    const double kOut = static_cast<double>(grad.dims[1]);
    const double out = grad.elements() / (n * kOut);
    const double one = 2.0 * n * kOut * (w.elements() / kOut) * out;
    OperatorCost cost;
    cost.flops = (mask[0] ? one : 0.0) + (mask[1] ? one : 0.0) + (mask[2] ? n * kOut * out : 0.0);
    cost.bytes = grad.bytes() + x.bytes() + w.bytes() + (mask[0] ? x.bytes() : 0.0)
        + (mask[1] ? w.bytes() : 0.0) + (mask[2] ? kOut * grad.elementBytes : 0.0);
    cost.precision = grad.precision;
    return cost;
}

} // namespace

Cost convolutionCost(std::string_view op, std::string_view base, const std::vector<Tensor> &t,
    const std::vector<OperatorInput> &inputs)
{
    if (base == "convolution_backward")
        return convolutionBackward(op, t, inputs);
    return convolutionForward(op, base, t, inputs);
}

namespace {

// One operator of scaled-dot-product attention: where its tensors and is_causal are. SDPA's own
// operators take [B, H, L, D]; the kernels' operators beneath them (_flash_attention_*,
// _efficient_attention_*), which a trace names as the kernels' innermost, take [B, L, H, D].
struct AttentionForm {
    std::string_view name;
    std::size_t causalAt; // the Concrete Inputs entry of is_causal (or of the mask type)
    bool backward; // grad_out comes first; q, k, v follow
    bool headsSecond; // [B, H, L, D]; false: [B, L, H, D]
    bool maskType; // custom_mask_type, 0 for none, instead of a bool
};

// The positions are PyTorch's signatures (aten/src/ATen/native/native_functions.yaml, 2.1 on).
constexpr AttentionForm kAttentionForms[] = {
    { "scaled_dot_product_attention", 5, false, true, false },
    { "_scaled_dot_product_flash_attention", 4, false, true, false },
    { "_scaled_dot_product_efficient_attention", 6, false, true, false },
    { "_scaled_dot_product_cudnn_attention", 6, false, true, false },
    { "_flash_attention_forward", 8, false, false, false },
    { "_efficient_attention_forward", 9, false, false, true },
    { "_scaled_dot_product_flash_attention_backward", 11, true, true, false },
    { "_scaled_dot_product_efficient_attention_backward", 11, true, true, false },
    { "_scaled_dot_product_cudnn_attention_backward", 14, true, true, false },
    { "_flash_attention_backward", 11, true, false, false },
    { "_efficient_attention_backward", 14, true, false, true },
};

const AttentionForm *attentionForm(std::string_view base)
{
    for (const AttentionForm &form : kAttentionForms) {
        if (form.name == base)
            return &form;
    }
    return nullptr;
}

bool causalOf(const AttentionForm &form, const std::vector<OperatorInput> &inputs)
{
    std::size_t at = form.causalAt;
    // PyTorch 2.0's efficient backward had 8 inputs, is_causal the 7th.
    if (form.name == "_scaled_dot_product_efficient_attention_backward" && inputs.size() <= 8)
        at = 6;
    const std::string &value = concreteAt(inputs, at);
    if (form.maskType)
        return !value.empty() && value != "0";
    return value == "True";
}

} // namespace

bool isAttention(std::string_view base)
{
    return attentionForm(base) != nullptr;
}

// q [B, H, L, D], k [B, Hk, S, D], v [B, Hk, S, Dv] (H a multiple of Hk: grouped queries; the
// kernels' operators hold L before H). Forward: the two matmuls Q·Kᵀ and P·V,
// 2·B·H·L·S·(D + Dv) FLOPs (the softmax's few FLOPs an element are not counted, as
// FlashAttention's papers count); q, k, v and a mask read, the output [B, H, L, Dv] written.
// Backward: the five matmuls of FlashAttention-2's backward pass (S = Q·Kᵀ again, dV = Pᵀ·dO,
// dP = dO·Vᵀ, dQ = dS·K, dK = dSᵀ·Q), 2·B·H·L·S·(3·D + 2·Dv): 2.5 times the forward when
// D = Dv, the ratio FlashAttention-2 uses; every tensor input read (dO, q, k, v, the output, the
// log-sum-exp, ...) and the gradients of q, k and v written. Causal: half of either.
Cost attentionCost(std::string_view op, std::string_view base, const std::vector<Tensor> &t,
    const std::vector<OperatorInput> &inputs)
{
    const AttentionForm &form = *attentionForm(base);
    const std::size_t first = form.backward ? 1 : 0;
    if (t.size() < first + 3)
        return Unexpected(opText(op) + ": " + std::to_string(t.size()) + " tensor inputs (expected "
            + (form.backward ? "the output's gradient, " : "") + "query, key and value)");
    const Tensor &q = t[first];
    const Tensor &k = t[first + 1];
    const Tensor &v = t[first + 2];
    // The dims' places: heads and sequence swap in the kernels' operators.
    const std::size_t h = form.headsSecond ? 1 : 2;
    const std::size_t n = form.headsSecond ? 2 : 1;
    if (q.dims.size() != 4 || k.dims.size() != 4 || v.dims.size() != 4 || k.dims[0] != q.dims[0]
        || v.dims[0] != q.dims[0] || k.dims[3] != q.dims[3] || k.dims[n] != v.dims[n]
        || k.dims[h] != v.dims[h] || k.dims[h] < 1 || q.dims[h] % k.dims[h] != 0)
        return Unexpected(opText(op) + ": shapes " + shapesText({ q, k, v })
            + " do not fit (expected "
            + (form.headsSecond ? "q [B, H, L, D], k [B, Hk, S, D], v [B, Hk, S, Dv]"
                                : "q [B, L, H, D], k [B, S, Hk, D], v [B, S, Hk, Dv]")
            + " with H a multiple of Hk)");
    const double b = static_cast<double>(q.dims[0]);
    const double heads = static_cast<double>(q.dims[h]);
    const double l = static_cast<double>(q.dims[n]);
    const double s = static_cast<double>(k.dims[n]);
    const double d = static_cast<double>(q.dims[3]);
    const double dv = static_cast<double>(v.dims[3]);
    const double causal = causalOf(form, inputs) ? 0.5 : 1.0;
    OperatorCost cost;
    cost.precision = q.precision;
    if (form.backward) {
        cost.flops = 2.0 * b * heads * l * s * (3.0 * d + 2.0 * dv) * causal;
        cost.bytes = q.bytes() + k.bytes() + v.bytes(); // the three gradients written
        for (const Tensor &tensor : t)
            cost.bytes += tensor.bytes();
        return cost;
    }
    cost.flops = 2.0 * b * heads * l * s * (d + dv) * causal;
    cost.bytes = q.bytes() + k.bytes() + v.bytes() + b * heads * l * dv * q.elementBytes;
    for (std::size_t i = 3; i < t.size(); ++i)
        cost.bytes += t[i].bytes();
    return cost;
}

// group_norm and batch_norm: 8 FLOPs an element as layer norm (MODEL.md §11.4); x read, y
// written, the other tensors (weight, bias, running statistics) read, and a mean and an inverse
// deviation written in fp32 per group of each sample (group norm) or per channel (batch norm).
// rms_norm(x, shape, weight?): 4 FLOPs an element (square, add, scale, weight); x and the weight
// read, y written.
Cost normCost(std::string_view op, std::string_view base, const std::vector<Tensor> &t,
    const std::vector<OperatorInput> &inputs)
{
    if (t.empty() || t[0].dims.size() < 2)
        return Unexpected(opText(op) + ": no input tensor of at least two dimensions");
    const Tensor &x = t[0];
    const double e = x.elements();
    double others = 0.0;
    for (std::size_t i = 1; i < t.size(); ++i)
        others += t[i].bytes();
    if (base == "rms_norm" || base == "_fused_rms_norm")
        return OperatorCost { 4.0 * e, 2.0 * x.bytes() + others, x.precision };
    double statistics = static_cast<double>(x.dims[1]); // batch norm: per channel
    if (base == "group_norm" || base == "native_group_norm") {
        const auto groups = intList(concreteAt(inputs, base == "group_norm" ? 1 : 6));
        if (!groups || groups->size() != 1 || groups->front() < 1
            || x.dims[1] % groups->front() != 0)
            return Unexpected(opText(op) + ": its number of groups is not recorded or does not "
                + "divide the channels of " + shapeText(x.dims));
        statistics = static_cast<double>(x.dims[0] * groups->front());
    }
    return OperatorCost { 8.0 * e, 2.0 * x.bytes() + others + 2.0 * 4.0 * statistics, x.precision };
}

} // namespace ridgepoint::kineto::detail
