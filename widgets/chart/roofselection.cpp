#include "widgets/chart/roofselection.h"

#include "widgets/document/document.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace ridgepoint::chart {
namespace {

std::optional<std::size_t> indexOf(const Hardware &hw, const ComputeCeiling *ceiling)
{
    if (!ceiling)
        return std::nullopt;
    for (std::size_t i = 0; i < hw.compute.size(); ++i) {
        if (&hw.compute[i] == ceiling)
            return i;
    }
    return std::nullopt;
}

struct Use {
    std::size_t points = 0;
    double seconds = 0.0;
};

// Per compute ceiling of the machine: how many analysed points use it and their time. False
// in `timed` when a point has no measured time.
std::vector<Use> ceilingUse(const Document &document, bool &timed)
{
    const Hardware &hw = document.hardware();
    std::vector<Use> use(hw.compute.size());
    timed = true;
    for (std::size_t i = 0; i < document.pointCount(); ++i) {
        // The ceiling found by name when the point was placed (Placements::set).
        const PointPlacement &a = document.placement(i);
        if (!a.placed || a.computeCeiling == PointPlacement::kNone)
            continue;
        const std::size_t last = a.computeCeiling;
        const std::optional<double> seconds = document.pointTable().seconds(i);
        ++use[last].points;
        if (seconds && *seconds > 0.0)
            use[last].seconds += *seconds;
        else
            timed = false;
    }
    return use;
}

std::optional<std::size_t> emphasisedOf(
    const Document &document, const std::vector<Use> &use, bool timed)
{
    const Hardware &hw = document.hardware();
    if (const std::string &named = document.analysisOptions().computeCeiling; !named.empty()) {
        if (const auto i = indexOf(hw, hw.findCompute(named)))
            return i;
    }
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < use.size(); ++i) {
        if (use[i].points == 0)
            continue;
        const bool better = !best
            || (timed ? use[i].seconds > use[*best].seconds : use[i].points > use[*best].points);
        if (better)
            best = i;
    }
    if (best)
        return best;
    return indexOf(hw, document.activeComputeCeiling());
}

} // namespace

std::optional<std::size_t> emphasisedCompute(const Document &document)
{
    bool timed = true;
    const std::vector<Use> use = ceilingUse(document, timed);
    return emphasisedOf(document, use, timed);
}

RoofSelection selectRoofs(const Document &document)
{
    bool timed = true;
    const std::vector<Use> use = ceilingUse(document, timed);
    RoofSelection out { document.hardware(), emphasisedOf(document, use, timed) };
    if (document.roofsShown() == RoofsShown::All)
        return out;
    std::vector<Precision> present;
    for (std::size_t i = 0; i < use.size(); ++i) {
        if (use[i].points > 0)
            present.push_back(out.hardware.compute[i].precision);
    }
    for (std::size_t i = 0; i < out.hardware.compute.size(); ++i) {
        ComputeCeiling &c = out.hardware.compute[i];
        const bool ofData
            = present.empty() || std::ranges::find(present, c.precision) != present.end();
        if (i != out.emphasised && (c.sparse || !ofData))
            c.visible = false;
    }
    return out;
}

std::optional<Hardware> selectCompareRoofs(const Document &document)
{
    const Hardware *compared = document.compareHardware();
    if (!compared)
        return std::nullopt;
    Hardware out = *compared;
    if (document.roofsShown() == RoofsShown::All)
        return out;
    bool timed = true;
    const std::vector<Use> use = ceilingUse(document, timed);
    std::vector<Precision> present;
    for (std::size_t i = 0; i < use.size(); ++i) {
        if (use[i].points > 0)
            present.push_back(document.hardware().compute[i].precision);
    }
    for (ComputeCeiling &c : out.compute) {
        const bool ofData
            = present.empty() || std::ranges::find(present, c.precision) != present.end();
        if (c.sparse || !ofData)
            c.visible = false;
    }
    return out;
}

} // namespace ridgepoint::chart
