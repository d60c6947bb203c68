#include "hole_census.h"

#include <tbb/parallel_for.h>

#include <algorithm>

namespace rematlens {

HoleCensus takeCensus(const HoleAnatomist &anatomist, const MapSummary &summary, AnatomyOptions options)
{
    options.rescueProgress = {};
    options.rescueTried = {};
    HoleCensus census;
    census.holes = summary.holes;
    census.anatomies.resize(census.holes.size());
    tbb::parallel_for(std::size_t{0}, census.holes.size(), [&](std::size_t k) {
        const MapHole &hole = census.holes[k]; // every byte of a hole is mapped
        census.anatomies[k] = anatomist.explain(hole.firstFail, hole.lastFail, {}, options);
    });
    for (std::size_t k = 0; k < census.holes.size(); ++k) {
        if (!census.anatomies[k])
            continue;
        const HoleAnatomy &anatomy = *census.anatomies[k];
        census.replays += anatomy.replays();
        auto found = std::find_if(census.classes.begin(), census.classes.end(),
                                  [&](const HoleClassCount &c) { return c.mechanism == anatomy.mechanism; });
        if (found == census.classes.end())
            found = census.classes.insert(census.classes.end(), HoleClassCount{anatomy.mechanism, 0, 0});
        ++found->holes;
        found->bytes += anatomy.lastFail - anatomy.firstFail + 1;
    }
    std::stable_sort(census.classes.begin(), census.classes.end(),
                     [](const HoleClassCount &a, const HoleClassCount &b) { return a.holes > b.holes; });
    return census;
}

} // namespace rematlens
