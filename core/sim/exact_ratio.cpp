#include "exact_ratio.h"

#include <cmath>
#include <limits>

namespace rematlens {

namespace {

constexpr std::uint64_t kExactInDouble = std::uint64_t{1} << 53;

int bitLength(uint128 v)
{
    const auto high = static_cast<std::uint64_t>(v >> 64);
    if (high != 0)
        return 128 - __builtin_clzll(high);
    const auto low = static_cast<std::uint64_t>(v);
    return low == 0 ? 0 : 64 - __builtin_clzll(low);
}

// Rounds q * 2^exponent to a double, where q has at least 55 significant bits and its lowest
// bit already carries the sticky information of any discarded remainder.
double roundScaled(uint128 q, int exponent)
{
    const int extra = bitLength(q) - 64;
    if (extra > 0) { // fold the low bits into the sticky bit so the conversion rounds only once
        const bool sticky = (q & ((uint128{1} << extra) - 1)) != 0;
        q >>= extra;
        q |= sticky ? 1u : 0u;
        exponent += extra;
    }
    // A 64-bit integer converts to double with one correct rounding (to nearest, ties to even).
    return std::ldexp(static_cast<double>(static_cast<std::uint64_t>(q)), exponent);
}

} // namespace

double exactRatio(std::uint64_t numerator, uint128 denominator)
{
    if (denominator == 0)
        return std::numeric_limits<double>::infinity();
    if (numerator == 0)
        return 0.0;
    if (numerator <= kExactInDouble && denominator <= kExactInDouble) // both exact: IEEE division rounds once
        return static_cast<double>(numerator) / static_cast<double>(static_cast<std::uint64_t>(denominator));

    // Scale the numerator to 127 bits, divide, and extend the quotient bit by bit until it has
    // the 55 bits that correct rounding needs; the remainder becomes a sticky bit.
    // Requires denominator < 2^127 (sizes and staleness below 2^63 each guarantee it).
    const int shift = 127 - bitLength(numerator);
    const uint128 scaled = static_cast<uint128>(numerator) << shift;
    uint128 quotient = scaled / denominator;
    uint128 remainder = scaled % denominator;
    int exponent = -shift;
    while (bitLength(quotient) < 55) {
        remainder <<= 1;
        quotient <<= 1;
        --exponent;
        if (remainder >= denominator) {
            remainder -= denominator;
            quotient |= 1u;
        }
    }
    if (remainder != 0)
        quotient |= 1u;
    return roundScaled(quotient, exponent);
}

bool exceedsExactly(std::int64_t value, double limit)
{
    if (std::isnan(limit))
        return false;
    // long double holds every int64 and every double exactly on x86-64, so the comparison is exact.
    return static_cast<long double>(value) > static_cast<long double>(limit);
}

} // namespace rematlens
