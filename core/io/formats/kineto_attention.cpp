#include "core/io/formats/kineto_attention.h"

#include "core/io/formats/kineto_ops.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace ridgepoint::kineto {
namespace {

struct Tensor {
    std::string type;
    std::vector<double> dims;
};

// "T1[a, b], T2[c]" (the text between the operator's parentheses) → its tensors.
std::vector<Tensor> tensorsOf(std::string_view list)
{
    std::vector<Tensor> out;
    std::size_t at = 0;
    while (at < list.size()) {
        const std::size_t open = list.find('[', at);
        const std::size_t close = list.find(']', open);
        if (open == std::string_view::npos || close == std::string_view::npos)
            break;
        Tensor t;
        std::string_view type = list.substr(at, open - at);
        while (!type.empty() && (type.front() == ' ' || type.front() == ','))
            type.remove_prefix(1);
        t.type = std::string(type);
        std::string_view dims = list.substr(open + 1, close - open - 1);
        while (!dims.empty()) {
            const std::size_t comma = dims.find(',');
            const std::string one(dims.substr(0, comma));
            try {
                t.dims.push_back(static_cast<double>(std::stoll(one)));
            } catch (...) {
                return {};
            }
            dims = comma == std::string_view::npos ? std::string_view() : dims.substr(comma + 1);
        }
        out.push_back(std::move(t));
        at = close + 1;
    }
    return out;
}

} // namespace

std::optional<TraceAttention> attentionShapeOfGroup(std::string_view group)
{
    const std::size_t open = group.find('(');
    if (open == std::string_view::npos || group.back() != ')')
        return std::nullopt;
    std::string_view name = group.substr(0, open);
    if (name.starts_with("aten::"))
        name.remove_prefix(6);
    const bool headsFirst = name == "scaled_dot_product_attention"
        || name == "_scaled_dot_product_flash_attention"
        || name == "_scaled_dot_product_efficient_attention"
        || name == "_scaled_dot_product_cudnn_attention";
    const bool rowsFirst
        = name == "_flash_attention_forward" || name == "_efficient_attention_forward";
    if (!headsFirst && !rowsFirst)
        return std::nullopt;
    const auto tensors = tensorsOf(group.substr(open + 1, group.size() - open - 2));
    if (tensors.size() < 3)
        return std::nullopt;
    const Tensor &q = tensors[0], &k = tensors[1], &v = tensors[2];
    if (q.dims.size() != 4 || k.dims.size() != 4 || v.dims.size() != 4)
        return std::nullopt;
    const auto qw = elementBytes(q.type), kw = elementBytes(k.type), vw = elementBytes(v.type);
    if (!qw || !kw || !vw)
        return std::nullopt;
    // [B, H, L, D] or [B, L, H, D]: heads at 1 and rows at 2, or the other way.
    const std::size_t h = headsFirst ? 1 : 2, l = headsFirst ? 2 : 1;
    if (std::any_of(q.dims.begin(), q.dims.end(), [](double x) { return x < 1.0; })
        || k.dims[3] != q.dims[3] || v.dims[l] != k.dims[l] || v.dims[h] != k.dims[h]
        || k.dims[0] != q.dims[0] || !(k.dims[l] >= 1.0) || !(k.dims[h] >= 1.0))
        return std::nullopt;
    AttentionShape s;
    s.heads = q.dims[0] * q.dims[h];
    s.kvHeads = k.dims[0] * k.dims[h];
    s.n = q.dims[l];
    // A causal mask's keys: only the first n are ever scored when there are more.
    s.nKv = std::min(k.dims[l], s.n);
    s.pairs = attentionPairs(s.n, k.dims[l], true);
    s.d = q.dims[3];
    s.dv = v.dims[3];
    s.qWordBytes = *qw;
    s.kvWordBytes = std::min(*kw, *vw);
    return TraceAttention { s, k.dims[l], 2.0 * s.heads * s.n * k.dims[l] * (s.d + s.dv) };
}

} // namespace ridgepoint::kineto
