// Nsight Compute (`ncu --csv`) files: the details page (long: one row per launch and metric),
// the raw page (wide: one row per launch, units on the second row) and the
// SpeedOfLight_RooflineChart section export (ceilings). Pure functions: text in, data and
// diagnostics out. Formulas and units: docs/FILES.md, shared/FORMATS.md §1.
#pragma once

#include "core/csv.h"
#include "core/hardware_json.h"

#include <optional>
#include <string>
#include <string_view>

namespace ridgepoint {

struct NcuOptions {
    // FLOP per sm__inst_executed_pipe_tensor instruction: 512 on V100 (reference 004), 1024 in
    // a variant for A100; architecture dependent, so a caller may change it. Ops-path metrics
    // (sm__ops_path_tensor_*), when present, count operations and win over this estimate.
    double tensorFlopsPerInstruction = 512.0;
};

enum class NcuShape { None, Details, Raw, RooflineSection };

// The shape of an ncu CSV, from its header (found after ==PROF== lines and the application's
// own output); None when the text is not an ncu CSV.
NcuShape detectNcuShape(std::string_view text);

// One point per kernel launch (ID): FLOPs per precision as 2·fma + add + mul over the SASS
// thread-instruction counters (double, single, half) plus tensor work; bytes at main memory
// (dram__bytes), L2 (lts__t_bytes) and L1 (l1tex__t_bytes); time from gpu__time_duration.sum
// (or Duration, or cycles / cycles per second). Every value is converted with its own unit.
// A section export with achieved values gives points known by intensity and rate.
PointsReadResult readNcuCsv(
    std::string_view text, const std::string &fileName, const NcuOptions &options = {});

// Ceilings from the SpeedOfLight_RooflineChart section: peak operations per cycle × SM
// frequency, bytes per cycle × DRAM frequency.
HardwareReadResult readNcuRooflineSection(std::string_view text, const std::string &fileName);

// Scale of an ncu unit to SI base units: "Mbyte" 1e6, "usecond" 1e-6, "cycle/nsecond" 1e9,
// "Ghz" 1e9, "inst" 1, "" 1; nullopt for a unit it does not know. Prefixes are decimal.
std::optional<double> ncuUnitScale(std::string_view unit);

} // namespace ridgepoint
