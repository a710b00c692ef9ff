// Helpers the core tests share: relative comparison and the built-in presets by name.
#pragma once

#include "core/presets/presets.h"

#include <QtGlobal>

#include <algorithm>
#include <cmath>

namespace test {

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

} // namespace test
