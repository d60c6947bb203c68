// Policies of the user's own: score expressions (errors with positions, every variable, built-in
// scores rewritten as expressions give the built-ins' runs) and the published variants.
#include "shared_data.h"

#include "core/sim/baseline.h"
#include "core/sim/bit_count.h"
#include "core/sim/evictable_pool.h"
#include "core/sim/exact_ratio.h"
#include "core/sim/policy_spec.h"
#include "core/sim/replay.h"
#include "core/sim/score_expression.h"
#include "core/sweep/policy_comparison.h"
#include "core/synth/synth_presets.h"
#include "core/trace/trace_reader.h"

#include <QtTest>

#include <bit>
#include <cmath>
#include <random>

using namespace rematlens;

class PoliciesTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void expressionErrorsPointAtTheFault_data();
    void expressionErrorsPointAtTheFault();
    void everyVariableIsBound();
    void nanScoresAsInfinity();
    void doubleRoundingCanDifferFromDTR();
    void expressionsReadOnlyWhatTheyNeed();
    void specsParse();
    void badSpecsAreRefused_data();
    void badSpecsAreRefused();
    void expressionsReplayAsTheBuiltins_data();
    void expressionsReplayAsTheBuiltins();
    void variantsRunOnASmallTrace_data();
    void variantsRunOnASmallTrace();
    void penaltyZeroIsDTR();
    void shortfallFirstEvictsWhatCovers();
    void comparisonStatistics();
    void randomChoiceCountsLiveSlots();
    void selectBitFindsEachSetBit();

private:
    RunResult replay(const std::string &spec, double ratio, std::vector<ReplayEvent> *events = nullptr) const;
    std::shared_ptr<const Program> m_program;
    Baseline m_baseline;
};

void PoliciesTest::initTestCase()
{
    std::string error;
    const std::optional<std::string> text = synthesizeTrace(SynthOptions{"unet", {}, {}, 1}, error);
    QVERIFY2(text.has_value(), error.c_str());
    const TraceReadResult read = parseTraceText(*text, "unet");
    QVERIFY2(read.ok(), read.error.toString().c_str());
    m_program = read.program;
    m_baseline = computeBaseline(*m_program);
}

RunResult PoliciesTest::replay(const std::string &spec, double ratio, std::vector<ReplayEvent> *events) const
{
    PolicySpecError error;
    const std::optional<Policy> policy = parsePolicySpec(spec, error);
    if (!policy)
        qFatal("%s", error.toString().c_str());
    RunConfig config;
    config.policy = *policy;
    config.budget = budgetForRatio(m_baseline, ratio);
    config.rematLimit = rematLimitFor(m_baseline, 2.0);
    RunRecording recording;
    config.recording = events ? &recording : nullptr;
    if (const std::string problem = configProblem(config); !problem.empty())
        qFatal("%s", problem.c_str());
    const RunResult result = Replay(*m_program, config).run();
    if (events)
        for (const ReplayEvent &e : recording.events)
            if (isReferenceKind(e.kind))
                events->push_back(e);
    return result;
}

void PoliciesTest::expressionErrorsPointAtTheFault_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<int>("position");
    QTest::newRow("unknown variable") << QStringLiteral("compute / sise") << 10;
    QTest::newRow("two operators") << QStringLiteral("compute + * size") << 10;
    QTest::newRow("unclosed parenthesis") << QStringLiteral("(compute + estar") << 16;
    QTest::newRow("stray parenthesis") << QStringLiteral("size)") << 4;
    QTest::newRow("dangling operator") << QStringLiteral("size *") << 6;
    QTest::newRow("two results") << QStringLiteral("size, compute") << 4;
    QTest::newRow("empty") << QString() << 0;
}

void PoliciesTest::expressionErrorsPointAtTheFault()
{
    QFETCH(QString, expression);
    QFETCH(int, position);
    ExpressionError error;
    QVERIFY(!ScoreExpression::compile(expression.toStdString(), error));
    QVERIFY(!error.message.empty());
    QCOMPARE(static_cast<int>(error.position), position);
    PolicySpecError specError;
    QVERIFY(!parsePolicySpec("expr:" + expression.toStdString(), specError));
    QCOMPARE(specError.position, error.position);
    // The message, the expression and a caret under the offending character.
    const std::string text = specError.toString();
    const std::string caretLine = text.substr(text.rfind('\n') + 1);
    QCOMPARE(caretLine, std::string(4 + error.position, ' ') + "^");
}

void PoliciesTest::everyVariableIsBound()
{
    for (std::size_t i = 0; i < scoreVariableInfos().size(); ++i) {
        const std::string name = scoreVariableInfos()[i].name;
        ExpressionError error;
        std::optional<ScoreExpression> e = ScoreExpression::compile(name + " * 1", error);
        QVERIFY2(e, error.message.c_str());
        ScoreVariables &v = e->variables();
        double *bound[] = {&v.compute,   &v.estar,      &v.eqclass, &v.neighbours, &v.size,
                           &v.staleness, &v.lastAccess, &v.clock,   &v.shortfall};
        QCOMPARE(std::size(bound), scoreVariableInfos().size());
        for (std::size_t j = 0; j < std::size(bound); ++j)
            *bound[j] = 100.0 + static_cast<double>(j);
        QCOMPARE(e->evaluate(), 100.0 + static_cast<double>(i));
    }
}

void PoliciesTest::nanScoresAsInfinity()
{
    ExpressionError error;
    std::optional<ScoreExpression> e = ScoreExpression::compile("compute / (size * staleness)", error);
    QVERIFY(e);
    e->variables().compute = 0;
    e->variables().size = 0;
    e->variables().staleness = std::numeric_limits<double>::infinity();
    QCOMPARE(e->evaluate(), std::numeric_limits<double>::infinity()); // 0 / (0 x inf), as simrd's zero denominator
}

// Why an expression of DTR's score is not DTR by construction: it rounds size x staleness to a
// double before dividing, where DTR divides the exact product once. With odd sizes and
// stalenesses whose product needs more than 53 bits the two can differ in the last place.
void PoliciesTest::doubleRoundingCanDifferFromDTR()
{
    ExpressionError error;
    std::optional<ScoreExpression> e = ScoreExpression::compile("(compute + estar) / (size * staleness)", error);
    QVERIFY(e);
    e->variables().compute = 66173;
    e->variables().size = 928534413;
    e->variables().staleness = 887205617;
    const double exact = exactRatio(66173, 928534413, 887205617);
    QCOMPARE(exact, 8.032644324789332e-14);
    QCOMPARE(e->evaluate(), std::nextafter(exact, 1.0));
}

void PoliciesTest::expressionsReadOnlyWhatTheyNeed()
{
    PolicySpecError error;
    const Policy local = *parsePolicySpec("expr:compute / staleness", error);
    QVERIFY(!local.needsRegions() && !local.needsEqClasses() && local.runsOnBanishing());
    const Policy estar = *parsePolicySpec("expr:estar", error);
    QVERIFY(estar.needsRegions() && !estar.needsEqClasses() && !estar.runsOnBanishing());
    QVERIFY(parsePolicySpec("expr:neighbours", error)->needsRegions());
    const Policy eq = *parsePolicySpec("expr:eqclass + compute", error);
    QVERIFY(!eq.needsRegions() && eq.needsEqClasses());
    RunConfig config;
    config.policy = estar;
    config.runtime = RuntimeKind::Banishing;
    QVERIFY(!configProblem(config).empty()); // as simrd refuses DTR there
    config.policy = local;
    QVERIFY(configProblem(config).empty());
    config.policy.expression = "size +"; // built by hand, not by parsePolicySpec
    QVERIFY(configProblem(config).find("invalid score expression") != std::string::npos);
}

void PoliciesTest::specsParse()
{
    PolicySpecError error;
    QCOMPARE(parsePolicySpec("DTRPenalty", error)->name, std::string("DTRPenalty:b=0.5"));
    const Policy quarter = *parsePolicySpec("dtr-penalty:b=0.25", error);
    QCOMPARE(quarter.name, std::string("DTRPenalty:b=0.25"));
    QCOMPARE(quarter.penalty, 0.25);
    QCOMPARE(parsePolicySpec("CostOverStaleness", error)->name, std::string("AbLocalStale"));
    QCOMPARE(parsePolicySpec("h_e*", error)->name, std::string("EStarCount"));
    QCOMPARE(parsePolicySpec("two-phase", error)->name, std::string("ShortfallFirst"));
    QCOMPARE(parsePolicySpec("EXPR:size", error)->name, std::string("expr:size"));
    for (const Policy &policy : allPolicies())
        QVERIFY2(!policy.source.empty(), policy.name.c_str());
}

void PoliciesTest::badSpecsAreRefused_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown") << QStringLiteral("Belady") << QStringLiteral("unknown policy");
    QTest::newRow("parameter of a plain policy") << QStringLiteral("DTR:b=1") << QStringLiteral("takes no parameters");
    QTest::newRow("negative b") << QStringLiteral("DTRPenalty:b=-1") << QStringLiteral("expects b=NUMBER");
    QTest::newRow("no number") << QStringLiteral("DTRPenalty:b=") << QStringLiteral("expects b=NUMBER");
    QTest::newRow("other key") << QStringLiteral("DTRPenalty:c=1") << QStringLiteral("expects b=NUMBER");
    QTest::newRow("trailing text") << QStringLiteral("DTRPenalty:b=1x") << QStringLiteral("expects b=NUMBER");
    QTest::newRow("infinite") << QStringLiteral("DTRPenalty:b=inf") << QStringLiteral("expects b=NUMBER");
}

void PoliciesTest::badSpecsAreRefused()
{
    QFETCH(QString, spec);
    QFETCH(QString, message);
    PolicySpecError error;
    QVERIFY(!parsePolicySpec(spec.toStdString(), error));
    QVERIFY2(QString::fromStdString(error.message).contains(message), error.message.c_str());
    QVERIFY(!error.expression);
}

// A score written as an expression evicts exactly what the built-in evicts, as long as double
// arithmetic is exact (the small trace keeps every product below 2^53).
void PoliciesTest::expressionsReplayAsTheBuiltins_data()
{
    QTest::addColumn<QString>("builtin");
    QTest::addColumn<QString>("expression");
    QTest::newRow("DTR") << QStringLiteral("DTR") << QStringLiteral("(compute + estar) / (size * staleness)");
    QTest::newRow("DTREqClass") << QStringLiteral("DTREqClass")
                                << QStringLiteral("(compute + eqclass) / (size * staleness)");
    QTest::newRow("AbEq") << QStringLiteral("AbEq") << QStringLiteral("compute + eqclass");
    QTest::newRow("AbESize") << QStringLiteral("AbESize") << QStringLiteral("(compute + estar) / size");
    QTest::newRow("AbLocalStale") << QStringLiteral("AbLocalStale") << QStringLiteral("compute / staleness");
    QTest::newRow("clock and last access") << QStringLiteral("AbLocalStale")
                                           << QStringLiteral("compute / (clock - last_access)");
    QTest::newRow("shortfall is positive") << QStringLiteral("AbLocalStale")
                                           << QStringLiteral("shortfall > 0 ? compute / staleness : -1");
    QTest::newRow("LRU") << QStringLiteral("LRU") << QStringLiteral("last_access");
    QTest::newRow("LargestStorage") << QStringLiteral("LargestStorage") << QStringLiteral("1 / size");
    QTest::newRow("AbSizeStale") << QStringLiteral("AbSizeStale") << QStringLiteral("1 / (size * staleness)");
    QTest::newRow("EStarCount") << QStringLiteral("EStarCount") << QStringLiteral("neighbours");
    QTest::newRow("DTRPenalty") << QStringLiteral("DTRPenalty:b=0.5")
                                << QStringLiteral("(compute + estar) / (size * staleness) * (1 + 0.5 * neighbours)");
}

void PoliciesTest::expressionsReplayAsTheBuiltins()
{
    QFETCH(QString, builtin);
    QFETCH(QString, expression);
    int withEvictions = 0;
    for (double ratio : {0.15, 0.2, 0.3, 0.4, 0.5, 0.7}) {
        std::vector<ReplayEvent> theirs;
        std::vector<ReplayEvent> ours;
        const RunResult a = replay(builtin.toStdString(), ratio, &theirs);
        const RunResult b = replay("expr:" + expression.toStdString(), ratio, &ours);
        const QByteArray where = QByteArray::number(ratio);
        QVERIFY2(a.outcome == b.outcome, where);
        QVERIFY2(a.clock == b.clock, where);
        QVERIFY2(a.evictions == b.evictions && a.remats == b.remats, where);
        QVERIFY2(a.heuristicEvals == b.heuristicEvals, where);
        QVERIFY2(a.maxMemory == b.maxMemory && a.memoryAtEnd == b.memoryAtEnd, where);
        QVERIFY2(theirs.size() == ours.size(), where);
        for (std::size_t i = 0; i < ours.size(); ++i)
            QVERIFY2(theirs[i].tensor == ours[i].tensor && theirs[i].clock == ours[i].clock, where);
        withEvictions += a.evictions > 0;
    }
    QVERIFY(withEvictions > 0); // the budgets do make the policy choose
}

void PoliciesTest::variantsRunOnASmallTrace_data()
{
    QTest::addColumn<QString>("spec");
    for (const char *spec : {"EStarCount", "DTRPenalty:b=0.5", "DTRPenalty:b=4", "ShortfallFirst", "CostOverStaleness"})
        QTest::newRow(spec) << QString::fromLatin1(spec);
}

void PoliciesTest::variantsRunOnASmallTrace()
{
    QFETCH(QString, spec);
    const RunResult unlimited = replay(spec.toStdString(), 1.0);
    QCOMPARE(unlimited.outcome, Outcome::Pass);
    QCOMPARE(unlimited.evictions, 0);
    QCOMPARE(unlimited.clock, replay("DTR", 1.0).clock);
    int passedWithEvictions = 0;
    for (double ratio : {0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8}) {
        const RunResult r = replay(spec.toStdString(), ratio);
        QVERIFY(r.outcome == Outcome::Pass || r.outcome == Outcome::OutOfMemory || r.outcome == Outcome::Thrash);
        if (r.outcome == Outcome::Pass) {
            QVERIFY(r.maxMemory <= budgetForRatio(m_baseline, ratio));
            QVERIFY(r.clock >= m_baseline.compute);
            passedWithEvictions += r.evictions > 0;
        }
    }
    QVERIFY2(passedWithEvictions > 0, "the variant never ran a budget that needed evictions");
}

void PoliciesTest::penaltyZeroIsDTR()
{
    for (double ratio : {0.2, 0.3, 0.5}) {
        const RunResult dtr = replay("DTR", ratio);
        const RunResult penalty = replay("DTRPenalty:b=0", ratio);
        QCOMPARE(penalty.clock, dtr.clock);
        QCOMPARE(penalty.evictions, dtr.evictions);
        QCOMPARE(penalty.heuristicEvals, dtr.heuristicEvals);
    }
}

// The first phase matters: ranking only the storages that cover the shortfall changes the
// runs of plain cost over staleness (its second phase) on some budgets.
void PoliciesTest::shortfallFirstEvictsWhatCovers()
{
    int differing = 0;
    for (double ratio : {0.2, 0.3, 0.4, 0.5, 0.6}) {
        const RunResult twoPhase = replay("ShortfallFirst", ratio);
        const RunResult plain = replay("CostOverStaleness", ratio);
        differing += twoPhase.clock != plain.clock || twoPhase.evictions != plain.evictions;
    }
    QVERIFY(differing > 0);
}

void PoliciesTest::comparisonStatistics()
{
    const auto runs = [](std::vector<Outcome> outcomes, std::vector<double> overheads) {
        PolicyRuns r;
        for (std::size_t i = 0; i < outcomes.size(); ++i)
            r.outcomes.push_back({0.1 * static_cast<double>(i + 1), static_cast<Bytes>(i + 1), outcomes[i]});
        r.overheads = std::move(overheads);
        return r;
    };
    const Outcome P = Outcome::Pass;
    const Outcome F = Outcome::OutOfMemory;
    const PolicyComparison c = comparePolicies({runs({F, P, P, P}, {0, 1.5, 1.2, 1.0}),
                                               runs({F, F, P, P}, {0, 0, 1.8, 1.0}),
                                               runs({P, F, P, P}, {1.9, 0, 1.2, 1.0})});
    QCOMPARE(c.commonPasses, (std::vector<std::size_t>{2, 3}));
    QCOMPARE(*c.rows[0].holes.firstSuccess, std::size_t{1});
    QCOMPARE(*c.rows[1].holes.firstSuccess, std::size_t{2});
    QCOMPARE(*c.rows[2].holes.stableFrom, std::size_t{2});
    QCOMPARE(c.rows[2].holes.failuresAboveFirstSuccess, (std::vector<std::size_t>{1}));
    QCOMPARE(*c.rows[0].meanOverhead, 1.1);
    QCOMPARE(*c.rows[0].geomeanRatio, 1.0);
    QVERIFY(std::abs(*c.rows[1].meanOverhead - 1.4) < 1e-12);
    QVERIFY(std::abs(*c.rows[1].geomeanRatio - std::sqrt(1.5)) < 1e-12);
    QCOMPARE(c.rows[1].worst->column, std::size_t{2});
    QCOMPARE(c.rows[1].worst->ratio, 1.5);
    QVERIFY(!comparePolicies({runs({F}, {0}), runs({P}, {1})}).rows[1].meanOverhead);
}

// Random choice finds the n-th live storage by the pool's bitmap of live slots: through holes,
// word boundaries and the compactions that many removals trigger, the storage it finds is the
// n-th of an in-order scan.
void PoliciesTest::randomChoiceCountsLiveSlots()
{
    constexpr std::size_t storages = 1000;
    EvictablePool pool(storages, true);
    std::mt19937 random(7);
    std::size_t checked = 0;
    for (int round = 0; round < 4000; ++round) {
        const auto s = static_cast<StorageId>(random() % storages);
        const bool removing = random() % 3 < (round < 2000 ? 1u : 2u); // grow, then shrink past compactions
        if (removing)
            pool.remove(s);
        else
            pool.append(s);
        if (round % 97 != 0)
            continue;
        std::vector<StorageId> inOrder;
        pool.scan([&](StorageId x) {
            inOrder.push_back(x);
            return true;
        });
        QCOMPARE(inOrder.size(), pool.size());
        for (std::size_t i = 0; i < inOrder.size(); ++i)
            QCOMPARE(pool.nth(i), inOrder[i]);
        QCOMPARE(pool.nth(inOrder.size()), kNone); // no slot counted live past the last
        checked += inOrder.size();
    }
    QVERIFY(checked > 10000);
}

// Every set bit of words with bits in every byte, in none of some, and at both ends, against
// dropping the lowest set bit one at a time.
void PoliciesTest::selectBitFindsEachSetBit()
{
    std::mt19937_64 random(11);
    std::vector<std::uint64_t> words = {1, std::uint64_t{1} << 63, ~std::uint64_t{0}, 0x8000000000000001u,
                                        0x00FF00000000FF00u, 0xAAAAAAAAAAAAAAAAu};
    for (int i = 0; i < 200; ++i)
        words.push_back(random() & random()); // sparse, so that some bytes hold none
    for (const std::uint64_t w : words) {
        std::uint64_t bits = w;
        for (std::size_t index = 0; bits; ++index, bits &= bits - 1)
            QCOMPARE(selectBit(w, index), static_cast<unsigned>(std::countr_zero(bits)));
    }
}

QTEST_GUILESS_MAIN(PoliciesTest)
#include "tst_policies.moc"
