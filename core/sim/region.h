#pragma once

#include "../trace/program.h"
#include "storage_bitmap.h"

namespace rematlens {

// The evicted storages reachable from a material storage in one direction through evicted
// storages only (interior, with its summed compute), and the material storages where that
// search stops (frontier). Both are sets of storage ids (StorageBitmap); neither order means
// anything, as every reader treats them as sets and costs are summed as integers.
class Region {
public:
    using Word = StorageBitmap::Word;

    Cost compute = 0;

    // Storages in the interior.
    std::size_t size() const { return m_interior.size(); }
    template <typename Visit>
    void forEachMember(Visit &&visit) const
    {
        m_interior.forEach(visit);
    }
    template <typename Visit>
    void forEachFrontier(Visit &&visit) const
    {
        m_frontier.forEach(visit);
    }

    void clear()
    {
        m_interior.clear();
        m_frontier.clear();
        compute = 0;
    }

    // The sets to fill after clear(), with room for ids below storageCount (compute is the
    // caller's to set).
    StorageBitmap &interiorFor(std::size_t storageCount)
    {
        m_interior.reserve(storageCount);
        return m_interior;
    }
    StorageBitmap &frontierFor(std::size_t storageCount)
    {
        m_frontier.reserve(storageCount);
        return m_frontier;
    }

    // Becomes a copy of other, with room for the storages below storageCount (to be changed
    // next), in this region's own buffers where they are large enough.
    void assignWithRoom(const Region &other, std::size_t storageCount)
    {
        m_interior.assignWithRoom(other.m_interior, storageCount);
        m_frontier.assignWithRoom(other.m_frontier, storageCount);
        compute = other.compute;
    }

    // Takes in the evicted storage s, whose same-direction region is `theirs`: s leaves the
    // frontier, its frontier joins ours, and s plus its interior join our interior. Totals use
    // the storages' compute as it is now, and s is counted even were it already inside: simrd
    // does both.
    template <typename ComputeOf>
    void absorb(StorageId s, const Region &theirs, ComputeOf &&computeOf, std::size_t storageCount)
    {
        m_frontier.reserve(storageCount);
        m_frontier.erase(s);
        m_frontier.unite(theirs.m_frontier, [](StorageId) {});
        m_interior.reserve(storageCount);
        compute += computeOf(s);
        m_interior.unite(theirs.m_interior, [&](StorageId x) { compute += computeOf(x); });
        m_interior.insert(s);
    }

    bool sameAs(const Region &other) const
    {
        return compute == other.compute && m_interior.sameSet(other.m_interior) && m_frontier.sameSet(other.m_frontier);
    }

private:
    StorageBitmap m_interior;
    StorageBitmap m_frontier;
};

} // namespace rematlens
