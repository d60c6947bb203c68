#include "budget_schedules.h"

#include "schedule_executor.h"

namespace rematlens {

namespace {

bool fits(const CheckpointPlan &plan, Bytes budget)
{
    return plan.evaluation.valid && plan.evaluation.peak <= budget;
}

CheckpointAnswer answerOf(const CheckpointPlan &plan, Bytes budget)
{
    return {fits(plan, budget), plan.rule, plan.evaluation.peak, plan.evaluation.overhead, plan.checkpoints.size()};
}

} // namespace

BudgetSchedules::BudgetSchedules(const Program &program)
    : m_graph(ScheduleGraph::fromProgram(program)), m_planner(std::make_unique<CheckpointPlanner>(m_graph)),
      m_milp(std::make_unique<CheckmateMilp>(m_graph)), m_sqrtN(m_planner->sqrtN()),
      m_greedy(m_planner->greedyFamily())
{
}

CheckpointAnswer BudgetSchedules::checkpoint(Bytes budget) const
{
    const CheckpointPlan *greedy = CheckpointPlanner::cheapestWithin(m_greedy, budget);
    const bool sqrtFits = fits(m_sqrtN, budget);
    if (greedy && (!sqrtFits || greedy->evaluation.overhead < m_sqrtN.evaluation.overhead))
        return answerOf(*greedy, budget);
    return answerOf(m_sqrtN, budget);
}

std::string BudgetSchedules::optimalDeclined() const
{
    const MilpSize size = m_milp->size();
    if (size.variables <= kMaxVariables)
        return {};
    return "the MILP has " + std::to_string(size.variables) + " variables and " + std::to_string(size.constraints) +
           " constraints, over the " + std::to_string(kMaxVariables) + " variables it is built for";
}

OptimalAnswer BudgetSchedules::optimal(Bytes budget, double timeLimitSeconds) const
{
    OptimalAnswer answer;
    answer.declined = optimalDeclined();
    if (!answer.declined.empty())
        return answer;
    const MilpSolution solution = m_milp->solve(budget, timeLimitSeconds);
    answer.status = solution.status;
    answer.gap = solution.gap;
    answer.seconds = solution.seconds;
    const double graphCost = static_cast<double>(m_graph.totalCost());
    if (solution.schedule) {
        answer.overhead = graphCost > 0 ? solution.cost / graphCost : 1.0;
        const ScheduleEvaluation run = ScheduleExecutor(m_graph).run(solution.schedule->toSchedule(m_graph));
        answer.checked = run.valid && run.peak <= budget;
    }
    return answer;
}

} // namespace rematlens
