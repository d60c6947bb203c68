// The replay under an allocator model: outputs get blocks from the allocator instead of
// counting against the budget, and eviction couples to it on failure or after each operator.
// None of this runs under the byte sum.
#include "replay.h"

#include "../alloc/layout_check.h"

#include <algorithm>
#include <unordered_map>

namespace rematlens {

// Every output that owns a storage gets a block, in output index order (the order a kernel
// allocates them in). Aliases and empty outputs hold none.
void Replay::placeOutputs(TensorId t)
{
    const OpInfo &op = m_program.ops[m_program.tensors[t].op];
    m_placed.clear();
    for (TensorId u = op.firstOutput; u < op.firstOutput + op.outputCount; ++u) {
        const TensorInfo &output = m_program.tensors[u];
        if (!output.isAlias && output.size > 0)
            m_placed.push_back(placeBlock(t, output.size));
    }
}

// On failure the allocator has already released its cache and retried; then the policy's choice
// is evicted and the request retried, until it fits or nothing is left to evict. After-op
// coupling never evicts here: a request the device cannot hold fails the run.
BlockHandle Replay::placeBlock(TensorId t, Bytes size)
{
    for (;;) {
        if (const std::optional<BlockHandle> block = m_allocator->allocate(size))
            return *block;
        const Bytes rounded = m_allocator->roundedSize(size);
        const Bytes over = m_allocator->allocated() + rounded - m_allocator->capacity();
        if (m_config.allocator.eviction == EvictionCoupling::AfterOp || m_pool.empty())
            stopAllocatorOutOfMemory(t, size, over > 0 ? OomKind::Capacity : OomKind::Fragmentation);
        // The shortfall the policy sees: the bytes over the capacity, or, when the request fits
        // in the capacity but not in any free block, the request itself.
        evict(chooseVictim(over > 0 ? over : rounded), EvictCause::Policy);
    }
}

// Siblings already defined are computed twice; their new copy is dropped at once.
void Replay::bindPlacedBlocks(const OpInfo &op)
{
    std::size_t next = 0;
    for (TensorId u = op.firstOutput; u < op.firstOutput + op.outputCount; ++u) {
        const TensorInfo &output = m_program.tensors[u];
        if (output.isAlias || output.size == 0)
            continue;
        const BlockHandle block = m_placed[next++];
        if (m_defined[u])
            m_allocator->free(block);
        else
            m_blockOf[output.storage] = block;
    }
}

// DTR's prototype: after an operator, evict while allocated bytes exceed the budget. The tensor
// just made stays: the operator that asked for it is about to read it. The budget is soft, as
// there: with nothing left to evict the run goes on over it (only the device can stop it).
void Replay::evictWhileOverBudget(TensorId t)
{
    if (m_config.allocator.eviction == EvictionCoupling::AfterOp && m_allocator->allocated() > m_config.budget) {
        const StorageId made = m_program.storageOf(t);
        lock(made);
        while (m_allocator->allocated() > m_config.budget && !m_pool.empty()) {
            evict(chooseVictim(m_allocator->allocated() - m_config.budget), EvictCause::Policy);
        }
        unlock(made);
    }
    validateAllocator();
}

void Replay::stopAllocatorOutOfMemory(TensorId t, Bytes request, OomKind kind)
{
    Failure failure = failureAt(t);
    failure.bytesShort =
        std::max<Bytes>(0, m_allocator->allocated() + m_allocator->roundedSize(request) - m_allocator->capacity());
    failure.oomKind = kind;
    failure.request = request;
    failure.largestFreeBlock = m_allocator->largestFreeBlock();
    if (m_config.snapshot && !m_config.snapshot->taken)
        takeSnapshot(&failure);
    stopWith(std::move(failure));
}

void Replay::validateAllocator()
{
    const std::size_t every = m_config.allocator.validateEvery;
    if (every == 0 || ++m_untilValidation < every)
        return;
    m_untilValidation = 0;
    if (m_layoutProblem.empty())
        m_layoutProblem = allocatorProblem(*m_allocator);
}

// One replay under an allocator stands for its own budget only: the interval reasoning holds
// for comparisons of a byte sum with the budget, which this replay does not make.
void Replay::summarizeAllocation()
{
    if (m_config.recording)
        foldLastAllocationSample();
    if (m_config.allocator.validateEvery && m_layoutProblem.empty())
        m_layoutProblem = allocatorProblem(*m_allocator);
    m_result.allocation = AllocationSummary{m_allocator->peakReserved(), m_allocator->peakAllocated(),
                                            m_allocator->cacheFlushes(), m_layoutProblem};
    m_result.interval.lo = m_config.budget;
    m_result.interval.hi = m_config.budget < std::numeric_limits<Bytes>::max()
                               ? std::optional<Bytes>(m_config.budget + 1)
                               : std::nullopt;
}

// The highest reserved and allocated bytes since the last sample, then a new window.
void Replay::sampleAllocation()
{
    m_config.recording->allocation.push_back(
        AllocationSample{m_allocator->windowPeakReserved(), m_allocator->windowPeakAllocated()});
    m_allocator->restartWindow();
    m_allocatorChangesAtSample = m_allocator->changes();
}

// What happened after the last sample (a failing request's new segment, say) still counts
// toward the series' maxima, which then equal the run's peaks.
void Replay::foldLastAllocationSample()
{
    std::vector<AllocationSample> &samples = m_config.recording->allocation;
    if (samples.empty())
        return;
    samples.back().reserved = std::max(samples.back().reserved, m_allocator->windowPeakReserved());
    samples.back().allocated = std::max(samples.back().allocated, m_allocator->windowPeakAllocated());
}

// The layout with each allocated block's tensor: a storage's root, or for a block placed for
// the operator being computed, its output.
void Replay::takeSnapshot(const Failure *failure)
{
    MemorySnapshot &snapshot = *m_config.snapshot;
    std::unordered_map<BlockHandle, TensorId> owners;
    for (StorageId s = 0; s < m_blockOf.size(); ++s)
        if (m_blockOf[s] != kNone)
            owners.emplace(m_blockOf[s], m_program.storages[s].root);
    snapshot.segments.clear();
    for (const SegmentView &segment : m_allocator->layout()) {
        SnapshotSegment out{segment.base, segment.size, {}};
        out.blocks.reserve(segment.blocks.size());
        for (const BlockView &b : segment.blocks) {
            const auto owner = owners.find(b.handle);
            out.blocks.push_back(SnapshotBlock{b.address, b.size, b.state, owner != owners.end() ? owner->second : kNone});
        }
        snapshot.segments.push_back(std::move(out));
    }
    snapshot.step = failure ? failure->step : m_step;
    snapshot.taken = true;
    snapshot.atFailure = failure != nullptr;
    snapshot.reserved = m_allocator->reserved();
    snapshot.allocated = m_allocator->allocated();
    snapshot.capacity = m_allocator->capacity();
    snapshot.largestFreeBlock = m_allocator->largestFreeBlock();
    if (failure)
        snapshot.failure = *failure;
}

} // namespace rematlens
