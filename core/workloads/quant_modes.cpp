#include "core/workloads/quant_modes.h"

#include <cctype>

namespace ridgepoint {
namespace {

bool sameWord(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i]))
            != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    }
    return true;
}

} // namespace

const std::vector<QuantModeInfo> &quantModes()
{
    static const std::vector<QuantModeInfo> modes {
        { QuantMode::None, "none", "", std::nullopt, std::nullopt,
            "weights and activations as each workload sets them" },
        { QuantMode::Int8, "int8", "w8a8", Precision::INT8, Precision::INT8,
            "int8 weights and activations, int8 ceiling" },
        { QuantMode::W8A16, "w8a16", "", Precision::INT8, std::nullopt,
            "int8 weights, bf16 activations" },
        { QuantMode::W4A16, "w4a16", "", Precision::INT4, std::nullopt,
            "int4 weights, bf16 activations" },
    };
    return modes;
}

const QuantModeInfo &quantModeInfo(QuantMode mode)
{
    for (const QuantModeInfo &info : quantModes()) {
        if (info.mode == mode)
            return info;
    }
    return quantModes().front();
}

std::string_view quantModeName(QuantMode mode)
{
    return quantModeInfo(mode).name;
}

std::string quantModeLabel(QuantMode mode)
{
    const QuantModeInfo &info = quantModeInfo(mode);
    return std::string(info.name) + " — " + std::string(info.meaning);
}

std::string quantModeChoices()
{
    std::vector<std::string> words;
    for (const QuantModeInfo &info : quantModes()) {
        words.emplace_back(info.name);
        if (!info.alias.empty())
            words.back() += " (or " + std::string(info.alias) + ")";
    }
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i)
        out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    return out;
}

std::optional<QuantMode> quantModeFromName(std::string_view name)
{
    for (const QuantModeInfo &info : quantModes()) {
        if (sameWord(name, info.name) || (!info.alias.empty() && sameWord(name, info.alias)))
            return info.mode;
    }
    return std::nullopt;
}

std::string quantizedGroup(const std::string &group, QuantMode mode)
{
    if (mode == QuantMode::None)
        return group;
    return group + " · " + std::string(quantModeName(mode));
}

} // namespace ridgepoint
