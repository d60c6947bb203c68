// rematlens sweep and holes from the outside: results independent of the thread count, files
// that survive interruption and resume, CSV, and the hole report.
#include "shared_data.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

class SweepCliTest : public QObject {
    Q_OBJECT

private slots:
    void sameResultsWhateverTheThreadCount();
    void resumesAndSortsTheFile();
    void randomSeedRunsResumeAndVerify();
    void csvRoundTrip();
    void interruptedSweepResumes();
    void killedSweepResumes();
    void terminatedSweepResumes();
    void holesReport();
    void badUsage();
    void resumeIntoAnotherSweepsFileIsRefused_data();
    void resumeIntoAnotherSweepsFileIsRefused();
    void compareOutResumesAfterInterrupt();
    void holesOutFile();

private:
    static int rematlens(const QStringList &arguments, QByteArray *out = nullptr, QByteArray *err = nullptr);
    static QList<QJsonObject> records(const QString &path);
    static QByteArray firstLine(const QString &path);
    static QByteArray contentOf(const QString &path);
    static QJsonObject withoutTiming(QJsonObject record);
    static QStringList longSweep(const QString &out);
    static void startAndAwaitRecords(QProcess &process, const QStringList &sweep, const QString &out);
    QTemporaryDir m_dir;
};

int SweepCliTest::rematlens(const QStringList &arguments, QByteArray *out, QByteArray *err)
{
    QProcess process;
    process.start(QStringLiteral(REMATLENS_BINARY), arguments);
    process.waitForFinished(300000);
    if (out)
        *out = process.readAllStandardOutput();
    if (err)
        *err = process.readAllStandardError();
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

QList<QJsonObject> SweepCliTest::records(const QString &path)
{
    QFile file(path);
    QList<QJsonObject> list;
    if (!file.open(QIODevice::ReadOnly))
        return list;
    for (const QByteArray &line : file.readAll().split('\n')) {
        const QJsonObject object = QJsonDocument::fromJson(line).object();
        if (!line.trimmed().isEmpty() && !object.contains(QStringLiteral("provenance")))
            list << object;
    }
    return list;
}

QByteArray SweepCliTest::contentOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QByteArray SweepCliTest::firstLine(const QString &path)
{
    return contentOf(path).split('\n').first() + '\n';
}

QJsonObject SweepCliTest::withoutTiming(QJsonObject record)
{
    record.remove(QStringLiteral("seconds"));
    return record;
}

void SweepCliTest::sameResultsWhateverTheThreadCount()
{
    QList<QList<QJsonObject>> runs;
    for (const char *threads : {"1", "2", "3"}) {
        const QString out = m_dir.filePath(QStringLiteral("threads%1.jsonl").arg(QLatin1String(threads)));
        QCOMPARE(rematlens({QStringLiteral("sweep"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.2"),
                            QStringLiteral("--to"), QStringLiteral("1.0"), QStringLiteral("--step"), QStringLiteral("0.01"),
                            QStringLiteral("--policy"), QStringLiteral("DTR"), QStringLiteral("--policy"), QStringLiteral("LRU"),
                            QStringLiteral("--threads"), QLatin1String(threads), QStringLiteral("--out"), out}),
                 0);
        runs << records(out);
    }
    QCOMPARE(runs[0].size(), 2 * 81);
    for (const QList<QJsonObject> &other : {runs[1], runs[2]}) {
        QCOMPARE(other.size(), runs[0].size());
        for (int i = 0; i < other.size(); ++i)
            QCOMPARE(withoutTiming(other[i]), withoutTiming(runs[0][i]));
    }
}

void SweepCliTest::resumesAndSortsTheFile()
{
    const QString full = m_dir.filePath(QStringLiteral("full.jsonl"));
    const QStringList sweep{QStringLiteral("sweep"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.2"),
                            QStringLiteral("--to"), QStringLiteral("0.6"), QStringLiteral("--step"), QStringLiteral("0.005")};
    QCOMPARE(rematlens(sweep + QStringList{QStringLiteral("--out"), full}), 0);
    const QList<QJsonObject> expected = records(full);
    QCOMPARE(expected.size(), 81);

    // A file cut short, as a killed sweep leaves it: some records, in completion order.
    const QString partial = m_dir.filePath(QStringLiteral("partial.jsonl"));
    QFile file(partial);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(firstLine(full));
    for (int i : {40, 3, 77, 12, 0})
        file.write(QJsonDocument(expected[i]).toJson(QJsonDocument::Compact) + '\n');
    file.close();
    QByteArray err;
    QCOMPARE(rematlens(sweep + QStringList{QStringLiteral("--out"), partial}, nullptr, &err), 0);
    QVERIFY2(err.contains("76 runs") && err.contains("5 already in"), err.constData());
    const QList<QJsonObject> resumed = records(partial);
    QCOMPARE(resumed.size(), expected.size());
    for (int i = 0; i < resumed.size(); ++i) // rewritten in grid order, the kept records untouched
        QCOMPARE(withoutTiming(resumed[i]), withoutTiming(expected[i]));
    QCOMPARE(resumed[40], expected[40]);
}

// A random policy's records carry their seed; a file written before they did (the seed in its
// header alone) resumes and verifies as well, in JSON lines and in CSV.
void SweepCliTest::randomSeedRunsResumeAndVerify()
{
    for (const QString &name : {QStringLiteral("seeded.jsonl"), QStringLiteral("seeded.csv")}) {
        const QString path = m_dir.filePath(name);
        const QStringList sweep{QStringLiteral("sweep"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.2"),
                                QStringLiteral("--to"), QStringLiteral("0.6"), QStringLiteral("--step"), QStringLiteral("0.05"),
                                QStringLiteral("--policy"), QStringLiteral("RandomStorage"), QStringLiteral("--seed"),
                                QStringLiteral("3"), QStringLiteral("--out"), path};
        QCOMPARE(rematlens(sweep), 0);
        if (name.endsWith(QStringLiteral(".jsonl"))) {
            const QList<QJsonObject> written = records(path);
            QCOMPARE(written.size(), 9);
            QCOMPARE(written.front().value(QStringLiteral("seed")).toInteger(), 3);
            // As written before records carried the seed (the header's alone), the last one lost.
            QList<QByteArray> lines = contentOf(path).trimmed().split('\n');
            QCOMPARE(lines.size(), 10);
            lines.removeLast();
            for (qsizetype i = 1; i < lines.size(); ++i) // the header keeps its seed
                lines[i].replace(",\"seed\":3", "");
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(lines.join('\n') + '\n');
            file.close();
            QCOMPARE(contentOf(path).count("\"seed\""), 1);
            QByteArray err;
            QCOMPARE(rematlens(sweep, nullptr, &err), 0);
            QVERIFY2(err.contains("1 runs") && err.contains("8 already in"), err.constData());
        }
        QByteArray err;
        QCOMPARE(rematlens(sweep, nullptr, &err), 0);
        QVERIFY2(err.contains("0 runs") && err.contains("9 already in"), err.constData());
        QByteArray out;
        QCOMPARE(rematlens({QStringLiteral("verify"), path, QStringLiteral("--samples"), QStringLiteral("9")}, &out), 0);
        QVERIFY2(out.contains("9 same, 0 differ"), out.constData());
    }
}

void SweepCliTest::csvRoundTrip()
{
    const QString csv = m_dir.filePath(QStringLiteral("sweep.csv"));
    const QStringList sweep{QStringLiteral("sweep"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.2"),
                            QStringLiteral("--to"), QStringLiteral("0.4"), QStringLiteral("--step"), QStringLiteral("0.01"),
                            QStringLiteral("--out"), csv};
    QCOMPARE(rematlens(sweep), 0);
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 2 + 21);
    QVERIFY(lines[0].startsWith("# provenance {\"trace\":\":demo\",\"trace_sha256\":"));
    QVERIFY(lines[1].startsWith("trace,heuristic,runtime,ratio,budget"));
    QVERIFY(lines[2].contains(",oom,")); // 0.2 runs out of memory on the demo: failure columns filled
    file.close();
    QByteArray err;
    QCOMPARE(rematlens(sweep, nullptr, &err), 0); // everything already there
    QVERIFY2(err.contains("0 runs") && err.contains("21 already in"), err.constData());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().trimmed().split('\n').size(), 23);
}

void SweepCliTest::interruptedSweepResumes()
{
    const QString shared = sharedDirectory();
    if (shared.isEmpty())
        QSKIP("../shared is absent: a public trace is needed for a sweep long enough to interrupt");
    const QString trace = publicTracePath(shared, QStringLiteral("lstm-128-11000000000.0-2020-10-1-16-38-52-default.log"));
    const QString out = m_dir.filePath(QStringLiteral("interrupted.jsonl"));
    const QStringList sweep{QStringLiteral("sweep"), trace, QStringLiteral("--from"), QStringLiteral("0.3"), QStringLiteral("--to"),
                            QStringLiteral("0.9"), QStringLiteral("--step"), QStringLiteral("0.01"), QStringLiteral("--threads"),
                            QStringLiteral("2"), QStringLiteral("--out"), out};
    QProcess process;
    process.start(QStringLiteral(REMATLENS_BINARY), sweep);
    QVERIFY(process.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(records(out).size() >= 4, 60000);
    ::kill(static_cast<pid_t>(process.processId()), SIGINT);
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 130);
    const QList<QJsonObject> kept = records(out);
    QVERIFY(kept.size() >= 4 && kept.size() < 61);
    for (const QJsonObject &record : kept) // complete lines only
        QVERIFY(record.contains(QStringLiteral("result")));
    QByteArray err;
    QCOMPARE(rematlens(sweep, nullptr, &err), 0);
    QVERIFY2(err.contains(QStringLiteral("%1 already in").arg(kept.size()).toLatin1()), err.constData());
    QCOMPARE(records(out).size(), 61);
}

QStringList SweepCliTest::longSweep(const QString &out)
{
    return {QStringLiteral("sweep"), QStringLiteral(REMATLENS_SOURCE_DIR "/traces/lstm.log"), QStringLiteral("--from"),
            QStringLiteral("0.2"), QStringLiteral("--to"), QStringLiteral("1.0"), QStringLiteral("--step"), QStringLiteral("0.0001"),
            QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--out"), out};
}

void SweepCliTest::startAndAwaitRecords(QProcess &process, const QStringList &sweep, const QString &out)
{
    process.start(QStringLiteral(REMATLENS_BINARY), sweep);
    QVERIFY(process.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(records(out).size() >= 20, 60000);
}

void SweepCliTest::killedSweepResumes()
{
    // SIGKILL gives no chance to clean up; a record may even be cut in the middle.
    const QString out = m_dir.filePath(QStringLiteral("killed.jsonl"));
    const QStringList sweep = longSweep(out);
    QProcess process;
    startAndAwaitRecords(process, sweep, out);
    process.kill();
    QVERIFY(process.waitForFinished(10000));
    QFile file(out);
    QVERIFY(file.open(QIODevice::Append));
    file.write("{\"trace\":\":demo\",\"heuristic\":\"DT"); // what a kill in the middle of a write leaves
    file.close();
    QCOMPARE(rematlens(sweep), 0);
    QCOMPARE(records(out).size(), 8001);
}

void SweepCliTest::terminatedSweepResumes()
{
    const QString out = m_dir.filePath(QStringLiteral("terminated.jsonl"));
    const QStringList sweep = longSweep(out);
    QProcess process;
    startAndAwaitRecords(process, sweep, out);
    process.terminate(); // SIGTERM
    QVERIFY(process.waitForFinished(30000));
    QCOMPARE(process.exitCode(), 130);
    const qsizetype kept = records(out).size();
    QVERIFY(kept >= 20 && kept < 8001);
    QCOMPARE(rematlens(sweep), 0);
    QCOMPARE(records(out).size(), 8001);
}

void SweepCliTest::holesReport()
{
    QByteArray out;
    QCOMPARE(rematlens({QStringLiteral("holes"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.2"),
                        QStringLiteral("--to"), QStringLiteral("1.0"), QStringLiteral("--step"), QStringLiteral("0.01"),
                        QStringLiteral("--edges"), QStringLiteral("--repeats"), QStringLiteral("2"), QStringLiteral("--samples"),
                        QStringLiteral("3"), QStringLiteral("--json")},
                       &out),
             0);
    const QJsonObject report = QJsonDocument::fromJson(out).object();
    QCOMPARE(report.value(QStringLiteral("budgets")).toInt(), 81);
    const QJsonObject first = report.value(QStringLiteral("first_success")).toObject();
    QCOMPARE(first.value(QStringLiteral("result")).toString(), QStringLiteral("pass"));
    const QJsonArray edges = report.value(QStringLiteral("edges")).toArray();
    QVERIFY(!edges.isEmpty()); // at least the first success has a failing budget below it
    for (const QJsonValue &edge : edges) {
        const QJsonObject e = edge.toObject();
        QVERIFY(e.value(QStringLiteral("resolved")).toBool());
        QCOMPARE(e.value(QStringLiteral("above_budget")).toInteger() - e.value(QStringLiteral("below_budget")).toInteger(), 1);
        QVERIFY((e.value(QStringLiteral("below_result")).toString() == QStringLiteral("pass"))
                != (e.value(QStringLiteral("above_result")).toString() == QStringLiteral("pass")));
    }
    QVERIFY(report.value(QStringLiteral("repeats")).toObject().value(QStringLiteral("disagreements")).toArray().isEmpty());
    for (const QJsonValue &hole : report.value(QStringLiteral("holes")).toArray()) {
        const QJsonObject h = hole.toObject();
        QVERIFY(h.value(QStringLiteral("last_pass_below")).toDouble() < h.value(QStringLiteral("first_fail")).toDouble());
        QVERIFY(h.value(QStringLiteral("last_fail")).toDouble() < h.value(QStringLiteral("first_pass_above")).toDouble());
        QVERIFY(!h.value(QStringLiteral("results")).toArray().isEmpty());
    }
}

void SweepCliTest::badUsage()
{
    QCOMPARE(rematlens({QStringLiteral("sweep"), QStringLiteral(":demo"), QStringLiteral("--step"), QStringLiteral("0")}), 2);
    QCOMPARE(rematlens({QStringLiteral("sweep"), QStringLiteral(":demo"), QStringLiteral("--out"), QStringLiteral("x.txt")}), 2);
    QCOMPARE(rematlens({QStringLiteral("holes"), QStringLiteral(":demo"), QStringLiteral("--policy"), QStringLiteral("DTR"),
                        QStringLiteral("--policy"), QStringLiteral("LRU")}),
             2);
    const QString notSweep = m_dir.filePath(QStringLiteral("other.jsonl"));
    QFile file(notSweep);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"hello\": 1}\n");
    file.close();
    QByteArray err;
    QCOMPARE(rematlens({QStringLiteral("sweep"), QStringLiteral(":demo"), QStringLiteral("--out"), notSweep}, nullptr, &err), 1);
    QVERIFY2(err.contains("other.jsonl:1:"), err.constData());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("{\"hello\": 1}\n")); // nothing lost
}

void SweepCliTest::resumeIntoAnotherSweepsFileIsRefused_data()
{
    QTest::addColumn<QStringList>("change"); // arguments appended to the first sweep's
    QTest::addColumn<QString>("field");
    const QString chain = QStringLiteral(REMATLENS_SOURCE_DIR "/traces/chain.log");
    QTest::newRow("trace") << QStringList{QStringLiteral("--trace-instead"), chain} << QStringLiteral("trace_sha256 is");
    QTest::newRow("policy") << QStringList{QStringLiteral("--policy"), QStringLiteral("LRU")} << QStringLiteral("policies is [\"DTR\"] in the file but [\"LRU\"]");
    QTest::newRow("grid") << QStringList{QStringLiteral("--to"), QStringLiteral("0.5")} << QStringLiteral("grid is");
    QTest::newRow("runtime") << QStringList{QStringLiteral("--runtime"), QStringLiteral("lazy")} << QStringLiteral("runtime is");
    QTest::newRow("seed") << QStringList{QStringLiteral("--seed"), QStringLiteral("7")} << QStringLiteral("seed is 0 in the file but 7");
}

// A file written by another sweep (another trace, policy, grid...) is refused with one line
// naming the field, and left byte for byte as it was.
void SweepCliTest::resumeIntoAnotherSweepsFileIsRefused()
{
    QFETCH(QStringList, change);
    QFETCH(QString, field);
    for (const QString &extension : {QStringLiteral("jsonl"), QStringLiteral("csv")}) {
        const QString out = m_dir.filePath(QStringLiteral("refused-%1.%2").arg(QLatin1String(QTest::currentDataTag()), extension));
        const QStringList first{QStringLiteral("sweep"), QStringLiteral(":demo"), QStringLiteral("--from"),
                                QStringLiteral("0.3"), QStringLiteral("--step"), QStringLiteral("0.01"),
                                QStringLiteral("--out"), out};
        QCOMPARE(rematlens(first + QStringList{QStringLiteral("--to"), QStringLiteral("0.4")}), 0);
        const QByteArray before = contentOf(out);
        QStringList second = first;
        if (change.first() == QStringLiteral("--trace-instead"))
            second[1] = change.last();
        else
            second << change;
        if (!change.contains(QStringLiteral("--to")))
            second << QStringLiteral("--to") << QStringLiteral("0.4");
        QByteArray err;
        QCOMPARE(rematlens(second, nullptr, &err), 1);
        QCOMPARE(err.count('\n'), 1);
        QVERIFY2(err.contains("not resuming into this file (left unchanged)") && err.contains(field.toUtf8()),
                 err.constData());
        QCOMPARE(contentOf(out), before);
    }
}

// compare --out keeps every finished run, and the same command resumes from them after SIGINT:
// the report is the one an uninterrupted comparison prints.
void SweepCliTest::compareOutResumesAfterInterrupt()
{
    const QString out = m_dir.filePath(QStringLiteral("compare.jsonl"));
    const QStringList compare{QStringLiteral("compare"), QStringLiteral(REMATLENS_SOURCE_DIR "/traces/lstm.log"),
                              QStringLiteral("--policy"), QStringLiteral("DTR"), QStringLiteral("--policy"), QStringLiteral("LRU"),
                              QStringLiteral("--from"), QStringLiteral("0.2"), QStringLiteral("--to"), QStringLiteral("1.0"),
                              QStringLiteral("--step"), QStringLiteral("0.0001"),
                              QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--json")};
    QProcess process;
    process.start(QStringLiteral(REMATLENS_BINARY), compare + QStringList{QStringLiteral("--out"), out});
    QVERIFY(process.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(records(out).size() >= 20, 60000);
    ::kill(static_cast<pid_t>(process.processId()), SIGINT);
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 130);
    const qsizetype kept = records(out).size();
    QVERIFY(kept >= 20 && kept < 2 * 8001);
    QVERIFY(firstLine(out).startsWith("{\"provenance\":{\"trace\":\""));

    QByteArray resumed;
    QByteArray err;
    QCOMPARE(rematlens(compare + QStringList{QStringLiteral("--out"), out}, &resumed, &err), 0);
    QCOMPARE(records(out).size(), 2 * 8001);
    QByteArray fresh;
    QCOMPARE(rematlens(compare, &fresh), 0);
    QCOMPARE(resumed, fresh);
}

void SweepCliTest::holesOutFile()
{
    const QString out = m_dir.filePath(QStringLiteral("holes.jsonl"));
    QCOMPARE(rematlens({QStringLiteral("holes"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.30"),
                        QStringLiteral("--to"), QStringLiteral("0.40"), QStringLiteral("--step"), QStringLiteral("0.005"),
                        QStringLiteral("--out"), out}),
             0);
    const QList<QByteArray> lines = contentOf(out).trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    const QJsonObject provenance = QJsonDocument::fromJson(lines[0]).object().value(QStringLiteral("provenance")).toObject();
    QCOMPARE(provenance.value(QStringLiteral("grid")).toObject().value(QStringLiteral("step")).toString(), QStringLiteral("0.005"));
    const QJsonArray holes = QJsonDocument::fromJson(lines[1]).object().value(QStringLiteral("holes")).toArray();
    QVERIFY(!holes.isEmpty()); // the demo's hole at 0.34-0.36
    for (const QJsonValue &hole : holes) {
        const QJsonArray around = hole.toObject().value(QStringLiteral("passes_around")).toArray();
        QCOMPARE(around.size(), 2);
        for (const QJsonValue &pass : around)
            QCOMPARE(pass.toObject().value(QStringLiteral("result")).toString(), QStringLiteral("pass"));
    }
}

QTEST_GUILESS_MAIN(SweepCliTest)
#include "tst_sweep_cli.moc"
