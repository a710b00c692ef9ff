// A compute ceiling's rate as text: FLOP/s, or OP/s for the integer precisions, whose operations
// are not floating-point ones (docs/MODEL.md §4.1: "a dense peak in FLOP/s (OP/s for integers)").
#pragma once

#include "core/model/hardware.h"

#include <string>

namespace ridgepoint {

// INT8 and INT4.
bool isIntegerPrecision(Precision precision);

// formatQuantity(rate, FlopRate, digits), written in OP/s for an integer precision:
// computeRateText(1.979e15, INT8) == "1.979 POP/s", computeRateText(9.89e14, BF16) == "989
// TFLOP/s".
std::string computeRateText(double rate, Precision precision, int significantDigits = 4);

// A ceiling's figure (its own, or its alternate's `value`) as text: a memory ceiling's in B/s, a
// compute ceiling's by computeRateText. The chart's labels, the tooltips and `presets NAME` write
// figures through these.
std::string figureText(const MemoryCeiling &ceiling, double value, int significantDigits = 4);
std::string figureText(const ComputeCeiling &ceiling, double value, int significantDigits = 4);

} // namespace ridgepoint
