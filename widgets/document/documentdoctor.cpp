// Document's machine-level guess for points faster than the machine's roofs
// (core/analysis/machine_fit.h), found among the built-in machines.
#include "widgets/document/document.h"

#include "core/presets/presets.h"

#include <algorithm>

namespace ridgepoint {
namespace {

const std::vector<Hardware> &builtinMachines()
{
    static const PresetDatabase presets = PresetDatabase::builtin();
    return presets.machines();
}

} // namespace

const MachineFit *Document::otherMachineFit() const
{
    if (!m_machineFit) {
        std::vector<KernelPoint> impossible;
        for (std::size_t i = 0; i < pointCount() && impossible.size() < kMachineFitMaxPoints; ++i) {
            if (const PointPlacement &a = placement(i); a.placed && !a.consistent)
                impossible.push_back(point(i));
        }
        m_machineFit = findMachineThatFits(
            impossible, hardware(), builtinMachines(), m_workspace.analysisOptions());
        m_fitMachine = nullptr;
        if (*m_machineFit) {
            const auto &machines = builtinMachines();
            const auto found
                = std::ranges::find(machines, (*m_machineFit)->machine, &Hardware::name);
            m_fitMachine = found != machines.end() ? &*found : nullptr;
        }
    }
    return *m_machineFit && m_fitMachine ? &**m_machineFit : nullptr;
}

std::optional<Diagnosis> Document::otherMachineDiagnosis(std::size_t index) const
{
    if (const PointPlacement &a = placement(index); !a.placed || a.consistent)
        return std::nullopt;
    const MachineFit *fit = otherMachineFit();
    if (!fit)
        return std::nullopt;
    return ridgepoint::otherMachineDiagnosis(
        point(index), hardware(), *m_fitMachine, *fit, m_workspace.analysisOptions());
}

} // namespace ridgepoint
