#pragma once

#include "schedule.h"

#include <string>

namespace rematlens {

// What running a schedule costs: its exact peak (fixed memory included) and total compute.
struct ScheduleEvaluation {
    bool valid = false;
    std::string error;    // why the schedule is not valid
    Bytes peak = 0;
    Cost cost = 0;
    double overhead = 0;  // cost / the graph's total cost (1 when nothing is recomputed)
    std::size_t computes = 0;
};

// Runs a schedule over its graph, allocating a node's bytes when it is computed (its inputs are
// still held, so that is the moment of the peak) and releasing them when it is freed. A
// schedule is valid when every dependency is resident when a node is computed, nothing is
// computed while resident or freed while not, every node is computed at least once and every
// output is resident at the end.
class ScheduleExecutor {
public:
    explicit ScheduleExecutor(const ScheduleGraph &graph) : m_graph(graph) {}

    ScheduleEvaluation run(const Schedule &schedule) const;

    // Every node computed once, in order, each freed after its last use unless it is an output
    // (what StagedSchedule::computeOnce describes, without its quadratic tables).
    static Schedule computeOnce(const ScheduleGraph &graph);

private:
    const ScheduleGraph &m_graph;
};

} // namespace rematlens
