// Schedules of a trace's graph: the executor, static checkpointing (Chen et al. 2016) and the
// optimum (Checkmate's MILP), checked against brute force over every staged schedule of small graphs.
#include "core/schedule/checkmate_milp.h"
#include "core/schedule/checkpoint_planner.h"
#include "core/schedule/feasibility_threshold.h"
#include "core/schedule/schedule_executor.h"
#include "core/schedule/schedule_graph.h"
#include "core/synth/synth_presets.h"
#include "core/trace/trace_reader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace rematlens;

namespace {

ScheduleNode node(Bytes bytes, Cost cost, std::vector<NodeId> deps, bool backward = false, bool output = false)
{
    ScheduleNode n;
    n.bytes = bytes;
    n.cost = cost;
    n.deps = std::move(deps);
    n.backward = backward;
    n.output = output;
    return n;
}

// A training step of a 3-layer chain: forward f0..f2, the loss, gradients g2..g0 (each reads the
// gradient after it and its layer's input).
ScheduleGraph trainingChain()
{
    return ScheduleGraph::fromNodes({node(4, 3, {}), node(2, 5, {0}), node(3, 2, {1}), node(1, 1, {2}),
                                     node(3, 4, {3, 2, 1}, true), node(2, 6, {4, 1, 0}, true),
                                     node(4, 2, {5, 0}, true, true)},
                                    5);
}

// A diamond forward (a -> b, c -> d) and its backward: 8 nodes.
ScheduleGraph diamond()
{
    return ScheduleGraph::fromNodes({node(2, 4, {}), node(3, 2, {0}), node(2, 7, {0}), node(1, 1, {1, 2}),
                                     node(2, 1, {3}, true), node(3, 3, {4, 1, 0}, true), node(2, 5, {4, 2, 0}, true),
                                     node(1, 2, {5, 6}, true, true)},
                                    0);
}

ScheduleGraph plainChain()
{
    return ScheduleGraph::fromNodes(
        {node(2, 1, {}), node(2, 1, {0}), node(3, 2, {1}), node(1, 4, {2}), node(2, 1, {3, 0}, false, true)}, 1);
}

// Every frontier-advancing staged schedule, by dynamic programming over the set kept between
// stages; memory counted as Checkmate counts it. Returns the least cost that fits the budget
// (or -1) and, over all schedules, the least peak.
struct BruteForce {
    Cost cost = -1;
    Bytes threshold = std::numeric_limits<Bytes>::max();
};

BruteForce bruteForce(const ScheduleGraph &g, Bytes budget)
{
    const std::size_t n = g.size();
    constexpr Cost kNo = std::numeric_limits<Cost>::max();
    std::vector<Cost> cost(std::size_t{1} << n, kNo);
    std::vector<Bytes> peak(std::size_t{1} << n, std::numeric_limits<Bytes>::max());
    cost[0] = 0;
    peak[0] = g.fixedBytes();
    BruteForce result;
    for (std::size_t t = 0; t < n; ++t) {
        std::vector<Cost> nextCost(cost.size(), kNo);
        std::vector<Bytes> nextPeak(peak.size(), std::numeric_limits<Bytes>::max());
        for (std::uint32_t kept = 0; kept < (1u << t); ++kept) {
            if (cost[kept] == kNo && peak[kept] == std::numeric_limits<Bytes>::max())
                continue;
            for (std::uint32_t extra = 0; extra < (1u << t); ++extra) {
                const std::uint32_t computed = extra | (1u << t);
                bool ok = true;
                for (NodeId k = 0; k <= t && ok; ++k)
                    if (computed >> k & 1)
                        for (NodeId d : g.node(k).deps)
                            ok = ok && ((computed | kept) >> d & 1);
                if (!ok)
                    continue;
                const std::uint32_t available = computed | kept;
                for (std::uint32_t next = available;; next = (next - 1) & available) {
                    bool outputsOk = true;
                    if (t + 1 == n)
                        for (NodeId i = 0; i < n; ++i)
                            outputsOk = outputsOk && (!g.node(i).output || (next >> i & 1));
                    if (outputsOk) {
                        // simulate the stage: frees as Checkmate's FREE variables have them
                        Bytes memory = g.fixedBytes();
                        for (NodeId i = 0; i < t; ++i)
                            memory += (kept >> i & 1) ? g.node(i).bytes : 0;
                        Bytes stagePeak = memory;
                        std::uint32_t resident = kept;
                        Cost stageCost = 0;
                        for (NodeId k = 0; k <= t; ++k) {
                            if (!(computed >> k & 1))
                                continue;
                            memory += g.node(k).bytes;
                            stageCost += g.node(k).cost;
                            stagePeak = std::max(stagePeak, memory);
                            resident |= 1u << k;
                            std::vector<NodeId> touched = g.node(k).deps;
                            touched.push_back(k);
                            for (NodeId i : touched) {
                                bool laterUse = false;
                                for (NodeId j : g.node(i).users)
                                    laterUse = laterUse || (j > k && j <= t && (computed >> j & 1));
                                if ((resident >> i & 1) && !(next >> i & 1) && !laterUse) {
                                    memory -= g.node(i).bytes * ((kept >> i & 1) && (computed >> i & 1) ? 2 : 1);
                                    resident &= ~(1u << i);
                                }
                            }
                        }
                        const Bytes pathPeak = std::max(peak[kept], stagePeak);
                        nextPeak[next] = std::min(nextPeak[next], pathPeak);
                        if (cost[kept] != kNo && pathPeak <= budget)
                            nextCost[next] = std::min(nextCost[next], cost[kept] + stageCost);
                        (void)resident;
                    }
                    if (next == 0)
                        break;
                }
            }
        }
        cost.swap(nextCost);
        peak.swap(nextPeak);
    }
    for (std::size_t s = 0; s < cost.size(); ++s) {
        if (cost[s] != kNo && (result.cost < 0 || cost[s] < result.cost))
            result.cost = cost[s];
        result.threshold = std::min(result.threshold, peak[s]);
    }
    return result;
}

} // namespace

class SchedulesTest : public QObject {
    Q_OBJECT

private slots:
    void executorRejectsInvalidSchedules();
    void milpMatchesBruteForce_data();
    void milpMatchesBruteForce();
    void chainSqrtNCheckpointingMatchesTheAnalysis();
    void graphFoldsAliasesAndConstants();
    void commandsReportPerBudgetAndRejectBadUsage();
};

void SchedulesTest::executorRejectsInvalidSchedules()
{
    const ScheduleGraph g = plainChain();
    const ScheduleExecutor executor(g);
    using K = ScheduleStep::Kind;
    QVERIFY(!executor.run({{K::Compute, 1}}).valid); // input 0 missing
    QVERIFY(!executor.run({{K::Free, 0}}).valid);
    QVERIFY(!executor.run({{K::Compute, 0}, {K::Compute, 0}}).valid);
    const Schedule once = StagedSchedule::computeOnce(g).toSchedule(g);
    const ScheduleEvaluation e = executor.run(once);
    QVERIFY2(e.valid, e.error.c_str());
    QCOMPARE(e.cost, g.totalCost());
    QCOMPARE(e.overhead, 1.0);
    // fixed 1; the peak is computing node 2: node 0 (kept for node 4) 2, node 1 2, node 2 3
    QCOMPARE(e.peak, Bytes{1 + 2 + 2 + 3});
    const ScheduleEvaluation direct = executor.run(ScheduleExecutor::computeOnce(g));
    QVERIFY2(direct.valid, direct.error.c_str());
    QCOMPARE(direct.peak, e.peak);
    QCOMPARE(direct.cost, e.cost);
}

void SchedulesTest::milpMatchesBruteForce_data()
{
    QTest::addColumn<int>("which");
    QTest::newRow("plain chain (5)") << 0;
    QTest::newRow("training chain (7)") << 1;
    QTest::newRow("diamond (8)") << 2;
}

void SchedulesTest::milpMatchesBruteForce()
{
    QFETCH(int, which);
    const ScheduleGraph g = which == 0 ? plainChain() : which == 1 ? trainingChain() : diamond();
    const ScheduleExecutor executor(g);
    const CheckmateMilp milp(g);
    const BruteForce unlimited = bruteForce(g, std::numeric_limits<Bytes>::max());
    QCOMPARE(unlimited.cost, g.totalCost());
    const FeasibilityThreshold threshold = ThresholdSearch(g).run(30);
    QVERIFY(threshold.exact);
    QCOMPARE(threshold.provenFeasible, unlimited.threshold);
    const Bytes everything = executor.run(StagedSchedule::computeOnce(g).toSchedule(g)).peak;
    QVERIFY(unlimited.threshold < everything); // the graphs are chosen so that recomputing helps
    int strictlyCostlier = 0;
    for (Bytes budget = unlimited.threshold - 2; budget <= everything + 1; ++budget) {
        const BruteForce expected = bruteForce(g, budget);
        const MilpSolution s = milp.solve(budget, 30);
        if (expected.cost < 0) {
            QCOMPARE(solveStatusName(s.status), "infeasible");
            QVERIFY(!milp.lpBound(budget, 60).feasible || milp.lpBound(budget, 60).cost <= double(g.totalCost()) * 10);
            continue;
        }
        QCOMPARE(solveStatusName(s.status), "optimal");
        QCOMPARE(s.cost, double(expected.cost));
        const LpBound lp = milp.lpBound(budget, 60);
        QVERIFY(lp.feasible);
        QVERIFY(lp.cost <= s.cost + 1e-6);
        QVERIFY(lp.cost >= double(g.totalCost()) - 1e-6);
        const ScheduleEvaluation e = executor.run(s.schedule->toSchedule(g));
        QVERIFY2(e.valid, e.error.c_str());
        QVERIFY(e.peak <= budget);
        QCOMPARE(double(e.cost), s.cost);
        strictlyCostlier += expected.cost > g.totalCost() ? 1 : 0;
    }
    QVERIFY(strictlyCostlier > 0); // some budgets need recomputation
}

void SchedulesTest::chainSqrtNCheckpointingMatchesTheAnalysis()
{
    // N = 64 equal layers of m bytes and equal cost; sqrt(N) checkpointing keeps k = 8 of them,
    // so the forward pass holds N / k checkpoints and the backward pass one recomputed segment of
    // k layers: memory (N / k + k) m plus the gradients in flight, and every layer that is not a
    // checkpoint recomputed exactly once (one extra forward pass, less the checkpoints).
    std::string error;
    const int layers = 64;
    const Bytes m = 65536; // batch 4 x width 4096 x 4 bytes
    const Cost layerCost = 295;
    const std::optional<std::string> text = synthesizeTrace(SynthOptions{"chain", layers, 4, 0}, error);
    QVERIFY2(text.has_value(), error.c_str());
    const TraceReadResult read = parseTraceText(*text, "chain");
    QVERIFY(read.ok());
    const ScheduleGraph g = ScheduleGraph::fromProgram(*read.program);
    for (NodeId i = 0; i < layers; ++i) {
        QCOMPARE(g.node(i).bytes, m);
        QCOMPARE(g.node(i).cost, layerCost);
    }
    const CheckpointPlanner planner(g);
    QCOMPARE(planner.candidates().size(), std::size_t(layers + 1)); // the layers and the loss
    const CheckpointPlan plan = planner.sqrtN();
    QVERIFY2(plan.evaluation.valid, plan.evaluation.error.c_str());
    QCOMPARE(plan.checkpoints.size(), std::size_t(8));
    QCOMPARE(plan.evaluation.cost - g.totalCost(), Cost(layers - 8) * layerCost);
    const Bytes activations = plan.evaluation.peak - g.fixedBytes();
    QVERIFY2(activations >= (8 + 8) * m && activations <= (8 + 8 + 2) * m, std::to_string(activations).c_str());
    const Bytes everything = ScheduleExecutor(g).run(StagedSchedule::computeOnce(g).toSchedule(g)).peak - g.fixedBytes();
    QVERIFY(everything >= layers * m);
    // the greedy rule finds a plan at least as small as sqrt(N)'s among its segment budgets
    const std::vector<CheckpointPlan> family = planner.greedyFamily();
    QVERIFY(CheckpointPlanner::cheapestWithin(family, plan.evaluation.peak) != nullptr);
    QVERIFY(CheckpointPlanner::cheapestWithin(family, g.fixedBytes() + m) == nullptr);
}

void SchedulesTest::graphFoldsAliasesAndConstants()
{
    const std::string trace = R"({"INSTRUCTION":"ANNOTATE","ANNOTATION":"START"}
{"INSTRUCTION":"CONSTANT","NAME":"w"}
{"INSTRUCTION":"MEMORY","NAME":"w","MEMORY":"100"}
{"INSTRUCTION":"CALL","RESULT":["a"],"NAME":"relu","ARGS":["w"],"TIME":"5"}
{"INSTRUCTION":"MEMORY","NAME":"a","MEMORY":"40"}
{"INSTRUCTION":"ALIAS","NAME":"a","ALIAS":"-1"}
{"INSTRUCTION":"CALL","RESULT":["v"],"NAME":"view","ARGS":["a"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","NAME":"v","MEMORY":"40"}
{"INSTRUCTION":"ALIAS","NAME":"v","ALIAS":"0"}
{"INSTRUCTION":"CALL","RESULT":["b"],"NAME":"mul","ARGS":["v","w"],"TIME":"7"}
{"INSTRUCTION":"MEMORY","NAME":"b","MEMORY":"24"}
{"INSTRUCTION":"ALIAS","NAME":"b","ALIAS":"-1"}
{"INSTRUCTION":"COPY","DST":"c","SRC":"b"}
{"INSTRUCTION":"MUTATE","ARGS":["b"],"MUTATE":["0"],"NAME":"add_","TIME":"3"}
{"INSTRUCTION":"RELEASE","NAME":"a"}
{"INSTRUCTION":"RELEASE","NAME":"v"}
)";
    const TraceReadResult read = parseTraceText(trace, "folds");
    QVERIFY2(read.ok(), read.error.message.c_str());
    const ScheduleGraph g = ScheduleGraph::fromProgram(*read.program);
    QCOMPARE(g.fixedBytes(), Bytes{100}); // the constant
    QCOMPARE(g.size(), std::size_t(4));    // relu, view, mul, add_
    QCOMPARE(g.node(1).bytes, Bytes{0});   // the view shares relu's storage
    QCOMPARE(g.node(2).deps, (std::vector<NodeId>{0, 1})); // reading the view needs relu's storage
    QCOMPARE(g.node(3).bytes, Bytes{24});  // the mutation's new tensor, its target's size
    QCOMPARE(g.node(3).deps, (std::vector<NodeId>{2}));
    QVERIFY(!g.node(0).output && !g.node(1).output);
    QVERIFY(g.node(2).output && g.node(3).output); // c still names mul's result, b names add_'s
    QCOMPARE(g.totalCost(), Cost{5 + 1 + 7 + 3});
}

namespace {

struct Ran {
    int status = -1;
    QByteArray out;
    QByteArray err;
};

Ran runRematlens(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(REMATLENS_BINARY), arguments);
    process.waitForFinished(120000);
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

} // namespace

void SchedulesTest::commandsReportPerBudgetAndRejectBadUsage()
{
    const Ran checkpoint = runRematlens({QStringLiteral("checkpoint"), QStringLiteral(":demo"), QStringLiteral("--from"),
                                         QStringLiteral("0.3"), QStringLiteral("--to"), QStringLiteral("1.0"),
                                         QStringLiteral("--step"), QStringLiteral("0.7"), QStringLiteral("--json")});
    QCOMPARE(checkpoint.status, 0);
    const QJsonObject report = QJsonDocument::fromJson(checkpoint.out).object();
    QCOMPARE(report.value(QStringLiteral("compute_once_peak")).toDouble(),
             report.value(QStringLiteral("baseline_memory")).toDouble()); // the demo's graph peaks as the replay does
    const QJsonArray budgets = report.value(QStringLiteral("budgets")).toArray();
    QCOMPARE(budgets.size(), 2);
    for (const QJsonValue &b : budgets) {
        const QJsonObject sqrtN = b.toObject().value(QStringLiteral("sqrt_n")).toObject();
        const bool fits = sqrtN.value(QStringLiteral("peak")).toDouble() <= b.toObject().value(QStringLiteral("budget")).toDouble();
        QCOMPARE(sqrtN.value(QStringLiteral("result")).toString(), fits ? QStringLiteral("pass") : QStringLiteral("fail"));
    }
    QCOMPARE(budgets[0].toObject().value(QStringLiteral("sqrt_n")).toObject().value(QStringLiteral("result")).toString(),
             QStringLiteral("fail"));
    QCOMPARE(budgets[1].toObject().value(QStringLiteral("greedy")).toObject().value(QStringLiteral("result")).toString(),
             QStringLiteral("pass"));

    const Ran optimal = runRematlens({QStringLiteral("optimal"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                      QStringLiteral("1.0"), QStringLiteral("--time-limit"), QStringLiteral("20"),
                                      QStringLiteral("--json")});
    QCOMPARE(optimal.status, 0);
    const QJsonObject answer =
        QJsonDocument::fromJson(optimal.out).object().value(QStringLiteral("budgets")).toArray()[0].toObject();
    QCOMPARE(answer.value(QStringLiteral("status")).toString(), QStringLiteral("optimal"));
    QCOMPARE(answer.value(QStringLiteral("overhead")).toDouble(), 1.0);
    QVERIFY(answer.value(QStringLiteral("checked")).toObject().value(QStringLiteral("fits")).toBool());

    const Ran both = runRematlens({QStringLiteral("optimal"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                   QStringLiteral("0.5"), QStringLiteral("--from"), QStringLiteral("0.1")});
    QCOMPARE(both.status, 2);
    QVERIFY(both.err.contains("--ratio excludes --from"));
    const Ran none = runRematlens({QStringLiteral("checkpoint"), QStringLiteral(":demo")});
    QCOMPARE(none.status, 2);
    QVERIFY(none.err.contains("--ratio or --from/--to/--step"));
    const Ran bad = runRematlens({QStringLiteral("optimal"), QStringLiteral(":demo"), QStringLiteral("--ratio"), QStringLiteral("x")});
    QCOMPARE(bad.status, 2);
    QVERIFY(bad.err.contains("--ratio expects a positive number"));
}

QTEST_APPLESS_MAIN(SchedulesTest)
#include "tst_schedules.moc"
