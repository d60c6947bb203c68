#pragma once

#include "schedule.h"

#include <optional>
#include <vector>

namespace rematlens {

// Checkmate's form of a schedule (Jain et al., MLSys 2020), frontier-advancing: stage t computes
// node t last, after recomputing the nodes marked in recompute[t] (in order); keep[t][i] says node
// i < t is resident when stage t begins. Within a stage a node is freed right after its last use
// there unless the next stage keeps it (outputs are kept after the last stage).
struct StagedSchedule {
    std::vector<std::vector<std::uint8_t>> recompute; // recompute[t] has t + 1 entries; recompute[t][t] = 1
    std::vector<std::vector<std::uint8_t>> keep;      // keep[t] has t entries

    // Only the frontier computed, nothing kept (a starting point to fill in).
    static StagedSchedule empty(std::size_t nodes);
    // Every node computed once and kept while a later node or the end still needs it.
    static StagedSchedule computeOnce(const ScheduleGraph &graph);

    // The stages of a sequential schedule whose first computations come in node order (stage t
    // ends with the first computation of t and the frees after it); nothing when they do not.
    // A node computed twice within one stage is counted once.
    static std::optional<StagedSchedule> fromSchedule(const ScheduleGraph &graph, const Schedule &schedule);

    // The sequential schedule that frees exactly when Checkmate's FREE variables say so. A node
    // both kept and marked for recomputation is not computed again.
    Schedule toSchedule(const ScheduleGraph &graph) const;
};

} // namespace rematlens
