#include "layout_check.h"

#include <algorithm>

namespace rematlens {

namespace {

std::string at(Bytes address) { return " at address " + std::to_string(address); }

// Checks one segment's blocks; adds its allocated bytes.
std::string segmentProblem(const SegmentView &segment, Bytes &allocated)
{
    Bytes cursor = segment.base;
    const BlockView *previous = nullptr;
    for (const BlockView &block : segment.blocks) {
        if (block.size <= 0)
            return "empty block" + at(block.address);
        if (block.address != cursor)
            return "blocks leave a gap or overlap" + at(cursor);
        if (previous && previous->state == block.state && block.state != BlockView::State::Allocated)
            return "two neighbouring free blocks were not coalesced" + at(block.address);
        if (block.state == BlockView::State::Allocated)
            allocated += block.size;
        cursor += block.size;
        previous = &block;
    }
    if (cursor != segment.base + segment.size)
        return "blocks do not cover the segment" + at(segment.base);
    return {};
}

} // namespace

std::string allocatorProblem(const Allocator &allocator)
{
    std::vector<SegmentView> segments = allocator.layout();
    std::sort(segments.begin(), segments.end(),
              [](const SegmentView &a, const SegmentView &b) { return a.base < b.base; });
    Bytes allocated = 0;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        if (i > 0 && segments[i - 1].base + segments[i - 1].size > segments[i].base)
            return "segments overlap" + at(segments[i].base);
        if (std::string problem = segmentProblem(segments[i], allocated); !problem.empty())
            return problem;
    }
    if (!segments.empty() && allocated != allocator.allocated())
        return "allocated blocks add up to " + std::to_string(allocated) + " bytes, the count says "
               + std::to_string(allocator.allocated());
    if (allocator.allocated() > allocator.reserved())
        return "allocated " + std::to_string(allocator.allocated()) + " exceeds reserved "
               + std::to_string(allocator.reserved());
    if (allocator.reserved() > allocator.capacity())
        return "reserved " + std::to_string(allocator.reserved()) + " exceeds the capacity "
               + std::to_string(allocator.capacity());
    if (allocator.peakAllocated() > allocator.peakReserved())
        return "peak allocated exceeds peak reserved";
    return allocator.bookkeepingProblem();
}

} // namespace rematlens
