#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace rematlens {

// The set bits of a word. std::popcount is a library call on the baseline x86-64 target (no
// POPCNT instruction); this is a few inline instructions.
inline std::size_t countBits(std::uint64_t w)
{
    w = w - ((w >> 1) & 0x5555555555555555u);
    w = (w & 0x3333333333333333u) + ((w >> 2) & 0x3333333333333333u);
    w = (w + (w >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
    return static_cast<std::size_t>((w * 0x0101010101010101u) >> 56);
}

// The position of w's set bit with `index` set bits below it (index < countBits(w)): the byte
// that holds it from the bytes' running counts, then at most seven bits dropped in that byte.
inline unsigned selectBit(std::uint64_t w, std::size_t index)
{
    std::uint64_t b = w - ((w >> 1) & 0x5555555555555555u);
    b = (b & 0x3333333333333333u) + ((b >> 2) & 0x3333333333333333u);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
    const std::uint64_t upTo = b * 0x0101010101010101u; // byte k: the set bits of bytes 0..k
    unsigned byte = 0;
    while (((upTo >> (8 * byte)) & 0xFF) <= index)
        ++byte;
    if (byte > 0)
        index -= (upTo >> (8 * (byte - 1))) & 0xFF;
    std::uint64_t bits = (w >> (8 * byte)) & 0xFF;
    for (; index > 0; --index)
        bits &= bits - 1;
    return 8 * byte + static_cast<unsigned>(std::countr_zero(bits));
}

} // namespace rematlens
