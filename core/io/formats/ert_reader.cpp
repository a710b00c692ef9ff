#include "core/io/formats/ert_reader.h"

#include "core/io/json_detail.h"
#include "core/io/json_schema.h"
#include "core/io/sniff.h"
#include "core/io/text.h"

#include <algorithm>

namespace ridgepoint {
namespace {

using Json = nlohmann::json;

std::optional<Precision> precisionOfLabel(const std::string &label)
{
    // "GFLOPs" (ERT 1.1.0) or "FP64 GFLOPs", "FP32 GFLOPs", ...
    const auto space = label.find(' ');
    if (space == std::string::npos)
        return Precision::FP64;
    return precisionFromName(label.substr(0, space));
}

// One [label, value] entry of a "gflops" (compute) or "gbytes" (memory) list, named with
// `suffix`: "(empirical)" or "(spec)".
void readEntry(const Json &entry, const std::string &where, bool compute, const std::string &suffix,
    JsonSchema &in, Hardware &hardware)
{
    if (!entry.is_array() || entry.size() != 2 || !entry[0].is_string() || !entry[1].is_number()) {
        in.error(where, "expected [label, number], found " + detail::dumpJson(entry));
        return;
    }
    const std::string label = entry[0].get<std::string>();
    const double value = entry[1].get<double>();
    if (!(value > 0.0)) {
        in.warning(where, "\"" + label + "\" is not positive; left out");
        return;
    }
    if (compute) {
        auto precision = precisionOfLabel(label);
        if (!precision) {
            in.warning(where, "unknown precision in \"" + label + "\"; left out");
            return;
        }
        hardware.compute.push_back({ asciiUpper(precisionName(*precision)) + " " + suffix,
            *precision, "", value * 1e9, false, std::nullopt, true });
        return;
    }
    auto level = memoryLevelFromName(label);
    if (!level) {
        in.warning(where,
            "memory level \"" + label
                + "\" is not one Ridgepoint knows (L1, L2, L3, DRAM, HBM); left out");
        return;
    }
    hardware.memory.push_back({ label + " " + suffix, *level, value * 1e9, std::nullopt, true });
}

// The "empirical" or "spec" object: its "gflops" and "gbytes" lists.
void readSection(const Json &root, const char *key, const std::string &suffix, JsonSchema &in,
    Hardware &hardware)
{
    if (!root.contains(key))
        return;
    const Json &part = root[key];
    if (!part.is_object()) {
        in.error(key, "expected an object with \"gflops\" and \"gbytes\"");
        return;
    }
    in.checkKeys(part, key, { "gflops", "gbytes", "metadata" });
    for (const char *kind : { "gflops", "gbytes" }) {
        if (!part.contains(kind) || !part[kind].is_object() || !part[kind].contains("data"))
            continue;
        const std::string path = std::string(key) + "." + kind;
        in.checkKeys(part[kind], path, { "data", "metadata" });
        const Json &data = part[kind]["data"];
        if (!data.is_array()) {
            in.error(path + ".data", "expected a list of [label, value]");
            continue;
        }
        for (std::size_t i = 0; i < data.size(); ++i)
            readEntry(data[i], path + ".data[" + std::to_string(i) + "]",
                std::string_view(kind) == "gflops", suffix, in, hardware);
    }
}

} // namespace

bool looksLikeErtJson(const Sniff &sniff)
{
    return sniff.json() && sniff.mentions("\"empirical\"");
}

HardwareReadResult readErtJson(std::string_view text, const std::string &fileName)
{
    HardwareReadResult result;
    auto root = detail::parseJson<Json>(text, fileName, result.diagnostics);
    if (!root)
        return result;
    JsonSchema in(fileName, result.diagnostics);
    if (!root->is_object() || !root->contains("empirical")) {
        in.error("",
            "not an ERT roofline.json (expected an object with \"empirical\": "
            "{\"gflops\": ..., \"gbytes\": ...})");
        return result;
    }
    in.checkKeys(*root, "", { "empirical", "spec" });
    Hardware hardware;
    hardware.name = "ERT roofline";
    hardware.source = fileName + ": Empirical Roofline Toolkit (GFLOP/s, GB/s)";
    readSection(*root, "empirical", "(empirical)", in, hardware);
    stateBasis(hardware,
        measuredBy(fileName + ": ERT's measured (empirical) figure", "Empirical Roofline Toolkit"));
    // The measured roofs make the roofline, compute as memory (a level's first roof is the
    // empirical one): the spec peak, higher, would otherwise be the default and its ridge a
    // spec peak over a measured bandwidth.
    const auto fastest = std::max_element(hardware.compute.begin(), hardware.compute.end(),
        [](const ComputeCeiling &a, const ComputeCeiling &b) { return a.peak < b.peak; });
    if (fastest != hardware.compute.end())
        hardware.defaultCompute = fastest->name;
    readSection(*root, "spec", "(spec)", in, hardware);
    Provenance spec;
    spec.basis = Basis::Spec;
    spec.source = fileName + ": the spec figure the ERT file states";
    stateBasis(hardware, spec);
    if (hasErrors(result.diagnostics))
        return result;
    keepValidMachine(std::move(hardware), fileName, result);
    return result;
}

} // namespace ridgepoint
