// rematlens map in shards (map --shard I/N, joined by merge) and across the ranks of an MPI job:
// the same file as one process writes, byte for byte but the command line; a killed shard or a
// lost rank keeps what it wrote and a rerun completes it; merge refuses shards that do not tile
// the range. The project's own traces never skip; the MPI cases skip when mpirun is absent,
// the public U-Net cases when the public traces are.
#include "provenance_text.h"
#include "shared_data.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

class MapClusterTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void shardsMergedSameAsOneProcess_data();
    void shardsMergedSameAsOneProcess();
    void killedShardResumes();
    void cutLastLineResumes();
    void mergeRefusesGapsOverlapsAndOtherMaps();
    void ranksSameAsOneProcess_data();
    void ranksSameAsOneProcess();
    void lostRankFailsAndResumes();

private:
    struct Outcome {
        int status = -1;
        QByteArray out;
        QByteArray err;
    };
    static Outcome run(const QString &program, const QStringList &arguments, const QStringList &environment = {});
    Outcome mpirun(int ranks, const QStringList &arguments, const QStringList &environment = {}) const;
    static Outcome rematlens(const QStringList &arguments) { return run(QStringLiteral(REMATLENS_BINARY), arguments); }
    static QByteArray contentOf(const QString &path);
    static void write(const QString &path, const QByteArray &content);
    static QStringList map(const QString &trace, const QString &out, const QString &from = QStringLiteral("0.10"),
                           const QString &to = QStringLiteral("1.00"));
    // The one-process map of trace over 0.10..1.00, made once per trace.
    QByteArray single(const QString &trace);
    QString path(const QString &name) const { return m_dir.filePath(name); }
    void mergeShards(const QString &trace, int count, const QString &stem);

    QString m_mpirun;
    QTemporaryDir m_dir;
    QMap<QString, QByteArray> m_single;
};

void MapClusterTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_mpirun = QStandardPaths::findExecutable(QStringLiteral("mpirun"));
}

MapClusterTest::Outcome MapClusterTest::run(const QString &program, const QStringList &arguments,
                                            const QStringList &environment)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &setting : environment)
        env.insert(setting.section(QLatin1Char('='), 0, 0), setting.section(QLatin1Char('='), 1));
    process.setProcessEnvironment(env);
    process.start(program, arguments);
    if (!process.waitForFinished(300000))
        process.kill();
    process.waitForFinished();
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
            process.readAllStandardError()};
}

// As tst_mpi_sweep launches: root needs both variables, containers the plain copy transports.
MapClusterTest::Outcome MapClusterTest::mpirun(int ranks, const QStringList &arguments,
                                               const QStringList &environment) const
{
    const QStringList launch{QStringLiteral("-np"),   QString::number(ranks), QStringLiteral("--oversubscribe"),
                             QStringLiteral("--mca"), QStringLiteral("btl"),  QStringLiteral("self,vader"),
                             QStringLiteral(REMATLENS_BINARY)};
    return run(m_mpirun, launch + arguments,
               QStringList{QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT=1"), QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"),
                           QStringLiteral("OMPI_MCA_btl_vader_single_copy_mechanism=none")}
                   + environment);
}

QByteArray MapClusterTest::contentOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void MapClusterTest::write(const QString &path, const QByteArray &content)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(content);
}

QStringList MapClusterTest::map(const QString &trace, const QString &out, const QString &from, const QString &to)
{
    return {QStringLiteral("map"), trace, QStringLiteral("--from"), from, QStringLiteral("--to"), to,
            QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--out"), out};
}

QByteArray MapClusterTest::single(const QString &trace)
{
    if (!m_single.contains(trace)) {
        const QString out = path(QStringLiteral("single-%1.jsonl").arg(m_single.size()));
        const Outcome made = rematlens(map(trace, out));
        if (made.status != 0)
            return {};
        m_single.insert(trace, withoutCommand(contentOf(out)));
    }
    return m_single.value(trace);
}

void MapClusterTest::mergeShards(const QString &trace, int count, const QString &stem)
{
    QStringList merge{QStringLiteral("merge")};
    for (int i = 0; i < count; ++i) {
        const QString out = path(QStringLiteral("%1-%2.jsonl").arg(stem).arg(i));
        const Outcome shard = rematlens(map(trace, out) << QStringLiteral("--shard") << QStringLiteral("%1/%2").arg(i).arg(count));
        QVERIFY2(shard.status == 0, shard.err.constData());
        merge << out;
    }
    const Outcome merged = rematlens(merge << QStringLiteral("--out") << path(stem + QStringLiteral(".jsonl")));
    QVERIFY2(merged.status == 0, merged.err.constData());
    QVERIFY2(merged.err.contains("map shards"), merged.err.constData());
}

void MapClusterTest::shardsMergedSameAsOneProcess_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<int>("shards");
    QTest::newRow("lstm in 3") << ownTracePath(QStringLiteral("lstm.log")) << 3;
    QTest::newRow("resnet in 2") << ownTracePath(QStringLiteral("resnet.log")) << 2;
    QTest::newRow("public U-Net in 2") << findPublicTrace(QStringLiteral("unet-6-8000000000.0-2020-10-1-10-57-18-default.log"))
                                       << 2;
}

void MapClusterTest::shardsMergedSameAsOneProcess()
{
    QFETCH(QString, trace);
    QFETCH(int, shards);
    if (trace.isEmpty())
        QSKIP("the public U-Net trace is absent (../shared/traces/dtr-2020, or traces/download-dtr-traces.sh)");
    const QString stem = QStringLiteral("merged-%1").arg(QString::fromLatin1(QTest::currentDataTag()).section(QLatin1Char(' '), 0, 0));
    mergeShards(trace, shards, stem);
    const QByteArray expected = single(trace);
    QVERIFY(expected.count('\n') > 100);
    QCOMPARE(withoutCommand(contentOf(path(stem + QStringLiteral(".jsonl")))), expected);
}

// A shard killed while it writes keeps every record written; the same command completes it.
void MapClusterTest::killedShardResumes()
{
    const QString trace = ownTracePath(QStringLiteral("resnet.log"));
    const QString out = path(QStringLiteral("killed-0.jsonl"));
    QProcess shard;
    shard.start(QStringLiteral(REMATLENS_BINARY), map(trace, out) << QStringLiteral("--shard") << QStringLiteral("0/2"));
    QVERIFY(shard.waitForStarted());
    while (shard.state() == QProcess::Running && contentOf(out).count('\n') < 50)
        QThread::msleep(2);
    QVERIFY2(shard.state() == QProcess::Running, "the shard finished before it could be killed");
    shard.kill(); // SIGKILL: no chance to tidy up
    shard.waitForFinished();
    const qsizetype kept = contentOf(out).count('\n') - 1;
    QVERIFY(kept >= 49);

    const Outcome resumed = rematlens(map(trace, out) << QStringLiteral("--shard") << QStringLiteral("0/2"));
    QVERIFY2(resumed.status == 0, resumed.err.constData());
    QVERIFY2(resumed.out.contains(QStringLiteral("%1 intervals read back").arg(kept).toLatin1()), resumed.out.constData());
    const QString other = path(QStringLiteral("killed-1.jsonl"));
    QCOMPARE(rematlens(map(trace, other) << QStringLiteral("--shard") << QStringLiteral("1/2")).status, 0);
    const QString merged = path(QStringLiteral("killed.jsonl"));
    const Outcome merge = rematlens({QStringLiteral("merge"), out, other, QStringLiteral("--out"), merged});
    QVERIFY2(merge.status == 0, merge.err.constData());
    QCOMPARE(withoutCommand(contentOf(merged)), single(trace));
}

// A kill in the middle of a line leaves half a record: resuming drops it and maps it again.
void MapClusterTest::cutLastLineResumes()
{
    const QString trace = ownTracePath(QStringLiteral("lstm.log"));
    const QString out = path(QStringLiteral("cut-0.jsonl"));
    const QStringList shard0 = map(trace, out) << QStringLiteral("--shard") << QStringLiteral("0/2");
    QCOMPARE(rematlens(shard0).status, 0);
    const QByteArray whole = contentOf(out);
    QByteArray cut = whole.left(whole.size() / 2);
    QVERIFY(!cut.endsWith('\n'));
    write(out, cut);
    QCOMPARE(rematlens(shard0).status, 0);
    QCOMPARE(withoutCommand(contentOf(out)), withoutCommand(whole));
}

void MapClusterTest::mergeRefusesGapsOverlapsAndOtherMaps()
{
    const QString trace = ownTracePath(QStringLiteral("lstm.log"));
    const QString s0 = path(QStringLiteral("refuse-0.jsonl"));
    const QString s1 = path(QStringLiteral("refuse-1.jsonl"));
    QCOMPARE(rematlens(map(trace, s0) << QStringLiteral("--shard") << QStringLiteral("0/2")).status, 0);
    QCOMPARE(rematlens(map(trace, s1) << QStringLiteral("--shard") << QStringLiteral("1/2")).status, 0);
    const QString out = path(QStringLiteral("refused.jsonl"));
    auto merge = [&](const QString &a, const QString &b) {
        return rematlens({QStringLiteral("merge"), a, b, QStringLiteral("--out"), out});
    };
    QList<QByteArray> lines = contentOf(s1).split('\n');

    // A record lost: its budgets are in no file, and merge names the shard to rerun.
    const QString gap = path(QStringLiteral("gap.jsonl"));
    QList<QByteArray> withGap = lines;
    withGap.removeAt(10);
    write(gap, withGap.join('\n'));
    Outcome refused = merge(s0, gap);
    QCOMPARE(refused.status, 1);
    QVERIFY2(refused.err.contains("are in no shard's file (shard 1/2 maps them"), refused.err.constData());

    // An interval in both files.
    const QString twice = path(QStringLiteral("twice.jsonl"));
    write(twice, contentOf(s1) + contentOf(s0).split('\n').at(5) + '\n');
    refused = merge(s0, twice);
    QCOMPARE(refused.status, 1);
    QVERIFY2(refused.err.contains("overlap: the same interval is there twice"), refused.err.constData());

    // The same shard twice, and a shard of another range.
    refused = merge(s0, s0);
    QCOMPARE(refused.status, 1);
    QVERIFY2(refused.err.contains("shard 0/2 is given twice") && refused.err.contains("shard 1/2 is missing"),
             refused.err.constData());
    const QString narrower = path(QStringLiteral("narrower-1.jsonl"));
    QCOMPARE(rematlens(map(trace, narrower, QStringLiteral("0.10"), QStringLiteral("0.90")) << QStringLiteral("--shard")
                                                                                             << QStringLiteral("1/2"))
                 .status,
             0);
    refused = merge(s0, narrower);
    QCOMPARE(refused.status, 1);
    QVERIFY2(refused.err.contains("shards of different maps: range is"), refused.err.constData());

    // A map shard cannot resume into another shard's file.
    const Outcome wrongFile = rematlens(map(trace, s0) << QStringLiteral("--shard") << QStringLiteral("1/2"));
    QCOMPARE(wrongFile.status, 1);
    QVERIFY2(wrongFile.err.contains("not resuming") && wrongFile.err.contains("shard"), wrongFile.err.constData());
    QVERIFY(!QFile::exists(out));
}

void MapClusterTest::ranksSameAsOneProcess_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<int>("ranks");
    QTest::newRow("lstm on 3 ranks") << ownTracePath(QStringLiteral("lstm.log")) << 3;
    QTest::newRow("public U-Net on 2 ranks")
        << findPublicTrace(QStringLiteral("unet-6-8000000000.0-2020-10-1-10-57-18-default.log")) << 2;
}

void MapClusterTest::ranksSameAsOneProcess()
{
    QFETCH(QString, trace);
    QFETCH(int, ranks);
    if (m_mpirun.isEmpty())
        QSKIP("mpirun is not installed (Debian: openmpi-bin): nothing to launch the ranks with");
    if (trace.isEmpty())
        QSKIP("the public U-Net trace is absent (../shared/traces/dtr-2020, or traces/download-dtr-traces.sh)");
    const QString out = path(QStringLiteral("ranks-%1.jsonl").arg(ranks));
    const Outcome job = mpirun(ranks, map(trace, out));
    QVERIFY2(job.status == 0, job.err.constData());
    QVERIFY2(job.err.contains(QStringLiteral("%1 ranks x 1 threads").arg(ranks).toLatin1())
                 && job.err.contains("busy per rank"),
             job.err.constData());
    QCOMPARE(job.out.count("verdict"), 1); // rank 0 alone reports
    QCOMPARE(withoutCommand(contentOf(out)), single(trace));
}

void MapClusterTest::lostRankFailsAndResumes()
{
    if (m_mpirun.isEmpty())
        QSKIP("mpirun is not installed (Debian: openmpi-bin): nothing to launch the ranks with");
    const QString trace = ownTracePath(QStringLiteral("lstm.log"));
    const QString out = path(QStringLiteral("lost.jsonl"));
    // Rank 1 reports none of its pieces and kills itself (SIGKILL) when none are left: it may be
    // handed a single piece, when that piece is the slow one.
    const Outcome lost = mpirun(3, map(trace, out), {QStringLiteral("REMATLENS_TEST_KILL_RANK=1:0")});
    QVERIFY2(lost.status != 0, lost.err.constData());
    QVERIFY2(lost.err.contains("rank 1") && lost.err.contains("signal 9"), lost.err.constData());
    const qsizetype kept = contentOf(out).count('\n') - 1;
    const qsizetype whole = single(trace).count('\n') - 1;
    QVERIFY2(kept > 0 && kept < whole, QByteArray::number(kept).constData());

    const Outcome resumed = mpirun(3, map(trace, out));
    QVERIFY2(resumed.status == 0, resumed.err.constData());
    QVERIFY2(resumed.out.contains(QStringLiteral("%1 intervals read back").arg(kept).toLatin1()), resumed.out.constData());
    QCOMPARE(withoutCommand(contentOf(out)), single(trace));
}

QTEST_GUILESS_MAIN(MapClusterTest)
#include "tst_map_cluster.moc"
