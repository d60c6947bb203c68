#pragma once

#include "../sim/budget_interval.h"

#include <vector>

namespace rematlens {

// Budgets from `from` up to, not including, `end`.
struct ByteRange {
    Bytes from = 0;
    Bytes end = 0;

    Bytes size() const { return end > from ? end - from : 0; }
    bool empty() const { return end <= from; }
    bool operator==(const ByteRange &) const = default;
};

// The parts of `whole` that no interval covers, in increasing order: what a resumed map still
// has to walk.
std::vector<ByteRange> uncoveredRanges(ByteRange whole, std::vector<BudgetInterval> known);

// `range` cut into about `pieces` consecutive chunks that meet exactly (none empty).
std::vector<ByteRange> splitRange(ByteRange range, std::size_t pieces);

} // namespace rematlens
