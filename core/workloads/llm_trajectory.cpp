#include "core/workloads/llm_trajectory.h"

#include <algorithm>

namespace ridgepoint {
namespace {

bool setParameter(LlmSpec &spec, const std::string &parameter, std::int64_t value)
{
    if (parameter == "batch")
        spec.batch = value;
    else if (parameter == "seq")
        spec.seq = value;
    else
        return false;
    return true;
}

} // namespace

ridgepoint::Expected<std::vector<std::string>, std::string> llmOperatorKinds(
    const ModelConfig &model, const LlmSpec &spec, const Hardware &hardware)
{
    auto result = modelLlm(model, spec, hardware);
    if (!result)
        return ridgepoint::Unexpected(result.error());
    std::vector<std::string> kinds;
    for (const auto &op : result->operators)
        kinds.push_back(op.point.name);
    return kinds;
}

ridgepoint::Expected<std::vector<Workload>, std::string> llmWorkloads(const ModelConfig &model,
    const LlmSpec &spec, const Hardware &hardware, const std::string &group, bool operators)
{
    std::vector<Workload> out;
    LlmWorkload whole { model, spec, {} };
    if (operators) {
        auto kinds = llmOperatorKinds(model, spec, hardware);
        if (!kinds)
            return ridgepoint::Unexpected(kinds.error());
        for (const auto &kind : *kinds) {
            LlmWorkload each = whole;
            each.operatorKind = kind;
            out.push_back({ each, group, std::nullopt });
        }
    }
    out.push_back({ whole, group, std::nullopt });
    return out;
}

ridgepoint::Expected<std::vector<Workload>, std::string> llmSweepWorkloads(const ModelConfig &model,
    const LlmSpec &spec, const Hardware &hardware, const std::string &group, bool operators,
    const std::string &parameter, const std::vector<std::int64_t> &values,
    const std::function<int()> &newId)
{
    if (values.empty())
        return std::vector<Workload> {};
    LlmSpec first = spec;
    if (!setParameter(first, parameter, values.front()))
        return ridgepoint::Unexpected("an LLM step has no parameter \"" + parameter + "\"");
    auto template_ = llmWorkloads(model, first, hardware, group, operators);
    if (!template_)
        return ridgepoint::Unexpected(template_.error());
    std::vector<int> ids;
    for (std::size_t k = 0; k < template_->size(); ++k)
        ids.push_back(newId());
    std::vector<Workload> out;
    for (std::int64_t value : values) {
        for (std::size_t k = 0; k < template_->size(); ++k) {
            Workload w = (*template_)[k];
            setParameter(std::get<LlmWorkload>(w.model).spec, parameter, value);
            w.sweep = SweepMembership { ids[k], parameter, static_cast<double>(value) };
            out.push_back(std::move(w));
        }
    }
    return out;
}

ridgepoint::Expected<std::vector<LlmTrajectory>, std::string> llmTrajectories(
    const ModelConfig &model, const LlmSpec &spec, const Hardware &hardware,
    const AnalysisOptions &options, const std::string &parameter,
    const std::vector<std::int64_t> &values)
{
    std::vector<LlmTrajectory> out;
    for (std::int64_t value : values) {
        LlmSpec s = spec;
        if (!setParameter(s, parameter, value))
            return ridgepoint::Unexpected("an LLM step has no parameter \"" + parameter + "\"");
        auto r = modelLlm(model, s, hardware, options);
        if (!r)
            return ridgepoint::Unexpected(
                parameter + " = " + std::to_string(value) + ": " + r.error());
        if (out.empty()) {
            for (const auto &op : r->operators)
                out.push_back({ op.point.name, { parameter, {}, {} } });
        }
        for (const auto &op : r->operators) {
            const auto it = std::ranges::find(out, op.point.name, &LlmTrajectory::kind);
            if (it != out.end())
                it->sweep.samples.push_back({ static_cast<double>(value), op });
        }
    }
    // Where each path's bound flips between consecutive values.
    for (auto &t : out) {
        const auto &samples = t.sweep.samples;
        for (std::size_t i = 1; i < samples.size(); ++i) {
            const Bound before = samples[i - 1].point.analysis.bound;
            const Bound after = samples[i].point.analysis.bound;
            if (before != after)
                t.sweep.crossings.push_back(
                    { samples[i - 1].value, samples[i].value, before, after });
        }
    }
    return out;
}

} // namespace ridgepoint
