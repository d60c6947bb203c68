// The allocator options on the command line: records under a model, bad values named with what
// was expected, the exact map's refusal, results files that keep models apart, and verify.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Result {
    int status;
    QByteArray out;
    QByteArray err;
};

Result rematlens(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(REMATLENS_BINARY), arguments);
    if (!process.waitForFinished(120000))
        return {-1, {}, "timed out"};
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

QStringList words(const char *text)
{
    return QString::fromUtf8(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

QList<QJsonObject> records(const QString &path)
{
    QList<QJsonObject> found;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return found;
    while (!file.atEnd()) {
        const QJsonObject o = QJsonDocument::fromJson(file.readLine()).object();
        if (o.contains(QStringLiteral("result")))
            found << o;
    }
    return found;
}

} // namespace

class AllocatorCliTest : public QObject {
    Q_OBJECT

private slots:
    void runUnderCaching();
    void sumRecordsAreUnchanged();
    void failureCarriesItsKind();
    void badUsage_data();
    void badUsage();
    void resultsFilesKeepModelsApart();
    void verifyReplaysUnderTheModel();
    void exactMapExplainsFragmentation();

private:
    QTemporaryDir m_dir;
};

void AllocatorCliTest::runUnderCaching()
{
    const Result r = rematlens(words("run :demo --ratio 0.9 --allocator caching --alloc-option expandable_segments=true --json"));
    QVERIFY2(r.status == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o[QStringLiteral("allocator")].toString(), QStringLiteral("caching,expandable_segments=true"));
    const double reserved = o[QStringLiteral("peak_reserved")].toDouble();
    const double allocated = o[QStringLiteral("peak_allocated")].toDouble();
    QVERIFY(allocated > 0);
    QVERIFY(allocated <= reserved);
    QVERIFY(reserved <= o[QStringLiteral("budget")].toDouble());
    QCOMPARE(o[QStringLiteral("fragmentation")].toDouble(), 1.0 - allocated / reserved);
}

void AllocatorCliTest::sumRecordsAreUnchanged()
{
    const Result bySum = rematlens(words("run :demo --ratio 0.5 --json"));
    const Result explicitSum = rematlens(words("run :demo --ratio 0.5 --allocator sum --json"));
    QCOMPARE(bySum.status, 0);
    QCOMPARE(explicitSum.status, 0);
    QJsonObject a = QJsonDocument::fromJson(bySum.out).object();
    QJsonObject b = QJsonDocument::fromJson(explicitSum.out).object();
    for (const char *field : {"allocator", "peak_reserved", "peak_allocated", "fragmentation"})
        QVERIFY(!a.contains(QLatin1String(field)));
    a.remove(QStringLiteral("seconds"));
    b.remove(QStringLiteral("seconds"));
    QCOMPARE(a, b);
}

void AllocatorCliTest::failureCarriesItsKind()
{
    const Result r = rematlens(words("run :demo --ratio 0.2 --allocator best-fit --json"));
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o[QStringLiteral("result")].toString(), QStringLiteral("oom"));
    const QJsonObject failure = o[QStringLiteral("failure")].toObject();
    const QString kind = failure[QStringLiteral("oom_kind")].toString();
    QVERIFY2(kind == QStringLiteral("capacity") || kind == QStringLiteral("fragmentation"), qPrintable(kind));
    QVERIFY(failure[QStringLiteral("request")].toDouble() > 0);
    QVERIFY(failure.contains(QStringLiteral("largest_free_block")));
    if (kind == QStringLiteral("fragmentation"))
        QVERIFY(failure[QStringLiteral("largest_free_block")].toDouble() < failure[QStringLiteral("request")].toDouble());
}

void AllocatorCliTest::badUsage_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown model") << "run :demo --ratio 0.5 --allocator arena" << "--allocator: expected sum, caching or best-fit";
    QTest::newRow("unknown coupling") << "sweep :demo --allocator caching --eviction sometimes"
                                      << "--eviction: expected on-failure or after-op";
    QTest::newRow("coupling of the sum") << "holes :demo --eviction after-op" << "--eviction: applies to --allocator caching";
    QTest::newRow("capacity on failure") << "diff :demo --ratio 0.4 --ratio 0.5 --allocator caching --capacity 1000000"
                                         << "--capacity: applies with --eviction after-op";
    QTest::newRow("capacity negative") << "rescue :demo --ratio 0.4 --allocator caching --eviction after-op --capacity -5"
                                       << "--capacity: expected a positive number of bytes";
    QTest::newRow("option of the arena") << "compare :demo --policy DTR --policy LRU --allocator best-fit --alloc-option expandable_segments=true"
                                         << "--alloc-option: applies to --allocator caching only";
    QTest::newRow("unknown option") << "run :demo --ratio 0.5 --allocator caching --alloc-option garbage_collection_threshold=0.5"
                                    << "--alloc-option: unknown key \"garbage_collection_threshold\"";
    QTest::newRow("small max split") << "run :demo --ratio 0.5 --allocator caching --alloc-option max_split_size_mb=4"
                                     << "--alloc-option max_split_size_mb: expected a whole number of MiB, at least 20";
    QTest::newRow("figure") << "figure timeline :demo --ratio 0.5 --allocator caching --eviction later --out x.png"
                            << "--eviction: expected on-failure or after-op";
}

void AllocatorCliTest::badUsage()
{
    QFETCH(QString, arguments);
    QFETCH(QString, message);
    QStringList list = arguments.split(QLatin1Char(' '));
    if (list.contains(QStringLiteral("--out")))
        list[list.indexOf(QStringLiteral("--out")) + 1] = m_dir.filePath(QStringLiteral("never.png"));
    const Result r = rematlens(list);
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    QCOMPARE(r.err.count("rematlens: error:"), 1); // one clear error line
}

// A file written under the sum refuses runs under a model (another provenance), CSV refuses a
// model (no allocator columns), and a model's file keys its runs by the model.
void AllocatorCliTest::resultsFilesKeepModelsApart()
{
    const QString sum = m_dir.filePath(QStringLiteral("sum.jsonl"));
    Result r = rematlens(words("sweep :demo --from 0.3 --to 0.5 --step 0.1 --out") << sum);
    QVERIFY2(r.status == 0, r.err.constData());
    r = rematlens(words("sweep :demo --from 0.3 --to 0.5 --step 0.1 --allocator caching --out") << sum);
    QVERIFY(r.status != 0);
    QVERIFY2(r.err.contains("allocator"), r.err.constData());
    r = rematlens(words("sweep :demo --from 0.3 --to 0.5 --step 0.1 --allocator caching --out")
                  << m_dir.filePath(QStringLiteral("caching.csv")));
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.contains("needs a .jsonl file"), r.err.constData());
    const QString caching = m_dir.filePath(QStringLiteral("caching.jsonl"));
    r = rematlens(words("sweep :demo --from 0.3 --to 0.5 --step 0.1 --allocator caching --out") << caching);
    QVERIFY2(r.status == 0, r.err.constData());
    const QList<QJsonObject> runs = records(caching);
    QCOMPARE(runs.size(), 3);
    for (const QJsonObject &run : runs) {
        QCOMPARE(run[QStringLiteral("allocator")].toString(), QStringLiteral("caching"));
        QVERIFY(run[QStringLiteral("peak_reserved")].toDouble() <= run[QStringLiteral("budget")].toDouble());
    }
    for (const QJsonObject &run : records(sum))
        QVERIFY(!run.contains(QStringLiteral("allocator")));
    // Resuming the model's sweep finds every run there.
    r = rematlens(words("sweep :demo --from 0.3 --to 0.5 --step 0.1 --allocator caching --out") << caching);
    QVERIFY2(r.status == 0, r.err.constData());
    QCOMPARE(records(caching).size(), 3);
}

void AllocatorCliTest::verifyReplaysUnderTheModel()
{
    const QString file = m_dir.filePath(QStringLiteral("arena.jsonl"));
    Result r = rematlens(words("sweep :demo --from 0.2 --to 0.6 --step 0.1 --allocator best-fit --out") << file);
    QVERIFY2(r.status == 0, r.err.constData());
    r = rematlens(QStringList{QStringLiteral("verify"), file, QStringLiteral("--samples"), QStringLiteral("5")});
    QVERIFY2(r.status == 0, (r.out + r.err).constData());
    r = rematlens(QStringList{QStringLiteral("confirm"), file});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("simrd counts live bytes"), r.err.constData());
}

// The demo mapped under the caching model: records name the model, a second run reads them all
// back, and explain tells a fragmentation hole's story: the request, the free blocks, the
// largest, and why neither they nor a new segment hold it.
void AllocatorCliTest::exactMapExplainsFragmentation()
{
    const QString map = m_dir.filePath(QStringLiteral("demo-caching-map.jsonl"));
    Result r = rematlens(words("map :demo --from 0.3 --to 1.0 --allocator caching --out") << map);
    QVERIFY2(r.status == 0, r.err.constData());
    const QList<QJsonObject> intervals = records(map);
    QVERIFY(intervals.size() > 10);
    for (const QJsonObject &interval : intervals)
        QCOMPARE(interval[QStringLiteral("allocator")].toString(), QStringLiteral("caching"));
    r = rematlens(words("map :demo --from 0.3 --to 1.0 --allocator caching --out") << map);
    QVERIFY2(r.status == 0 && r.out.contains("(0 replays"), r.out.constData());
    QCOMPARE(records(map).size(), intervals.size());

    r = rematlens(QStringList{QStringLiteral("explain"), map, QStringLiteral("--no-rescue"), QStringLiteral("--json")});
    QVERIFY2(r.status == 0, r.err.constData());
    const QJsonObject explained = QJsonDocument::fromJson(r.out).object()[QStringLiteral("maps")].toArray()[0].toObject();
    QCOMPARE(explained[QStringLiteral("allocator")].toString(), QStringLiteral("caching"));
    int fragmentation = 0;
    const QJsonArray holes = explained[QStringLiteral("holes")].toArray();
    for (int k = 0; k < holes.size(); ++k) {
        const QJsonObject hole = holes[k].toObject();
        if (hole[QStringLiteral("mechanism")].toString() != QStringLiteral("fragmentation"))
            continue;
        ++fragmentation;
        const QJsonObject lower = hole[QStringLiteral("lower_edge")].toObject();
        const QJsonObject failing = lower[lower[QStringLiteral("failing")].toString()].toObject();
        QCOMPARE(failing[QStringLiteral("failure")].toObject()[QStringLiteral("oom_kind")].toString(),
                 QStringLiteral("fragmentation"));
        const QJsonObject layout = lower[QStringLiteral("failing_layout")].toObject();
        const qint64 request = layout[QStringLiteral("request")].toInteger();
        qint64 largest = 0; // of the free blocks that may serve the request: its pool's
        for (const QJsonValue &segment : layout[QStringLiteral("segments")].toArray())
            if (segment.toObject()[QStringLiteral("pool")] == layout[QStringLiteral("pool")])
                for (const QJsonValue &block : segment.toObject()[QStringLiteral("free_blocks")].toArray())
                    largest = std::max(largest, block.toObject()[QStringLiteral("size")].toInteger());
        QVERIFY2(largest < request, "a free block of the request's pool held it");
        QVERIFY(layout[QStringLiteral("reserved")].toInteger() + layout[QStringLiteral("new_segment")].toInteger()
                > layout[QStringLiteral("capacity")].toInteger());
        r = rematlens(QStringList{QStringLiteral("explain"), map, QStringLiteral("--hole"), QString::number(k + 1),
                                  QStringLiteral("--no-rescue")});
        QVERIFY2(r.status == 0, r.err.constData());
        QVERIFY2(r.out.contains("allocator caching") && r.out.contains("the largest:")
                     && r.out.contains("None holds the request of"),
                 r.out.constData());
    }
    QVERIFY2(fragmentation > 0, "the demo's caching map has no fragmentation hole to explain");
}

QTEST_GUILESS_MAIN(AllocatorCliTest)
#include "tst_allocator_cli.moc"
