// Checked 64-bit arithmetic for every count a user gives (sweep values, token counts, matrix
// dimensions, batch sizes): an overflow is a refusal with a message, never undefined
// behaviour. Derived FLOP and byte counts are computed in double and bounded by
// core/model/value_ranges.h.
#pragma once

#include <cstdint>
#include <optional>

namespace ridgepoint {

inline std::optional<std::int64_t> checkedAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        return std::nullopt;
    return sum;
}

inline std::optional<std::int64_t> checkedMul(std::int64_t a, std::int64_t b)
{
    std::int64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product))
        return std::nullopt;
    return product;
}

// A whole number held in a double as an int64, or nullopt when it does not fit (2^63 and
// above: "9223372036854775807" read as a double is 2^63) or is NaN. The cast is then defined.
inline std::optional<std::int64_t> toCount(double value)
{
    constexpr double kLimit = 9223372036854775808.0; // 2^63
    if (!(value > -kLimit && value < kLimit))
        return std::nullopt;
    return static_cast<std::int64_t>(value);
}

} // namespace ridgepoint
