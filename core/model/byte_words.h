// Tests over the eight bytes of a 64-bit word at once, for the loops that scan big texts (the
// CSV scanner, the input check, the report writers): a whole word is skipped when none of its
// bytes is one the loop stops at.
#pragma once

#include <cstdint>
#include <cstring>

namespace ridgepoint::bytewise {

inline constexpr std::uint64_t kOnes = 0x0101010101010101U;
inline constexpr std::uint64_t kHighs = 0x8080808080808080U;

// The eight bytes at `bytes`, whatever their alignment.
inline std::uint64_t load(const char *bytes)
{
    std::uint64_t word = 0;
    std::memcpy(&word, bytes, sizeof word);
    return word;
}

// `c` in each byte of a word.
constexpr std::uint64_t repeated(char c)
{
    return kOnes * static_cast<unsigned char>(c);
}

// A byte of x is below n where x - n borrows into the byte's high bit and x's own is clear: the
// result is nonzero exactly when a byte of x is below n (n <= 128), and its lowest set bit is
// the first such byte's (a borrow may flag bytes above it too).
constexpr std::uint64_t bytesBelow(std::uint64_t x, std::uint64_t n)
{
    return (x - kOnes * n) & ~x & kHighs;
}

constexpr std::uint64_t zeroBytes(std::uint64_t x)
{
    return bytesBelow(x, 1);
}

// Whether a byte of x is `c`.
constexpr bool anyEqual(std::uint64_t x, char c)
{
    return zeroBytes(x ^ repeated(c)) != 0;
}

// Whether a byte of x is not ASCII (high bit set).
constexpr bool anyHigh(std::uint64_t x)
{
    return (x & kHighs) != 0;
}

} // namespace ridgepoint::bytewise
