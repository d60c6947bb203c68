// DTR's score written as an expression, (compute + estar) / (size * staleness), replayed on
// every record of simrd's DTR reference files and compared field by field (events included).
// DTR itself divides the exact integers once (exactRatio); the expression multiplies and
// divides doubles, rounding twice when size x staleness exceeds 2^53. A record where that
// changes a decision must be listed in kKnownDifferences with the reason; any other mismatch
// fails, and so does a listed record that no longer differs.
#include "shared_data.h"

#include "core/sim/baseline.h"
#include "core/sim/policy_spec.h"
#include "core/sim/replay.h"
#include "core/trace/trace_reader.h"

#include <nlohmann/json.hpp>

#include "reference_events.h"

#include <QtTest>

#include <array>
#include <fstream>
#include <map>

using namespace rematlens;
using nlohmann::json;

namespace {

const char *const kDtrExpression = "expr:(compute + estar) / (size * staleness)";

struct KnownDifference {
    const char *file;
    double ratio;
    const char *why;
};

// Records where double rounding inside the expression changes a decision. None so far: over
// sweeps of all eight public traces every score of the expression was bit-identical to DTR's
// exact ratio. Tens of thousands of size x staleness products exceed 2^53, but the traces' sizes
// are multiples of large powers of two (their odd parts have at most 19 bits), so those products
// are still exact doubles and the one rounding left is the division's, as in DTR.
const std::array<KnownDifference, 0> kKnownDifferences{};

const KnownDifference *knownDifference(const QString &file, double ratio)
{
    for (const KnownDifference &known : kKnownDifferences)
        if (file == QLatin1String(known.file) && ratio == known.ratio)
            return &known;
    return nullptr;
}

// Every field of a record that a replay produces, as simrd names it.
json outputOf(const RunConfig &config, const RunResult &r, const std::vector<ReplayEvent> &events,
              const Program &program, bool withEvents)
{
    json j{{"budget", config.budget},
           {"result", std::string(outcomeName(r.outcome))},
           {"clock", r.clock},
           {"remat_compute", r.rematCompute},
           {"max_memory", r.maxMemory},
           {"memory_at_end", r.memoryAtEnd},
           {"evictions", r.evictions},
           {"released_evictions", r.releasedEvictions},
           {"remats", r.remats},
           {"heuristic_evals", r.heuristicEvals}};
    if (r.failure)
        j["failure"] = json{{"tensor", r.failure->tensor},
                            {"bytes_needed", r.failure->bytesNeeded},
                            {"memory_in_use", r.failure->memoryInUse},
                            {"bytes_short", r.failure->bytesShort},
                            {"depth", r.failure->depth},
                            {"locked_bytes", r.failure->lockedBytes}};
    if (withEvents)
        j["events"] = referenceEventsJson(events, program);
    return j;
}

json expectedOf(const json &record)
{
    json j;
    for (const char *field : {"budget", "result", "clock", "remat_compute", "max_memory", "memory_at_end", "evictions",
                              "released_evictions", "remats", "heuristic_evals", "events"})
        if (record.contains(field))
            j[field] = record.at(field);
    if (record.contains("failure")) {
        json f;
        for (const char *field : {"tensor", "bytes_needed", "memory_in_use", "bytes_short", "depth", "locked_bytes"})
            f[field] = record.at("failure").at(field);
        j["failure"] = f;
    }
    return j;
}

} // namespace

class ExpressionParityTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void dtrReference_data();
    void dtrReference();

private:
    QString m_shared;
    Policy m_policy;
    std::map<std::string, std::pair<std::shared_ptr<const Program>, Baseline>> m_traces;
};

void ExpressionParityTest::initTestCase()
{
    m_shared = sharedDirectory();
    PolicySpecError error;
    const std::optional<Policy> policy = parsePolicySpec(kDtrExpression, error);
    QVERIFY2(policy, error.toString().c_str());
    m_policy = *policy;
}

// simrd's DTR records of the project's own traces (kept in the project), and those of the public
// traces where ../shared is beside the checkout (as in CI).
void ExpressionParityTest::dtrReference_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("traces"); // the folder of the traces the records name
    const auto addRows = [](const QString &references, const QString &traces, const char *prefix) {
        const QDir dir(references);
        const QStringList files = dir.entryList({QStringLiteral("*-DTR-*.jsonl")}, QDir::Files, QDir::Name);
        QVERIFY2(files.size() >= 4, qPrintable(QStringLiteral("no DTR reference files in ") + references));
        for (const QString &file : files)
            QTest::addRow("%s %s", prefix, qPrintable(file)) << dir.filePath(file) << traces;
    };
    addRows(projectReferenceDirectory(QStringLiteral("own-traces")), ownTracePath(QString()), "own");
    if (m_shared.isEmpty())
        qInfo("../shared is absent: simrd's records of the public traces are compared where it is (CI)");
    else
        addRows(m_shared + QStringLiteral("/reference"), publicTracePath(m_shared, QString()), "public");
}

void ExpressionParityTest::dtrReference()
{
    QFETCH(QString, path);
    QFETCH(QString, traces);
    const QString file = QFileInfo(path).fileName();
    std::ifstream in(path.toStdString());
    std::string line;
    QVERIFY(std::getline(in, line)); // the baseline
    const std::string traceName = json::parse(line).at("trace");
    auto found = m_traces.find(traceName);
    if (found == m_traces.end()) {
        const TraceReadResult read = readTraceFile((traces + QString::fromStdString(traceName)).toStdString());
        QVERIFY2(read.ok(), read.error.toString().c_str());
        found = m_traces.emplace(traceName, std::make_pair(read.program, computeBaseline(*read.program))).first;
    }
    const Program &program = *found->second.first;
    const Baseline &baseline = found->second.second;

    QStringList unexpected;
    int records = 0;
    int known = 0;
    while (std::getline(in, line)) {
        if (line.empty())
            continue;
        const json record = json::parse(line);
        ++records;
        QCOMPARE(record.at("heuristic").get<std::string>(), std::string("DTR"));
        const double ratio = record.at("ratio");
        RunConfig config;
        config.policy = m_policy;
        config.runtime = *findRuntime(record.at("runtime").get<std::string>());
        config.budget = budgetForRatio(baseline, ratio);
        config.rematLimit = rematLimitFor(baseline, record.value("overhead_limit", 2.0));
        RunRecording recording;
        const std::vector<ReplayEvent> &events = recording.events;
        const bool withEvents = record.contains("events");
        if (withEvents)
            config.recording = &recording;
        const RunResult r = Replay(program, config).run();
        const json ours = outputOf(config, r, events, program, withEvents);
        const json theirs = expectedOf(record);
        const KnownDifference *documented = knownDifference(file, ratio);
        if (ours == theirs) {
            if (documented)
                unexpected << QStringLiteral("ratio %1 is listed as differing (%2) but now matches: update the list")
                                  .arg(ratio)
                                  .arg(QLatin1String(documented->why));
            continue;
        }
        if (documented) {
            ++known;
            continue;
        }
        for (auto it = theirs.begin(); it != theirs.end(); ++it)
            if (!ours.contains(it.key()) || ours.at(it.key()) != it.value()) {
                const std::string mine = ours.contains(it.key()) ? ours.at(it.key()).dump() : "absent";
                unexpected << QStringLiteral("ratio %1 %2: simrd %3, expression %4")
                                  .arg(ratio)
                                  .arg(QString::fromStdString(it.key()),
                                       QString::fromStdString(it.value().dump().substr(0, 200)),
                                       QString::fromStdString(mine.substr(0, 200)));
                break;
            }
    }
    QVERIFY2(records > 0, "reference file has no run records");
    QVERIFY2(unexpected.isEmpty(), qPrintable(unexpected.mid(0, 20).join(QLatin1Char('\n'))));
    qInfo("%d records identical to simrd's DTR, %d documented differences", records - known, known);
}

QTEST_GUILESS_MAIN(ExpressionParityTest)
#include "tst_expression_parity.moc"
