#include "byte_range.h"

#include <algorithm>

namespace rematlens {

std::vector<ByteRange> uncoveredRanges(ByteRange whole, std::vector<BudgetInterval> known)
{
    std::sort(known.begin(), known.end(), [](const BudgetInterval &a, const BudgetInterval &b) { return a.lo < b.lo; });
    std::vector<ByteRange> gaps;
    Bytes next = whole.from; // everything below is covered or outside
    for (const BudgetInterval &interval : known) {
        if (next >= whole.end)
            break;
        if (interval.hi && *interval.hi <= next)
            continue;
        if (interval.lo > next)
            gaps.push_back({next, std::min(interval.lo, whole.end)});
        if (!interval.hi)
            return gaps;
        next = std::max(next, *interval.hi);
    }
    if (next < whole.end)
        gaps.push_back({next, whole.end});
    return gaps;
}

std::vector<ByteRange> splitRange(ByteRange range, std::size_t pieces)
{
    std::vector<ByteRange> chunks;
    if (range.empty())
        return chunks;
    const Bytes count = std::max<Bytes>(1, std::min<Bytes>(static_cast<Bytes>(pieces), range.size()));
    const Bytes width = range.size() / count;
    const Bytes extra = range.size() % count; // the first `extra` chunks are one byte wider
    Bytes from = range.from;
    for (Bytes k = 0; k < count; ++k) {
        const Bytes end = from + width + (k < extra ? 1 : 0);
        chunks.push_back({from, end});
        from = end;
    }
    return chunks;
}

} // namespace rematlens
