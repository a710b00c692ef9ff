#include "core/model/units.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <system_error>

namespace ridgepoint {
namespace {

struct Prefix {
    std::string_view symbol;
    double factor;
    bool binary;
};

// Longest symbols first so "Ki" is tried before "K".
constexpr std::array<Prefix, 20> kPrefixes { {
    { "Ki", 1024.0, true },
    { "Mi", 1048576.0, true },
    { "Gi", 1073741824.0, true },
    { "Ti", 1099511627776.0, true },
    { "Pi", 1125899906842624.0, true },
    { "Ei", 1152921504606846976.0, true },
    { "k", 1e3, false },
    { "K", 1e3, false },
    { "M", 1e6, false },
    { "G", 1e9, false },
    { "T", 1e12, false },
    { "P", 1e15, false },
    { "E", 1e18, false },
    { "m", 1e-3, false },
    { "u", 1e-6, false },
    { "\xC2\xB5", 1e-6, false }, // MICRO SIGN
    { "\xCE\xBC", 1e-6, false }, // GREEK SMALL LETTER MU
    { "n", 1e-9, false },
    { "p", 1e-12, false },
    { "", 1.0, false },
} };

bool isSubUnitPrefix(const Prefix &prefix)
{
    return prefix.factor < 1.0;
}

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char &c : out) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

std::string_view trim(std::string_view text)
{
    const auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    return text;
}

// Whether `unit` (the text after the prefix) names the dimension. Bytes are case-sensitive
// ("b" is a bit), the FLOP words are not.
bool unitMatches(std::string_view unit, Dimension dimension)
{
    const std::string l = lower(unit);
    switch (dimension) {
    case Dimension::FlopRate:
        return l == "flop/s" || l == "flops" || l == "flops/s" || l == "op/s" || l == "ops"
            || l == "ops/s" || l == "iop/s" || l == "iops";
    case Dimension::ByteRate:
        return unit == "B/s" || l == "byte/s" || l == "bytes/s";
    case Dimension::Flops:
        // All-caps FLOPS is the rate; a count is FLOP or FLOPs.
        return unit != "FLOPS" && (l == "flop" || l == "flops" || l == "op" || l == "ops");
    case Dimension::Bytes:
        return unit == "B" || l == "byte" || l == "bytes";
    case Dimension::Time:
        return unit == "s" || l == "sec";
    case Dimension::Intensity:
        return l == "flop/b" || l == "flop/byte" || l == "flops/b" || l == "flops/byte"
            || l == "f/b" || l == "op/b" || l == "op/byte";
    }
    return false;
}

// What each dimension is called in messages: its SI unit, a noun and examples of accepted text.
struct DimensionInfo {
    std::string_view unit;
    std::string_view noun;
    std::string_view example;
};

const DimensionInfo &dimensionInfo(Dimension dimension)
{
    static constexpr DimensionInfo kRate { "FLOP/s", "a compute rate",
        "\"989 TFLOP/s\" or \"1.97e14\"" };
    static constexpr DimensionInfo kByteRate { "B/s", "a bandwidth",
        "\"3.35 TB/s\", \"2 TiB/s\" or \"8.2e11\"" };
    static constexpr DimensionInfo kFlops { "FLOP", "an operation count",
        "\"2.5 GFLOP\" or \"2.5e9\"" };
    static constexpr DimensionInfo kBytes { "B", "a byte count",
        "\"512 MB\", \"1 GiB\" or \"5.12e8\"" };
    static constexpr DimensionInfo kTime { "s", "a time", "\"1.5 ms\", \"250 us\" or \"0.0015\"" };
    static constexpr DimensionInfo kIntensity { "FLOP/B", "an arithmetic intensity",
        "\"12.5 FLOP/B\" or \"12.5\"" };
    switch (dimension) {
    case Dimension::FlopRate:
        return kRate;
    case Dimension::ByteRate:
        return kByteRate;
    case Dimension::Flops:
        return kFlops;
    case Dimension::Bytes:
        return kBytes;
    case Dimension::Time:
        return kTime;
    case Dimension::Intensity:
        break;
    }
    return kIntensity;
}

std::string_view dimensionNoun(Dimension dimension)
{
    return dimensionInfo(dimension).noun;
}

std::string_view dimensionExample(Dimension dimension)
{
    return dimensionInfo(dimension).example;
}

std::string failure(std::string_view text, Dimension dimension, std::string_view why)
{
    std::string message = "\"" + std::string(text) + "\" is not "
        + std::string(dimensionNoun(dimension)) + ": " + std::string(why)
        + " (expected a number with an optional unit in " + std::string(dimensionUnit(dimension))
        + ", e.g. " + std::string(dimensionExample(dimension)) + ")";
    return message;
}

// std::to_chars(value, fixed, decimals), which rounds the exact binary value, when a product in
// doubles gives the same digits: it does unless the scaled value lies within a few units in
// the last place of a rounding boundary (k + 0.5), and those cases are left to to_chars
// (0). Written at `out` (room for 40 bytes); the length. The notes of a million analysed
// points print two quantities each; this is about five times faster.
std::size_t fixedDigits(char *out, double value, int decimals)
{
    static constexpr std::array<double, 16> kPowers { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
        1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
    if (decimals < 0 || decimals >= static_cast<int>(kPowers.size()))
        return 0;
    const auto power = static_cast<std::size_t>(decimals);
    const double scaled = std::fabs(value) * kPowers[power]; // one rounding: 10^d is exact
    if (!(scaled < 1e15))
        return 0;
    const double whole = std::floor(scaled);
    const double fraction = scaled - whole; // exact (Sterbenz)
    if (std::fabs(fraction - 0.5) <= scaled * 1e-15 + 1e-300)
        return 0;
    auto digits = static_cast<std::uint64_t>(whole) + (fraction > 0.5 ? 1U : 0U);
    std::array<char, 24> reversed {};
    std::size_t count = 0;
    do {
        reversed[count++] = static_cast<char>('0' + digits % 10);
        digits /= 10;
    } while (digits != 0 || count <= power);
    char *at = out;
    if (std::signbit(value))
        *at++ = '-';
    for (std::size_t i = count; i-- > 0;) {
        *at++ = reversed[i];
        if (i == power && power > 0)
            *at++ = '.';
    }
    return static_cast<std::size_t>(at - out);
}

// The decimal exponent of a finite magnitude > 0: floor(log10(magnitude)). Found by comparing
// with powers of ten, which is exact; log10 only decides a value within a relative 1e-12 of a
// power of ten, where its rounding could put the floor on either side, so the result is always
// log10's.
int decimalExponent(double magnitude)
{
    static constexpr std::array<double, 23> kPowers { 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3,
        1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18 };
    constexpr int kFirst = -4;
    if (magnitude >= kPowers.front() && magnitude < kPowers.back()) {
        std::size_t i = 0;
        while (magnitude >= kPowers[i + 1])
            ++i;
        const double below = kPowers[i];
        const double above = kPowers[i + 1];
        if (magnitude > below * (1.0 + 1e-12) && magnitude < above * (1.0 - 1e-12))
            return kFirst + static_cast<int>(i);
    }
    return static_cast<int>(std::floor(std::log10(magnitude)));
}

// Drops trailing zeros after a decimal point (and the point when nothing follows) from the
// text [out, out + size); the new size.
std::size_t trimFraction(const char *out, std::size_t size)
{
    if (std::memchr(out, '.', size) == nullptr)
        return size;
    while (out[size - 1] == '0')
        --size;
    if (out[size - 1] == '.')
        --size;
    return size;
}

// The bytes formatSignificant's text can take with `significantDigits` (at least 1): a sign, 16
// digits before the point, the point, the decimals (digits + 3 at most) and an exponent.
std::size_t significantRoom(int significantDigits)
{
    return static_cast<std::size_t>(significantDigits) + 32;
}

// formatSignificant's text written at `out` (significantRoom bytes); its length.
std::size_t writeSignificant(char *out, double value, int significantDigits)
{
    if (!std::isfinite(value)) {
        const std::string_view text
            = std::isnan(value) ? "nan" : (value > 0 ? std::string_view("inf") : "-inf");
        std::memcpy(out, text.data(), text.size());
        return text.size();
    }
    if (value == 0.0) {
        *out = '0';
        return 1;
    }
    const int exponent = decimalExponent(std::fabs(value));
    char *const end = out + significantRoom(significantDigits);
    if (exponent < -4 || exponent >= 15) {
        const auto result
            = std::to_chars(out, end, value, std::chars_format::scientific, significantDigits - 1);
        // Trim zeros in the mantissa: 1.500e+20 -> 1.5e+20.
        const auto size = static_cast<std::size_t>(result.ptr - out);
        const auto e = static_cast<std::size_t>(
            static_cast<const char *>(std::memchr(out, 'e', size)) - out);
        const std::size_t mantissa = trimFraction(out, e);
        std::memmove(out + mantissa, out + e, size - e);
        return mantissa + size - e;
    }
    const int decimals = std::max(0, significantDigits - 1 - exponent);
    std::size_t size = fixedDigits(out, value, decimals);
    if (size == 0) {
        const auto result = std::to_chars(out, end, value, std::chars_format::fixed, decimals);
        size = static_cast<std::size_t>(result.ptr - out);
    }
    return trimFraction(out, size);
}

// The text before formatQuantity's prefix is at least 1000 in magnitude: four or more digits
// before the point, or a positive exponent (scientific text has one digit before the point and
// is only used from 1e15 up or below 1e-4).
bool atLeastThousand(std::string_view digits)
{
    if (!digits.empty() && digits.front() == '-')
        digits.remove_prefix(1);
    const std::size_t e = digits.find('e');
    if (e != std::string_view::npos)
        return e + 1 < digits.size() && digits[e + 1] == '+';
    return std::min(digits.find('.'), digits.size()) >= 4;
}

struct Scale {
    double factor;
    std::string_view symbol;
};
constexpr std::array<Scale, 11> kScales { { { 1e-12, "p" }, { 1e-9, "n" }, { 1e-6, "u" },
    { 1e-3, "m" }, { 1.0, "" }, { 1e3, "k" }, { 1e6, "M" }, { 1e9, "G" }, { 1e12, "T" },
    { 1e15, "P" }, { 1e18, "E" } } };
constexpr std::size_t kNoPrefix = 4;

// The largest scale not above the magnitude; below one second only for times.
std::size_t quantityScale(double value, Dimension dimension)
{
    const double magnitude = std::fabs(value);
    if (magnitude < 1.0 && dimension != Dimension::Time)
        return kNoPrefix;
    std::size_t index = kNoPrefix;
    for (std::size_t i = 0; i < kScales.size(); ++i) {
        if (magnitude >= kScales[i].factor)
            index = i;
    }
    return index;
}

// The bytes formatQuantity's text can take: the number, a space, a prefix and the longest unit.
std::size_t quantityRoom(int significantDigits)
{
    return significantRoom(significantDigits) + 8;
}

// formatQuantity's text written at `out` (quantityRoom bytes); its length.
std::size_t writeQuantity(char *out, double value, Dimension dimension, int significantDigits)
{
    const std::string_view unit = dimensionUnit(dimension);
    std::size_t size = 0;
    std::string_view symbol;
    if (!std::isfinite(value) || value == 0.0 || dimension == Dimension::Intensity) {
        size = writeSignificant(out, value, significantDigits);
    } else {
        std::size_t index = quantityScale(value, dimension);
        size = writeSignificant(out, value / kScales[index].factor, significantDigits);
        // Rounding can carry into the next prefix: 999.96 -> "1000".
        if (atLeastThousand(std::string_view(out, size)) && index + 1 < kScales.size()) {
            ++index;
            size = writeSignificant(out, value / kScales[index].factor, significantDigits);
        }
        symbol = kScales[index].symbol;
    }
    out[size++] = ' ';
    // (std::copy: an empty symbol is a view without data, which memcpy must not be given)
    size = static_cast<std::size_t>(std::copy(symbol.begin(), symbol.end(), out + size) - out);
    return static_cast<std::size_t>(std::copy(unit.begin(), unit.end(), out + size) - out);
}

} // namespace

std::string_view dimensionUnit(Dimension dimension)
{
    return dimensionInfo(dimension).unit;
}

ridgepoint::Expected<double, std::string> parseQuantity(
    std::string_view original, Dimension dimension)
{
    std::string_view text = trim(original);
    if (text.empty())
        return ridgepoint::Unexpected(failure(original, dimension, "it is empty"));

    std::string_view numberText = text;
    if (numberText.front() == '+')
        numberText.remove_prefix(1);
    double value = 0.0;
    const char *begin = numberText.data();
    const char *end = numberText.data() + numberText.size();
    const auto [ptr, ec] = std::from_chars(begin, end, value, std::chars_format::general);
    if (ec == std::errc::result_out_of_range)
        return ridgepoint::Unexpected(failure(original, dimension, "the number is out of range"));
    if (ec != std::errc() || ptr == begin)
        return ridgepoint::Unexpected(
            failure(original, dimension, "it does not start with a number"));
    if (!std::isfinite(value))
        return ridgepoint::Unexpected(failure(original, dimension, "the number is not finite"));

    std::string_view rest(ptr, static_cast<std::size_t>(end - ptr));
    if (!rest.empty() && (rest.front() == ',') && rest.size() > 1 && rest[1] >= '0'
        && rest[1] <= '9') {
        return ridgepoint::Unexpected(failure(original, dimension,
            "a comma inside a number is ambiguous (decimal comma or "
            "thousands separator); write 1234.5"));
    }
    rest = trim(rest);
    if (rest.empty())
        return value;

    for (const Prefix &prefix : kPrefixes) {
        if (!rest.starts_with(prefix.symbol))
            continue;
        const std::string_view unit = rest.substr(prefix.symbol.size());
        if (!unitMatches(unit, dimension))
            continue;
        if (prefix.binary && dimension != Dimension::Bytes && dimension != Dimension::ByteRate) {
            return ridgepoint::Unexpected(failure(
                original, dimension, "binary prefixes (Ki, Mi, Gi, ...) apply to bytes only"));
        }
        // "1 pflop/s": a lower-case p on a FLOP unit can only mean peta.
        if (prefix.symbol == "p"
            && (dimension == Dimension::FlopRate || dimension == Dimension::Flops))
            return value * 1e15;
        if (isSubUnitPrefix(prefix) && dimension != Dimension::Time) {
            return ridgepoint::Unexpected(failure(
                original, dimension, "prefixes below one (m, u, n, p) apply to times only"));
        }
        const double scaled = value * prefix.factor;
        if (!std::isfinite(scaled))
            return ridgepoint::Unexpected(failure(original, dimension, "the value overflows"));
        return scaled;
    }

    // "tflops", "gflop/s": lower-case prefixes are common on FLOP units (never on bytes, where
    // a case slip could confuse bits and bytes).
    if ((dimension == Dimension::FlopRate || dimension == Dimension::Flops) && rest.size() > 1) {
        static constexpr std::array<std::pair<char, double>, 6> kLoose { { { 'k', 1e3 },
            { 'm', 1e6 }, { 'g', 1e9 }, { 't', 1e12 }, { 'p', 1e15 }, { 'e', 1e18 } } };
        for (const auto &[letter, factor] : kLoose) {
            if (rest.front() == letter && unitMatches(rest.substr(1), dimension)
                && lower(rest.substr(1)).starts_with("flop"))
                return value * factor;
        }
    }

    // Say something specific about the common mistakes.
    if ((dimension == Dimension::ByteRate || dimension == Dimension::Bytes)
        && (rest.find("b/s") != std::string_view::npos || rest.ends_with("b")
            || rest.find("bps") != std::string_view::npos)) {
        return ridgepoint::Unexpected(
            failure(original, dimension, "a lower-case b means bits; write B for bytes"));
    }
    if (dimension == Dimension::Flops && trim(rest).ends_with("FLOPS")) {
        return ridgepoint::Unexpected(
            failure(original, dimension, "FLOPS is a rate; write FLOP for a count of operations"));
    }
    return ridgepoint::Unexpected(
        failure(original, dimension, "unknown unit \"" + std::string(rest) + "\""));
}

ridgepoint::Expected<double, std::string> parsePositiveQuantity(
    std::string_view text, Dimension dimension)
{
    auto parsed = parseQuantity(text, dimension);
    if (parsed && !(*parsed > 0.0))
        return ridgepoint::Unexpected(failure(text, dimension, "it must be greater than zero"));
    return parsed;
}

std::string formatSignificant(double value, int significantDigits)
{
    significantDigits = std::max(1, significantDigits);
    if (significantDigits <= kMaxQuickDigits) {
        std::array<char, 64> buffer; // NOLINT(cppcoreguidelines-pro-type-member-init)
        static_assert(64 >= kMaxQuickDigits + 32);
        return std::string(
            buffer.data(), writeSignificant(buffer.data(), value, significantDigits));
    }
    std::string text(significantRoom(significantDigits), '\0');
    text.resize(writeSignificant(text.data(), value, significantDigits));
    return text;
}

std::string_view formatQuantity(
    QuantityText &buffer, double value, Dimension dimension, int significantDigits)
{
    significantDigits = std::clamp(significantDigits, 1, kMaxQuickDigits);
    static_assert(std::tuple_size_v<QuantityText> >= kMaxQuickDigits + 40);
    return { buffer.data(), writeQuantity(buffer.data(), value, dimension, significantDigits) };
}

std::string formatQuantity(double value, Dimension dimension, int significantDigits)
{
    significantDigits = std::max(1, significantDigits);
    if (significantDigits <= kMaxQuickDigits) {
        QuantityText buffer; // NOLINT(cppcoreguidelines-pro-type-member-init)
        return std::string(formatQuantity(buffer, value, dimension, significantDigits));
    }
    std::string text(quantityRoom(significantDigits), '\0');
    text.resize(writeQuantity(text.data(), value, dimension, significantDigits));
    return text;
}

std::string formatNumber(double value)
{
    if (!std::isfinite(value))
        return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
    std::array<char, 64> buffer {};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return std::string(buffer.data(), result.ptr);
}

} // namespace ridgepoint
