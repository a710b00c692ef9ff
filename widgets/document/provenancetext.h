// Words for where a ceiling's figure comes from (core/model/hardware.h, Provenance): the short
// basis the ceilings table shows, and the whole provenance as HTML for the table's tooltip, the
// hardware panel's details pane and the chart's roof tooltip.
#pragma once

#include "core/model/hardware.h"

#include <QString>

#include <optional>

namespace ridgepoint {

// One ceiling as these texts see it: its figure in use and, when known, the other one.
struct CeilingFacts {
    QString name;
    QString value; // "1.35 TB/s"
    bool sparse = false;
    Provenance provenance; // of `value`
    std::optional<QString> alternateValue; // the other figure, when the ceiling holds two
    Provenance alternate; // of alternateValue
};
CeilingFacts ceilingFacts(const ComputeCeiling &ceiling);
CeilingFacts ceilingFacts(const MemoryCeiling &ceiling);

// "spec", "derived", "measured", "unstated"; "spec 2:4" for a 2:4-sparse figure; with the other
// figure's basis after a slash ("measured / spec") when the ceiling holds two.
QString basisText(const CeilingFacts &facts);

// The whole provenance: name and figure, basis, source, address (a link when `links`), date
// read, formula, tool/date/host, clock, scope, notes; then the other figure with its own.
QString provenanceHtml(const CeilingFacts &facts, bool links);

} // namespace ridgepoint
