#include "core/io/formats/ncu_numbers.h"

#include "core/io/formats/ncu_reader.h"
#include "core/io/numbers.h"
#include "core/io/text.h"

#include <array>
#include <cmath>

namespace ridgepoint::ncu {

std::optional<double> MetricReader::value(const Metrics &metrics, const std::string &name)
{
    auto it = metrics.find(name);
    if (it == metrics.end())
        return std::nullopt;
    const RawValue &raw = it->second;
    auto number = parseReportNumber(decimalComma ? fromDecimalComma(raw.text) : raw.text);
    if (!number) {
        diagnostics.push_back({ Severity::Error, fileName, raw.line, raw.column,
            "metric \"" + name + "\": " + number.error() });
        return std::nullopt;
    }
    if (!*number)
        return std::nullopt;
    auto scale = ncuUnitScale(raw.unit);
    if (!scale) {
        diagnostics.push_back({ Severity::Error, fileName, raw.line, raw.column,
            "metric \"" + name + "\": unknown unit \"" + raw.unit
                + "\" (expected an ncu unit such as byte, Mbyte, ns, usecond, Ghz)" });
        return std::nullopt;
    }
    const double value = **number * *scale;
    // Counters, bytes, times and clocks are never negative; a huge value in a large unit
    // ("1e300 Tbyte") overflows to infinity. Either would make a point the chart cannot
    // place, so it is an error on the metric, with its position.
    if (!std::isfinite(value) || value < 0.0) {
        diagnostics.push_back({ Severity::Error, fileName, raw.line, raw.column,
            "metric \"" + name + "\": \"" + raw.text + "\" " + raw.unit
                + (value < 0.0 ? " is negative (expected zero or more)"
                               : " is out of range (expected a finite value)") });
        return std::nullopt;
    }
    return value;
}

std::optional<double> MetricReader::first(
    const Metrics &metrics, std::initializer_list<std::string> names)
{
    for (const auto &name : names) {
        if (auto v = value(metrics, name))
            return v;
    }
    return std::nullopt;
}

std::optional<Diagnostic> decimalCommaEvidence(const Table &table, const std::string &fileName)
{
    const std::vector<bool> isValue = valueColumns(table);
    std::optional<Diagnostic> evidence;
    for (std::size_t r = 1; r < table.csv.rows.size(); ++r) {
        const CsvRow &row = table.csv.rows[r];
        for (std::size_t i = 0; i < row.fields.size() && i < isValue.size(); ++i) {
            const std::string &text = row.fields[i].text;
            if (text.size() < 4 || !isValue[i])
                continue;
            if (isCommaGrouped(text))
                return std::nullopt;
            if (!evidence && isDotGrouped(text, true)) {
                evidence = Diagnostic { Severity::Warning, fileName, row.line, row.fields[i].column,
                    "numbers are read with a decimal comma and '.' between thousands, as \"" + text
                        + "\" is written" };
            }
        }
    }
    return evidence;
}

bool readsDecimalComma(const Table &table, const NcuOptions &options, const std::string &fileName,
    std::vector<Diagnostic> *diagnostics)
{
    if (options.decimalComma)
        return *options.decimalComma;
    auto evidence = decimalCommaEvidence(table, fileName);
    if (evidence && diagnostics)
        diagnostics->push_back(*evidence);
    return evidence.has_value();
}

} // namespace ridgepoint::ncu

namespace ridgepoint {

std::optional<double> ncuUnitScale(std::string_view unit)
{
    if (unit.empty() || unit == "%")
        return 1.0;
    const auto part = [](std::string_view text) -> std::optional<double> {
        if (text == "%")
            return 1.0; // "%/register", "%/byte"
        // Longest base first, so "sectors" is not read as "sector" + "s".
        static constexpr std::array<std::string_view, 21> kBases { "branches", "register",
            "request", "sectors", "cluster", "nsecond", "usecond", "msecond", "second", "sector",
            "sample", "thread", "block", "cycle", "byte", "inst", "warp", "pass", "hz", "SM", "s" };
        for (std::string_view base : kBases) {
            if (text.size() < base.size())
                continue;
            const std::string_view tail = text.substr(text.size() - base.size());
            if (asciiLower(tail) != asciiLower(base))
                continue;
            const std::string_view prefix = text.substr(0, text.size() - base.size());
            double baseScale = 1.0;
            if (base == "nsecond")
                baseScale = 1e-9;
            else if (base == "usecond")
                baseScale = 1e-6;
            else if (base == "msecond")
                baseScale = 1e-3;
            static constexpr std::array<std::pair<std::string_view, double>, 12> kPrefixes {
                { { "", 1.0 }, { "n", 1e-9 }, { "u", 1e-6 }, { "\xC2\xB5", 1e-6 }, { "m", 1e-3 },
                    { "K", 1e3 }, { "k", 1e3 }, { "M", 1e6 }, { "G", 1e9 }, { "g", 1e9 },
                    { "T", 1e12 }, { "P", 1e15 } }
            };
            for (const auto &[symbol, factor] : kPrefixes) {
                if (prefix == symbol)
                    return factor * baseScale;
            }
        }
        return std::nullopt;
    };
    const auto slash = unit.find('/');
    if (slash == std::string_view::npos)
        return part(unit);
    auto numerator = part(unit.substr(0, slash));
    auto denominator = part(unit.substr(slash + 1));
    if (!numerator || !denominator)
        return std::nullopt;
    return *numerator / *denominator;
}

} // namespace ridgepoint
