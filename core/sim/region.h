#pragma once

#include "../trace/program.h"
#include "stamp_set.h"

#include <algorithm>
#include <vector>

namespace rematlens {

// The evicted storages reachable from a material storage in one direction through evicted
// storages only (interior, with its summed compute), and the material storages where that
// search stops (frontier). Both are sets kept as unordered lists.
struct Region {
    std::vector<StorageId> interior;
    std::vector<StorageId> frontier;
    Cost compute = 0;

    void clear()
    {
        interior.clear();
        frontier.clear();
        compute = 0;
        m_membersValid = false;
    }

    // Takes in the evicted storage s, whose same-direction region is `theirs`: s leaves the
    // frontier, its frontier joins ours, and s plus its interior join our interior. Totals use
    // the storages' compute as it is now, and s is counted even were it already inside: simrd
    // does both. storageCount sizes the membership bitmap, built on the first absorb after a
    // rebuild so that the cost follows the absorbed region, not ours.
    template <typename ComputeOf>
    void absorb(StorageId s, const Region &theirs, ComputeOf &&computeOf, StampSet &marks, std::size_t storageCount)
    {
        absorbFrontier(s, theirs, marks);
        validateMembers(storageCount);
        compute += computeOf(s);
        for (StorageId x : theirs.interior)
            if (addMember(x))
                compute += computeOf(x);
        addMember(s);
    }

    // Takes the interior's membership bitmap from a search that built one anyway.
    void adoptMembers(const std::vector<std::uint64_t> &bitmap)
    {
        m_members = bitmap;
        m_membersValid = true;
    }

private:
    void absorbFrontier(StorageId s, const Region &theirs, StampSet &marks)
    {
        for (std::size_t i = 0; i < frontier.size(); ++i)
            if (frontier[i] == s) {
                frontier[i] = frontier.back();
                frontier.pop_back();
                break;
            }
        if (theirs.frontier.empty())
            return;
        marks.clear();
        for (StorageId x : frontier)
            marks.insert(x);
        for (StorageId x : theirs.frontier)
            if (marks.insert(x))
                frontier.push_back(x);
    }

    void validateMembers(std::size_t storageCount)
    {
        if (m_membersValid)
            return;
        m_members.assign((storageCount + 63) / 64, 0);
        for (StorageId x : interior)
            m_members[x / 64] |= std::uint64_t{1} << (x % 64);
        m_membersValid = true;
    }

    // Adds x to the interior; false when it was there already.
    bool addMember(StorageId x)
    {
        std::uint64_t &word = m_members[x / 64];
        const std::uint64_t bit = std::uint64_t{1} << (x % 64);
        if (word & bit)
            return false;
        word |= bit;
        interior.push_back(x);
        return true;
    }

    std::vector<std::uint64_t> m_members; // bitmap of the interior, valid when m_membersValid
    bool m_membersValid = false;
};

} // namespace rematlens
