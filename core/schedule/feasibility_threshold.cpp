#include "feasibility_threshold.h"

#include "schedule_executor.h"

#include <algorithm>
#include <chrono>
#include <numeric>

namespace rematlens {

FeasibilityThreshold ThresholdSearch::run(double timeLimitPerProbe) const
{
    const auto start = std::chrono::steady_clock::now();
    FeasibilityThreshold result;
    const ScheduleExecutor executor(m_graph);
    const ScheduleEvaluation everythingOnce = executor.run(ScheduleExecutor::computeOnce(m_graph));
    Bytes unit = 0;
    Bytes largestStep = 0;
    for (const ScheduleNode &n : m_graph.nodes()) {
        unit = std::gcd(unit, n.bytes);
        Bytes step = n.bytes;
        for (NodeId d : n.deps)
            step += m_graph.node(d).bytes;
        largestStep = std::max(largestStep, step);
    }
    unit = std::max<Bytes>(unit, 1);
    const Bytes fixed = m_graph.fixedBytes();
    // Budgets that matter are fixed + k units; search k in (lo, hi].
    Bytes lo = largestStep / unit - 1; // fixed + lo units is too small: the largest step needs more
    Bytes hi = (everythingOnce.peak - fixed + unit - 1) / unit;
    result.provenInfeasible = fixed + lo * unit + (unit - 1);
    result.provenFeasible = everythingOnce.peak;
    const CheckmateMilp milp(m_graph);
    while (hi - lo > 1) {
        const Bytes mid = lo + (hi - lo) / 2;
        const Bytes budget = fixed + mid * unit;
        ++result.probes;
        const MilpSolution s = milp.solve(budget, timeLimitPerProbe, true);
        if (s.status == SolveStatus::Infeasible) {
            lo = mid;
            result.provenInfeasible = budget + unit - 1;
            continue;
        }
        const ScheduleEvaluation e = s.schedule ? executor.run(s.schedule->toSchedule(m_graph)) : ScheduleEvaluation{};
        if (!e.valid || e.peak > budget)
            break; // unknown, or a schedule that does not check: the bracket stands
        hi = mid;
        result.provenFeasible = e.peak;
    }
    result.exact = hi - lo <= 1;
    if (result.exact)
        result.provenInfeasible = result.provenFeasible - 1;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace rematlens
