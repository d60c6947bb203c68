// Budgets that cannot pass, proved without replaying: the replay's fit floor (fitFloor) is sound
// (every replay below it fails, whatever the policy), the map's impossible stretch ends where the
// interval holding the floor begins and leaves every replayed interval as a map replaying every
// budget finds it, and the schedule graph's floor makes Checkmate answer infeasible at once.
#include "core/map/budget_walker.h"
#include "core/map/impossible_stretch.h"
#include "core/map/map_summary.h"
#include "core/schedule/checkmate_milp.h"
#include "core/schedule/schedule_graph.h"
#include "core/sim/baseline.h"
#include "core/sim/fit_floor.h"
#include "core/sim/policy_spec.h"
#include "core/sim/replay.h"
#include "core/trace/trace_reader.h"
#include "loaded_program.h"
#include "shared_data.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

using namespace rematlens;

namespace {

RunConfig configFor(const LoadedProgram &trace, const char *policy, RuntimeKind runtime = RuntimeKind::Eager)
{
    RunConfig config;
    config.policy = *findPolicy(policy);
    config.runtime = runtime;
    config.rematLimit = rematLimitFor(trace.baseline, 2.0);
    return config;
}

RunResult replayAt(const LoadedProgram &trace, RunConfig config, Bytes budget)
{
    config.budget = budget;
    return Replay(*trace.program, config).run();
}

std::vector<RunResult> walk(const LoadedProgram &trace, const RunConfig &config, ByteRange range)
{
    BudgetWalker walker(trace.program, config, 2);
    std::vector<RunResult> found;
    walker.walk({range}, nullptr, [&](const RunResult &r) { found.push_back(r); });
    return sortedIntervals(std::move(found));
}

} // namespace

class ImpossibleTest : public QObject {
    Q_OBJECT

private slots:
    void floorIsSound_data();
    void floorIsSound();
    void stretchKeepsEveryReplayedInterval_data();
    void stretchKeepsEveryReplayedInterval();
    void noFloorUnderBanishing();
    void mapReportsTheStretch();
    void checkmateInfeasibleBelowItsFloor();
};

void ImpossibleTest::floorIsSound_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<QString>("policy");
    for (const char *name : {"unet", "lstm", "resnet", "chain", "demo"})
        for (const char *policy : {"DTR", "LRU", "LargestStorage"})
            QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(name), QLatin1String(policy))))
                << ownTracePath(QLatin1String(name) + QStringLiteral(".log")) << QString::fromLatin1(policy);
}

// Replays just below the floor, and spread below it, all fail; the baseline itself clears it.
void ImpossibleTest::floorIsSound()
{
    QFETCH(QString, trace);
    QFETCH(QString, policy);
    const LoadedProgram loaded = loadProgram(trace);
    QVERIFY(loaded.program);
    const std::optional<FitFloor> floor = fitFloor(*loaded.program, RuntimeKind::Eager);
    QVERIFY(floor);
    QVERIFY(floor->bytes > 0 && floor->bytes <= loaded.baseline.memory);
    QCOMPARE(floor->bytes, floor->constants + floor->arguments + floor->outputs);
    // Never above simrd's constants plus bottleneck, which counts repeated arguments twice.
    QVERIFY(floor->bytes <= loaded.baseline.constMemory + loaded.baseline.bottleneck);
    const RunConfig config = configFor(loaded, policy.toLatin1().constData());
    for (Bytes below : {Bytes{1}, Bytes{2}, floor->bytes / 100 + 1, floor->bytes / 10 + 1, floor->bytes / 2}) {
        const RunResult r = replayAt(loaded, config, floor->bytes - below);
        QVERIFY2(isFailure(r.outcome), qPrintable(QStringLiteral("passes %1 B below the floor").arg(below)));
    }
    QVERIFY(isResolved(replayAt(loaded, config, loaded.baseline.memory).outcome));
}

void ImpossibleTest::stretchKeepsEveryReplayedInterval_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<double>("from");
    QTest::addColumn<double>("to");
    QTest::newRow("unet") << ownTracePath(QStringLiteral("unet.log")) << 0.01 << 0.7;
    QTest::newRow("lstm") << ownTracePath(QStringLiteral("lstm.log")) << 0.01 << 0.3;
    QTest::newRow("resnet") << ownTracePath(QStringLiteral("resnet.log")) << 0.01 << 0.2;
}

// The stretch plus a walk of the rest equals a walk of everything, but for the failing
// intervals the stretch stands for.
void ImpossibleTest::stretchKeepsEveryReplayedInterval()
{
    QFETCH(QString, trace);
    QFETCH(double, from);
    QFETCH(double, to);
    const LoadedProgram loaded = loadProgram(trace);
    QVERIFY(loaded.program);
    const RunConfig config = configFor(loaded, "DTR");
    const ByteRange range{budgetForRatio(loaded.baseline, from), budgetForRatio(loaded.baseline, to) + 1};
    const BudgetWalker walker(loaded.program, config, 1);
    const std::optional<RunResult> stretch = impossibleStretch(*loaded.program, config, range, walker);
    QVERIFY(stretch);
    QCOMPARE(stretch->outcome, Outcome::Impossible);
    QCOMPARE(stretch->interval.lo, range.from);
    QVERIFY(stretch->interval.hi && *stretch->interval.hi > range.from);
    QVERIFY(*stretch->interval.hi <= fitFloor(*loaded.program, config.runtime)->bytes);
    QVERIFY(stretch->failure && stretch->failure->bytesShort > 0);

    const std::vector<RunResult> everything = walk(loaded, config, range);
    const std::vector<RunResult> above = walk(loaded, config, {*stretch->interval.hi, range.end});
    std::size_t below = 0;
    for (const RunResult &r : everything) {
        if (r.interval.hi && *r.interval.hi <= *stretch->interval.hi) {
            QVERIFY(isFailure(r.outcome));
            ++below;
        }
    }
    QVERIFY(below > 0);
    QCOMPARE(above.size(), everything.size() - below);
    for (std::size_t i = 0; i < above.size(); ++i) {
        const RunResult &a = above[i];
        const RunResult &e = everything[below + i];
        QCOMPARE(a.interval, e.interval);
        QCOMPARE(a.outcome, e.outcome);
        QCOMPARE(a.clock, e.clock);
        QCOMPARE(a.evictions, e.evictions);
        QCOMPARE(a.maxMemory, e.maxMemory);
    }
}

void ImpossibleTest::noFloorUnderBanishing()
{
    const LoadedProgram loaded = loadProgram(ownTracePath(QStringLiteral("unet.log")));
    QVERIFY(loaded.program);
    QVERIFY(!fitFloor(*loaded.program, RuntimeKind::Banishing));
    QVERIFY(fitFloor(*loaded.program, RuntimeKind::Lazy));
    const RunConfig config = configFor(loaded, "DTR", RuntimeKind::Banishing);
    const BudgetWalker walker(loaded.program, config, 1);
    QVERIFY(!impossibleStretch(*loaded.program, config, {1000, 2000000}, walker));
}

// map's records and report: the stretch is one record, "impossible", with its reason, and the
// next record begins where it ends.
void ImpossibleTest::mapReportsTheStretch()
{
    QProcess map;
    map.start(QStringLiteral(REMATLENS_BINARY),
              {QStringLiteral("map"), ownTracePath(QStringLiteral("unet.log")), QStringLiteral("--from"),
               QStringLiteral("0.01"), QStringLiteral("--to"), QStringLiteral("0.7"), QStringLiteral("--threads"),
               QStringLiteral("1")});
    QVERIFY(map.waitForFinished(120000));
    QCOMPARE(map.exitCode(), 0);
    const QString text = QString::fromUtf8(map.readAllStandardOutput());
    QVERIFY2(text.contains(QStringLiteral("    impossible  ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("  impossible         every budget below ")) && text.contains(QStringLiteral("(no replay)")),
             qPrintable(text));

    QProcess json;
    json.start(QStringLiteral(REMATLENS_BINARY),
               {QStringLiteral("map"), ownTracePath(QStringLiteral("unet.log")), QStringLiteral("--from"),
                QStringLiteral("0.01"), QStringLiteral("--to"), QStringLiteral("0.7"), QStringLiteral("--json")});
    QVERIFY(json.waitForFinished(120000));
    const QJsonArray maps = QJsonDocument::fromJson(json.readAllStandardOutput()).object().value(QStringLiteral("maps")).toArray();
    QVERIFY(!maps.isEmpty());
    const QJsonArray records = maps.at(0).toObject().value(QStringLiteral("interval_records")).toArray();
    QVERIFY(records.size() > 2);
    const QJsonObject first = records.at(0).toObject();
    QCOMPARE(first.value(QStringLiteral("result")).toString(), QStringLiteral("impossible"));
    QVERIFY(first.value(QStringLiteral("reason")).toString().startsWith(QStringLiteral("every budget below")));
    QCOMPARE(records.at(1).toObject().value(QStringLiteral("lo")).toInteger(), first.value(QStringLiteral("hi")).toInteger());
    QVERIFY(records.at(1).toObject().value(QStringLiteral("result")).toString() != QStringLiteral("impossible"));
}

void ImpossibleTest::checkmateInfeasibleBelowItsFloor()
{
    auto node = [](Bytes bytes, std::vector<NodeId> deps, bool output = false) {
        ScheduleNode n;
        n.bytes = bytes;
        n.cost = 1;
        n.deps = std::move(deps);
        n.output = output;
        return n;
    };
    // 0 -> 1 -> 3, 0 -> 2 -> 3: node 3 needs 1, 2 and itself (3 + 4 + 2) besides 5 fixed.
    const ScheduleGraph graph =
        ScheduleGraph::fromNodes({node(2, {}), node(3, {0}), node(4, {0}), node(2, {1, 2}, true)}, 5);
    QCOMPARE(graph.fitFloor(), Bytes{5 + 9});
    const CheckmateMilp milp(graph);
    const MilpSolution below = milp.solve(13, 10);
    QCOMPARE(below.status, SolveStatus::Infeasible);
    QVERIFY(below.belowFitFloor);
    QVERIFY(!milp.lpBound(13, 10).feasible);
    const MilpSolution at = milp.solve(14, 10);
    QVERIFY(!at.belowFitFloor);
    QCOMPARE(at.status, SolveStatus::Optimal); // the floor is tight here: 0 is freed before 3 runs
}

QTEST_GUILESS_MAIN(ImpossibleTest)
#include "tst_impossible.moc"
