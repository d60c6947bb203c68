#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace rematlens {

// Numbers packed into the byte strings that cross MPI ranks (every rank is the same build on
// the same kind of machine, so native byte order is fine).
inline void putNumber(std::string &bytes, std::uint64_t value)
{
    char raw[sizeof value];
    std::memcpy(raw, &value, sizeof value);
    bytes.append(raw, sizeof value);
}

// Reads the number at offset and moves past it; 0 past the end.
inline std::uint64_t getNumber(const std::string &bytes, std::size_t &offset)
{
    std::uint64_t value = 0;
    if (offset + sizeof value <= bytes.size())
        std::memcpy(&value, bytes.data() + offset, sizeof value);
    offset += sizeof value;
    return value;
}

} // namespace rematlens
