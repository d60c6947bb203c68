// rematlens map and holes --exact from the outside: a file cut short resumes to the same map,
// budget-reading policies and bad ranges are refused, the report agrees with its records, and
// a wall limit leaves unmapped budgets reported as such.
#include "shared_data.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class MapCliTest : public QObject {
    Q_OBJECT

private slots:
    void resumesToTheSameFile();
    void resumesAnotherBuildsMap();
    void summaryOnlyReplaysNothing();
    void reportAgreesWithRecords();
    void exactHolesReport();
    void badUsage_data();
    void badUsage();
    void wallLimitLeavesUnmappedBudgets();

private:
    static int rematlens(const QStringList &arguments, QByteArray *out = nullptr, QByteArray *err = nullptr);
    static QStringList demoMap(const QString &out);
    QTemporaryDir m_dir;
};

int MapCliTest::rematlens(const QStringList &arguments, QByteArray *out, QByteArray *err)
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

QStringList MapCliTest::demoMap(const QString &out)
{
    return {QStringLiteral("map"),      QStringLiteral(":demo"), QStringLiteral("--from"),   QStringLiteral("0.3"),
            QStringLiteral("--to"),     QStringLiteral("0.4"),   QStringLiteral("--policy"), QStringLiteral("DTR"),
            QStringLiteral("--policy"), QStringLiteral("LRU"),   QStringLiteral("--out"),    out};
}

void MapCliTest::resumesToTheSameFile()
{
    const QString whole = m_dir.filePath(QStringLiteral("whole.jsonl"));
    QCOMPARE(rematlens(demoMap(whole)), 0);
    QFile file(whole);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray complete = file.readAll();
    file.close();
    QVERIFY(complete.count('\n') > 100);
    // Half the records and a line cut short, as a killed map leaves them.
    const QString cut = m_dir.filePath(QStringLiteral("cut.jsonl"));
    QFile partial(cut);
    QVERIFY(partial.open(QIODevice::WriteOnly));
    partial.write(complete.left(complete.size() / 2 + 17));
    partial.close();
    QByteArray out;
    QCOMPARE(rematlens(demoMap(cut), &out), 0);
    QVERIFY(out.contains("intervals read back"));
    QVERIFY(partial.open(QIODevice::ReadOnly));
    const QByteArray resumed = partial.readAll();
    partial.close();
    // The same records after the provenance line, which names each run's own command line.
    const auto afterHeader = [](const QByteArray &text) { return text.mid(text.indexOf('\n') + 1); };
    QVERIFY(resumed.startsWith("{\"provenance\":"));
    QVERIFY(complete.startsWith("{\"provenance\":"));
    QCOMPARE(afterHeader(resumed), afterHeader(complete));

    // Another map's file (other policies) is refused and left as it was.
    QStringList other = demoMap(cut);
    other.removeAt(other.indexOf(QStringLiteral("LRU")) - 1);
    other.removeAt(other.indexOf(QStringLiteral("LRU")));
    QByteArray refusal;
    QCOMPARE(rematlens(other, nullptr, &refusal), 1);
    QVERIFY2(refusal.contains("not resuming"), refusal.constData());
    QVERIFY(partial.open(QIODevice::ReadOnly));
    QCOMPARE(partial.readAll(), resumed);
}

// A map made by another build of RematLens grows under this one (intervals do not depend on the
// build); the header then names the build that wrote records before.
void MapCliTest::resumesAnotherBuildsMap()
{
    const QString path = m_dir.filePath(QStringLiteral("older.jsonl"));
    QCOMPARE(rematlens(demoMap(path)), 0);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray complete = file.readAll();
    file.close();
    const qsizetype headerEnd = complete.indexOf('\n');
    QJsonObject header = QJsonDocument::fromJson(complete.left(headerEnd)).object();
    QJsonObject provenance = header[QStringLiteral("provenance")].toObject();
    provenance[QStringLiteral("rematlens_commit")] = QStringLiteral("0123456789abcdef0123456789abcdef01234567");
    header[QStringLiteral("provenance")] = provenance;
    const QByteArray body = complete.mid(headerEnd + 1);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(header).toJson(QJsonDocument::Compact) + '\n' + body.left(body.size() / 3));
    file.close();
    QByteArray out;
    QCOMPARE(rematlens(demoMap(path), &out), 0);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray resumed = file.readAll();
    file.close();
    QCOMPARE(resumed.mid(resumed.indexOf('\n') + 1), body);
    const QJsonObject written =
        QJsonDocument::fromJson(resumed.left(resumed.indexOf('\n'))).object()[QStringLiteral("provenance")].toObject();
    QCOMPARE(written[QStringLiteral("earlier_builds")].toArray(),
             QJsonArray({QStringLiteral("0123456789abcdef0123456789abcdef01234567")}));
    QVERIFY(written[QStringLiteral("rematlens_commit")].toString() != provenance[QStringLiteral("rematlens_commit")].toString());
}

// --summary-only reports what the file holds, leaves the rest unmapped and leaves the file as it was.
void MapCliTest::summaryOnlyReplaysNothing()
{
    const QString path = m_dir.filePath(QStringLiteral("partial.jsonl"));
    QCOMPARE(rematlens({QStringLiteral("map"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.3"),
                        QStringLiteral("--to"), QStringLiteral("0.35"), QStringLiteral("--out"), path}),
             0);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray before = file.readAll();
    file.close();
    QByteArray out;
    QCOMPARE(rematlens({QStringLiteral("map"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.3"),
                        QStringLiteral("--to"), QStringLiteral("0.4"), QStringLiteral("--out"), path,
                        QStringLiteral("--summary-only"), QStringLiteral("--json")},
                       &out),
             0);
    const QJsonObject map = QJsonDocument::fromJson(out).object()[QStringLiteral("maps")].toArray().first().toObject();
    QCOMPARE(map[QStringLiteral("replays")].toInt(), 0);
    QCOMPARE(map[QStringLiteral("intervals")].toInt(), before.count('\n') - 1);
    const QJsonArray unmapped = map[QStringLiteral("unmapped")].toArray();
    QCOMPARE(unmapped.size(), 1);
    QCOMPARE(unmapped.first()[QStringLiteral("last")].toInteger(), map[QStringLiteral("to_byte")].toInteger());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), before); // not even the provenance line is rewritten
    file.close();
    // From a budget below the fit floor: the impossible stretch is proved, shown, and not written.
    out.clear();
    QCOMPARE(rematlens({QStringLiteral("map"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.01"),
                        QStringLiteral("--to"), QStringLiteral("0.4"), QStringLiteral("--out"), path,
                        QStringLiteral("--summary-only")},
                       &out),
             0);
    QVERIFY2(out.contains("impossible"), out.constData());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), before);
    // Without a file there is nothing to summarise.
    QByteArray err;
    QCOMPARE(rematlens({QStringLiteral("map"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.3"),
                        QStringLiteral("--to"), QStringLiteral("0.4"), QStringLiteral("--summary-only")},
                       nullptr, &err),
             2);
    QVERIFY2(err.contains("--summary-only needs --out"), err.constData());
}

void MapCliTest::reportAgreesWithRecords()
{
    QByteArray out;
    QCOMPARE(rematlens({QStringLiteral("map"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.3"),
                        QStringLiteral("--to"), QStringLiteral("0.4"), QStringLiteral("--json")},
                       &out),
             0);
    const QJsonObject map = QJsonDocument::fromJson(out).object()[QStringLiteral("maps")].toArray().first().toObject();
    const QJsonArray records = map[QStringLiteral("interval_records")].toArray();
    QCOMPARE(records.size(), map[QStringLiteral("intervals")].toInt());
    const qint64 from = map[QStringLiteral("from_byte")].toInteger();
    const qint64 to = map[QStringLiteral("to_byte")].toInteger();
    QVERIFY(records.first()[QStringLiteral("lo")].toInteger() <= from);
    for (qsizetype i = 1; i < records.size(); ++i)
        QCOMPARE(records[i][QStringLiteral("lo")].toInteger(), records[i - 1][QStringLiteral("hi")].toInteger());
    const QJsonValue lastHi = records.last()[QStringLiteral("hi")];
    QVERIFY(lastHi.isNull() || lastHi.toInteger() > to);
    // Every hole's bounds are where the records change from pass to failure and back.
    const auto resultAt = [&](qint64 budget) {
        for (const QJsonValue &r : records)
            if (r[QStringLiteral("lo")].toInteger() <= budget
                && (r[QStringLiteral("hi")].isNull() || budget < r[QStringLiteral("hi")].toInteger()))
                return r[QStringLiteral("result")].toString();
        return QString();
    };
    const QJsonArray holes = map[QStringLiteral("holes")].toArray();
    QVERIFY(!holes.isEmpty());
    for (const QJsonValue &hole : holes) {
        const qint64 first = hole[QStringLiteral("first_fail_byte")].toInteger();
        const qint64 last = hole[QStringLiteral("last_fail_byte")].toInteger();
        QCOMPARE(resultAt(first - 1), QStringLiteral("pass"));
        QVERIFY(resultAt(first) != QStringLiteral("pass"));
        QVERIFY(resultAt(last) != QStringLiteral("pass"));
        QCOMPARE(resultAt(last + 1), QStringLiteral("pass"));
    }
    QCOMPARE(map[QStringLiteral("monotone")].toBool(true), false);
    const QJsonArray edges = map[QStringLiteral("edges")].toArray();
    QCOMPARE(edges.size(), 2 * holes.size() + 1); // the first pass and both sides of every hole
    for (const QJsonValue &edge : edges) {
        const QJsonObject flip = edge[QStringLiteral("flip")].toObject();
        QCOMPARE(flip[QStringLiteral("demand")].toInteger(), edge[QStringLiteral("above_byte")].toInteger());
        QVERIFY(!flip[QStringLiteral("tensor")].toString().isEmpty());
        QVERIFY(edge[QStringLiteral("first_divergence")].isObject());
    }
}

void MapCliTest::exactHolesReport()
{
    QByteArray out;
    QCOMPARE(rematlens({QStringLiteral("holes"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.3"),
                        QStringLiteral("--to"), QStringLiteral("0.4"), QStringLiteral("--exact"), QStringLiteral("--json")},
                       &out),
             0);
    const QJsonObject report = QJsonDocument::fromJson(out).object();
    QVERIFY(report[QStringLiteral("exact")].toBool());
    const QJsonArray holes = report[QStringLiteral("holes")].toArray();
    QVERIFY(!holes.isEmpty());
    for (const QJsonValue &hole : holes) {
        QCOMPARE(hole[QStringLiteral("last_pass_below_budget")].toInteger() + 1,
                 hole[QStringLiteral("first_fail_budget")].toInteger());
        QCOMPARE(hole[QStringLiteral("last_fail_budget")].toInteger() + 1,
                 hole[QStringLiteral("first_pass_above_budget")].toInteger());
    }
    QVERIFY(report[QStringLiteral("first_success")].isObject());
}

void MapCliTest::badUsage_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QString map = QStringLiteral("map");
    const QString demo = QStringLiteral(":demo");
    QTest::newRow("budget-reading policy")
        << QStringList{map, demo, QStringLiteral("--from"), QStringLiteral("0.3"), QStringLiteral("--to"),
                       QStringLiteral("0.4"), QStringLiteral("--policy"), QStringLiteral("ShortfallFirst")}
        << QStringLiteral("policy ShortfallFirst reads the bytes");
    QTest::newRow("expression reading shortfall")
        << QStringList{map, demo, QStringLiteral("--from"), QStringLiteral("0.3"), QStringLiteral("--to"),
                       QStringLiteral("0.4"), QStringLiteral("--policy"), QStringLiteral("expr:size - shortfall")}
        << QStringLiteral("expr:size - shortfall reads the bytes");
    QTest::newRow("no range") << QStringList{map, demo} << QStringLiteral("give the range");
    QTest::newRow("half a range") << QStringList{map, demo, QStringLiteral("--from-bytes"), QStringLiteral("5")}
                                  << QStringLiteral("give the range");
    QTest::newRow("reversed") << QStringList{map, demo, QStringLiteral("--from-bytes"), QStringLiteral("9"),
                                             QStringLiteral("--to-bytes"), QStringLiteral("5")}
                              << QStringLiteral("0 <= from <= to");
    QTest::newRow("csv out") << QStringList{map, demo, QStringLiteral("--from"), QStringLiteral("0.3"),
                                            QStringLiteral("--to"), QStringLiteral("0.4"), QStringLiteral("--out"),
                                            QStringLiteral("x.csv")}
                             << QStringLiteral("--out expects a .jsonl file");
}

void MapCliTest::badUsage()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    QByteArray err;
    QCOMPARE(rematlens(arguments, nullptr, &err), 2);
    QVERIFY2(QString::fromUtf8(err).contains(message), err.constData());
}

// ResNet-32's replays near 0.1 take far longer than a microsecond: every one stops, and the
// whole range is reported unmapped, never guessed.
void MapCliTest::wallLimitLeavesUnmappedBudgets()
{
    const QString shared = sharedDirectory();
    if (shared.isEmpty())
        QSKIP("the public traces (../shared) are not here");
    QByteArray out;
    QCOMPARE(rematlens({QStringLiteral("map"),
                        publicTracePath(shared, QStringLiteral("resnet32-56-9000000000.0-2020-10-1-13-3-30-default.log")),
                        QStringLiteral("--from"), QStringLiteral("0.100"), QStringLiteral("--to"),
                        QStringLiteral("0.101"), QStringLiteral("--wall-limit"), QStringLiteral("0.000001"),
                        QStringLiteral("--threads"), QStringLiteral("2"), QStringLiteral("--json")},
                       &out),
             0);
    const QJsonObject map = QJsonDocument::fromJson(out).object()[QStringLiteral("maps")].toArray().first().toObject();
    QCOMPARE(map[QStringLiteral("intervals")].toInt(), 0);
    const QJsonArray unmapped = map[QStringLiteral("unmapped")].toArray();
    QCOMPARE(unmapped.size(), 1);
    QCOMPARE(unmapped[0][QStringLiteral("first")].toInteger(), map[QStringLiteral("from_byte")].toInteger());
    QCOMPARE(unmapped[0][QStringLiteral("last")].toInteger(), map[QStringLiteral("to_byte")].toInteger());
    QVERIFY(map[QStringLiteral("monotone")].isNull());
    QVERIFY(map[QStringLiteral("verdict")].toString().startsWith(QStringLiteral("undetermined")));
}

QTEST_GUILESS_MAIN(MapCliTest)
#include "tst_map_cli.moc"
