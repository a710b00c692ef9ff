// Helpers the core tests share: relative comparison and the built-in presets by name.
#pragma once

#include "core/presets/presets.h"
#include "core/workloads/llm.h"

#include <QtGlobal>

#include <algorithm>
#include <cmath>

namespace ridgepoint::test {

inline bool close(double a, double b, double relative = 1e-12)
{
    return std::fabs(a - b) <= relative * std::max(std::fabs(a), std::fabs(b));
}

inline const ridgepoint::Hardware &preset(const char *name)
{
    static const ridgepoint::PresetDatabase presets = ridgepoint::PresetDatabase::builtin();
    auto found = presets.find(name);
    if (!found)
        qFatal("no preset %s: %s", name, found.error().c_str());
    return **found;
}

// A model shipped in resources/models/, by name or alias.
inline ridgepoint::ModelConfig builtinModel(const char *name)
{
    static const std::vector<ridgepoint::ModelConfig> models = ridgepoint::builtinModels();
    auto found = ridgepoint::findModel(models, name);
    if (!found)
        qFatal("%s", found.error().c_str());
    return *found;
}

// An LLM step with its parallel degrees, the dtypes left at their defaults.
inline ridgepoint::LlmSpec llmStep(ridgepoint::LlmPhase phase, std::int64_t seq, std::int64_t batch,
    std::int64_t tp = 1, std::int64_t ep = 1, std::int64_t pp = 1)
{
    ridgepoint::LlmSpec s;
    s.phase = phase;
    s.seq = seq;
    s.batch = batch;
    s.tp = tp;
    s.ep = ep;
    s.pp = pp;
    return s;
}

} // namespace ridgepoint::test
