#include "core/io/formats/csv_columns.h"

#include "core/io/text.h"
#include "core/model/units.h"

#include <algorithm>
#include <array>
#include <initializer_list>

namespace ridgepoint::csv {
namespace {

bool oneOf(const std::string &text, std::initializer_list<std::string_view> words)
{
    return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return text == w; });
}

std::optional<double> timeUnitScale(const std::string &unit)
{
    if (unit == "s" || unit == "sec" || unit == "seconds")
        return 1.0;
    if (unit == "ms" || unit == "msec")
        return 1e-3;
    if (unit == "us" || unit == "usec" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs")
        return 1e-6;
    if (unit == "ns" || unit == "nsec")
        return 1e-9;
    return std::nullopt;
}

// A header cell's words: lower case, blanks and dashes as '_', without its unit; the unit in
// brackets ("time [us]", "flops (GFLOP)") lower case and as written (case matters for FLOP,
// byte and rate units: MB, Mb, mB).
struct HeaderWords {
    std::string text;
    std::string unit;
    std::string unitAsWritten;
};

HeaderWords wordsOf(const std::string &header)
{
    HeaderWords words { asciiLower(header), {}, {} };
    std::string original = header;
    for (auto [open, close] : { std::pair { '[', ']' }, std::pair { '(', ')' } }) {
        const auto a = words.text.find(open);
        const auto b = words.text.find(close, a == std::string::npos ? 0 : a);
        if (a != std::string::npos && b != std::string::npos && b > a) {
            // Lower-casing keeps byte offsets (ASCII only), so the positions hold in both.
            words.unit = std::string(trim(std::string_view(words.text).substr(a + 1, b - a - 1)));
            words.unitAsWritten
                = std::string(trim(std::string_view(original).substr(a + 1, b - a - 1)));
            words.text = std::string(trim(std::string_view(words.text).substr(0, a)));
            original.resize(a);
        }
    }
    std::replace(words.text.begin(), words.text.end(), ' ', '_');
    std::replace(words.text.begin(), words.text.end(), '-', '_');
    return words;
}

// The column in `role`, scaled by its unit in brackets when there is one; a unit of the wrong
// dimension leaves it Ignored.
Column withUnit(Column column, Role role, const HeaderWords &words, Dimension dimension)
{
    column.role = role;
    if (!words.unit.empty()) {
        auto scale = parseQuantity("1 " + words.unitAsWritten, dimension);
        column.role = scale ? role : Role::Ignored;
        column.scale = scale.value_or(1.0);
    }
    return column;
}

// Bytes: "bytes", per level ("bytes_l2", "hbm_bytes"), or main memory under another name
// ("theoretical_bytes", "total_bytes", "bytes_moved", "data [Bytes]").
std::optional<Column> bytesColumn(Column column, const HeaderWords &words)
{
    static constexpr std::array<std::string_view, 10> kMainMemoryWords { "theoretical", "total",
        "moved", "data", "memory", "mem", "transferred", "accessed", "traffic", "io" };
    const std::string &text = words.text;
    const bool whole = text == "bytes" || text == "byte"
        || ((text == "data" || text == "traffic") && !words.unit.empty());
    if (!whole && !text.starts_with("bytes_") && !text.ends_with("_bytes"))
        return std::nullopt;
    const std::string level = whole  ? std::string()
        : text.starts_with("bytes_") ? text.substr(6)
                                     : text.substr(0, text.size() - 6);
    if (!level.empty()
        && std::find(kMainMemoryWords.begin(), kMainMemoryWords.end(), level)
            == kMainMemoryWords.end()) {
        column.level = memoryLevelFromName(level);
        if (!column.level)
            return column; // stays Ignored; reported with the other ignored columns
    }
    return withUnit(std::move(column), Role::Bytes, words, Dimension::Bytes);
}

// Times: a word and a unit, as a suffix ("mean_ms") or in brackets ("time [us]"). The mean (or
// plain time) is the point's time; median, min, max and the standard deviation are the spread
// of repeated runs (the median stands in when there is no other time).
std::optional<Role> timeRole(std::string_view word, bool hasUnit)
{
    static constexpr std::array<std::string_view, 11> kTimeWords { "seconds", "time", "runtime",
        "duration", "elapsed", "mean", "avg", "average", "t", "mean_time", "avg_time" };
    struct StatWord {
        std::string_view word;
        Role role;
    };
    static constexpr std::array<StatWord, 10> kStatWords { { { "median", Role::TimeMedian },
        { "median_time", Role::TimeMedian }, { "min", Role::TimeMin },
        { "min_time", Role::TimeMin }, { "max", Role::TimeMax }, { "max_time", Role::TimeMax },
        { "stddev", Role::TimeStddev }, { "std", Role::TimeStddev }, { "stdev", Role::TimeStddev },
        { "sd", Role::TimeStddev } } };
    if (std::find(kTimeWords.begin(), kTimeWords.end(), word) != kTimeWords.end())
        return Role::Time;
    for (const auto &stat : kStatWords) {
        // min/max/std alone are too common to be taken for times without a time unit.
        if (stat.word == word && (hasUnit || stat.role == Role::TimeMedian))
            return stat.role;
    }
    return std::nullopt;
}

std::optional<Column> timeColumn(Column column, const HeaderWords &words)
{
    const std::string &text = words.text;
    if (auto role = timeRole(text, !words.unit.empty())) {
        column.role = *role;
        if (!words.unit.empty()) {
            auto scale = timeUnitScale(words.unit);
            column.role = scale ? *role : Role::Ignored;
            column.scale = scale.value_or(1.0);
        }
        return column;
    }
    if (const auto underscore = text.rfind('_'); underscore != std::string::npos) {
        if (auto scale = timeUnitScale(text.substr(underscore + 1))) {
            if (auto role = timeRole(text.substr(0, underscore), true)) {
                column.role = *role;
                column.scale = *scale;
                return column;
            }
        }
    }
    return std::nullopt;
}

// A measured rate ("gflops", "performance"), or a bare unit as the header ("[GOP/s]",
// thoasm/roofline-benchmark) when the unit is a rate.
Column rateColumn(Column column, const HeaderWords &words)
{
    struct RateName {
        std::string_view name;
        double scale;
    };
    static constexpr std::array<RateName, 16> kRates { { { "performance", 1.0 }, { "perf", 1.0 },
        { "flop/s", 1.0 }, { "flops_per_second", 1.0 }, { "achieved_flops", 1.0 },
        { "mflops", 1e6 }, { "mflop/s", 1e6 }, { "gflops", 1e9 }, { "gflop/s", 1e9 },
        { "gflop_s", 1e9 }, { "achieved_gflops", 1e9 }, { "gflops_per_second", 1e9 },
        { "tflops", 1e12 }, { "tflop/s", 1e12 }, { "achieved_tflops", 1e12 },
        { "tflop_s", 1e12 } } };
    if (words.text.empty() && !words.unit.empty()) {
        if (auto scale = parseQuantity("1 " + words.unitAsWritten, Dimension::FlopRate)) {
            column.role = Role::Rate;
            column.scale = *scale;
        }
        return column;
    }
    for (const auto &rate : kRates) {
        if (words.text == rate.name) {
            column.scale = rate.scale;
            return withUnit(std::move(column), Role::Rate, words, Dimension::FlopRate);
        }
    }
    return column;
}

} // namespace

Column classify(std::string_view rawHeader)
{
    Column column;
    column.header = std::string(trim(rawHeader));
    const HeaderWords words = wordsOf(column.header);
    const std::string &text = words.text;
    if (oneOf(text, { "name", "label", "kernel", "kernel_name", "function", "operation" })) {
        column.role = Role::Name;
        return column;
    }
    if (oneOf(text, { "precision", "dtype", "data_type" })) {
        column.role = Role::Precision;
        return column;
    }
    if (oneOf(text, { "group", "series", "category" })) {
        column.role = Role::Group;
        return column;
    }
    // "computations" and "operations": thoasm/roofline-benchmark's count of operations.
    if (oneOf(text,
            { "flops", "flop", "flop_count", "total_flops", "ops", "work", "computations",
                "operations" }))
        return withUnit(std::move(column), Role::Flops, words, Dimension::Flops);
    if (auto bytes = bytesColumn(column, words))
        return *bytes;
    if (oneOf(text,
            { "ai", "intensity", "arithmetic_intensity", "flop_per_byte", "flops_per_byte",
                "flop/byte", "flop/b", "flops/byte", "operational_intensity", "oi" })) {
        column.role = Role::Intensity;
        return column;
    }
    if (auto time = timeColumn(column, words))
        return *time;
    return rateColumn(std::move(column), words);
}

std::string_view roleName(Role role)
{
    switch (role) {
    case Role::Name:
        return "name";
    case Role::Flops:
        return "flops";
    case Role::Bytes:
        return "bytes";
    case Role::Time:
        return "seconds";
    case Role::Rate:
        return "performance";
    case Role::Intensity:
        return "intensity";
    case Role::TimeMin:
        return "minimum time";
    case Role::TimeMedian:
        return "median time";
    case Role::TimeMax:
        return "maximum time";
    case Role::TimeStddev:
        return "time standard deviation";
    case Role::Precision:
        return "precision";
    case Role::Group:
        return "group";
    case Role::Ignored:
        break;
    }
    return "ignored";
}

std::optional<Precision> precisionOfCell(std::string_view cell)
{
    const std::string text = asciiLower(trim(cell));
    if (text == "double")
        return Precision::FP64;
    if (text == "float" || text == "single")
        return Precision::FP32;
    if (text == "half")
        return Precision::FP16;
    return precisionFromName(cell);
}

} // namespace ridgepoint::csv
