// Internal to the points CSV reader: what each header cell means (docs/FILES.md). Columns are
// matched by name, alias and unit: "time_ms", "time [us]", "bytes_l2", "[GOP/s]", ...
#pragma once

#include "core/model/hardware.h"

#include <optional>
#include <string>
#include <string_view>

namespace ridgepoint::csv {

enum class Role {
    Ignored,
    Name,
    Flops,
    Bytes,
    Time,
    Rate,
    Intensity,
    TimeMin,
    TimeMedian,
    TimeMax,
    TimeStddev,
    Precision,
    Group
};

struct Column {
    Role role = Role::Ignored;
    std::optional<MemoryLevel> level; // for Bytes
    double scale = 1.0; // header unit: time_ms -> 1e-3
    std::string header;
};

// Reads a header cell: its role, level and unit scale. A unit in brackets wins over a suffix.
Column classify(std::string_view rawHeader);

// What a role gives, for messages: "seconds", "median time", ...
std::string_view roleName(Role role);

// A precision cell: Ridgepoint's names, or the C type names benchmarks print ("double").
std::optional<Precision> precisionOfCell(std::string_view cell);

} // namespace ridgepoint::csv
