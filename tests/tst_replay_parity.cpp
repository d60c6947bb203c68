// Every record of simrd's reference files (tests/data/simrd-reference) replayed and compared field
// by field with unmodified simrd's output, including the baselines and the full event sequences:
// always on the project's own traces, and on the public DTR traces wherever they are installed.
#include "shared_data.h"

#include "core/sim/baseline.h"
#include "core/sim/replay.h"
#include "core/trace/trace_reader.h"

#include <nlohmann/json.hpp>

#include "reference_events.h"

#include <QCryptographicHash>
#include <QtTest>

#include <fstream>
#include <functional>
#include <map>

using namespace rematlens;
using nlohmann::json;

class ReplayParityTest : public QObject {
    Q_OBJECT

private slots:
    void ownTrace_data();
    void ownTrace();
    void publicTrace_data();
    void publicTrace();
    void wrongRecordIsCaught_data();
    void wrongRecordIsCaught();

private:
    struct LoadedTrace {
        std::shared_ptr<const Program> program;
        Baseline baseline;
    };
    using TraceLocator = std::function<QString(const QString &traceFileName)>;
    static void addFiles(const QString &directory);
    const LoadedTrace *trace(const QString &path);
    // Every difference between the file's records and our replays; a problem with the file
    // itself (unreadable, trace missing) comes back as the only entry.
    QStringList compareFile(const QString &path, const TraceLocator &locate, int &compared);
    static void compareRecord(const json &record, const Program &program, const Baseline &baseline,
                              QStringList &mismatches);
    static QString ownTraceLocation(const QString &traceFileName);

    std::map<QString, LoadedTrace> m_traces; // by path
};

void ReplayParityTest::addFiles(const QString &directory)
{
    QTest::addColumn<QString>("path");
    const QDir dir(directory);
    const QStringList files = dir.entryList({QStringLiteral("*.jsonl")}, QDir::Files, QDir::Name);
    QVERIFY2(!files.isEmpty(), qPrintable(QStringLiteral("no reference files in ") + directory));
    for (const QString &file : files)
        QTest::newRow(qPrintable(file)) << dir.filePath(file);
}

// The own trace, after checking that it is still the trace simrd replayed (TRACES.sha256).
QString ReplayParityTest::ownTraceLocation(const QString &traceFileName)
{
    QFile sums(projectReferenceDirectory(QStringLiteral("own-traces")) + QStringLiteral("/TRACES.sha256"));
    if (!sums.open(QIODevice::ReadOnly))
        return {};
    const QString path = ownTracePath(traceFileName);
    QFile trace(path);
    if (!trace.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&trace);
    const QByteArray expectedLine = hash.result().toHex() + "  " + traceFileName.toUtf8();
    for (const QByteArray &line : sums.readAll().split('\n'))
        if (line.trimmed() == expectedLine)
            return path;
    qWarning("%s: its SHA-256 is not the one in TRACES.sha256: the trace was regenerated after simrd made "
             "the references, which therefore no longer apply to it",
             qPrintable(path));
    return {};
}

void ReplayParityTest::ownTrace_data()
{
    addFiles(projectReferenceDirectory(QStringLiteral("own-traces")));
}

void ReplayParityTest::ownTrace()
{
    QFETCH(QString, path);
    int compared = 0;
    const QStringList mismatches = compareFile(path, ownTraceLocation, compared);
    QVERIFY2(mismatches.isEmpty(), qPrintable(mismatches.mid(0, 20).join(QLatin1Char('\n'))));
    QVERIFY2(compared > 0, "the reference file has no run records");
}

void ReplayParityTest::publicTrace_data()
{
    addFiles(projectReferenceDirectory(QStringLiteral("dtr-2020")));
}

void ReplayParityTest::publicTrace()
{
    QFETCH(QString, path);
    std::ifstream in(path.toStdString());
    std::string line;
    QVERIFY(std::getline(in, line));
    const QString traceName = QString::fromStdString(json::parse(line).at("trace").get<std::string>());
    if (findPublicTrace(traceName).isEmpty())
        QSKIP(qPrintable(traceName + QStringLiteral(" is not installed (neither in ../shared nor by "
                                                    "traces/download-dtr-traces.sh)")));
    int compared = 0;
    const QStringList mismatches = compareFile(path, findPublicTrace, compared);
    QVERIFY2(mismatches.isEmpty(), qPrintable(mismatches.mid(0, 20).join(QLatin1Char('\n'))));
    QVERIFY2(compared > 0, "the reference file has no run records");
}

// A copy of a reference file with one field of one record changed must fail the comparison,
// naming that field: the comparison really reads every field and every event.
void ReplayParityTest::wrongRecordIsCaught_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("recordLine");
    QTest::addColumn<QString>("pointer"); // a JSON pointer into that record
    QTest::addColumn<QString>("expected");
    QTest::newRow("clock") << "demo-DTR-eager-grid0.05.jsonl" << 12 << "/clock" << "clock";
    QTest::newRow("heuristic_evals") << "unet-LRU-eager-grid0.1.jsonl" << 3 << "/heuristic_evals" << "heuristic_evals";
    QTest::newRow("failure bytes short") << "demo-DTR-eager-grid0.05.jsonl" << 2 << "/failure/bytes_short"
                                         << "failure.bytes_short";
    QTest::newRow("baseline") << "chain-LRU-eager-grid0.1.jsonl" << 1 << "/baseline_compute" << "baseline_compute";
    QTest::newRow("one event's memory") << "resnet-DTR-eager-events.jsonl" << 2 << "/events/100/4"
                                        << "events differ at index 100";
}

void ReplayParityTest::wrongRecordIsCaught()
{
    QFETCH(QString, file);
    QFETCH(int, recordLine);
    QFETCH(QString, pointer);
    QFETCH(QString, expected);
    const QString original = projectReferenceDirectory(QStringLiteral("own-traces")) + QLatin1Char('/') + file;
    int compared = 0;
    QVERIFY2(compareFile(original, ownTraceLocation, compared).isEmpty(), "the unchanged file must agree");

    std::ifstream in(original.toStdString());
    QTemporaryDir dir;
    const QString copy = dir.filePath(file);
    std::ofstream out(copy.toStdString());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (number == recordLine) {
            json record = json::parse(line);
            json &value = record.at(json::json_pointer(pointer.toStdString()));
            QVERIFY(value.is_number_integer());
            value = value.get<std::int64_t>() + 1;
            line = record.dump();
        }
        out << line << '\n';
    }
    out.close();
    const QStringList mismatches = compareFile(copy, ownTraceLocation, compared);
    QCOMPARE(mismatches.size(), 1);
    QVERIFY2(mismatches.front().contains(expected), qPrintable(mismatches.front()));
}

const ReplayParityTest::LoadedTrace *ReplayParityTest::trace(const QString &path)
{
    auto found = m_traces.find(path);
    if (found != m_traces.end())
        return &found->second;
    const TraceReadResult read = readTraceFile(path.toStdString());
    if (!read.ok()) {
        qWarning("%s", read.error.toString().c_str());
        return nullptr;
    }
    return &m_traces.emplace(path, LoadedTrace{read.program, computeBaseline(*read.program)}).first->second;
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

QStringList ReplayParityTest::compareFile(const QString &path, const TraceLocator &locate, int &compared)
{
    compared = 0;
    std::ifstream in(path.toStdString());
    std::string line;
    if (!std::getline(in, line))
        return {path + QStringLiteral(": empty or unreadable")};
    const json first = json::parse(line);
    const QString traceName = QString::fromStdString(first.at("trace").get<std::string>());
    const QString tracePath = locate(traceName);
    const LoadedTrace *loaded = tracePath.isEmpty() ? nullptr : trace(tracePath);
    if (!loaded)
        return {path + QStringLiteral(": its trace ") + traceName + QStringLiteral(" cannot be read")};

    QStringList mismatches;
    const QString where = QStringLiteral("baseline:");
    expectEqual(mismatches, where, "baseline_memory", first.at("baseline_memory"), loaded->baseline.memory);
    expectEqual(mismatches, where, "baseline_compute", first.at("baseline_compute"), loaded->baseline.compute);
    expectEqual(mismatches, where, "baseline_const", first.at("baseline_const"), loaded->baseline.constMemory);
    expectEqual(mismatches, where, "baseline_bottleneck", first.at("baseline_bottleneck"), loaded->baseline.bottleneck);
    while (std::getline(in, line)) {
        if (line.empty())
            continue;
        const json record = json::parse(line);
        const std::string heuristic = record.at("heuristic");
        if (heuristic == "RandomStorage" || heuristic == "AbRandom")
            continue; // simrd's unseeded Python random cannot be reproduced
        compareRecord(record, *loaded->program, loaded->baseline, mismatches);
        ++compared;
    }
    return mismatches;
}

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

QTEST_GUILESS_MAIN(ReplayParityTest)
#include "tst_replay_parity.moc"
