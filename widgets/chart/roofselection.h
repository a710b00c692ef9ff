// Which compute roofs the chart draws and which one it emphasises: by default those of the
// precisions the points use (the envelope the table judges each point against), the sparse
// (2:4) figures and the precisions no point uses hidden; "Show all roofs" draws every visible
// ceiling. Without points every dense precision is drawn, as an overview of the machine.
#pragma once

#include "core/model/hardware.h"

#include <cstddef>
#include <optional>

namespace ridgepoint {

class Document;

namespace chart {

struct RoofSelection {
    // The document's machine with every compute ceiling the chart does not draw made invisible:
    // the roofs, their shared labels and the plot's extents all read this copy.
    Hardware hardware;
    // The emphasised ceiling (the roofline, drawn bold with the ridge), an index into
    // hardware.compute; nullopt when the machine has none.
    std::optional<std::size_t> emphasised;
};

// The ceiling the roofline is drawn with: the one named in the analysis options; else the one
// most points are analysed against (by measured time when every point has one, else by count;
// ties go to the machine's order); else the workspace's active one (the default ceiling).
std::optional<std::size_t> emphasisedCompute(const Document &document);

// The roofs drawn for `document` under its RoofsShown choice. The emphasised ceiling is always
// drawn.
RoofSelection selectRoofs(const Document &document);

// The compared machine's roofs drawn under the same choice: with RoofsShown::Data its dense
// ceilings of the precisions the points use here (every dense one without points), never its
// 2:4-sparse figures. nullopt without a compared machine.
std::optional<Hardware> selectCompareRoofs(const Document &document);

} // namespace chart

} // namespace ridgepoint
