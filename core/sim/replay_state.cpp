#include "replay.h"

// A replay's state as a whole: its position, equality with another replay's, and the stretches
// its result is folded from (used to continue one replay where another left off).

namespace rematlens {

ReplayPosition Replay::position() const
{
    if (!m_hashing)
        startHashing();
    return ReplayPosition{m_step, m_clock, m_result.rematCompute, m_memory, m_frames.size(), m_materialHash};
}

void Replay::catchUpRegions()
{
    if (m_regions)
        m_regions->catchUp(m_graph.created());
}

// Scratch (search marks, scratch regions, the last computation's lists, the compiled
// expression) and what only reports (counts, the interval, the flip) are left out; so are the
// stamps searches leave in the flags. Regions are compared where they are read: those of
// material storages (an evicted storage's are rebuilt when it is computed again).
bool Replay::sameState(const Replay &other)
{
    if (&m_program != &other.m_program || position() != other.position() || m_lockedBytes != other.m_lockedBytes ||
        m_result.modelCompute != other.m_result.modelCompute || m_result.constMemory != other.m_result.constMemory ||
        m_flipAwaitsVictim || other.m_flipAwaitsVictim || !sameAllocation(other))
        return false;
    if (m_frames != other.m_frames || m_pending != other.m_pending || !m_flags.sameFlags(other.m_flags) ||
        m_locks != other.m_locks || m_externalRefs != other.m_externalRefs || m_lastAccess != other.m_lastAccess ||
        m_compute != other.m_compute || m_defined != other.m_defined || m_kept != other.m_kept)
        return false;
    if (!m_eq.sameClasses(m_eqNode, other.m_eq, other.m_eqNode, kNone) ||
        m_evictedDependents != other.m_evictedDependents || m_random != other.m_random ||
        !m_pool.sameOrder(other.m_pool) || !m_graph.sameEdges(other.m_graph))
        return false;
    if (m_regions.has_value() != other.m_regions.has_value())
        return false;
    if (!m_regions)
        return true;
    if (!other.m_regions->caughtUp())
        return false;
    catchUpRegions();
    for (StorageId s = 0; s < m_program.storages.size(); ++s)
        if (material(s) && !m_regions->sameRegions(s, *other.m_regions))
            return false;
    return true;
}

// The allocators decide alike, and each storage's block lies at the same place in them.
bool Replay::sameAllocation(const Replay &other) const
{
    if (!m_allocator || !other.m_allocator)
        return !m_allocator && !other.m_allocator;
    if (!m_allocator->sameState(*other.m_allocator))
        return false;
    for (StorageId s = 0; s < m_blockOf.size(); ++s)
        if ((m_blockOf[s] == kNone) != (other.m_blockOf[s] == kNone) ||
            (m_blockOf[s] != kNone &&
             !(m_allocator->placeOf(m_blockOf[s]) == other.m_allocator->placeOf(other.m_blockOf[s]))))
            return false;
    return true;
}

ReplaySegment Replay::takeSegment()
{
    ReplaySegment segment;
    segment.evictions = m_result.evictions - m_segmentBase.evictions;
    segment.releasedEvictions = m_result.releasedEvictions - m_segmentBase.releasedEvictions;
    segment.remats = m_result.remats - m_segmentBase.remats;
    segment.heuristicEvals = m_result.heuristicEvals - m_segmentBase.heuristicEvals;
    segment.maxMemory = m_result.maxMemory;
    segment.bottleneck = m_result.bottleneck;
    segment.largestFitted = m_largestFitted;
    segment.smallestOver = m_smallestOver;
    if (m_smallestOver != std::numeric_limits<Bytes>::max()) {
        segment.flip = m_flip;
        segment.flip->rematsBefore -= m_segmentBase.remats;
        segment.flip->runEvictionsBefore -= m_segmentBase.evictions;
    }
    if (m_allocator) {
        segment.peakReserved = m_allocator->stretchPeakReserved();
        segment.peakAllocated = m_allocator->stretchPeakAllocated();
        segment.cacheFlushes = m_allocator->cacheFlushes() - m_segmentBase.cacheFlushes;
        m_segmentBase.cacheFlushes = m_allocator->cacheFlushes();
        m_allocator->restartStretch();
    }
    m_segmentBase.evictions = m_result.evictions;
    m_segmentBase.releasedEvictions = m_result.releasedEvictions;
    m_segmentBase.remats = m_result.remats;
    m_segmentBase.heuristicEvals = m_result.heuristicEvals;
    m_result.maxMemory = m_memory;
    m_result.bottleneck = 0;
    m_largestFitted = 0;
    m_smallestOver = std::numeric_limits<Bytes>::max();
    m_flip = FlippingComparison{};
    return segment;
}

std::unique_ptr<Replay> Replay::branchKeeping(TensorId t) const
{
    auto branch = std::make_unique<Replay>(*this);
    const StorageId s = m_program.storageOf(t);
    branch->m_config.keepResident.push_back(t);
    if (branch->m_kept.empty())
        branch->m_kept.assign(m_program.storages.size(), 0);
    branch->m_kept[s] = 1;
    branch->m_pool.remove(s);
    branch->m_result.heuristicEvals -= m_scoreTally[s];
    return branch;
}

} // namespace rematlens
