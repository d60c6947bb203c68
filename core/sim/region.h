#pragma once

#include "../trace/program.h"

#include <algorithm>
#include <vector>

namespace rematlens {

// The evicted storages reachable from a material storage in one direction through evicted
// storages only (interior, with its summed compute), and the material storages where that
// search stops (frontier). Both sets are kept sorted.
struct Region {
    std::vector<StorageId> interior;
    std::vector<StorageId> frontier;
    Cost compute = 0;

    void clear()
    {
        interior.clear();
        frontier.clear();
        compute = 0;
    }

    // Takes in the evicted storage s, whose same-direction region is `theirs`: s leaves the
    // frontier, its frontier joins ours, and s plus its interior join our interior. Totals use
    // the storages' compute as it is now, as simrd does.
    template <typename ComputeOf>
    void absorb(StorageId s, const Region &theirs, ComputeOf &&computeOf);

    static void insertSorted(std::vector<StorageId> &set, StorageId s);
    static void eraseSorted(std::vector<StorageId> &set, StorageId s);
    static void unite(std::vector<StorageId> &set, const std::vector<StorageId> &other);
};

template <typename ComputeOf>
void Region::absorb(StorageId s, const Region &theirs, ComputeOf &&computeOf)
{
    eraseSorted(frontier, s);
    unite(frontier, theirs.frontier);
    // s itself is always counted, as in simrd, even were it already inside.
    compute += computeOf(s);
    std::vector<StorageId> added;
    added.reserve(theirs.interior.size());
    auto mine = interior.begin();
    for (StorageId x : theirs.interior) {
        while (mine != interior.end() && *mine < x)
            ++mine;
        if (mine == interior.end() || *mine != x) {
            added.push_back(x);
            compute += computeOf(x);
        }
    }
    added.push_back(s);
    std::sort(added.begin(), added.end());
    unite(interior, added);
}

} // namespace rematlens
