// The hardware preset database: built-in machines from resources/hardware/ plus the user's.
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/hardware.h"

#include "core/model/expected.h"
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

class PresetDatabase
{
public:
    // The machines shipped in resources/hardware/, in file order.
    static PresetDatabase builtin();

    // Adds machines (a user's hardware file); a machine with the name of an existing one
    // replaces it, so users can correct a preset.
    void add(Hardware hardware);

    const std::vector<Hardware> &machines() const { return m_machines; }
    // Problems met while loading (a broken built-in file is a bug and fails the tests).
    const std::vector<Diagnostic> &diagnostics() const { return m_diagnostics; }

    // Finds a machine by name or alias, ignoring case, spaces, '-' and '_'; an exact match wins,
    // else a unique prefix ("h100" finds "NVIDIA H100 SXM5 80GB" through its alias "H100").
    // The error lists the candidates when the query is ambiguous, or some names when nothing
    // matched.
    ridgepoint::Expected<const Hardware *, std::string> find(std::string_view query) const;

private:
    std::vector<Hardware> m_machines;
    std::vector<Diagnostic> m_diagnostics;
};

// Ceilings whose figure says nothing of where it comes from: no basis other than unstated, or no
// source. One line per gap ("compute ceiling \"FP16 tensor\": no basis"); empty when every
// ceiling (and every alternate figure) is sourced. Built-in presets must have none.
std::vector<std::string> provenanceGaps(const Hardware &hardware);

// Details a basis asks for that are missing: a derived figure without its formula, a measured one
// without its tool or date. One line per gap, like provenanceGaps.
std::vector<std::string> provenanceDetailGaps(const Hardware &hardware);

} // namespace ridgepoint
