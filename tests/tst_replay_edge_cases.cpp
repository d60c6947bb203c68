// Replays that stress the engine rather than match a reference: rematerialization chains far
// deeper than any call stack would survive, and the runtimes on a trace built by hand.
#include "core/sim/baseline.h"
#include "core/sim/replay.h"
#include "core/trace/trace_reader.h"

#include <QtTest>

#include <sstream>

using namespace rematlens;

namespace {

// x0 (constant) -> x1 -> ... -> xN, each released once the next exists, then one last call
// that needs x(N-1) again: in the eager runtime rematerializing it needs the whole chain.
std::string chainTrace(int length)
{
    std::ostringstream out;
    out << R"({"INSTRUCTION":"ANNOTATE","ANNOTATION":"START"})" << '\n';
    out << R"({"INSTRUCTION":"CONSTANT","NAME":"x0"})" << '\n';
    out << R"({"INSTRUCTION":"MEMORY","NAME":"x0","MEMORY":"1000"})" << '\n';
    for (int i = 1; i <= length; ++i) {
        out << R"({"INSTRUCTION":"CALL","NAME":"layer","ARGS":["x)" << i - 1 << R"("],"RESULT":["x)" << i
            << R"("],"TIME":"10"})" << '\n';
        out << R"({"INSTRUCTION":"MEMORY","NAME":"x)" << i << R"(","MEMORY":"1000"})" << '\n';
        out << R"({"INSTRUCTION":"ALIAS","NAME":"x)" << i << R"(","ALIAS":"-1"})" << '\n';
        if (i > 1)
            out << R"({"INSTRUCTION":"RELEASE","NAME":"x)" << i - 1 << R"("})" << '\n';
    }
    out << R"({"INSTRUCTION":"CALL","NAME":"loss","ARGS":["x)" << length - 1 << R"(","x)" << length
        << R"("],"RESULT":["loss"],"TIME":"5000000"})" << '\n';
    out << R"({"INSTRUCTION":"MEMORY","NAME":"loss","MEMORY":"4"})" << '\n';
    out << R"({"INSTRUCTION":"ALIAS","NAME":"loss","ALIAS":"-1"})" << '\n';
    return out.str();
}

} // namespace

class ReplayEdgeCasesTest : public QObject {
    Q_OBJECT

private slots:
    void deepChainDoesNotOverflow_data();
    void deepChainDoesNotOverflow();
    void deepChainOutOfMemoryReportsDepth();
};

void ReplayEdgeCasesTest::deepChainDoesNotOverflow_data()
{
    QTest::addColumn<int>("length");
    QTest::addColumn<QString>("policy");
    QTest::newRow("100000 deep, LRU") << 100000 << QStringLiteral("LRU");
    QTest::newRow("5000 deep, DTR") << 5000 << QStringLiteral("DTR");
    QTest::newRow("5000 deep, DTREqClass") << 5000 << QStringLiteral("DTREqClass");
}

void ReplayEdgeCasesTest::deepChainDoesNotOverflow()
{
    QFETCH(int, length);
    QFETCH(QString, policy);
    const TraceReadResult read = parseTraceText(chainTrace(length), "chain");
    QVERIFY2(read.ok(), read.error.toString().c_str());
    const Baseline baseline = computeBaseline(*read.program);
    RunConfig config;
    config.policy = *findPolicy(policy.toStdString());
    // Room for x0, x(N), the parent being used and the tensor being computed: each level of
    // the chain frees the one two below it.
    config.budget = 4 * 1000 + 4;
    config.rematLimit = rematLimitFor(baseline, 2.0);
    const RunResult result = Replay(*read.program, config).run();
    QCOMPARE(result.outcome, Outcome::Pass);
    // x1 .. x(N-1) were freed on release and all come back, one nested inside the next.
    QCOMPARE(result.remats, static_cast<std::int64_t>(length - 1));
    QCOMPARE(result.rematCompute, Cost{10} * (length - 1));
}

void ReplayEdgeCasesTest::deepChainOutOfMemoryReportsDepth()
{
    const int length = 20000;
    const TraceReadResult read = parseTraceText(chainTrace(length), "chain");
    QVERIFY(read.ok());
    RunConfig config;
    config.policy = *findPolicy("LRU");
    // Room for x0, x(N) and x1 only: after descending the whole chain, the rematerialization
    // of x2 finds every material storage locked.
    config.budget = 3 * 1000;
    const RunResult result = Replay(*read.program, config).run();
    QCOMPARE(result.outcome, Outcome::OutOfMemory);
    QVERIFY(result.failure.has_value());
    QCOMPARE(result.failure->depth, length - 1); // the final call is 1, x(N-1) is 2, ..., x2 is N-1
    QCOMPARE(result.failure->tensor, std::string("x2"));
    QCOMPARE(result.failure->bytesNeeded, Bytes{1000});
    QCOMPARE(result.failure->memoryInUse, result.failure->lockedBytes); // every material storage is locked
}

QTEST_GUILESS_MAIN(ReplayEdgeCasesTest)
#include "tst_replay_edge_cases.moc"
