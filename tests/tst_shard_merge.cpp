// sweep --shard I/N and merge: shards joined give the file of the whole sweep, byte for byte,
// and merge names every run (or shard) that is missing or there twice.
#include "provenance_text.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

class ShardMergeTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void mergedShardsAreTheSweep();
    void mergedShardsAreTheSweepByteForByte();
    void csvShards();
    void missingRunIsNamed();
    void duplicateRunIsNamed();
    void missingOrRepeatedShardIsNamed();
    void shardFileResumesOnlyAsItsShard();
    void shardsOfDifferentSweepsAreRefused();
    void badShardUsage();

private:
    static int rematlens(const QStringList &arguments, QByteArray *err = nullptr);
    static QStringList sweep(const QString &out, const QString &shard = {});
    static QByteArray contentOf(const QString &path);
    static void write(const QString &path, const QByteArray &content);
    static QByteArray withoutTiming(const QByteArray &content);
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QStringList shardFiles(const QString &stem, const QString &extension, int count) const;

    QTemporaryDir m_dir;
    static constexpr int kShards = 3;
    static constexpr int kRuns = 2 * 81;
};

int ShardMergeTest::rematlens(const QStringList &arguments, QByteArray *err)
{
    QProcess process;
    process.start(QStringLiteral(REMATLENS_BINARY), arguments);
    process.waitForFinished(300000);
    if (err)
        *err = process.readAllStandardError();
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

QStringList ShardMergeTest::sweep(const QString &out, const QString &shard)
{
    QStringList arguments{QStringLiteral("sweep"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.2"),
                          QStringLiteral("--to"), QStringLiteral("1.0"), QStringLiteral("--step"), QStringLiteral("0.01"),
                          QStringLiteral("--policy"), QStringLiteral("DTR"), QStringLiteral("--policy"), QStringLiteral("LRU"),
                          QStringLiteral("--out"), out};
    if (!shard.isEmpty())
        arguments << QStringLiteral("--shard") << shard;
    return arguments;
}

QByteArray ShardMergeTest::contentOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void ShardMergeTest::write(const QString &path, const QByteArray &content)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(content);
}

QByteArray ShardMergeTest::withoutTiming(const QByteArray &content)
{
    static const QRegularExpression seconds(QStringLiteral("\"seconds\":[-+.0-9eE]+"));
    return QString::fromUtf8(content).replace(seconds, QStringLiteral("\"seconds\":0")).toUtf8();
}

QStringList ShardMergeTest::shardFiles(const QString &stem, const QString &extension, int count) const
{
    QStringList files;
    for (int i = 0; i < count; ++i)
        files << path(QStringLiteral("%1-%2.%3").arg(stem).arg(i).arg(extension));
    return files;
}

void ShardMergeTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCOMPARE(rematlens(sweep(path(QStringLiteral("whole.jsonl")))), 0);
    QCOMPARE(contentOf(path(QStringLiteral("whole.jsonl"))).count('\n'), kRuns + 1); // and the provenance
    const QStringList shards = shardFiles(QStringLiteral("shard"), QStringLiteral("jsonl"), kShards);
    for (int i = 0; i < kShards; ++i)
        QCOMPARE(rematlens(sweep(shards[i], QStringLiteral("%1/%2").arg(i).arg(kShards))), 0);
}

void ShardMergeTest::mergedShardsAreTheSweep()
{
    const QStringList shards = shardFiles(QStringLiteral("shard"), QStringLiteral("jsonl"), kShards);
    int records = 0;
    for (const QString &shard : shards) {
        const QList<QByteArray> lines = contentOf(shard).trimmed().split('\n');
        QVERIFY(lines.first().startsWith("{\"provenance\":{\"trace\":\":demo\""));
        QVERIFY(lines.first().contains("\"shard\":{\"index\":"));
        records += int(lines.size()) - 1;
    }
    QCOMPARE(records, kRuns);
    const QString merged = path(QStringLiteral("merged.jsonl"));
    QByteArray err;
    QCOMPARE(rematlens({QStringLiteral("merge"), shards[2], shards[0], shards[1], QStringLiteral("--out"), merged}, &err), 0);
    QVERIFY2(err.contains("162 runs from 3 shards"), err.constData());
    QCOMPARE(withoutCommand(withoutTiming(contentOf(merged))),
             withoutCommand(withoutTiming(contentOf(path(QStringLiteral("whole.jsonl"))))));
}

// The shards cut from the whole sweep's own records (run k goes to shard k mod 3): merging them
// must give back the very same bytes.
void ShardMergeTest::mergedShardsAreTheSweepByteForByte()
{
    const QList<QByteArray> whole = contentOf(path(QStringLiteral("whole.jsonl"))).trimmed().split('\n');
    const QStringList real = shardFiles(QStringLiteral("shard"), QStringLiteral("jsonl"), kShards);
    const QStringList cut = shardFiles(QStringLiteral("cut"), QStringLiteral("jsonl"), kShards);
    for (int i = 0; i < kShards; ++i) {
        QByteArray content = contentOf(real[i]).split('\n').first() + '\n';
        for (int k = 1 + i; k < whole.size(); k += kShards) // line 0 is the provenance
            content += whole[k] + '\n';
        write(cut[i], content);
    }
    const QString merged = path(QStringLiteral("cut-merged.jsonl"));
    QCOMPARE(rematlens({QStringLiteral("merge"), cut[1], cut[2], cut[0], QStringLiteral("--out"), merged}), 0);
    QCOMPARE(withoutCommand(contentOf(merged)), withoutCommand(contentOf(path(QStringLiteral("whole.jsonl")))));
}

void ShardMergeTest::csvShards()
{
    const QString whole = path(QStringLiteral("whole.csv"));
    QCOMPARE(rematlens(sweep(whole)), 0);
    const QStringList shards = shardFiles(QStringLiteral("shard"), QStringLiteral("csv"), 2);
    for (int i = 0; i < 2; ++i)
        QCOMPARE(rematlens(sweep(shards[i], QStringLiteral("%1/2").arg(i))), 0);
    QVERIFY(contentOf(shards[0]).startsWith("# provenance {\"trace\":\":demo\""));
    QVERIFY(contentOf(shards[0]).split('\n').first().contains("\"shard\":{\"index\":0,\"count\":2}"));
    const QString merged = path(QStringLiteral("merged.csv"));
    QCOMPARE(rematlens({QStringLiteral("merge"), shards[0], shards[1], QStringLiteral("--out"), merged}), 0);
    auto withoutSeconds = [](const QByteArray &csv) {
        QList<QByteArray> lines = csv.split('\n');
        for (QByteArray &line : lines) {
            QList<QByteArray> cells = line.split(',');
            if (cells.size() > 16)
                cells[16] = "0";
            line = cells.join(',');
        }
        return lines.join('\n');
    };
    QCOMPARE(withoutSeconds(withoutCommand(contentOf(merged))), withoutSeconds(withoutCommand(contentOf(whole))));
}

void ShardMergeTest::missingRunIsNamed()
{
    const QStringList shards = shardFiles(QStringLiteral("shard"), QStringLiteral("jsonl"), kShards);
    const QString holed = path(QStringLiteral("holed-1.jsonl"));
    QList<QByteArray> lines = contentOf(shards[1]).trimmed().split('\n');
    const QJsonObject dropped = QJsonDocument::fromJson(lines.takeAt(5)).object();
    write(holed, lines.join('\n') + '\n');
    QByteArray err;
    QCOMPARE(rematlens({QStringLiteral("merge"), shards[0], holed, shards[2], QStringLiteral("--out"),
                        path(QStringLiteral("never.jsonl"))},
                       &err),
             1);
    const QString expected = QStringLiteral("%1 at ratio %2 is missing (shard 1/3: %3)")
                                 .arg(dropped.value(QStringLiteral("heuristic")).toString())
                                 .arg(dropped.value(QStringLiteral("ratio")).toDouble())
                                 .arg(holed);
    QVERIFY2(err.contains(expected.toUtf8()), err.constData());
    QVERIFY(!QFile::exists(path(QStringLiteral("never.jsonl"))));
}

void ShardMergeTest::duplicateRunIsNamed()
{
    const QStringList shards = shardFiles(QStringLiteral("shard"), QStringLiteral("jsonl"), kShards);
    const QString doubled = path(QStringLiteral("doubled-2.jsonl"));
    const QByteArray extra = contentOf(shards[0]).split('\n').at(3);
    write(doubled, contentOf(shards[2]) + extra + '\n');
    const QJsonObject record = QJsonDocument::fromJson(extra).object();
    QByteArray err;
    QCOMPARE(rematlens({QStringLiteral("merge"), shards[0], shards[1], doubled, QStringLiteral("--out"),
                        path(QStringLiteral("never.jsonl"))},
                       &err),
             1);
    const QString expected = QStringLiteral("%1 at ratio %2 is there 2 times: in %3 and %4")
                                 .arg(record.value(QStringLiteral("heuristic")).toString())
                                 .arg(record.value(QStringLiteral("ratio")).toDouble())
                                 .arg(shards[0], doubled);
    QVERIFY2(err.contains(expected.toUtf8()), err.constData());
}

void ShardMergeTest::missingOrRepeatedShardIsNamed()
{
    const QStringList shards = shardFiles(QStringLiteral("shard"), QStringLiteral("jsonl"), kShards);
    QByteArray err;
    QCOMPARE(rematlens({QStringLiteral("merge"), shards[0], shards[1], QStringLiteral("--out"), path(QStringLiteral("never.jsonl"))},
                       &err),
             1);
    QVERIFY2(err.contains("shard 2/3 is missing"), err.constData());
    QCOMPARE(rematlens({QStringLiteral("merge"), shards[0], shards[1], shards[1], shards[2], QStringLiteral("--out"),
                        path(QStringLiteral("never.jsonl"))},
                       &err),
             1);
    QVERIFY2(err.contains(QStringLiteral("shard 1/3 is given twice: %1 and %1").arg(shards[1]).toUtf8()), err.constData());
    QCOMPARE(rematlens({QStringLiteral("merge"), shards[0], path(QStringLiteral("whole.jsonl")), QStringLiteral("--out"),
                        path(QStringLiteral("never.jsonl"))},
                       &err),
             1);
    QVERIFY2(err.contains("whole.jsonl:1: no provenance line naming a shard"), err.constData());
}

void ShardMergeTest::shardFileResumesOnlyAsItsShard()
{
    const QStringList shards = shardFiles(QStringLiteral("shard"), QStringLiteral("jsonl"), kShards);
    QByteArray err;
    QCOMPARE(rematlens(sweep(shards[0], QStringLiteral("0/3")), &err), 0); // complete: nothing to run
    QVERIFY2(err.contains("0 runs") && err.contains("54 already in"), err.constData());
    const QByteArray before = contentOf(shards[0]);
    QCOMPARE(rematlens(sweep(shards[0], QStringLiteral("1/3")), &err), 1);
    QVERIFY2(err.contains("shard is {\"index\":0,\"count\":3} in the file but {\"index\":1,\"count\":3} in this command"),
             err.constData());
    QCOMPARE(rematlens(sweep(shards[0]), &err), 1);
    QVERIFY2(err.contains("shard is {\"index\":0,\"count\":3} in the file but absent in this command"), err.constData());
    QCOMPARE(contentOf(shards[0]), before);
    QCOMPARE(rematlens(sweep(path(QStringLiteral("whole.jsonl")), QStringLiteral("0/3")), &err), 1);
    QVERIFY2(err.contains("shard is absent in the file but {\"index\":0,\"count\":3} in this command"), err.constData());
}

// Shards whose provenance differs (here another overhead limit) are not one sweep: nothing merged.
void ShardMergeTest::shardsOfDifferentSweepsAreRefused()
{
    const QStringList shards = shardFiles(QStringLiteral("shard"), QStringLiteral("jsonl"), kShards);
    const QString other = path(QStringLiteral("other-1.jsonl"));
    write(other, contentOf(shards[1]).replace("\"overhead_limit\":2.0,\"keep\"", "\"overhead_limit\":3.0,\"keep\""));
    QByteArray err;
    QCOMPARE(rematlens({QStringLiteral("merge"), shards[0], other, shards[2], QStringLiteral("--out"),
                        path(QStringLiteral("never.jsonl"))},
                       &err),
             1);
    QVERIFY2(err.contains(QStringLiteral("are shards of different sweeps: overhead_limit is 3.0 in %1 but 2.0 in %2")
                              .arg(other, shards[0])
                              .toUtf8()),
             err.constData());
    QVERIFY(!QFile::exists(path(QStringLiteral("never.jsonl"))));
}

void ShardMergeTest::badShardUsage()
{
    QByteArray err;
    QCOMPARE(rematlens(sweep(path(QStringLiteral("x.jsonl")), QStringLiteral("3/3")), &err), 2);
    QVERIFY2(err.contains("counted from 0"), err.constData());
    QCOMPARE(rematlens(sweep(path(QStringLiteral("x.jsonl")), QStringLiteral("one of two")), &err), 2);
    QVERIFY2(err.contains("--shard expects I/N"), err.constData());
    QCOMPARE(rematlens({QStringLiteral("sweep"), QStringLiteral(":demo"), QStringLiteral("--shard"), QStringLiteral("0/2")}, &err), 2);
    QVERIFY2(err.contains("--shard needs --out"), err.constData());
    QCOMPARE(rematlens({QStringLiteral("merge"), path(QStringLiteral("shard-0.jsonl")), QStringLiteral("--out"),
                        path(QStringLiteral("x.txt"))}),
             2);
    QCOMPARE(rematlens({QStringLiteral("merge"), QStringLiteral("--out"), path(QStringLiteral("x.jsonl"))}), 2);
    QVERIFY(!QFile::exists(path(QStringLiteral("x.jsonl"))));
}

QTEST_GUILESS_MAIN(ShardMergeTest)
#include "tst_shard_merge.moc"
