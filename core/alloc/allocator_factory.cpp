#include "allocator_factory.h"

#include "best_fit_allocator.h"
#include "caching_allocator.h"
#include "sum_allocator.h"

namespace rematlens {

std::unique_ptr<Allocator> makeAllocator(const AllocatorConfig &config, Bytes capacity)
{
    switch (config.kind) {
    case AllocatorKind::Sum: return std::make_unique<SumAllocator>(capacity);
    case AllocatorKind::Caching: return std::make_unique<CachingAllocator>(capacity, config.caching);
    case AllocatorKind::BestFit: return std::make_unique<BestFitAllocator>(capacity);
    }
    return std::make_unique<SumAllocator>(capacity);
}

} // namespace rematlens
