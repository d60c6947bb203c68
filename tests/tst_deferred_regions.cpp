// Deferring region rebuilds is an optimisation that must not change a single result: the
// project's own traces and every public trace, every region-keeping policy, both runtimes that keep regions, a spread of
// budgets, replayed both ways and compared field by field and event by event.
#include "shared_data.h"

#include "core/sim/baseline.h"
#include "core/sim/replay.h"
#include "core/trace/trace_reader.h"

#include <QtTest>

using namespace rematlens;

class DeferredRegionsTest : public QObject {
    Q_OBJECT

private slots:
    void sameAsLiteralSchedule_data();
    void sameAsLiteralSchedule();
};

void DeferredRegionsTest::sameAsLiteralSchedule_data()
{
    QTest::addColumn<QString>("trace");
    addOwnTraceRows();
    const QString shared = sharedDirectory();
    if (shared.isEmpty())
        qInfo("../shared is absent: the public traces are compared where it is (CI)");
    else
        addPublicTraceRows(shared);
}

void DeferredRegionsTest::sameAsLiteralSchedule()
{
    QFETCH(QString, trace);
    const TraceReadResult read = readTraceFile(trace.toStdString());
    QVERIFY2(read.ok(), read.error.toString().c_str());
    const Baseline baseline = computeBaseline(*read.program);
    const bool small = read.program->storages.size() < 2000;
    const std::vector<double> ratios = small ? std::vector<double>{0.1, 0.15, 0.2, 0.3, 0.45, 0.6, 0.8}
                                             : std::vector<double>{0.25, 0.5};
    const std::vector<const char *> policies = small ? std::vector<const char *>{"DTR", "MSPS", "AbESize", "AbEStale", "AbE"}
                                                     : std::vector<const char *>{"DTR"};
    int compared = 0;
    for (const char *policy : policies)
        for (RuntimeKind runtime : {RuntimeKind::Eager, RuntimeKind::Lazy})
            for (double ratio : ratios) {
                RunConfig config;
                config.policy = *findPolicy(policy);
                config.runtime = runtime;
                config.budget = budgetForRatio(baseline, ratio);
                config.rematLimit = rematLimitFor(baseline, 2.0);
                RunRecording deferredRecording;
                RunRecording literalRecording;
                config.recording = &deferredRecording;
                const RunResult deferred = Replay(*read.program, config).run();
                config.deferRegionRebuilds = false;
                config.recording = &literalRecording;
                const std::vector<ReplayEvent> &deferredEvents = deferredRecording.events;
                const std::vector<ReplayEvent> &literalEvents = literalRecording.events;
                const RunResult literal = Replay(*read.program, config).run();
                const QString where = QStringLiteral("%1 %2 ratio %3").arg(QLatin1String(policy)).arg(static_cast<int>(runtime)).arg(ratio);
                QVERIFY2(deferred.outcome == literal.outcome, qPrintable(where));
                QVERIFY2(deferred.clock == literal.clock, qPrintable(where));
                QVERIFY2(deferred.maxMemory == literal.maxMemory, qPrintable(where));
                QVERIFY2(deferred.heuristicEvals == literal.heuristicEvals, qPrintable(where));
                QVERIFY2(deferredEvents.size() == literalEvents.size(), qPrintable(where));
                for (std::size_t i = 0; i < deferredEvents.size(); ++i)
                    QVERIFY2(deferredEvents[i].tensor == literalEvents[i].tensor && deferredEvents[i].clock == literalEvents[i].clock,
                             qPrintable(where + QStringLiteral(" event %1").arg(i)));
                ++compared;
            }
    qInfo("%d runs identical both ways", compared);
}

QTEST_GUILESS_MAIN(DeferredRegionsTest)
#include "tst_deferred_regions.moc"
