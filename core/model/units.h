// Quantities with units: parsing and printing at the edges of the program.
// Inside, every value is in SI base units (FLOP, B, s, FLOP/s, B/s, FLOP/B).
#pragma once

#include "core/model/expected.h"
#include <array>
#include <string>
#include <string_view>

namespace ridgepoint {

// What a number measures; decides which unit symbols a string may carry.
enum class Dimension {
    FlopRate, // FLOP/s (also OP/s, FLOPS, TFLOPS, ...)
    ByteRate, // B/s
    Flops, // FLOP (a count of operations)
    Bytes, // B
    Time, // s
    Intensity, // FLOP/B
};

std::string_view dimensionUnit(Dimension dimension); // "FLOP/s", "B/s", ...

// Parses "3.35 TB/s", "989 TFLOP/s", "2 TiB/s", "1.97e14", "320GB/s", "65 TFLOPS", "1.5 ms".
// A bare number is taken in SI base units. Decimal prefixes are powers of 1000, binary
// prefixes (Ki, Mi, Gi, Ti, Pi, Ei) powers of 1024 and only allowed on bytes. The value must
// be finite. On failure the message names the string and what was expected.
ridgepoint::Expected<double, std::string> parseQuantity(std::string_view text, Dimension dimension);

// Like parseQuantity, and the value must also be strictly positive (peaks, bandwidths).
ridgepoint::Expected<double, std::string> parsePositiveQuantity(
    std::string_view text, Dimension dimension);

// Prints a value with a decimal SI prefix chosen so the mantissa lies in [1, 1000):
// formatQuantity(3.35e12, ByteRate) == "3.35 TB/s". `significantDigits` bounds the digits
// shown; trailing zeros are dropped. Time uses m, u, n below one second.
std::string formatQuantity(double value, Dimension dimension, int significantDigits = 4);

// formatQuantity's text written into `buffer`, without an allocation (a million points' notes
// print two quantities each); the view points into the buffer. Up to kMaxQuickDigits digits.
inline constexpr int kMaxQuickDigits = 17;
using QuantityText = std::array<char, 64>;
std::string_view formatQuantity(
    QuantityText &buffer, double value, Dimension dimension, int significantDigits = 4);

// Shortest decimal text that reads back as the same double (for JSON and CSV output).
std::string formatNumber(double value);

// Plain decimal with a fixed number of significant digits and no prefix ("295.2").
std::string formatSignificant(double value, int significantDigits = 4);

} // namespace ridgepoint
