// The shortest decimal of a double by the method of R. Giulietti, "The Schubfach way to render
// doubles" (2020): scale the double and the two ends of its rounding interval by a power of ten
// taken from a table, rounding to odd, so that one 64×128-bit product each decides which of at
// most four candidates is the answer. Written here from the paper's description.
#include "core/model/shortest_number.h"

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>

namespace ridgepoint {

namespace {

__extension__ using Uint128 = unsigned __int128;

// 10^e for e in [kPow10Min, kPow10Min + size), as a 128-bit g with 2^127 < g < 2^128 and
// g × 2^(floor(log2(10^e)) − 127) ≥ 10^e (rounded up, never down).
struct Pow10 {
    std::uint64_t high;
    std::uint64_t low;
};
constexpr int kPow10Min = -292;
constexpr std::array<Pow10, 617> kPow10 { {
#include "core/model/pow10_table.inc"
} };

// floor(log2(10^e)), floor(log10(2^q)) and floor(log10(3/4 × 2^q)) as multiply-and-shift;
// scripts/make-pow10-table.py checks each against exact values over the range used and more.
constexpr int floorLog2Pow10(int e)
{
    return (e * 1741647) >> 19;
}
constexpr int floorLog10Pow2(int q)
{
    return (q * 315653) >> 20;
}
constexpr int floorLog10ThreeQuartersPow2(int q)
{
    return (q * 315653 - 131237) >> 20;
}

// g × scaled / 2^128 rounded to odd: its whole part with the lowest bit set when a fraction was
// cut off, so that comparisons of the rounded values give those of the exact ones. Only the
// fraction's upper 64 bits count: g is 10^e rounded up, which adds less than scaled / 2^128
// (below 2^-69) to an exact quotient, and that must not make a tie look like more.
std::uint64_t roundToOdd(const Pow10 &g, std::uint64_t scaled)
{
    const Uint128 low = static_cast<Uint128>(g.low) * scaled;
    const Uint128 high = static_cast<Uint128>(g.high) * scaled + (low >> 64U);
    const auto whole = static_cast<std::uint64_t>(high >> 64U);
    const bool cut = static_cast<std::uint64_t>(high) != 0;
    return whole | (cut ? 1U : 0U);
}

ShortestDecimal withoutTrailingZeros(std::uint64_t digits, int exponent)
{
    while (digits % 10 == 0) {
        digits /= 10;
        ++exponent;
    }
    return { digits, exponent };
}

constexpr int kSignificandBits = 52;
constexpr int kExponentBias = 1075; // the double is c × 2^(biased − 1075), c a whole number
constexpr std::uint64_t kHidden = std::uint64_t { 1 } << kSignificandBits;

// A positive finite double as c × 2^q, c a whole number; `biased` its exponent field and
// `fraction` its stored significand bits. A subnormal has the smallest q and no hidden bit.
struct BinaryParts {
    std::uint64_t fraction;
    int biased;
    std::uint64_t c;
    int q;
};

BinaryParts binaryParts(double value)
{
    const auto bits = std::bit_cast<std::uint64_t>(value);
    const std::uint64_t fraction = bits & (kHidden - 1);
    const auto biased = static_cast<int>((bits >> kSignificandBits) & 0x7FFU);
    return { fraction, biased, biased == 0 ? fraction : fraction | kHidden,
        biased == 0 ? 1 - kExponentBias : biased - kExponentBias };
}

} // namespace

ShortestDecimal shortestDecimal(double value)
{
    const auto [fraction, biased, c, q] = binaryParts(value);

    // A whole number below 2^53: its interval is narrower than 1, so no other decimal with as
    // few digits is in it.
    if (biased != 0 && q < 0 && q > -kSignificandBits - 1) {
        const std::uint64_t whole = c >> static_cast<unsigned>(-q);
        if (whole << static_cast<unsigned>(-q) == c)
            return withoutTrailingZeros(whole, 0);
    }

    // The interval of decimals that read back as the value, in quarters of 2^q: from
    // 4c − 2 to 4c + 2, but from 4c − 1 at a power of two above the smallest exponent, whose
    // lower neighbour is nearer. Its ends belong to it when c is even (ties go to even).
    const bool irregular = fraction == 0 && biased > 1;
    const std::uint64_t open = c & 1U;
    const std::uint64_t centre = c << 2U;
    const std::uint64_t lower = centre - (irregular ? 1 : 2);
    const std::uint64_t upper = centre + 2;

    // Scaled by 10^−k, k chosen so that the interval is at least 10^k and less than 10^(k+1)
    // wide: it holds at most one multiple of 10^(k+1) and at least one of 10^k.
    const int k = irregular ? floorLog10ThreeQuartersPow2(q) : floorLog10Pow2(q);
    const auto shift = static_cast<unsigned>(q + floorLog2Pow10(-k) + 1); // 1 to 4
    const Pow10 &g = kPow10[static_cast<std::size_t>(-k - kPow10Min)];
    const std::uint64_t v = roundToOdd(g, centre << shift);
    const std::uint64_t vLower = roundToOdd(g, lower << shift);
    const std::uint64_t vUpper = roundToOdd(g, upper << shift);

    // One digit fewer: the multiple of 10 (of 10^k) below or above v, when just one is inside.
    const std::uint64_t s = v >> 2U; // v / 10^k, rounded down
    const std::uint64_t down = s / 10 * 10;
    const std::uint64_t up = down + 10;
    const bool downInside = vLower + open <= down << 2U;
    const bool upInside = (up << 2U) + open <= vUpper;
    const bool fewer = downInside != upInside;

    // Otherwise s or s + 1: the one inside, or the closer (the even one on a tie). Neither ends
    // in 0 when taken: it would be the multiple of 10 inside, found above.
    const std::uint64_t t = s + 1;
    const bool sInside = vLower + open <= s << 2U;
    const bool tInside = (t << 2U) + open <= vUpper;
    const std::uint64_t middle = (s << 2U) + 2; // (s + t) / 2 in quarters
    const bool sCloser = (v < middle) | ((v == middle) & ((s & 1U) == 0));
    const bool takeS = sInside & (!tInside | sCloser);

    // Chosen without branches: which case applies is close to random from one number to the
    // next, and mispredicted branches took most of the time here.
    const std::uint64_t shorter = (downInside ? down : up) / 10;
    const std::uint64_t longer = takeS ? s : t;
    return withoutTrailingZeros(fewer ? shorter : longer, k + (fewer ? 1 : 0));
}

namespace {

constexpr std::array<char, 200> kTwoDigits = [] {
    std::array<char, 200> pairs {};
    for (int i = 0; i < 100; ++i) {
        const auto at = static_cast<std::size_t>(i) * 2;
        pairs[at] = static_cast<char>('0' + i / 10);
        pairs[at + 1] = static_cast<char>('0' + i % 10);
    }
    return pairs;
}();

constexpr std::array<char, 16> kZeros = [] {
    std::array<char, 16> zeros {};
    zeros.fill('0');
    return zeros;
}();

constexpr std::array<std::uint64_t, 20> kPowersOf10 = [] {
    std::array<std::uint64_t, 20> powers {};
    std::uint64_t power = 1;
    for (std::uint64_t &entry : powers) {
        entry = power;
        power *= 10;
    }
    return powers;
}();

// Digits of a value below 10^19 (shortest digits have at most 17): from its bit length, one
// comparison to correct.
int digitCount(std::uint64_t value)
{
    const int bits = 64 - std::countl_zero(value | 1U);
    const int estimate = (bits * 1233) >> 12U; // bits × log10(2), one short or exact
    return estimate + (value >= kPowersOf10[static_cast<std::size_t>(estimate)] ? 1 : 0);
}

void writePair(char *out, std::uint32_t pair)
{
    std::memcpy(out, &kTwoDigits[static_cast<std::size_t>(pair) * 2], 2);
}

// Exactly 8 digits of value < 10^8 (leading zeros kept): four pairs computed independently.
void writeEight(char *out, std::uint32_t value)
{
    const std::uint32_t high = value / 10000;
    const std::uint32_t low = value % 10000;
    writePair(out, high / 100);
    writePair(out + 2, high % 100);
    writePair(out + 4, low / 100);
    writePair(out + 6, low % 100);
}

// The digits of a decimal (at most 17) in a buffer with room after them, so that they can be
// moved into place by copies of a fixed size (a few vector moves, no call): all 17 places
// written, leading zeros included, in three independent parts and without a branch on the
// count (which changes from one number to the next); `digits` points at the first of `count`.
struct DigitText {
    std::array<char, 48> text {};
    const char *digits;
    DigitText(const DigitText &) = delete; // `digits` points into `text`
    DigitText &operator=(const DigitText &) = delete;
    DigitText(std::uint64_t value, int count)
        : digits(text.data() + 17 - count)
    {
        constexpr std::uint64_t kEight = 100000000;
        const std::uint64_t high = value / kEight;
        text[0] = static_cast<char>('0' + high / kEight);
        writeEight(text.data() + 1, static_cast<std::uint32_t>(high % kEight));
        writeEight(text.data() + 9, static_cast<std::uint32_t>(value % kEight));
    }
};

// The decimal's digits with a point after the first, then e, the exponent's sign and at least
// two of its digits: "1e+22", "1.5e-07", "5e-324".
char *writeScientific(char *out, const ShortestDecimal &decimal, int count)
{
    const DigitText digits(decimal.digits, count);
    out[0] = digits.digits[0];
    out[1] = '.';
    std::memcpy(out + 2, digits.digits + 1, 16);
    out += count > 1 ? count + 1 : 1;
    int exponent = decimal.exponent + count - 1;
    *out++ = 'e';
    *out++ = exponent < 0 ? '-' : '+';
    exponent = std::abs(exponent);
    if (exponent >= 100) {
        *out++ = static_cast<char>('0' + exponent / 100);
        exponent %= 100;
    }
    writePair(out, static_cast<std::uint32_t>(exponent));
    return out + 2;
}

// A decimal with `point` digits before the point and a fraction ("3.25"), or with a point
// before them and at most three zeros (`point` from 0 to −3: "0.00125"), as both layouts
// write nothing smaller in fixed form.
char *writeFraction(char *out, const ShortestDecimal &decimal, int count, int point)
{
    const DigitText digits(decimal.digits, count);
    if (point > 0) { // fewer than 17 digits before the point, and after it
        std::memcpy(out, digits.digits, 16);
        out[point] = '.';
        std::memcpy(out + point + 1, digits.digits + point, 16);
        return out + count + 1;
    }
    std::memcpy(out, kZeros.data(), 8); // the zeros after the point
    out[1] = '.';
    std::memcpy(out + 2 - point, digits.digits, 24);
    return out + 2 - point + count;
}

// The digits of a whole number below 2^53 and its zeros: at most 16 characters.
char *writeWhole(char *out, const ShortestDecimal &decimal, int count)
{
    const DigitText digits(decimal.digits, count);
    std::memcpy(out, digits.digits, 16);
    std::memcpy(out + count, kZeros.data(), kZeros.size());
    return out + count + decimal.exponent;
}

// The exact digits of a whole double of 2^53 or more (at most 22 of them here), as printf's
// "%.0f" writes it: 2^60 is "1152921504606846976", not the shortest digits padded with zeros.
char *writeExactWhole(char *out, double value)
{
    const BinaryParts parts = binaryParts(value);
    Uint128 whole = static_cast<Uint128>(parts.c) << static_cast<unsigned>(parts.q);
    std::array<char, 40> reversed {};
    std::size_t count = 0;
    do {
        reversed[count++] = static_cast<char>('0' + static_cast<int>(whole % 10));
        whole /= 10;
    } while (whole != 0);
    for (std::size_t i = 0; i < count; ++i)
        out[i] = reversed[count - 1 - i];
    return out + count;
}

} // namespace

char *writeShortest(char *out, double value)
{
    if (!std::isfinite(value))
        return std::to_chars(out, out + kShortestRoom, value).ptr;
    if (std::signbit(value))
        *out++ = '-';
    if (value == 0.0) {
        *out++ = '0';
        return out;
    }
    const double magnitude = std::fabs(value);
    const ShortestDecimal decimal = shortestDecimal(magnitude);
    const int count = digitCount(decimal.digits);
    const int point = count + decimal.exponent; // digits before the point in the fixed form
    const int exponent = point - 1;
    const int scientificLength = count + (count > 1 ? 1 : 0) + (std::abs(exponent) >= 100 ? 5 : 4);
    const int fixedLength = decimal.exponent >= 0 ? point
        : point > 0                               ? count + 1
                                                  : 2 - point + count;
    if (scientificLength < fixedLength)
        return writeScientific(out, decimal, count);
    if (decimal.exponent < 0)
        return writeFraction(out, decimal, count, point);
    if (magnitude >= 0x1p53)
        return writeExactWhole(out, magnitude);
    return writeWhole(out, decimal, count);
}

char *writeJsonNumber(char *out, double value)
{
    if (std::signbit(value))
        *out++ = '-';
    if (value == 0.0) {
        out[0] = '0';
        out[1] = '.';
        out[2] = '0';
        return out + 3;
    }
    const ShortestDecimal decimal = shortestDecimal(std::fabs(value));
    const int count = digitCount(decimal.digits);
    const int point = count + decimal.exponent;
    // nlohmann's layout: fixed while the point is at most 15 digits from the first digit's
    // left and less than 4 zeros follow it, a whole number with ".0"; otherwise scientific.
    constexpr int kMaxPoint = 15;
    constexpr int kMinPoint = -4;
    if (decimal.exponent >= 0 && point <= kMaxPoint) {
        out = writeWhole(out, decimal, count);
        out[0] = '.';
        out[1] = '0';
        return out + 2;
    }
    if (point > kMinPoint && point <= kMaxPoint)
        return writeFraction(out, decimal, count, point);
    return writeScientific(out, decimal, count);
}

} // namespace ridgepoint
