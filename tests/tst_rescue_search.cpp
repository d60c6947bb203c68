// The rescue search runs its candidates from the failing run's shared past (RescueBranches):
// every candidate's record equals a replay from scratch that keeps its storage resident, in
// every field, for each policy that chooses by score, under the byte sum and an allocator
// model; random choice replays every candidate in full.
#include "loaded_program.h"
#include "record_differences.h"
#include "shared_data.h"

#include "core/analysis/rescue_search.h"
#include "core/sim/baseline.h"
#include "core/sim/replay.h"

#include <QtTest>

#include <map>

using namespace rematlens;

namespace {

struct SearchOutcome {
    RescueReport report;
    std::map<TensorId, RunResult> tried;
    std::map<TensorId, double> rescueOverheads; // as the callback gave them, for passing runs
    int misreported = 0;                        // runs given a rescue that did not pass, or none that did
};

// The search as it runs by default, or with every candidate replayed from scratch.
SearchOutcome searchAt(const SweepRunner &runner, const Baseline &baseline, const RunRequest &request, bool fromScratch)
{
    SearchOutcome outcome;
    RescueSearch search(runner, baseline);
    if (fromScratch)
        search.setCandidateRunner([&](const std::vector<RunRequest> &requests, const std::atomic<bool> *cancel,
                                      const std::function<void(std::size_t)> &done) {
            return runner.runAll(requests, cancel, done);
        });
    const auto tried = [&](TensorId kept, const RunResult &result, const Rescue *rescue) {
        outcome.tried.emplace(kept, result);
        if ((rescue != nullptr) != (result.outcome == Outcome::Pass))
            ++outcome.misreported;
        if (rescue)
            outcome.rescueOverheads.emplace(kept, rescue->overhead);
    };
    outcome.report = search.search(request, nullptr, {}, tried);
    return outcome;
}

// The highest budget of the grid 0.10, 0.11, ... 0.99 at which the run fails with evictions.
std::optional<Bytes> failingBudget(const SweepRunner &runner, const Baseline &baseline, RunConfig config)
{
    for (int percent = 99; percent >= 10; --percent) {
        config.budget = budgetForRatio(baseline, percent / 100.0);
        const RunResult r = runner.runOne(config);
        if ((r.outcome == Outcome::OutOfMemory || r.outcome == Outcome::Thrash) && r.evictions > 0)
            return config.budget;
    }
    return std::nullopt;
}

void checkSearch(const QString &tracePath, const QString &policyName, AllocatorKind allocator)
{
    const LoadedProgram loaded = loadProgram(tracePath);
    QVERIFY2(loaded.program, qPrintable(tracePath));
    const SweepRunner runner(loaded.program, 2);
    RunRequest request;
    request.config.policy = *findPolicy(policyName.toStdString());
    request.config.rematLimit = rematLimitFor(loaded.baseline, 2.0);
    request.config.allocator.kind = allocator;
    const std::optional<Bytes> budget = failingBudget(runner, loaded.baseline, request.config);
    QVERIFY2(budget, "no failing budget with evictions on the grid");
    request.config.budget = *budget;

    const SearchOutcome shared = searchAt(runner, loaded.baseline, request, false);
    const SearchOutcome scratch = searchAt(runner, loaded.baseline, request, true);
    QVERIFY(shared.report.candidates > 0);
    QCOMPARE(shared.report.candidates, scratch.report.candidates);
    QCOMPARE(shared.report.tried, shared.report.candidates);
    QCOMPARE(shared.tried.size(), scratch.tried.size());
    for (const auto &[kept, expected] : scratch.tried) {
        const auto found = shared.tried.find(kept);
        QVERIFY(found != shared.tried.end());
        const QString problem = recordDifferences(found->second, expected);
        QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("keeping %1: %2")
                                                   .arg(QString::fromStdString(loaded.program->tensors[kept].name), problem)));
    }
    QCOMPARE(shared.report.rescues.size(), scratch.report.rescues.size());
    QCOMPARE(shared.misreported, 0);
    QCOMPARE(shared.rescueOverheads.size(), shared.report.rescues.size());
    for (std::size_t i = 0; i < shared.report.rescues.size(); ++i) {
        const Rescue &rescue = shared.report.rescues[i];
        QCOMPARE(rescue.tensor, scratch.report.rescues[i].tensor);
        QCOMPARE(shared.rescueOverheads.at(rescue.tensor), rescue.overhead); // as the report has it
    }
}

} // namespace

class RescueSearchTest : public QObject {
    Q_OBJECT

private slots:
    void everyCandidateAsFromScratch_data();
    void everyCandidateAsFromScratch();
    void publicTraceCandidatesAsFromScratch_data();
    void publicTraceCandidatesAsFromScratch();
};

void RescueSearchTest::everyCandidateAsFromScratch_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<QString>("policy");
    QTest::addColumn<bool>("caching");
    for (const char *trace : {"unet.log", "resnet.log", "lstm.log", "chain.log"}) {
        for (const char *policy : {"DTR", "DTREqClass", "DTRLocal", "MSPS", "LRU", "LargestStorage", "RandomStorage"})
            QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(trace), QLatin1String(policy))))
                << ownTracePath(QLatin1String(trace)) << QString::fromLatin1(policy) << false;
        QTest::newRow(qPrintable(QStringLiteral("%1 DTR caching").arg(QLatin1String(trace))))
            << ownTracePath(QLatin1String(trace)) << QStringLiteral("DTR") << true;
    }
}

void RescueSearchTest::everyCandidateAsFromScratch()
{
    QFETCH(QString, trace);
    QFETCH(QString, policy);
    QFETCH(bool, caching);
    checkSearch(trace, policy, caching ? AllocatorKind::Caching : AllocatorKind::Sum);
}

void RescueSearchTest::publicTraceCandidatesAsFromScratch_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<QString>("policy");
    for (const char *policy : {"DTR", "MSPS"})
        QTest::newRow(policy) << publicTracePath(sharedDirectory(),
                                                 QStringLiteral("unet-6-8000000000.0-2020-10-1-10-57-18-default.log"))
                              << QString::fromLatin1(policy);
}

void RescueSearchTest::publicTraceCandidatesAsFromScratch()
{
    QFETCH(QString, trace);
    QFETCH(QString, policy);
    if (sharedDirectory().isEmpty() || !QFileInfo::exists(trace))
        QSKIP("needs the public DTR traces (../shared or REMATLENS_SHARED_DIR; traces/download-dtr-traces.sh)");
    checkSearch(trace, policy, AllocatorKind::Sum);
}

QTEST_GUILESS_MAIN(RescueSearchTest)
#include "tst_rescue_search.moc"
