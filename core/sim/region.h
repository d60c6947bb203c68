#pragma once

#include "../trace/program.h"
#include "stamp_set.h"

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
    }

    // Takes in the evicted storage s, whose same-direction region is `theirs`: s leaves the
    // frontier, its frontier joins ours, and s plus its interior join our interior. Totals use
    // the storages' compute as it is now, and s is counted even were it already inside: simrd
    // does both.
    template <typename ComputeOf>
    void absorb(StorageId s, const Region &theirs, ComputeOf &&computeOf, StampSet &marks)
    {
        for (std::size_t i = 0; i < frontier.size(); ++i)
            if (frontier[i] == s) {
                frontier[i] = frontier.back();
                frontier.pop_back();
                break;
            }
        marks.clear();
        for (StorageId x : frontier)
            marks.insert(x);
        for (StorageId x : theirs.frontier)
            if (marks.insert(x))
                frontier.push_back(x);

        marks.clear();
        for (StorageId x : interior)
            marks.insert(x);
        compute += computeOf(s);
        for (StorageId x : theirs.interior)
            if (marks.insert(x)) {
                interior.push_back(x);
                compute += computeOf(x);
            }
        if (marks.insert(s))
            interior.push_back(s);
    }
};

} // namespace rematlens
