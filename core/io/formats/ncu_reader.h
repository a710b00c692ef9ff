// Nsight Compute (`ncu --csv`) files: the details page (long: one row per launch and metric),
// the raw page (wide: one row per launch, units on the second row), the per-kernel summary
// (`--print-summary per-kernel`: one row per kernel and metric, with Minimum/Maximum/Average)
// and the SpeedOfLight_RooflineChart section export (ceilings). Pure functions: text in, data
// and diagnostics out. Formulas and units: docs/FORMATS.md §1.
#pragma once

#include "core/io/read_options.h"
#include "core/io/read_result.h"
#include "core/model/diagnostic.h"

#include <optional>
#include <string>
#include <string_view>

namespace ridgepoint {

enum class NcuShape { None, Details, Raw, RooflineSection, Summary };

// The shape of an ncu CSV, from its header (found after ==PROF== lines and the application's
// own output); None when the text is not an ncu CSV.
NcuShape detectNcuShape(std::string_view text);

class Sniff;

// One detector per page, sharing one search for the header.
bool looksLikeNcuDetails(const Sniff &sniff);
bool looksLikeNcuRaw(const Sniff &sniff);
bool looksLikeNcuSummary(const Sniff &sniff);
// A details page with a "Body Item Label" column and "... Precision Roofline" rows.
bool looksLikeNcuRooflineSection(const Sniff &sniff);

// Points, one per kernel launch (ID), or one per kernel and launch shape for the per-kernel
// summary:
// - FLOPs per precision as 2·fma + add + mul over the SASS thread-instruction counters (double,
//   single, half) plus tensor work; when a file has only ncu's roofline rates
//   (…pred_on.sum.per_cycle_elapsed × smsp__cycles_elapsed.avg.per_second), rate × time.
// - Bytes at main memory (dram__bytes), L2 (lts__t_bytes) and L1 (l1tex__t_bytes), or their
//   .per_second rates × time.
// - Time from gpu__time_duration.sum (or .avg, or Duration, or cycles / cycles per second).
// Every value is converted with its own unit. A section export with achieved values gives
// points known by intensity and rate. A summary row's Average × Invocations is the kernel's
// total (FLOPs, bytes and time summed over its launches); Minimum and Maximum of the time give
// the spread (timeStatistics, scaled the same way).
PointsReadResult readNcuCsv(
    std::string_view text, const std::string &fileName, const NcuOptions &options = {});

// Ceilings: from the SpeedOfLight_RooflineChart section export (peak operations per cycle × SM
// frequency, bytes per cycle × DRAM frequency), or from the metrics ncu's roofline uses when
// they are columns of a raw page or rows of a details page (…peak_sustained × …cycles_elapsed
// .avg.per_second).
HardwareReadResult readNcuRooflineSection(
    std::string_view text, const std::string &fileName, const NcuOptions &options = {});

// A file ncu wrote that holds only its own messages (==PROF==, ==ERROR==, ==WARNING== lines)
// and no table: the error that says so, quoting its first ==ERROR== line; nullopt otherwise.
std::optional<Diagnostic> ncuLogWithoutTable(std::string_view text, const std::string &fileName);

// Scale of an ncu unit to SI base units: "Mbyte" 1e6, "usecond" 1e-6, "cycle/nsecond" 1e9,
// "Ghz" 1e9, "inst" 1, "" 1, "%/byte" 1; nullopt for a unit it does not know. Prefixes are
// decimal.
std::optional<double> ncuUnitScale(std::string_view unit);

} // namespace ridgepoint
