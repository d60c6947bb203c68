#pragma once

#include <cstdint>

namespace rematlens {

__extension__ typedef unsigned __int128 uint128; // NOLINT: exact products of two 64-bit values

// The double nearest to numerator / denominator (ties to even), computed from the exact
// integers the way Python's int / int does. A zero denominator gives +infinity.
double exactRatio(std::uint64_t numerator, uint128 denominator);

// numerator / (a * b) with the product taken exactly.
inline double exactRatio(std::uint64_t numerator, std::uint64_t a, std::uint64_t b)
{
    return exactRatio(numerator, static_cast<uint128>(a) * b);
}

// Python's `value > limit` for an int and a float: exact, with no rounding of value.
bool exceedsExactly(std::int64_t value, double limit);

} // namespace rematlens
