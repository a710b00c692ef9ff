// Internal to the Nsight Compute reader: its numbers (docs/FORMATS.md §1.7, §1.8). A metric's
// value with its unit converted to SI base units, digit groups, and the decimal comma some
// locales write.
#pragma once

#include "core/io/formats/ncu_table.h"
#include "core/io/read_options.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint::ncu {

// Reads metric values, reporting each bad number or unit with its line and column.
struct MetricReader {
    const std::string &fileName;
    std::vector<Diagnostic> &diagnostics;
    bool decimalComma = false;

    // The value of a metric in SI base units; nullopt when absent or missing (n/a); a bad
    // number or unit is reported once, with its line and column.
    std::optional<double> value(const Metrics &metrics, const std::string &name);

    // The first of `names` that has a value.
    std::optional<double> first(const Metrics &metrics, std::initializer_list<std::string> names);
};

// Whether the file writes numbers with a decimal comma: a value only that convention can read
// ("27.595.520", "1.234,5") and none only the usual one can ("53,261,312", "1,234.5"). The
// warning that says so, with the value that proves it; nullopt otherwise.
std::optional<Diagnostic> decimalCommaEvidence(const Table &table, const std::string &fileName);

// The decimal comma as the options force it, else as the file proves it (its warning added to
// `diagnostics` when given).
bool readsDecimalComma(const Table &table, const NcuOptions &options, const std::string &fileName,
    std::vector<Diagnostic> *diagnostics);

} // namespace ridgepoint::ncu
