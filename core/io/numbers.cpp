#include "core/io/numbers.h"

#include "core/io/text.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace ridgepoint {
namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// "[sign]d{1,3}" then groups of exactly three digits after `separator`, from the start of
// `text`: how many groups, and where the scan stopped. Not valid when a group is not three digits.
struct GroupedDigits {
    bool valid = false;
    int groups = 0;
    std::size_t end = 0;
};

GroupedDigits scanGroupedDigits(std::string_view text, char separator)
{
    const auto digitsFrom = [text](std::size_t i) {
        while (i < text.size() && isDigit(text[i]))
            ++i;
        return i;
    };
    GroupedDigits scan;
    std::size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
    const std::size_t leadingEnd = digitsFrom(i);
    if (leadingEnd == i || leadingEnd - i > 3)
        return scan;
    i = leadingEnd;
    while (i < text.size() && text[i] == separator) {
        const std::size_t groupEnd = digitsFrom(i + 1);
        if (groupEnd - (i + 1) != 3)
            return scan;
        i = groupEnd;
        ++scan.groups;
    }
    scan.valid = true;
    scan.end = i;
    return scan;
}

// Digits from text[i] on, appended to `value`; how many. Stops after 20 (the caller refuses
// more than 19, which fit in 64 bits).
int appendDigits(std::string_view text, std::size_t &i, std::uint64_t &value)
{
    int count = 0;
    while (i < text.size() && isDigit(text[i]) && count <= 19) {
        value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
        ++i;
        ++count;
    }
    return count;
}

// Clinger's fast path ("How to Read Floating Point Numbers Accurately", 1990):
// "[-]d+[.d+][e[+-]d+]" whose digits make an integer w <= 2^53 and whose power of ten 10^k has |k|
// <= 22 is w * 10^k or w / 10^-k, each an exact double, so the one rounding of that operation gives
// the nearest double: what from_chars gives. Anything else (more digits, larger powers, "inf",
// ".5", "1.") is false (`value` untouched), for from_chars to decide.
bool quickDecimal(std::string_view text, double &value)
{
    static constexpr std::array<double, 23> kPowers { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
        1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
    std::size_t i = 0;
    const bool negative = !text.empty() && text[0] == '-';
    i += negative ? 1 : 0;
    std::uint64_t digits = 0;
    const int whole = appendDigits(text, i, digits);
    int fraction = 0;
    if (i < text.size() && text[i] == '.') {
        ++i;
        fraction = appendDigits(text, i, digits);
        if (fraction == 0)
            return false;
    }
    if (whole == 0 || whole + fraction > 19)
        return false;
    int exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        const bool down = i < text.size() && text[i] == '-';
        i += i < text.size() && (text[i] == '-' || text[i] == '+') ? 1 : 0;
        std::uint64_t power = 0;
        const int count = appendDigits(text, i, power);
        if (count == 0 || count > 3)
            return false;
        exponent = down ? -static_cast<int>(power) : static_cast<int>(power);
    }
    exponent -= fraction;
    constexpr std::uint64_t kExact = std::uint64_t { 1 } << 53U;
    if (i != text.size() || digits > kExact || exponent < -22 || exponent > 22)
        return false;
    const auto w = static_cast<double>(digits);
    const double magnitude = exponent >= 0 ? w * kPowers[static_cast<std::size_t>(exponent)]
                                           : w / kPowers[static_cast<std::size_t>(-exponent)];
    value = negative ? -magnitude : magnitude;
    return true;
}

} // namespace

bool plainNumber(std::string_view text, double &value)
{
    text = trim(text);
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    if (quickDecimal(text, value))
        return true;
    double read = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), read);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()
        || !std::isfinite(read))
        return false;
    value = read;
    return true;
}

std::optional<double> plainNumber(std::string_view text)
{
    double value = 0.0;
    if (plainNumber(text, value))
        return value;
    return std::nullopt;
}

bool positiveFinite(double value)
{
    return std::isfinite(value) && value > 0.0;
}

std::optional<std::string> withoutThousandsSeparators(std::string_view text)
{
    text = trim(text);
    std::string out;
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-'))
        out.push_back(text[i++]);
    std::size_t leading = 0;
    while (i < text.size() && isDigit(text[i])) {
        out.push_back(text[i++]);
        ++leading;
    }
    if (leading == 0 || leading > 3 || i >= text.size() || text[i] != ',')
        return std::nullopt;
    while (i < text.size() && text[i] == ',') {
        ++i;
        std::size_t digits = 0;
        while (i < text.size() && isDigit(text[i])) {
            out.push_back(text[i++]);
            ++digits;
        }
        if (digits != 3)
            return std::nullopt;
    }
    // The rest may be a fraction and an exponent, but no further comma.
    const std::string_view rest = text.substr(i);
    if (rest.find(',') != std::string_view::npos)
        return std::nullopt;
    if (!rest.empty() && rest.front() != '.' && rest.front() != 'e' && rest.front() != 'E'
        && rest.front() != ' ')
        return std::nullopt;
    out += rest;
    return out;
}

bool isMissingValue(std::string_view text)
{
    const std::string lower = asciiLower(trim(text));
    return lower.empty() || lower == "n/a" || lower == "na" || lower == "nan" || lower == "-nan"
        || lower == "no data" || lower == "-" || lower == "none" || lower == "null";
}

ridgepoint::Expected<std::optional<double>, std::string> parseReportNumber(std::string_view text)
{
    std::string_view cell = trim(text);
    if (isMissingValue(cell))
        return std::optional<double> {};
    std::string plain;
    if (cell.find(',') != std::string_view::npos) {
        auto grouped = withoutThousandsSeparators(cell);
        if (!grouped) {
            return ridgepoint::Unexpected("\"" + std::string(cell)
                + "\" is not a number: a comma that does not group thousands is ambiguous "
                  "(decimal comma?)");
        }
        plain = *grouped;
        cell = plain;
    }
    if (!cell.empty() && cell.front() == '+')
        cell.remove_prefix(1);
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
    if (ec != std::errc() || ptr != cell.data() + cell.size() || !std::isfinite(value))
        return ridgepoint::Unexpected("\"" + std::string(trim(text)) + "\" is not a number");
    return std::optional<double> { value };
}

bool isDotGrouped(std::string_view text, bool needEvidence)
{
    const GroupedDigits scan = scanGroupedDigits(text, '.');
    if (!scan.valid)
        return false;
    std::size_t i = scan.end;
    bool fraction = false;
    if (i < text.size() && text[i] == ',') {
        const std::size_t start = ++i;
        while (i < text.size() && isDigit(text[i]))
            ++i;
        if (i == start)
            return false;
        fraction = true;
    }
    if (i != text.size())
        return false;
    return needEvidence ? (scan.groups >= 2 || (scan.groups >= 1 && fraction))
                        : (scan.groups > 0 || fraction);
}

bool isCommaGrouped(std::string_view text)
{
    const GroupedDigits scan = scanGroupedDigits(text, ',');
    if (!scan.valid)
        return false;
    const bool fraction = scan.end < text.size() && text[scan.end] == '.';
    return scan.groups >= 2 || (scan.groups >= 1 && fraction);
}

std::string fromDecimalComma(std::string_view text)
{
    const std::string_view cell = trim(text);
    if (cell.empty() || !isDotGrouped(cell, false))
        return std::string(text);
    std::string out;
    for (char c : cell) {
        if (c == ',')
            out.push_back('.');
        else if (c != '.')
            out.push_back(c);
    }
    return out;
}

} // namespace ridgepoint
