#pragma once

// The shortest decimal text that reads back as the same double, written without the library's
// generic code: the reports write a dozen numbers per point, a million points per file.
// docs/FILES.md ("Numbers in reports") says what the text is and how it is found.

#include <cstdint>

namespace ridgepoint {

// value = digits × 10^exponent: the decimal with the fewest significant digits that reads back
// as the double (rounding to nearest, ties to even), the closest to it when several are as
// short, the even one of two as close; digits have no trailing zero.
struct ShortestDecimal {
    std::uint64_t digits = 0;
    int exponent = 0;
};

// Of a positive finite double (not zero).
ShortestDecimal shortestDecimal(double value);

// Room the writers below need: at most 25 characters, and room to copy in fixed sizes.
inline constexpr int kShortestRoom = 48;

// The text std::to_chars(out, out + kShortestRoom, value) writes, byte for byte, for every
// double: the shortest digits in fixed or scientific form, whichever is shorter (fixed on a
// tie), a whole number of 2^53 or more in its exact digits. Returns the end of the text.
char *writeShortest(char *out, double value);

// The text nlohmann::json writes for a finite double (its layout: "1.0", "1e+20", "0.0001",
// "-0.0"), with the digits of shortestDecimal, which nlohmann's Grisu2 gives too except in
// rare cases where its digits, as short, are not the closest.
char *writeJsonNumber(char *out, double value);

} // namespace ridgepoint
