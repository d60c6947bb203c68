// The opt-in recording (events and timeline samples) and keeping tensors resident.
#include "core/sim/baseline.h"
#include "core/sim/replay.h"
#include "core/trace/trace_reader.h"

#include <QtTest>

#include <algorithm>

using namespace rematlens;

class RunRecordingTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void recordingChangesNothing();
    void samplesFollowMemory();
    void eventsCarryStepAndDepth();
    void failureIsTheLastMoment();
    void keptTensorIsNeverEvicted();
    void keptTensorIsStillReleased();

private:
    RunConfig configFor(double ratio) const;
    RunResult replay(RunConfig config, RunRecording *recording = nullptr) const;

    std::shared_ptr<const Program> m_program;
    Baseline m_baseline;
};

void RunRecordingTest::initTestCase()
{
    const TraceReadResult read = readTraceFile(REMATLENS_SOURCE_DIR "/traces/unet.log");
    QVERIFY2(read.ok(), read.error.toString().c_str());
    m_program = read.program;
    m_baseline = computeBaseline(*m_program);
}

RunConfig RunRecordingTest::configFor(double ratio) const
{
    RunConfig config;
    config.budget = budgetForRatio(m_baseline, ratio);
    config.rematLimit = rematLimitFor(m_baseline, 2.0);
    return config;
}

RunResult RunRecordingTest::replay(RunConfig config, RunRecording *recording) const
{
    config.recording = recording;
    return Replay(*m_program, config).run();
}

void RunRecordingTest::recordingChangesNothing()
{
    for (double ratio : {0.3, 0.5, 0.8}) {
        RunRecording recording;
        const RunResult plain = replay(configFor(ratio));
        const RunResult recorded = replay(configFor(ratio), &recording);
        QCOMPARE(recorded.outcome, plain.outcome);
        QCOMPARE(recorded.clock, plain.clock);
        QCOMPARE(recorded.maxMemory, plain.maxMemory);
        QCOMPARE(recorded.evictions, plain.evictions);
        QCOMPARE(recorded.remats, plain.remats);
        QVERIFY(!recording.samples.empty());
    }
}

void RunRecordingTest::samplesFollowMemory()
{
    RunRecording recording;
    const RunConfig config = configFor(0.6);
    const RunResult result = replay(config, &recording);
    QCOMPARE(result.outcome, Outcome::Pass);
    Bytes peak = 0;
    Cost lastClock = 0;
    std::uint32_t lastStep = 0;
    for (const TimelineSample &s : recording.samples) {
        QVERIFY(s.memory <= config.budget);
        QVERIFY(s.lockedBytes <= s.memory);
        QVERIFY(s.clock >= lastClock);
        QVERIFY(s.step >= lastStep);
        lastClock = s.clock;
        lastStep = s.step;
        peak = std::max(peak, s.memory);
    }
    QCOMPARE(peak, result.maxMemory);
    QCOMPARE(recording.samples.back().memory, result.memoryAtEnd);
    QCOMPARE(recording.samples.back().clock, result.clock);
}

void RunRecordingTest::eventsCarryStepAndDepth()
{
    RunRecording recording;
    const RunResult result = replay(configFor(0.4), &recording);
    std::int64_t computes = 0;
    std::int64_t remats = 0;
    for (const ReplayEvent &e : recording.events) {
        QVERIFY(e.step < m_program->schedule.size());
        if (e.kind == ReplayEvent::Kind::Compute) {
            ++computes;
            QCOMPARE(int(e.depth), 1); // the model's own call
            QCOMPARE(m_program->ops[m_program->tensors[e.tensor].op].totalSize, e.bytes);
        } else if (e.kind == ReplayEvent::Kind::Remat) {
            ++remats;
            QVERIFY(e.depth >= 1);
        }
    }
    QCOMPARE(remats, result.remats);
    QVERIFY(computes > 0);
}

void RunRecordingTest::failureIsTheLastMoment()
{
    RunRecording recording;
    const RunResult result = replay(configFor(0.1), &recording);
    QCOMPARE(result.outcome, Outcome::OutOfMemory);
    QVERIFY(result.failure.has_value());
    QCOMPARE(result.failure->memoryInUse, recording.samples.back().memory);
    QVERIFY(recording.events.back().step <= result.failure->step);
}

namespace {

std::vector<TensorId> evictedByPolicy(const RunRecording &recording)
{
    std::vector<TensorId> tensors;
    for (const ReplayEvent &e : recording.events)
        if (e.kind == ReplayEvent::Kind::Evict)
            tensors.push_back(e.tensor);
    return tensors;
}

} // namespace

void RunRecordingTest::keptTensorIsNeverEvicted()
{
    RunRecording before;
    replay(configFor(0.5), &before);
    const std::vector<TensorId> evicted = evictedByPolicy(before);
    QVERIFY(!evicted.empty());
    const TensorId kept = evicted.front();
    RunConfig config = configFor(0.5);
    config.keepResident = {kept};
    RunRecording after;
    replay(config, &after);
    const std::vector<TensorId> evictedAfter = evictedByPolicy(after);
    QVERIFY(std::find(evictedAfter.begin(), evictedAfter.end(), kept) == evictedAfter.end());
    QVERIFY(evictedAfter != evicted);
}

// Keeping a storage resident only hides it from the policy: once the program releases it
// for the last time, the eager runtime frees it as usual.
void RunRecordingTest::keptTensorIsStillReleased()
{
    RunRecording before;
    replay(configFor(0.7), &before);
    int checked = 0;
    for (TensorId kept : evictedByPolicy(before)) {
        const auto freedIn = [kept](const RunRecording &r) {
            return std::any_of(r.events.begin(), r.events.end(), [kept](const ReplayEvent &e) {
                return e.kind == ReplayEvent::Kind::Free && e.tensor == kept;
            });
        };
        if (!freedIn(before))
            continue;
        RunConfig config = configFor(0.7);
        config.keepResident = {kept};
        RunRecording after;
        if (replay(config, &after).outcome != Outcome::Pass)
            continue;
        QVERIFY2(freedIn(after), m_program->tensors[kept].name.c_str());
        ++checked;
    }
    QVERIFY(checked > 0);
}

QTEST_GUILESS_MAIN(RunRecordingTest)
#include "tst_run_recording.moc"
