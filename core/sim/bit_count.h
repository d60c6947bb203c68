#pragma once

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

} // namespace rematlens
