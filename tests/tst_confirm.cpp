// rematlens confirm's script, run against a stand-in for simrd (tests/data/simrd-stand-in): the
// comparison logic reports "same" for records that agree, names every field that differs, skips
// what simrd cannot replay, picks the runs of holes, and refuses a trace of other content.
// The values below follow the stand-in's rules (see its runtime module).
#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class ConfirmTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void agreeingRecordsAreSame();
    void differingFieldsAreNamed();
    void onlyHolesPicksTheHolesAndTheirNeighbours();
    void anotherTraceIsRefused();
    void withoutSimrdTheScriptIsWritten();
    void verifyReplaysASample();

private:
    struct Result {
        int status = -1;
        QByteArray out;
        QByteArray err;
    };
    static Result rematlens(const QStringList &arguments);
    QString writeResults(const QString &name, const QList<QByteArray> &records) const;
    QString path(const QString &name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;
    QByteArray m_traceHash;
};

namespace {

const QString kStandIn = QStringLiteral(REMATLENS_TEST_DATA "/simrd-stand-in");

// Allocations of 4, 3, 5 and 2 bytes: what the stand-in replays.
const QByteArray kTrace = "{\"INSTRUCTION\":\"MEMORY\",\"NAME\":\"a\",\"MEMORY\":\"4\"}\n"
                          "{\"INSTRUCTION\":\"MEMORY\",\"NAME\":\"b\",\"MEMORY\":\"3\"}\n"
                          "{\"INSTRUCTION\":\"MEMORY\",\"NAME\":\"c\",\"MEMORY\":\"5\"}\n"
                          "{\"INSTRUCTION\":\"MEMORY\",\"NAME\":\"d\",\"MEMORY\":\"2\"}\n";

QByteArray record(const char *heuristic, const char *runtime, int budget, const char *rest)
{
    return QStringLiteral("{\"trace\":\"t.log\",\"heuristic\":\"%1\",\"runtime\":\"%2\",\"ratio\":%3,\"budget\":%4,%5}")
        .arg(QLatin1String(heuristic), QLatin1String(runtime))
        .arg(budget / 14.0)
        .arg(budget)
        .arg(QLatin1String(rest))
        .toUtf8();
}

// Nothing short: every allocation fits, two storages are released at the end.
const char *kRoomy = "\"overhead_limit\":2.0,\"result\":\"pass\",\"clock\":41,\"remat_compute\":0,\"max_memory\":14,"
                     "\"memory_at_end\":9,\"evictions\":0,\"released_evictions\":2,\"remats\":0,\"heuristic_evals\":0";
// Budget 9: two evictions by the policy, one on release, one rematerialization.
const char *kTight = "\"overhead_limit\":2.0,\"result\":\"pass\",\"clock\":51,\"remat_compute\":10,\"max_memory\":9,"
                     "\"memory_at_end\":9,\"evictions\":2,\"released_evictions\":1,\"remats\":1,\"heuristic_evals\":4";
// Budget 9 with a compute limit of 0.1 x 40: the rematerialization exceeds it.
const char *kThrash = "\"overhead_limit\":1.1,\"result\":\"thrash\",\"clock\":51,\"remat_compute\":10,\"max_memory\":9,"
                      "\"memory_at_end\":9,\"evictions\":2,\"released_evictions\":1,\"remats\":1,\"heuristic_evals\":4";
// Budget 4: the third allocation (5 bytes) cannot fit once the pool is empty.
const char *kOom = "\"overhead_limit\":2.0,\"result\":\"oom\",\"clock\":21,\"remat_compute\":0,\"max_memory\":4,"
                   "\"memory_at_end\":0,\"evictions\":2,\"released_evictions\":0,\"remats\":0,\"heuristic_evals\":2,"
                   "\"failure\":{\"step\":2,\"line\":3,\"operator\":\"op\",\"tensor\":\"x2\",\"bytes_needed\":5,"
                   "\"memory_in_use\":0,\"bytes_short\":1,\"depth\":1,\"locked_bytes\":5}";

} // namespace

ConfirmTest::Result ConfirmTest::rematlens(const QStringList &arguments)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("SIMRD"));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(REMATLENS_BINARY), arguments);
    process.waitForFinished(120000);
    Result r;
    r.status = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    r.out = process.readAllStandardOutput();
    r.err = process.readAllStandardError();
    return r;
}

void ConfirmTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (!QFile::exists(QStringLiteral("/usr/bin/python3")))
        QSKIP("/usr/bin/python3 is absent: the confirm script cannot run here");
    QFile trace(path(QStringLiteral("t.log")));
    QVERIFY(trace.open(QIODevice::WriteOnly));
    trace.write(kTrace);
    m_traceHash = QCryptographicHash::hash(kTrace, QCryptographicHash::Sha256).toHex();
}

QString ConfirmTest::writeResults(const QString &name, const QList<QByteArray> &records) const
{
    const QString file = path(name);
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly))
        return {};
    out.write("{\"provenance\":{\"trace\":\"t.log\",\"trace_sha256\":\"" + m_traceHash + "\",\"seed\":0}}\n");
    for (const QByteArray &line : records)
        out.write(line + '\n');
    return file;
}

void ConfirmTest::agreeingRecordsAreSame()
{
    const QString results = writeResults(
        QStringLiteral("agree.jsonl"),
        {record("DTR", "RuntimeV2EagerOptimized", 100, kRoomy), record("DTR", "RuntimeV2EagerOptimized", 9, kTight),
         record("LRU", "RuntimeV1", 9, kThrash), record("DTR", "RuntimeV2EagerOptimized", 4, kOom),
         record("EStarCount", "RuntimeV2EagerOptimized", 9, kTight)});
    const Result r = rematlens({QStringLiteral("confirm"), results, QStringLiteral("--simrd"), kStandIn,
                                QStringLiteral("--repeats"), QStringLiteral("2")});
    QVERIFY2(r.status == 0, r.out + r.err);
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 6);
    for (int i = 0; i < 4; ++i)
        QVERIFY2(lines[i].endsWith(": same"), lines[i].constData());
    QVERIFY2(lines[4].contains("EStarCount") && lines[4].contains("not compared: simrd has no policy EStarCount"),
             lines[4].constData());
    QVERIFY2(lines[5].contains("4 same, 0 differ, 1 not compared, each replayed 2 times"), lines[5].constData());
    QVERIFY(QFile::exists(path(QStringLiteral("agree.confirm.py"))));
}

void ConfirmTest::differingFieldsAreNamed()
{
    QByteArray wrongClock = record("DTR", "RuntimeV2EagerOptimized", 9, kTight);
    wrongClock.replace("\"clock\":51", "\"clock\":52");
    QByteArray wrongDepth = record("DTR", "RuntimeV2EagerOptimized", 4, kOom);
    wrongDepth.replace("\"depth\":1", "\"depth\":2");
    const QString results = writeResults(QStringLiteral("differ.jsonl"),
                                         {record("DTR", "RuntimeV2EagerOptimized", 100, kRoomy), wrongClock, wrongDepth});
    const Result r = rematlens({QStringLiteral("confirm"), results, QStringLiteral("--simrd"), kStandIn});
    QCOMPARE(r.status, 1);
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 4);
    QVERIFY(lines[0].endsWith(": same"));
    QVERIFY2(lines[1].contains("differs: clock: simrd 51, RematLens 52"), lines[1].constData());
    QVERIFY2(!lines[1].contains("remat_compute"), lines[1].constData()); // only what differs
    QVERIFY2(lines[2].contains("differs: failure.depth: simrd 1, RematLens 2"), lines[2].constData());
    QVERIFY2(lines[3].contains("1 same, 2 differ"), lines[3].constData());
}

// A sweep's records with a hole (a failure between two passing budgets) and a failure below the
// first success: --only holes replays the hole and its two neighbours, nothing else.
void ConfirmTest::onlyHolesPicksTheHolesAndTheirNeighbours()
{
    QByteArray fakeHole = record("DTR", "RuntimeV2EagerOptimized", 50, kOom);
    const QString results = writeResults(QStringLiteral("holes.jsonl"),
                                         {record("DTR", "RuntimeV2EagerOptimized", 4, kOom),
                                          record("DTR", "RuntimeV2EagerOptimized", 30, kRoomy), fakeHole,
                                          record("DTR", "RuntimeV2EagerOptimized", 100, kRoomy)});
    const Result r = rematlens({QStringLiteral("confirm"), results, QStringLiteral("--simrd"), kStandIn,
                                QStringLiteral("--only"), QStringLiteral("holes")});
    QCOMPARE(r.status, 1); // the stand-in passes at 50: the "hole" is not confirmed
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 4);
    QVERIFY2(lines[0].contains("budget 30 ") && lines[0].endsWith(": same"), lines[0].constData());
    QVERIFY2(lines[1].contains("budget 50 ") && lines[1].contains("result: simrd \"pass\", RematLens \"oom\""),
             lines[1].constData());
    QVERIFY2(lines[2].contains("budget 100 ") && lines[2].endsWith(": same"), lines[2].constData());
}

void ConfirmTest::anotherTraceIsRefused()
{
    const QString results = writeResults(QStringLiteral("other.jsonl"), {record("DTR", "RuntimeV2EagerOptimized", 100, kRoomy)});
    QFile changed(path(QStringLiteral("elsewhere/t.log")));
    QVERIFY(QDir().mkpath(path(QStringLiteral("elsewhere"))));
    QVERIFY(changed.open(QIODevice::WriteOnly));
    changed.write(kTrace + kTrace);
    changed.close();
    const Result r = rematlens({QStringLiteral("confirm"), results, QStringLiteral("--simrd"), kStandIn,
                                QStringLiteral("--trace"), changed.fileName()});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.contains("its SHA-256 is not the one the results were made from"), r.err.constData());
}

void ConfirmTest::withoutSimrdTheScriptIsWritten()
{
    const QString results = writeResults(QStringLiteral("later.jsonl"), {record("DTR", "RuntimeV2EagerOptimized", 100, kRoomy)});
    const QString script = path(QStringLiteral("later-check.py"));
    const Result r = rematlens({QStringLiteral("confirm"), results, QStringLiteral("--script"), script});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.err.contains("run the script with") && r.err.contains(script.toUtf8()), r.err.constData());
    QProcess python; // the script runs on its own, given simrd
    python.start(QStringLiteral("/usr/bin/python3"), {script, kStandIn});
    QVERIFY(python.waitForFinished(60000));
    QCOMPARE(python.exitCode(), 0);
    QVERIFY(python.readAllStandardOutput().contains(": same"));
}

// verify replays a sample of a real sweep's records with RematLens; a changed record differs.
void ConfirmTest::verifyReplaysASample()
{
    const QString sweep = path(QStringLiteral("sweep.jsonl"));
    QCOMPARE(rematlens({QStringLiteral("sweep"), QStringLiteral(REMATLENS_SOURCE_DIR "/traces/chain.log"), QStringLiteral("--from"),
                        QStringLiteral("0.1"), QStringLiteral("--to"), QStringLiteral("1.0"), QStringLiteral("--step"),
                        QStringLiteral("0.1"), QStringLiteral("--policy"), QStringLiteral("DTR"), QStringLiteral("--policy"),
                        QStringLiteral("LRU"), QStringLiteral("--out"), sweep})
                 .status,
             0);
    Result r = rematlens({QStringLiteral("verify"), sweep, QStringLiteral("--trace"),
                          QStringLiteral(REMATLENS_SOURCE_DIR "/traces/chain.log"), QStringLiteral("--samples"),
                          QStringLiteral("5")});
    QVERIFY2(r.status == 0, r.out + r.err);
    QVERIFY2(r.out.contains("verify: 5 same, 0 differ, of 20 records"), r.out.constData());

    QFile file(sweep);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    file.close();
    for (int i = 1; i < lines.size(); ++i) {
        QJsonObject o = QJsonDocument::fromJson(lines[i]).object();
        o.insert(QStringLiteral("clock"), o.value(QStringLiteral("clock")).toInteger() + 1);
        lines[i] = QJsonDocument(o).toJson(QJsonDocument::Compact);
    }
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(lines.join('\n') + '\n');
    file.close();
    r = rematlens({QStringLiteral("verify"), sweep, QStringLiteral("--trace"),
                   QStringLiteral(REMATLENS_SOURCE_DIR "/traces/chain.log"), QStringLiteral("--samples"), QStringLiteral("3")});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.out.contains("differs: clock: file ") && r.out.contains("verify: 0 same, 3 differ"), r.out.constData());
    r = rematlens({QStringLiteral("verify"), sweep, QStringLiteral("--trace"), QStringLiteral(REMATLENS_SOURCE_DIR "/traces/demo.log")});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("was made from a trace whose SHA-256 is"), r.err.constData());
}

QTEST_GUILESS_MAIN(ConfirmTest)
#include "tst_confirm.moc"
