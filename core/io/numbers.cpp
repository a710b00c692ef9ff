#include "core/io/numbers.h"

#include "core/io/text.h"

#include <charconv>
#include <cmath>

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

} // namespace

std::optional<double> plainNumber(std::string_view text)
{
    text = trim(text);
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()
        || !std::isfinite(value))
        return std::nullopt;
    return value;
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
