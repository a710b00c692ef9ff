// Reading model files (resources/models/*.json, docs/WORKLOADS.md "Model files"), finding a
// model by a loose name, and the phase names.
#include "core/workloads/llm.h"

#include "core/io/json_detail.h"
#include "core/presets/resources.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace ridgepoint {
namespace {

using Json = nlohmann::json;

std::string normalized(std::string_view text)
{
    std::string out;
    for (char c : text) {
        if (c == ' ' || c == '-' || c == '_' || c == '.')
            continue;
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

// What is wrong with a model's mixture-of-experts fields, if anything.
std::optional<std::string> moeProblem(const ModelConfig &m)
{
    if (m.experts == 0) {
        if (m.expertsPerToken != 0 || m.sharedExperts != 0 || m.moeFfnSize != 0
            || m.denseLayers != 0)
            return "experts per token, shared experts, MoE FFN size and dense layers need "
                   "experts (a mixture of experts)";
        return std::nullopt;
    }
    if (m.expertsPerToken == 0)
        return "a mixture of experts (" + std::to_string(m.experts)
            + " experts) needs the experts per token (the routed experts each token uses)";
    if (m.expertsPerToken > m.experts)
        return "the experts per token (" + std::to_string(m.expertsPerToken)
            + ") must not exceed the experts (" + std::to_string(m.experts) + ")";
    if (m.denseLayers >= m.layers)
        return "the dense layers (" + std::to_string(m.denseLayers)
            + ") must be fewer than the layers (" + std::to_string(m.layers) + ")";
    return std::nullopt;
}

// The head size from the hidden size when the file does not give it (set in `m`).
std::optional<std::string> headDimProblem(ModelConfig &m)
{
    if (m.headDim == 0) {
        if (m.hiddenSize % m.heads != 0)
            return std::string("\"hidden_size\" is not a multiple of \"heads\": give \"head_dim\"");
        m.headDim = m.hiddenSize / m.heads;
    }
    return std::nullopt;
}

std::optional<ModelConfig> readModel(
    const Json &in, const std::string &path, std::vector<Diagnostic> &diagnostics)
{
    auto error = [&](const std::string &message) {
        diagnostics.push_back({ Severity::Error, path, 0, 0, message });
    };
    if (!in.is_object()) {
        error("a model configuration must be a JSON object");
        return std::nullopt;
    }
    if (const auto it = in.find("format");
        it == in.end() || !it->is_string() || it->get<std::string>() != "ridgepoint-model") {
        error("\"format\" must be \"ridgepoint-model\"");
        return std::nullopt;
    }
    ModelConfig m;
    bool ok = true;
    auto text = [&](const char *key, bool required) -> std::string {
        const auto it = in.find(key);
        if (it == in.end() || !it->is_string() || it->get<std::string>().empty()) {
            if (required || it != in.end()) {
                error(std::string("\"") + key + "\" must be a non-empty string");
                ok = false;
            }
            return {};
        }
        return it->get<std::string>();
    };
    auto count = [&](const char *key, bool required) -> std::int64_t {
        const auto it = in.find(key);
        if (it == in.end()) {
            if (required) {
                error(std::string("\"") + key + "\" is missing (a positive integer)");
                ok = false;
            }
            return 0;
        }
        if (!it->is_number_integer() || it->get<std::int64_t>() < 1) {
            error(std::string("\"") + key + "\" must be a positive integer, found "
                + detail::dumpJson(*it));
            ok = false;
            return 0;
        }
        return it->get<std::int64_t>();
    };
    m.name = text("name", true);
    m.source = text("source", true);
    if (const auto it = in.find("aliases"); it != in.end()) {
        if (!it->is_array()) {
            error("\"aliases\" must be a list of strings");
            ok = false;
        } else {
            for (const auto &alias : *it) {
                if (alias.is_string())
                    m.aliases.push_back(alias.get<std::string>());
            }
        }
    }
    m.hiddenSize = count("hidden_size", true);
    m.layers = count("layers", true);
    m.heads = count("heads", true);
    m.kvHeads = count("kv_heads", true);
    m.headDim = count("head_dim", false);
    m.ffnSize = count("ffn_size", true);
    m.vocabSize = count("vocab_size", true);
    if (const auto it = in.find("gated_ffn"); it != in.end()) {
        if (!it->is_boolean()) {
            error("\"gated_ffn\" must be true or false");
            ok = false;
        } else {
            m.gatedFfn = it->get<bool>();
        }
    }
    m.experts = count("experts", false);
    m.expertsPerToken = count("experts_per_token", false);
    m.sharedExperts = count("shared_experts", false);
    m.moeFfnSize = count("moe_ffn_size", false);
    m.kvCacheDim = count("kv_cache_dim", false);
    if (const auto it = in.find("dense_layers"); it != in.end()) {
        if (!it->is_number_integer() || it->get<std::int64_t>() < 0) {
            error(
                "\"dense_layers\" must be a non-negative integer, found " + detail::dumpJson(*it));
            ok = false;
        } else {
            m.denseLayers = it->get<std::int64_t>();
        }
    }
    if (!ok)
        return std::nullopt;
    if (auto problem = modelShapeProblem(m)) {
        error(*problem);
        return std::nullopt;
    }
    if (auto problem = headDimProblem(m)) {
        error(*problem);
        return std::nullopt;
    }
    return m;
}

} // namespace

std::optional<std::string> modelShapeProblem(const ModelConfig &model)
{
    if (model.heads < 1 || model.kvHeads < 1)
        return "the query heads (" + std::to_string(model.heads) + ") and key/value heads ("
            + std::to_string(model.kvHeads) + ") must be positive integers";
    if (model.heads % model.kvHeads != 0)
        return "the query heads (" + std::to_string(model.heads)
            + ") must be a multiple of the key/value heads (" + std::to_string(model.kvHeads) + ")";
    return moeProblem(model);
}

ModelConfigReadResult readModelConfigJson(std::string_view text, const std::string &path)
{
    ModelConfigReadResult result;
    const auto document = detail::parseJson<Json>(text, path, result.diagnostics);
    if (!document)
        return result;
    if (auto model = readModel(*document, path, result.diagnostics))
        result.models.push_back(std::move(*model));
    return result;
}

std::vector<ModelConfig> builtinModels(std::vector<Diagnostic> *problems)
{
    std::vector<ModelConfig> out;
    for (const auto &file : embeddedFilesUnder("models/")) {
        auto read = readModelConfigJson(file.content, std::string(file.path));
        out.insert(out.end(), read.models.begin(), read.models.end());
        if (problems)
            problems->insert(problems->end(), read.diagnostics.begin(), read.diagnostics.end());
    }
    return out;
}

ridgepoint::Expected<ModelConfig, std::string> findModel(
    const std::vector<ModelConfig> &models, std::string_view query)
{
    const std::string wanted = normalized(query);
    std::vector<const ModelConfig *> prefixed;
    for (const auto &model : models) {
        std::vector<std::string> names { normalized(model.name) };
        for (const auto &alias : model.aliases)
            names.push_back(normalized(alias));
        if (std::ranges::find(names, wanted) != names.end())
            return model;
        if (!wanted.empty() && std::ranges::any_of(names, [&](const std::string &n) {
                return n.starts_with(wanted);
            }))
            prefixed.push_back(&model);
    }
    if (prefixed.size() == 1)
        return *prefixed.front();
    std::string list;
    for (const auto *m : prefixed)
        list += (list.empty() ? "" : ", ") + m->name;
    if (prefixed.empty()) {
        for (const auto &m : models)
            list += (list.empty() ? "" : ", ") + m.name;
        return ridgepoint::Unexpected(
            "no model named \"" + std::string(query) + "\" (known: " + list + ")");
    }
    return ridgepoint::Unexpected(
        "\"" + std::string(query) + "\" matches several models: " + list + " (be more specific)");
}

std::string_view llmPhaseName(LlmPhase phase)
{
    return phase == LlmPhase::Prefill ? "prefill" : "decode";
}

std::optional<LlmPhase> llmPhaseFromName(std::string_view name)
{
    if (normalized(name) == "prefill")
        return LlmPhase::Prefill;
    if (normalized(name) == "decode")
        return LlmPhase::Decode;
    return std::nullopt;
}

} // namespace ridgepoint
