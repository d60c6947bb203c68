#include "checkmate_milp.h"

#include "checkpoint_planner.h"
#include "checkpoint_scheduler.h"

#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include <chrono>
#include <cmath>
#include <numeric>
#include <string>

namespace rematlens {

const char *solveStatusName(SolveStatus status)
{
    switch (status) {
    case SolveStatus::Optimal: return "optimal";
    case SolveStatus::Feasible: return "feasible";
    case SolveStatus::Infeasible: return "infeasible";
    case SolveStatus::Unknown: break;
    }
    return "unknown";
}

namespace {

constexpr double kLpInfinity = 1e30;

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Column indices of the four families of variables.
class Layout {
public:
    explicit Layout(const ScheduleGraph &graph) : m_n(graph.size())
    {
        m_freeOffsets.assign(m_n + 1, 0);
        m_slotOffsets.assign(m_n + 1, 0);
        for (std::size_t k = 0; k < m_n; ++k)
            m_slotOffsets[k + 1] = m_slotOffsets[k] + graph.node(static_cast<NodeId>(k)).deps.size() + 1;
        for (std::size_t t = 0; t < m_n; ++t)
            m_freeOffsets[t + 1] = m_freeOffsets[t] + m_slotOffsets[t + 1];
        m_triangle = m_n * (m_n + 1) / 2;
    }
    std::size_t r(std::size_t t, std::size_t i) const { return t * (t + 1) / 2 + i; }
    std::size_t s(std::size_t t, std::size_t i) const { return m_triangle + t * (t - 1) / 2 + i; }
    std::size_t u(std::size_t t, std::size_t k) const { return m_triangle + strict() + t * (t + 1) / 2 + k; }
    // FREE[t][slot j of node k]: slot 0..deps-1 are k's dependencies, the last is k itself.
    std::size_t free(std::size_t t, std::size_t k, std::size_t slot) const
    {
        return 2 * m_triangle + strict() + m_freeOffsets[t] + m_slotOffsets[k] + slot;
    }
    std::size_t strict() const { return m_n * (m_n - (m_n > 0 ? 1 : 0)) / 2; }
    std::size_t freeCount() const { return m_freeOffsets[m_n]; }
    std::size_t columns() const { return 2 * m_triangle + strict() + freeCount(); }

private:
    std::size_t m_n;
    std::size_t m_triangle = 0;
    std::vector<std::size_t> m_freeOffsets;
    std::vector<std::size_t> m_slotOffsets;
};

} // namespace

struct CheckmateMilp::Model {
    std::vector<double> colLo, colUp, objective;
    std::vector<int> integers;
    // Rows in compressed form, handed to the solver at once (appending to a CoinPackedMatrix row
    // by row reallocates every time).
    std::vector<CoinBigIndex> rowStarts{0};
    std::vector<int> rowLengths;
    std::vector<int> rowCols;
    std::vector<double> rowValues;
    std::vector<double> rowLo, rowUp;
    bool trivialInfeasible = false;

    void addRow(const std::vector<int> &cols, const std::vector<double> &values, double lo, double up)
    {
        rowCols.insert(rowCols.end(), cols.begin(), cols.end());
        rowValues.insert(rowValues.end(), values.begin(), values.end());
        rowLengths.push_back(static_cast<int>(cols.size()));
        rowStarts.push_back(static_cast<CoinBigIndex>(rowCols.size()));
        rowLo.push_back(lo);
        rowUp.push_back(up);
    }
    void load(OsiSolverInterface &solver) const
    {
        const CoinPackedMatrix rows(false, static_cast<int>(colLo.size()), static_cast<int>(rowLo.size()),
                                    static_cast<CoinBigIndex>(rowCols.size()), rowValues.data(), rowCols.data(),
                                    rowStarts.data(), rowLengths.data());
        solver.loadProblem(rows, colLo.data(), colUp.data(), objective.data(), rowLo.data(), rowUp.data());
        for (int c : integers)
            solver.setInteger(c);
    }
};

CheckmateMilp::CheckmateMilp(const ScheduleGraph &graph) : m_graph(graph)
{
    Bytes unit = 0;
    for (const ScheduleNode &n : graph.nodes())
        unit = std::gcd(unit, n.bytes);
    m_unit = unit > 0 ? unit : 1;
}

std::vector<StagedSchedule> CheckmateMilp::warmStarts() const
{
    std::vector<StagedSchedule> starts{StagedSchedule::computeOnce(m_graph)};
    const CheckpointPlanner planner(m_graph);
    std::vector<CheckpointPlan> plans = planner.greedyFamily();
    plans.push_back(planner.sqrtN());
    const CheckpointScheduler scheduler(m_graph);
    for (const CheckpointPlan &plan : plans)
        if (std::optional<StagedSchedule> staged = StagedSchedule::fromSchedule(m_graph, scheduler.build(plan.checkpoints)))
            starts.push_back(std::move(*staged));
    return starts;
}

std::optional<std::vector<double>> CheckmateMilp::columnsOf(const StagedSchedule &staged, Bytes budget,
                                                            double &cost) const
{
    const std::size_t n = m_graph.size();
    const Layout layout(m_graph);
    std::vector<double> x(layout.columns(), 0.0);
    const Bytes cap = (budget - m_graph.fixedBytes()) / m_unit;
    cost = 0;
    for (std::size_t t = 0; t < n; ++t) {
        auto keptAfter = [&](NodeId i) { return t + 1 < n ? staged.keep[t + 1][i] != 0 : m_graph.node(i).output; };
        Bytes memory = 0;
        for (std::size_t i = 0; i < t; ++i)
            if (staged.keep[t][i]) {
                x[layout.s(t, i)] = 1;
                memory += m_graph.node(static_cast<NodeId>(i)).bytes / m_unit;
            }
        Bytes pendingFree = 0;
        for (std::size_t k = 0; k <= t; ++k) {
            memory -= pendingFree;
            pendingFree = 0;
            const ScheduleNode &node = m_graph.node(static_cast<NodeId>(k));
            if (staged.recompute[t][k]) {
                x[layout.r(t, k)] = 1;
                memory += node.bytes / m_unit;
                cost += double(node.cost);
                for (std::size_t slot = 0; slot <= node.deps.size(); ++slot) {
                    const NodeId i = slot < node.deps.size() ? node.deps[slot] : static_cast<NodeId>(k);
                    bool later = false;
                    for (NodeId j : m_graph.node(i).users)
                        later = later || (j > k && j <= t && staged.recompute[t][j]);
                    if (!keptAfter(i) && !later) {
                        x[layout.free(t, k, slot)] = 1;
                        pendingFree += m_graph.node(i).bytes / m_unit;
                    }
                }
            }
            if (memory > cap)
                return std::nullopt;
            x[layout.u(t, k)] = double(memory);
        }
    }
    return x;
}

MilpSize CheckmateMilp::size() const
{
    const std::size_t n = m_graph.size();
    const Layout layout(m_graph);
    MilpSize size;
    size.variables = layout.columns();
    size.integers = size.variables - n * (n + 1) / 2;
    std::size_t dependencyRows = 0;
    std::size_t outputs = 0;
    for (std::size_t t = 0; t < n; ++t)
        for (std::size_t k = 0; k <= t; ++k)
            dependencyRows += m_graph.node(static_cast<NodeId>(k)).deps.size();
    for (const ScheduleNode &node : m_graph.nodes())
        outputs += node.output ? 1 : 0;
    size.constraints = dependencyRows + layout.strict() + outputs + n * (n + 1) / 2 + 2 * layout.freeCount();
    std::size_t users = 0; // later users in the stage, over every stage t >= k: user j counts n - j times
    for (std::size_t k = 0; k < n; ++k)
        for (NodeId i : m_graph.node(static_cast<NodeId>(k)).deps)
            for (NodeId j : m_graph.node(i).users)
                users += j > k ? n - j : 0;
    size.nonzeros = 3 * dependencyRows + 3 * layout.strict() + 2 * outputs + n * (n + 1) / 2 * 3
                    + layout.freeCount() * 6 + 2 * users;
    return size;
}

CheckmateMilp::Model CheckmateMilp::build(Bytes budget, bool withObjective) const
{
    const std::size_t n = m_graph.size();
    const Layout layout(m_graph);
    Model m;
    const std::size_t columns = layout.columns();
    m.colLo.assign(columns, 0.0);
    m.colUp.assign(columns, 1.0);
    m.objective.assign(columns, 0.0);
    const Bytes room = budget - m_graph.fixedBytes();
    m.trivialInfeasible = room < 0;
    const double cap = room < 0 ? 0.0 : double(room / m_unit);
    auto units = [&](NodeId i) { return double(m_graph.node(i).bytes / m_unit); };
    for (std::size_t t = 0; t < n; ++t) {
        for (std::size_t i = 0; i <= t; ++i) {
            if (withObjective)
                m.objective[layout.r(t, i)] = double(m_graph.node(static_cast<NodeId>(i)).cost);
            m.colUp[layout.u(t, i)] = cap;
        }
        m.colLo[layout.r(t, t)] = 1.0; // frontier-advancing: stage t computes node t
    }
    for (std::size_t c = 0; c < columns; ++c)
        if (c < layout.u(0, 0) || c >= layout.free(0, 0, 0))
            m.integers.push_back(static_cast<int>(c));

    for (std::size_t t = 0; t < n; ++t) {
        for (std::size_t k = 0; k <= t; ++k) // a computation needs its inputs resident
            for (NodeId i : m_graph.node(static_cast<NodeId>(k)).deps)
                m.addRow({int(layout.r(t, k)), int(layout.r(t, i)), int(layout.s(t, i))}, {1, -1, -1}, -kLpInfinity, 0);
        if (t > 0) // only what was resident in the stage before can be kept
            for (std::size_t i = 0; i < t; ++i) {
                if (i + 1 < t)
                    m.addRow({int(layout.s(t, i)), int(layout.r(t - 1, i)), int(layout.s(t - 1, i))}, {1, -1, -1},
                             -kLpInfinity, 0);
                else
                    m.addRow({int(layout.s(t, i)), int(layout.r(t - 1, i))}, {1, -1}, -kLpInfinity, 0);
            }
    }
    for (NodeId i = 0; i + 1 < n; ++i) // outputs resident at the end
        if (m_graph.node(i).output)
            m.addRow({int(layout.r(n - 1, i)), int(layout.s(n - 1, i))}, {1, 1}, 1, kLpInfinity);

    for (std::size_t t = 0; t < n; ++t) {
        // U[t][0] = kept memory + node 0 if computed
        std::vector<int> cols{int(layout.u(t, 0)), int(layout.r(t, 0))};
        std::vector<double> values{1, -units(0)};
        for (std::size_t i = 0; i < t; ++i) {
            cols.push_back(int(layout.s(t, i)));
            values.push_back(-units(static_cast<NodeId>(i)));
        }
        m.addRow(cols, values, 0, 0);
        for (std::size_t k = 1; k <= t; ++k) { // U[t][k] = U[t][k-1] + computed k - freed after k-1
            cols = {int(layout.u(t, k)), int(layout.u(t, k - 1)), int(layout.r(t, k))};
            values = {1, -1, -units(static_cast<NodeId>(k))};
            const ScheduleNode &prev = m_graph.node(static_cast<NodeId>(k - 1));
            for (std::size_t slot = 0; slot <= prev.deps.size(); ++slot) {
                const NodeId i = slot < prev.deps.size() ? prev.deps[slot] : static_cast<NodeId>(k - 1);
                cols.push_back(int(layout.free(t, k - 1, slot)));
                values.push_back(units(i));
            }
            m.addRow(cols, values, 0, 0);
        }
        // FREE[t][i][k] = R[t][k] and not kept into t+1 and no later user of i computed in stage t
        for (std::size_t k = 0; k <= t; ++k) {
            const ScheduleNode &node = m_graph.node(static_cast<NodeId>(k));
            for (std::size_t slot = 0; slot <= node.deps.size(); ++slot) {
                const NodeId i = slot < node.deps.size() ? node.deps[slot] : static_cast<NodeId>(k);
                std::vector<int> hazards{int(layout.r(t, k))};
                std::vector<double> signs{-1};
                double constant = 1; // the "1 -" of (1 - R[t][k])
                if (t + 1 < n) {
                    hazards.push_back(int(layout.s(t + 1, i)));
                    signs.push_back(1);
                } else if (m_graph.node(i).output) {
                    constant += 1;
                }
                for (NodeId j : m_graph.node(i).users)
                    if (j > k && j <= t) {
                        hazards.push_back(int(layout.r(t, j)));
                        signs.push_back(1);
                    }
                const double most = 2.0 + double(hazards.size() - 1 - (t + 1 < n ? 1 : 0));
                const int freeCol = int(layout.free(t, k, slot));
                std::vector<int> cols2 = hazards;
                std::vector<double> values2 = signs;
                cols2.push_back(freeCol);
                values2.push_back(1);
                m.addRow(cols2, values2, 1 - constant, kLpInfinity); // FREE + hazards >= 1
                values2.back() = most;
                m.addRow(cols2, values2, -kLpInfinity, most - constant); // hazards + most * FREE <= most
            }
        }
    }
    return m;
}

LpBound CheckmateMilp::lpBound(Bytes budget, double timeLimitSeconds) const
{
    const auto start = std::chrono::steady_clock::now();
    LpBound bound;
    if (m_graph.size() == 0 || budget < m_graph.fitFloor()) // proved infeasible without a model
        return bound;
    const Model model = build(budget, true);
    if (model.trivialInfeasible) {
        bound.seconds = secondsSince(start);
        return bound;
    }
    OsiClpSolverInterface lp;
    lp.messageHandler()->setLogLevel(0);
    model.load(lp);
    lp.getModelPtr()->setMaximumWallSeconds(timeLimitSeconds);
    lp.initialSolve();
    bound.feasible = lp.isProvenOptimal();
    bound.timedOut = !bound.feasible && !lp.isProvenPrimalInfeasible();
    bound.cost = bound.feasible ? lp.getObjValue() : 0;
    bound.seconds = secondsSince(start);
    return bound;
}

MilpSolution CheckmateMilp::solve(Bytes budget, double timeLimitSeconds, bool feasibilityOnly) const
{
    const auto start = std::chrono::steady_clock::now();
    MilpSolution result;
    const std::size_t n = m_graph.size();
    if (n == 0)
        return result;
    if (budget < m_graph.fitFloor()) {
        result.status = SolveStatus::Infeasible;
        result.belowFitFloor = true;
        return result;
    }
    const Model model = build(budget, !feasibilityOnly);
    if (model.trivialInfeasible) {
        result.status = SolveStatus::Infeasible;
        result.seconds = secondsSince(start);
        return result;
    }
    OsiClpSolverInterface solver;
    solver.messageHandler()->setLogLevel(0);
    model.load(solver);
    if (m_starts.empty())
        m_starts = warmStarts();
    // The limit bounds the whole answer: building the model and the warm starts count too.
    const double left = std::max(0.01, timeLimitSeconds - secondsSince(start));
    // CBC's own limit is checked between nodes; the root LP needs Clp's.
    solver.getModelPtr()->setMaximumWallSeconds(left);
    CbcModel cbc(solver);
    cbc.setLogLevel(0);
    cbc.messageHandler()->setLogLevel(0);
    std::optional<std::vector<double>> warm;
    double startCost = 0;
    for (const StagedSchedule &staged : m_starts) {
        double cost = 0;
        std::optional<std::vector<double>> x = columnsOf(staged, budget, cost);
        if (x && (!warm || cost < startCost)) {
            warm = std::move(x);
            startCost = cost;
        }
    }
    if (warm)
        cbc.setBestSolution(warm->data(), static_cast<int>(warm->size()), feasibilityOnly ? 0.0 : startCost, true);
    cbc.setLogLevel(0);
    cbc.messageHandler()->setLogLevel(0);
    CbcMain0(cbc);
    const std::string seconds = std::to_string(left);
    const char *argv[] = {"rematlens", "-log", "0", "-slog", "0", "-preprocess", "off", "-timeMode", "elapsed", "-sec", seconds.c_str(), "-solve", "-quit"};
    CbcMain1(static_cast<int>(std::size(argv)), argv, cbc);
    result.seconds = secondsSince(start);

    // A root LP cut short by the time limit reads as infeasible to CBC; so proof needs the search to
    // end inside the limit, and no known schedule that fits (a warm start is one).
    const bool limitReached = cbc.isSecondsLimitReached() || result.seconds >= timeLimitSeconds;
    if (cbc.isProvenInfeasible() && !limitReached && !warm) {
        result.status = SolveStatus::Infeasible;
        return result;
    }
    const double *x = cbc.bestSolution();
    if (!x) {
        result.status = SolveStatus::Unknown;
        result.bound = cbc.getBestPossibleObjValue();
        return result;
    }
    const Layout layout(m_graph);
    StagedSchedule staged = StagedSchedule::empty(n);
    double cost = 0;
    for (std::size_t t = 0; t < n; ++t) {
        for (std::size_t i = 0; i <= t; ++i) {
            staged.recompute[t][i] = x[layout.r(t, i)] > 0.5 ? 1 : 0;
            if (staged.recompute[t][i])
                cost += double(m_graph.node(static_cast<NodeId>(i)).cost);
        }
        for (std::size_t i = 0; i < t; ++i)
            staged.keep[t][i] = x[layout.s(t, i)] > 0.5 ? 1 : 0;
    }
    result.schedule = std::move(staged);
    result.cost = cost;
    const bool proven = cbc.isProvenOptimal() && !cbc.isSecondsLimitReached();
    result.bound = feasibilityOnly ? 0 : std::min(cost, cbc.getBestPossibleObjValue());
    result.gap = cost > 0 ? (cost - result.bound) / cost : 0;
    result.status = feasibilityOnly || proven ? (feasibilityOnly ? SolveStatus::Feasible : SolveStatus::Optimal)
                                              : SolveStatus::Feasible;
    if (result.status == SolveStatus::Optimal) {
        result.bound = cost;
        result.gap = 0;
    }
    return result;
}

} // namespace rematlens
