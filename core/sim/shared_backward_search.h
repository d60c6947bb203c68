#pragma once

#include "backward_closures.h"
#include "material_flags.h"
#include "region.h"

#include <vector>

namespace rematlens {

// Many backward searches at once in a single walk: the evicted storages the searches reach are
// visited once, each carrying a 64-bit mask of the searches that reach it, passed on from
// children to parents in topological order. Where the regions of a batch overlap (the long
// evicted histories of recurrent traces) this replaces one walk per search by one walk in all,
// and unlike BackwardClosures it costs nothing per word of the trace.
//
// The order is descending storage ids: a storage's parents were created before it, unless an
// alias joined it later; a batch meeting such an edge falls back to one search at a time.
// Which edges count follows BackwardClosures: a base's own edges as visible to its search,
// every other storage's edges as visible now.
class SharedBackwardSearch {
public:
    using Request = BackwardClosures::Request;

    SharedBackwardSearch(const Program &program, MaterialFlags &flags, const std::vector<Cost> &compute);

    // Fills every request's region as NeighbourhoodSearch::search(base, backward) would.
    // False, with the regions in an unspecified state, when an evicted storage met has an
    // evicted parent of a higher id; the caller then searches one by one.
    bool searchAll(const std::vector<Request> &requests, TensorId createdNow);

private:
    using Mask = std::uint64_t;
    using Word = std::uint64_t;

    void prepareScratch();
    bool searchGroup(const Request *requests, std::size_t count, TensorId createdNow);
    bool collect(const Request *requests, std::size_t count, TensorId createdNow);
    void propagate(TensorId createdNow);

    // What one search of the group has met so far: its row of m_rows spans words [low, high),
    // empty while high is 0.
    struct Member {
        Cost compute = 0;
        std::uint32_t low = 0;
        std::uint32_t high = 0;
    };

    const Program &m_program;
    MaterialFlags &m_flags;
    const std::vector<Cost> &m_compute;
    std::vector<Mask> m_mask;            // per storage met: the searches reaching it
    std::vector<Word> m_met;             // bitmap of the evicted storages met
    std::vector<StorageId> m_work;       // the same, as the collecting walk's list
    std::vector<StorageId> m_material;   // material storages met (frontier candidates)
    std::vector<Word> m_rows;            // per search of the group, a bitmap of its interior; zero between groups
    std::vector<Member> m_members;       // per search of the group
};

} // namespace rematlens
