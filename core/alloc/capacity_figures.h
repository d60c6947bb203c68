#pragma once

#include "../trace/program.h"

#include <algorithm>
#include <optional>

namespace rematlens {

// Where the capacity is the budget, two figures of an allocator failure move with the budget
// inside the interval that fails alike: the bytes short and the largest free block. These are
// what they are made of, so either can be restated under any budget of the interval.
struct CapacityFigures {
    Bytes demand = 0;                  // allocated bytes plus the rounded request
    Bytes largestFixedFreeBlock = 0;   // the largest free block whose size does not move
    std::optional<Bytes> freeTailFrom; // where the free space up to the capacity starts
    Bytes unit = 1;                    // the model's capacity is the budget rounded down to this

    Bytes capacityUnder(Bytes budget) const { return budget / unit * unit; }
    Bytes bytesShortUnder(Bytes budget) const { return std::max<Bytes>(0, demand - capacityUnder(budget)); }
    Bytes largestFreeBlockUnder(Bytes budget) const
    {
        const Bytes tail = freeTailFrom ? std::max<Bytes>(0, capacityUnder(budget) - *freeTailFrom) : 0;
        return std::max(largestFixedFreeBlock, tail);
    }
    bool operator==(const CapacityFigures &) const = default;
};

} // namespace rematlens
