// The replay under an allocator model: outputs get blocks from the allocator instead of
// counting against the budget, and eviction couples to it on failure or after each operator.
// Every comparison of the budget with a fixed demand is recorded, as the byte sum's are.
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
    for (std::int64_t evicted = 0;; ++evicted) {
        const std::optional<BlockHandle> block = m_allocator->allocate(size);
        takeCapacityBounds(t, evicted);
        if (block)
            return *block;
        const Bytes demand = m_allocator->allocated() + m_allocator->roundedSize(size);
        const bool overCapacity = !m_allocator->fitsCapacity(demand);
        takeCapacityBounds(t, evicted);
        if (m_config.allocator.eviction == EvictionCoupling::AfterOp || m_pool.empty())
            stopAllocatorOutOfMemory(t, size, overCapacity ? OomKind::Capacity : OomKind::Fragmentation);
        // The shortfall the policy sees: the bytes over the capacity, or, when the request fits
        // in the capacity but not in any free block, the request itself.
        evict(chooseVictim(overCapacity ? demand - m_allocator->capacity() : m_allocator->roundedSize(size)),
              EvictCause::Policy);
    }
}

// Under on-failure coupling the capacity is the budget, so the allocator's comparisons with it
// narrow the run's interval as the byte sum's do (the first one at its hi is the flip, with no
// victim of its own: the allocator's answer decided, not an eviction). Under after-op coupling
// the capacity is the device, the same at every budget.
void Replay::takeCapacityBounds(TensorId t, std::int64_t evictionsSoFar)
{
    const Allocator::CapacityBounds bounds = m_allocator->takeCapacityBounds();
    if (m_config.allocator.eviction != EvictionCoupling::OnFailure)
        return;
    m_largestFitted = std::max(m_largestFitted, bounds.largestFitted);
    if (bounds.smallestOver < m_smallestOver) {
        m_smallestOver = bounds.smallestOver;
        m_flip = FlippingComparison{m_step,         t,     m_memory,        bounds.smallestOver - m_memory,
                                    evictionsSoFar, kNone, m_result.remats, m_result.evictions};
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
    if (m_config.allocator.eviction == EvictionCoupling::AfterOp && overBudget(m_allocator->allocated(), t, 0)) {
        const StorageId made = m_program.storageOf(t);
        lock(made);
        for (std::int64_t evicted = 1; !m_pool.empty(); ++evicted) {
            const StorageId victim = chooseVictim(m_allocator->allocated() - m_config.budget);
            if (m_flipAwaitsVictim) {
                m_flip.victim = m_program.storages[victim].root;
                m_flipAwaitsVictim = false;
            }
            evict(victim, EvictCause::Policy);
            if (!overBudget(m_allocator->allocated(), t, evicted))
                break;
        }
        unlock(made);
    }
    validateAllocator();
}

void Replay::stopAllocatorOutOfMemory(TensorId t, Bytes request, OomKind kind)
{
    Failure failure = failureAt(t);
    const Bytes demand = m_allocator->allocated() + m_allocator->roundedSize(request);
    failure.bytesShort = std::max<Bytes>(0, demand - m_allocator->capacity());
    failure.oomKind = kind;
    failure.request = request;
    failure.largestFreeBlock = m_allocator->largestFreeBlock();
    if (m_config.allocator.eviction == EvictionCoupling::OnFailure)
        failure.capacityFigures = m_allocator->capacityFigures(demand);
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

void Replay::summarizeAllocation()
{
    if (m_config.recording)
        foldLastAllocationSample();
    if (m_config.allocator.validateEvery && m_layoutProblem.empty())
        m_layoutProblem = allocatorProblem(*m_allocator);
    m_result.allocation = AllocationSummary{m_allocator->peakReserved(), m_allocator->peakAllocated(),
                                            m_allocator->cacheFlushes(), m_layoutProblem};
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
        SnapshotSegment out{segment.base, segment.size, {}, segment.pool};
        out.blocks.reserve(segment.blocks.size());
        for (const BlockView &b : segment.blocks) {
            const auto owner = owners.find(b.handle);
            out.blocks.push_back(
                SnapshotBlock{b.address, b.size, b.state, owner != owners.end() ? owner->second : kNone});
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
    if (failure) {
        snapshot.failure = *failure;
        snapshot.roundedRequest = m_allocator->roundedSize(failure->request);
        snapshot.newSegment = m_allocator->newSegmentSize(snapshot.roundedRequest);
        snapshot.requestPool = m_allocator->poolFor(snapshot.roundedRequest);
    }
}

} // namespace rematlens
