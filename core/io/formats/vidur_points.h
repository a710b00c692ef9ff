// Vidur's per-operator CSV (mlp.csv; docs/FORMATS.md §11.1) read as points: one point per
// operator and row, placed with the model FLOPs and bytes `ridgepoint predict` uses
// (core/calibrate/operator_work.h) and its measured median time. docs/FORMATS.md §11.5.
#pragma once

#include "core/io/read_result.h"

#include <string>
#include <string_view>

namespace ridgepoint {

class Sniff;

// A first line naming time_stats.<operator>.<statistic> columns, num_tokens and
// num_tensor_parallel_workers.
bool looksLikeVidurOperators(const Sniff &sniff);

// Points named "<operator> <tokens> tok tp <tp>" (the file's own operator names), grouped by
// operator, bf16; a row whose operator has no model of its work is a warning, not a point.
PointsReadResult readVidurOperatorPoints(std::string_view text, const std::string &fileName);

} // namespace ridgepoint
