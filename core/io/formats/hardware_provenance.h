// Internal to core/io: the provenance part of hardware JSON version 2 (docs/FILES.md,
// "Provenance"): a "provenance" object read and written, the machine-level defaults merged into
// each ceiling's own key by key, compute "sparsity", and a ceiling's "alternate" figure.
#pragma once

#include "core/io/json_schema.h"
#include "core/model/hardware.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace ridgepoint::hardware_provenance {

// The keys a "provenance" object may hold, in the order they are written.
inline constexpr const char *kKeys[] = { "basis", "source", "url", "accessed", "formula", "tool",
    "date", "host", "clock", "clock_mhz", "scope", "notes" };

// The "provenance" object at `path` (the object itself, e.g. "machine.compute[0].provenance").
// An unknown basis or a clock_mhz that is not a finite positive number is an error; an unknown
// key, clock or scope and an `accessed` that is not YYYY-MM-DD are warnings.
Provenance read(const nlohmann::json &object, const std::string &path, JsonSchema &in);

// `own` laid over `defaults`: every key `own` states (a basis other than unstated, a non-empty
// text, a clock in MHz) wins, the others come from `defaults`.
Provenance merged(const Provenance &defaults, const Provenance &own);

// What a machine's ceilings start from before their own "provenance": the machine-level object,
// laid over the migration of version 1 files (the machine's "source"; with a "measurement"
// object, basis measured with its tool, date and host).
Provenance machineDefaults(const nlohmann::json &machine, const std::string &where, int version,
    const std::string &machineSource, JsonSchema &in);

// A ceiling's provenance: `defaults` with the ceiling's own "provenance" (and the older
// ceiling-level "source") laid over them.
Provenance ceilingProvenance(const nlohmann::json &ceiling, const std::string &at,
    const Provenance &defaults, JsonSchema &in);

// A compute ceiling's "sparsity" ("dense" or "2:4"), or the older "sparse": true.
bool readSparsity(const nlohmann::json &ceiling, const std::string &at, JsonSchema &in);

// A ceiling's "alternate": {"peak" | "bandwidth": value, "provenance": {...}}. `valueKey` is
// "peak" for compute ceilings, "bandwidth" for memory ones.
std::optional<AlternateFigure> readAlternate(const nlohmann::json &ceiling, const std::string &at,
    const char *valueKey, Dimension dimension, JsonSchema &in);

// A provenance as JSON: only the keys that say something (no basis when it is unstated).
nlohmann::ordered_json write(const Provenance &provenance);

// Writes "provenance" and "alternate" of a ceiling into `out`, each only when non-empty.
template<typename Ceiling>
void writeCeilingExtras(const Ceiling &ceiling, const char *valueKey, nlohmann::ordered_json &out)
{
    auto own = write(ceiling.provenance);
    if (!own.empty())
        out["provenance"] = std::move(own);
    if (ceiling.alternate) {
        nlohmann::ordered_json alternate;
        alternate[valueKey] = ceiling.alternate->value;
        auto theirs = write(ceiling.alternate->provenance);
        if (!theirs.empty())
            alternate["provenance"] = std::move(theirs);
        out["alternate"] = std::move(alternate);
    }
}

} // namespace ridgepoint::hardware_provenance
