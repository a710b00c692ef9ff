#include "core/io/formats/ert_reader.h"

#include "core/io/sniff.h"
#include "core/report/json_detail.h"

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

} // namespace

bool looksLikeErtJson(const Sniff &sniff)
{
    return sniff.json() && sniff.mentions("\"empirical\"");
}

HardwareReadResult readErtJson(std::string_view text, const std::string &fileName)
{
    HardwareReadResult result;
    auto parsedJson = detail::parseJson<Json>(text, fileName, result.diagnostics);
    if (!parsedJson)
        return result;
    Json &root = *parsedJson;
    if (!root.is_object() || !root.contains("empirical")) {
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
            "not an ERT roofline.json (expected an object with \"empirical\": {\"gflops\": ..., "
            "\"gbytes\": ...})" });
        return result;
    }
    Hardware hardware;
    hardware.name = "ERT roofline";
    hardware.source = fileName + ": Empirical Roofline Toolkit (GFLOP/s, GB/s)";
    const auto section = [&](const char *key, const std::string &suffix) {
        if (!root.contains(key))
            return;
        const Json &part = root[key];
        if (!part.is_object()) {
            result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
                std::string(key) + ": expected an object with \"gflops\" and \"gbytes\"" });
            return;
        }
        for (const char *kind : { "gflops", "gbytes" }) {
            if (!part.contains(kind) || !part[kind].is_object() || !part[kind].contains("data"))
                continue;
            const Json &data = part[kind]["data"];
            const std::string path = std::string(key) + "." + kind + ".data";
            if (!data.is_array()) {
                result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
                    path + ": expected a list of [label, value]" });
                continue;
            }
            for (std::size_t i = 0; i < data.size(); ++i) {
                const Json &entry = data[i];
                const std::string where = path + "[" + std::to_string(i) + "]";
                if (!entry.is_array() || entry.size() != 2 || !entry[0].is_string()
                    || !entry[1].is_number()) {
                    result.diagnostics.push_back({ Severity::Error, fileName, 0, 0,
                        where + ": expected [label, number], found " + detail::dumpJson(entry) });
                    continue;
                }
                const std::string label = entry[0].get<std::string>();
                const double value = entry[1].get<double>();
                if (!(value > 0.0)) {
                    result.diagnostics.push_back({ Severity::Warning, fileName, 0, 0,
                        where + ": \"" + label + "\" is not positive; left out" });
                    continue;
                }
                if (std::string(kind) == "gflops") {
                    auto precision = precisionOfLabel(label);
                    if (!precision) {
                        result.diagnostics.push_back({ Severity::Warning, fileName, 0, 0,
                            where + ": unknown precision in \"" + label + "\"; left out" });
                        continue;
                    }
                    std::string name(precisionName(*precision));
                    for (char &c : name)
                        c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
                    hardware.compute.push_back({ name + " " + suffix, *precision, "", value * 1e9,
                        false, std::nullopt, true });
                } else {
                    auto level = memoryLevelFromName(label);
                    if (!level) {
                        result.diagnostics.push_back({ Severity::Warning, fileName, 0, 0,
                            where + ": memory level \"" + label
                                + "\" is not one Ridgepoint knows (L1, L2, L3, DRAM, HBM); left "
                                  "out" });
                        continue;
                    }
                    hardware.memory.push_back(
                        { label + " " + suffix, *level, value * 1e9, std::nullopt, true });
                }
            }
        }
    };
    section("empirical", "(empirical)");
    section("spec", "(spec)");
    if (hasErrors(result.diagnostics))
        return result;
    for (const auto &problem : validateHardware(hardware))
        result.diagnostics.push_back({ Severity::Error, fileName, 0, 0, problem });
    if (!hasErrors(result.diagnostics))
        result.machines.push_back(std::move(hardware));
    return result;
}

} // namespace ridgepoint
