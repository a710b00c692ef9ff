#include "core/model/units.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
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
// (nullopt). The notes of a million analysed points print two quantities each; this is about
// five times faster.
std::optional<std::string> fixedDigits(double value, int decimals)
{
    static constexpr std::array<double, 16> kPowers { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
        1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
    if (decimals < 0 || decimals >= static_cast<int>(kPowers.size()))
        return std::nullopt;
    const auto power = static_cast<std::size_t>(decimals);
    const double scaled = std::fabs(value) * kPowers[power]; // one rounding: 10^d is exact
    if (!(scaled < 1e15))
        return std::nullopt;
    const double whole = std::floor(scaled);
    const double fraction = scaled - whole; // exact (Sterbenz)
    if (std::fabs(fraction - 0.5) <= scaled * 1e-15 + 1e-300)
        return std::nullopt;
    auto digits = static_cast<std::uint64_t>(whole) + (fraction > 0.5 ? 1U : 0U);
    std::array<char, 24> reversed {};
    std::size_t count = 0;
    do {
        reversed[count++] = static_cast<char>('0' + digits % 10);
        digits /= 10;
    } while (digits != 0 || count <= power);
    std::string text;
    text.reserve(count + 2);
    if (std::signbit(value))
        text.push_back('-');
    for (std::size_t i = count; i-- > 0;) {
        text.push_back(reversed[i]);
        if (i == power && power > 0)
            text.push_back('.');
    }
    return text;
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
    if (!std::isfinite(value))
        return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
    if (value == 0.0)
        return "0";
    significantDigits = std::max(1, significantDigits);
    const double magnitude = std::fabs(value);
    const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
    std::array<char, 64> buffer {};
    std::to_chars_result result {};
    if (exponent < -4 || exponent >= 15) {
        result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
            std::chars_format::scientific, significantDigits - 1);
        std::string text(buffer.data(), result.ptr);
        // Trim zeros in the mantissa: 1.500e+20 -> 1.5e+20.
        const auto e = text.find('e');
        std::string mantissa = text.substr(0, e);
        if (mantissa.find('.') != std::string::npos) {
            while (mantissa.back() == '0')
                mantissa.pop_back();
            if (mantissa.back() == '.')
                mantissa.pop_back();
        }
        return mantissa + text.substr(e);
    }
    const int decimals = std::max(0, significantDigits - 1 - exponent);
    std::string text;
    if (auto fast = fixedDigits(value, decimals)) {
        text = std::move(*fast);
    } else {
        result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
            std::chars_format::fixed, decimals);
        text.assign(buffer.data(), result.ptr);
    }
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0')
            text.pop_back();
        if (text.back() == '.')
            text.pop_back();
    }
    return text;
}

std::string formatQuantity(double value, Dimension dimension, int significantDigits)
{
    const std::string_view unit = dimensionUnit(dimension);
    if (!std::isfinite(value) || value == 0.0 || dimension == Dimension::Intensity)
        return formatSignificant(value, significantDigits) + " " + std::string(unit);

    struct Scale {
        double factor;
        std::string_view symbol;
    };
    static constexpr std::array<Scale, 11> kScales { { { 1e-12, "p" }, { 1e-9, "n" }, { 1e-6, "u" },
        { 1e-3, "m" }, { 1.0, "" }, { 1e3, "k" }, { 1e6, "M" }, { 1e9, "G" }, { 1e12, "T" },
        { 1e15, "P" }, { 1e18, "E" } } };
    const double magnitude = std::fabs(value);
    const bool allowSubUnit = dimension == Dimension::Time;
    std::size_t index = 4; // no prefix
    for (std::size_t i = 0; i < kScales.size(); ++i) {
        if (!allowSubUnit && i < 4)
            continue;
        if (magnitude >= kScales[i].factor)
            index = i;
    }
    if (!allowSubUnit && magnitude < 1.0)
        index = 4;
    double mantissa = value / kScales[index].factor;
    std::string digits = formatSignificant(mantissa, significantDigits);
    // Rounding can carry into the next prefix: 999.96 -> "1000".
    double shown = 0.0;
    std::from_chars(digits.data(), digits.data() + digits.size(),
        shown); // "-1000" parses as well
    if (std::fabs(shown) >= 1000.0 && index + 1 < kScales.size()) {
        ++index;
        mantissa = value / kScales[index].factor;
        digits = formatSignificant(mantissa, significantDigits);
    }
    digits.reserve(digits.size() + 1 + kScales[index].symbol.size() + unit.size());
    digits += ' ';
    digits += kScales[index].symbol;
    digits += unit;
    return digits;
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
