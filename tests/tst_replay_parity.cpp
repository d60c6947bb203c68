// Every record of every file in ../shared/reference replayed and compared field by field with
// unmodified simrd's output, including the baselines and the full event sequences.
#include "shared_data.h"

#include "core/sim/baseline.h"
#include "core/sim/replay.h"
#include "core/trace/trace_reader.h"

#include <nlohmann/json.hpp>

#include "reference_events.h"

#include <QtTest>

#include <fstream>
#include <map>

using namespace rematlens;
using nlohmann::json;

class ReplayParityTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void referenceFile_data();
    void referenceFile();

private:
    struct LoadedTrace {
        std::shared_ptr<const Program> program;
        Baseline baseline;
    };
    const LoadedTrace &trace(const std::string &fileName);
    static void compareRecord(const json &record, const Program &program, const Baseline &baseline,
                              QStringList &mismatches);

    QString m_shared;
    std::map<std::string, LoadedTrace> m_traces;
};

void ReplayParityTest::initTestCase()
{
    m_shared = sharedDirectory();
    if (m_shared.isEmpty())
        QSKIP("../shared/reference is absent: parity with simrd cannot be checked here");
}

void ReplayParityTest::referenceFile_data()
{
    QTest::addColumn<QString>("path");
    const QDir dir(m_shared + QStringLiteral("/reference"));
    const QStringList files = dir.entryList({QStringLiteral("*.jsonl")}, QDir::Files, QDir::Name);
    QVERIFY2(!files.isEmpty(), "no reference files found");
    for (const QString &file : files)
        QTest::newRow(qPrintable(file)) << dir.filePath(file);
}

const ReplayParityTest::LoadedTrace &ReplayParityTest::trace(const std::string &fileName)
{
    auto found = m_traces.find(fileName);
    if (found != m_traces.end())
        return found->second;
    const TraceReadResult read = readTraceFile(publicTracePath(m_shared, QString::fromStdString(fileName)).toStdString());
    if (!read.ok())
        qFatal("%s", read.error.toString().c_str());
    return m_traces.emplace(fileName, LoadedTrace{read.program, computeBaseline(*read.program)}).first->second;
}

namespace {

void expectEqual(QStringList &mismatches, const QString &where, const char *field, const json &expected,
                 const json &actual)
{
    if (expected != actual)
        mismatches << QStringLiteral("%1 %2: simrd %3, ours %4")
                          .arg(where, QString::fromLatin1(field), QString::fromStdString(expected.dump()),
                               QString::fromStdString(actual.dump()));
}

} // namespace

void ReplayParityTest::compareRecord(const json &record, const Program &program, const Baseline &baseline,
                                     QStringList &mismatches)
{
    const std::string heuristic = record.at("heuristic");
    const double ratio = record.at("ratio");
    const QString where = QStringLiteral("%1 ratio %2:").arg(QString::fromStdString(heuristic)).arg(ratio);
    RunConfig config;
    config.policy = *findPolicy(heuristic);
    config.runtime = *findRuntime(record.at("runtime").get<std::string>());
    config.budget = budgetForRatio(baseline, ratio);
    config.rematLimit = rematLimitFor(baseline, record.value("overhead_limit", 2.0));
    RunRecording recording;
    if (record.contains("events"))
        config.recording = &recording;
    const RunResult r = Replay(program, config).run();

    expectEqual(mismatches, where, "budget", record.at("budget"), config.budget);
    expectEqual(mismatches, where, "result", record.at("result"), std::string(outcomeName(r.outcome)));
    expectEqual(mismatches, where, "clock", record.at("clock"), r.clock);
    expectEqual(mismatches, where, "remat_compute", record.at("remat_compute"), r.rematCompute);
    expectEqual(mismatches, where, "max_memory", record.at("max_memory"), r.maxMemory);
    expectEqual(mismatches, where, "memory_at_end", record.at("memory_at_end"), r.memoryAtEnd);
    expectEqual(mismatches, where, "evictions", record.at("evictions"), r.evictions);
    expectEqual(mismatches, where, "released_evictions", record.at("released_evictions"), r.releasedEvictions);
    expectEqual(mismatches, where, "remats", record.at("remats"), r.remats);
    expectEqual(mismatches, where, "heuristic_evals", record.at("heuristic_evals"), r.heuristicEvals);
    if (record.contains("failure") != r.failure.has_value()) {
        mismatches << where + QStringLiteral(" failure present in only one of simrd and ours");
    } else if (r.failure) {
        const json &f = record.at("failure");
        expectEqual(mismatches, where, "failure.tensor", f.at("tensor"), r.failure->tensor);
        expectEqual(mismatches, where, "failure.bytes_needed", f.at("bytes_needed"), r.failure->bytesNeeded);
        expectEqual(mismatches, where, "failure.memory_in_use", f.at("memory_in_use"), r.failure->memoryInUse);
        expectEqual(mismatches, where, "failure.bytes_short", f.at("bytes_short"), r.failure->bytesShort);
        expectEqual(mismatches, where, "failure.depth", f.at("depth"), r.failure->depth);
        expectEqual(mismatches, where, "failure.locked_bytes", f.at("locked_bytes"), r.failure->lockedBytes);
    }
    if (record.contains("events")) {
        const json ours = referenceEventsJson(recording.events, program);
        const json &theirs = record.at("events");
        if (ours != theirs) {
            std::size_t i = 0;
            while (i < ours.size() && i < theirs.size() && ours[i] == theirs[i])
                ++i;
            mismatches << QStringLiteral("%1 events differ at index %2 of %3/%4: simrd %5, ours %6")
                              .arg(where)
                              .arg(i)
                              .arg(theirs.size())
                              .arg(ours.size())
                              .arg(QString::fromStdString(i < theirs.size() ? theirs[i].dump() : "end"),
                                   QString::fromStdString(i < ours.size() ? ours[i].dump() : "end"));
        }
    }
}

void ReplayParityTest::referenceFile()
{
    QFETCH(QString, path);
    std::ifstream in(path.toStdString());
    std::string line;
    QVERIFY(std::getline(in, line));
    const json first = json::parse(line);
    const LoadedTrace &loaded = trace(first.at("trace"));
    QCOMPARE(loaded.baseline.memory, first.at("baseline_memory").get<Bytes>());
    QCOMPARE(loaded.baseline.compute, first.at("baseline_compute").get<Cost>());
    QCOMPARE(loaded.baseline.constMemory, first.at("baseline_const").get<Bytes>());
    QCOMPARE(loaded.baseline.bottleneck, first.at("baseline_bottleneck").get<Bytes>());

    QStringList mismatches;
    int records = 0;
    int compared = 0;
    while (std::getline(in, line)) {
        if (line.empty())
            continue;
        const json record = json::parse(line);
        ++records;
        const std::string heuristic = record.at("heuristic");
        if (heuristic == "RandomStorage" || heuristic == "AbRandom")
            continue; // simrd's unseeded Python random cannot be reproduced
        compareRecord(record, *loaded.program, loaded.baseline, mismatches);
        ++compared;
    }
    QVERIFY2(records > 0, "reference file has no run records");
    QVERIFY2(mismatches.isEmpty(), qPrintable(mismatches.mid(0, 20).join(QLatin1Char('\n'))));
    qInfo("%d of %d records identical to simrd", compared, records);
}

QTEST_GUILESS_MAIN(ReplayParityTest)
#include "tst_replay_parity.moc"
