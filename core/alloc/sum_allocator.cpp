#include "sum_allocator.h"

namespace rematlens {

std::optional<BlockHandle> SumAllocator::allocate(Bytes n)
{
    if (!fitsCapacity(allocated() + n))
        return std::nullopt;
    addAllocated(n);
    addReserved(n);
    return m_sizes.add(n);
}

void SumAllocator::free(BlockHandle block)
{
    addAllocated(-m_sizes[block]);
    addReserved(-m_sizes[block]);
    m_sizes.release(block);
}

} // namespace rematlens
