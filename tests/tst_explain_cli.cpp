// rematlens explain: the anatomy of a hole, checked against plain replays of the same budgets
// (run, diff, run --keep, map). The demo trace (compiled in) has holes of two mechanisms in
// 0.30-0.40: 0.331-0.340 (an avoided eviction, then over the compute limit) and 0.347-0.357 and
// 0.358-0.361 (an avoided eviction, then out of memory seven calls deep). The public U-Net trace,
// where installed, adds the README's hole at 0.419.
#include "shared_data.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class ExplainCliTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void oneHoleFromABudgetInside();
    void storyNumbersMatchReplays();
    void rescueMakesTheFailingBudgetPass();
    void pairOfBudgetsToldAsGiven();
    void everyHoleOfAMapClassified();
    void thrashHoleMatchesItsReplay();
    void seededMapToldUnderItsSeed();
    void holeOfAMapFile();
    void badUsage();
    void unetHoleAsTheReadmeShowsIt();

private:
    struct Result {
        int status;
        QByteArray out;
        QByteArray err;
    };
    static Result rematlens(const QStringList &arguments);
    static QJsonObject json(const QStringList &arguments);
    static QString text(qint64 v) { return QString::number(v); }
    QTemporaryDir m_dir;
    QString m_map;
    QString m_unet;
};

ExplainCliTest::Result ExplainCliTest::rematlens(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(REMATLENS_BINARY), arguments);
    if (!process.waitForFinished(300000))
        return {-1, {}, "timed out"};
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

QJsonObject ExplainCliTest::json(const QStringList &arguments)
{
    const Result r = rematlens(arguments);
    if (r.status != 0)
        qWarning("%s", r.err.constData());
    return r.status == 0 ? QJsonDocument::fromJson(r.out).object() : QJsonObject();
}

static QJsonObject at(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toObject();
}

static qint64 number(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toInteger();
}

static QString string(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

void ExplainCliTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_map = m_dir.filePath(QStringLiteral("demo-map.jsonl"));
    const Result r = rematlens({QStringLiteral("map"), QStringLiteral(":demo"), QStringLiteral("--from"),
                                QStringLiteral("0.30"), QStringLiteral("--to"), QStringLiteral("0.40"),
                                QStringLiteral("--out"), m_map});
    QVERIFY2(r.status == 0, r.err.constData());
    m_unet = findPublicTrace(QStringLiteral("unet-6-8000000000.0-2020-10-1-10-57-18-default.log"));
}

// The hole holding 0.35 is found to the byte: the map's second hole.
void ExplainCliTest::oneHoleFromABudgetInside()
{
    const QJsonObject o = json({QStringLiteral("explain"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                QStringLiteral("0.35"), QStringLiteral("--no-rescue"), QStringLiteral("--json")});
    const QJsonObject hole = at(o, "hole");
    QCOMPARE(number(hole, "first_fail_byte"), qint64{35356964});
    QCOMPARE(number(hole, "last_fail_byte"), qint64{36335027});
    QCOMPARE(string(hole, "mechanism"), QStringLiteral("avoided-eviction-cascade-oom"));
    const QJsonObject replays = at(hole, "replays");
    QVERIFY(number(replays, "walk") >= 3);
    QCOMPARE(number(replays, "stories"), qint64{4});
    QCOMPARE(number(replays, "rescue"), qint64{0});
    QCOMPARE(number(replays, "total"), number(replays, "walk") + number(replays, "stories"));
}

// Each number of the lower edge's story is what plain replays of its two budgets say.
void ExplainCliTest::storyNumbersMatchReplays()
{
    const QJsonObject hole = at(json({QStringLiteral("explain"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                      QStringLiteral("0.35"), QStringLiteral("--no-rescue"), QStringLiteral("--json")}),
                                "hole");
    const QJsonObject lower = at(hole, "lower_edge");
    const qint64 firstFail = number(hole, "first_fail_byte");
    const QJsonObject pass = json({QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--budget"),
                                   text(firstFail - 1), QStringLiteral("--json")});
    const QJsonObject fail = json({QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--budget"),
                                   text(firstFail), QStringLiteral("--json")});
    QCOMPARE(string(pass, "result"), QStringLiteral("pass"));
    QCOMPARE(string(fail, "result"), QStringLiteral("oom"));
    QCOMPARE(number(at(lower, "smaller"), "clock"), number(pass, "clock"));
    QCOMPARE(number(at(lower, "larger"), "clock"), number(fail, "clock"));
    const QJsonObject failure = at(at(lower, "larger"), "failure");
    QCOMPARE(number(failure, "bytes_short"), number(at(fail, "failure"), "bytes_short"));
    QCOMPARE(number(failure, "depth"), qint64{7});
    QCOMPARE(number(at(lower, "failure_step"), "step"), number(at(fail, "failure"), "step"));
    // At an exact edge the smaller budget lacked one byte: the demand is the failing budget.
    const QJsonObject avoided = at(lower, "avoided_eviction");
    QCOMPARE(number(avoided, "demand"), firstFail);
    QCOMPARE(number(avoided, "short_by_smaller"), qint64{1});
    QCOMPARE(number(avoided, "slack_of_larger"), qint64{0});
    QCOMPARE(number(avoided, "memory_in_use") + number(avoided, "needed"), firstFail);
    // The runs part at that eviction.
    const QJsonObject divergence = at(lower, "first_divergence");
    QCOMPARE(string(at(divergence, "a"), "kind"), QStringLiteral("evict"));
    QCOMPARE(string(at(divergence, "a"), "tensor"), string(avoided, "victim"));
    QCOMPARE(number(at(divergence, "a"), "memory"), number(avoided, "memory_in_use"));
    // The later eviction is in the failing run's own event stream, and is read again later.
    const QString events = m_dir.filePath(QStringLiteral("fail-events.jsonl"));
    QCOMPARE(rematlens({QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--budget"), text(firstFail),
                        QStringLiteral("--events"), events})
                 .status,
             0);
    QFile file(events);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject later = at(lower, "later_eviction");
    const QByteArray wanted = QJsonDocument(QJsonArray{QStringLiteral("evict"), number(later, "clock"),
                                                       string(later, "tensor"), number(later, "bytes")})
                                  .toJson(QJsonDocument::Compact)
                                  .chopped(1);
    QVERIFY2(file.readAll().contains(wanted + ","), wanted.constData());
    QVERIFY(number(later, "needed_at_step") > number(later, "step"));
    QVERIFY(number(later, "operators_until_needed") >= 1);
}

// Every rescue named makes the failing budget pass when kept, with the clock it gives.
void ExplainCliTest::rescueMakesTheFailingBudgetPass()
{
    const QJsonObject hole = at(json({QStringLiteral("explain"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                      QStringLiteral("0.35"), QStringLiteral("--json")}),
                                "hole");
    const QJsonObject lower = at(hole, "lower_edge");
    const QJsonObject rescue = at(lower, "rescue");
    const QJsonArray rescues = rescue.value(QStringLiteral("rescues")).toArray();
    QVERIFY(!rescues.isEmpty());
    const QJsonObject best = rescues.first().toObject();
    const QJsonObject kept = json({QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--budget"),
                                   text(number(hole, "first_fail_byte")), QStringLiteral("--keep"),
                                   string(best, "tensor"), QStringLiteral("--json")});
    QCOMPARE(string(kept, "result"), QStringLiteral("pass"));
    QCOMPARE(number(kept, "clock"), number(best, "clock"));
    // The rescue searches' replays are counted: one replay of the failing run and one per candidate.
    const QJsonObject replays = at(hole, "replays");
    const qint64 tried = number(rescue, "tried") + number(at(at(hole, "upper_edge"), "rescue"), "tried");
    QCOMPARE(number(replays, "rescue"), tried + 2);
}

// Two budgets are told as given: the avoided eviction's shortfall is against the passing one.
void ExplainCliTest::pairOfBudgetsToldAsGiven()
{
    const QJsonObject o = json({QStringLiteral("explain"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                QStringLiteral("0.346"), QStringLiteral("--ratio"), QStringLiteral("0.347"),
                                QStringLiteral("--no-rescue"), QStringLiteral("--json")});
    const QJsonObject given = at(at(o, "hole"), "given");
    const QJsonObject avoided = at(given, "avoided_eviction");
    const qint64 smaller = number(at(given, "smaller"), "budget");
    const qint64 larger = number(at(given, "larger"), "budget");
    QCOMPARE(string(at(given, "smaller"), "result"), QStringLiteral("pass"));
    QCOMPARE(number(avoided, "short_by_smaller"), number(avoided, "demand") - smaller);
    QCOMPARE(number(avoided, "slack_of_larger"), larger - number(avoided, "demand"));
    QVERIFY(number(avoided, "short_by_smaller") > 1);
    QVERIFY(number(avoided, "slack_of_larger") >= 0);
}

void ExplainCliTest::everyHoleOfAMapClassified()
{
    const Result r = rematlens({QStringLiteral("explain"), m_map});
    QVERIFY2(r.status == 0, r.err.constData());
    QVERIFY(r.out.contains("avoided-eviction-cascade-oom          2"));
    QVERIFY(r.out.contains("avoided-eviction-thrash               1"));
    const QJsonObject o = json({QStringLiteral("explain"), m_map, QStringLiteral("--json")});
    const QJsonObject map = o.value(QStringLiteral("maps")).toArray().first().toObject();
    const QJsonArray holes = map.value(QStringLiteral("holes")).toArray();
    QCOMPARE(holes.size(), 3);
    QCOMPARE(string(holes[0].toObject(), "mechanism"), QStringLiteral("avoided-eviction-thrash"));
    QCOMPARE(string(holes[1].toObject(), "mechanism"), QStringLiteral("avoided-eviction-cascade-oom"));
    QCOMPARE(number(map, "replays"), qint64{12}); // two recorded replays per edge, no rescue
}

void ExplainCliTest::thrashHoleMatchesItsReplay()
{
    const QJsonObject o = json({QStringLiteral("explain"), m_map, QStringLiteral("--json")});
    const QJsonObject hole = o.value(QStringLiteral("maps")).toArray().first().toObject().value(QStringLiteral("holes"))
                                 .toArray().first().toObject();
    const QJsonObject larger = at(at(hole, "lower_edge"), "larger");
    const QJsonObject replay = json({QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--budget"),
                                     text(number(hole, "first_fail_byte")), QStringLiteral("--json")});
    QCOMPARE(string(replay, "result"), QStringLiteral("thrash"));
    QCOMPARE(string(larger, "result"), QStringLiteral("thrash"));
    QCOMPARE(number(larger, "clock"), number(replay, "clock"));
    QCOMPARE(number(larger, "remat_compute"), number(replay, "remat_compute"));
    const QJsonObject below = json({QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--budget"),
                                    text(number(hole, "first_fail_byte") - 1), QStringLiteral("--json")});
    QCOMPARE(string(below, "result"), QStringLiteral("pass"));
}

// A random policy's map under seed 1: every hole is told from the map's own draws, its edges
// replayed as `run --seed 1` replays them (seed 0's would tell holes that are not there).
void ExplainCliTest::seededMapToldUnderItsSeed()
{
    const QString map = m_dir.filePath(QStringLiteral("random-seed-1.jsonl"));
    const Result made = rematlens({QStringLiteral("map"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.30"),
                                   QStringLiteral("--to"), QStringLiteral("0.60"), QStringLiteral("--policy"),
                                   QStringLiteral("RandomStorage"), QStringLiteral("--seed"), QStringLiteral("1"),
                                   QStringLiteral("--out"), map});
    QVERIFY2(made.status == 0, made.err.constData());
    const QJsonObject o = json({QStringLiteral("explain"), map, QStringLiteral("--json")});
    const QJsonArray holes = o.value(QStringLiteral("maps")).toArray().first().toObject().value(QStringLiteral("holes")).toArray();
    QVERIFY(!holes.isEmpty());
    for (const QJsonValue &value : holes) {
        const QJsonObject hole = value.toObject();
        const QJsonObject larger = at(at(hole, "lower_edge"), "larger");
        const QJsonObject replay = json({QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--budget"),
                                         text(number(hole, "first_fail_byte")), QStringLiteral("--policy"),
                                         QStringLiteral("RandomStorage"), QStringLiteral("--seed"), QStringLiteral("1"),
                                         QStringLiteral("--json")});
        QVERIFY(string(replay, "result") != QStringLiteral("pass"));
        QCOMPARE(string(larger, "result"), string(replay, "result"));
        QCOMPARE(number(larger, "clock"), number(replay, "clock"));
        QCOMPARE(string(at(at(hole, "lower_edge"), "smaller"), "result"), QStringLiteral("pass"));
    }
}

void ExplainCliTest::holeOfAMapFile()
{
    const QJsonObject fromMap = json({QStringLiteral("explain"), QStringLiteral(":demo"), QStringLiteral("--map"), m_map,
                                      QStringLiteral("--hole"), QStringLiteral("2"), QStringLiteral("--no-rescue"),
                                      QStringLiteral("--json")});
    const QJsonObject hole = at(fromMap, "hole");
    QCOMPARE(number(hole, "first_fail_byte"), qint64{35356964});
    QCOMPARE(number(at(hole, "replays"), "walk"), qint64{0});
    const Result text = rematlens({QStringLiteral("explain"), m_map, QStringLiteral("--hole"), QStringLiteral("1"),
                                   QStringLiteral("--no-rescue")});
    QVERIFY2(text.status == 0, text.err.constData());
    QVERIFY(text.out.contains("went over the compute limit"));
    for (const QByteArray &line : text.out.split('\n'))
        QVERIFY2(line.size() <= 100, line.constData());
}

void ExplainCliTest::badUsage()
{
    const auto status = [](const QStringList &args) { return rematlens(args).status; };
    const QString demo = QStringLiteral(":demo");
    QCOMPARE(status({QStringLiteral("explain"), demo}), 2);
    QCOMPARE(status({QStringLiteral("explain"), demo, QStringLiteral("--ratio"), QStringLiteral("0.5")}), 2); // passes
    QCOMPARE(status({QStringLiteral("explain"), demo, QStringLiteral("--ratio"), QStringLiteral("0.1")}), 2); // no pass below
    QCOMPARE(status({QStringLiteral("explain"), demo, QStringLiteral("--ratio"), QStringLiteral("0.5"),
                     QStringLiteral("--ratio"), QStringLiteral("0.6")}), 2); // both pass
    QCOMPARE(status({QStringLiteral("explain"), demo, QStringLiteral("--hole"), QStringLiteral("1")}), 2);
    QCOMPARE(status({QStringLiteral("explain"), m_map, QStringLiteral("--hole"), QStringLiteral("4")}), 2);
    const Result missing = rematlens({QStringLiteral("explain"), m_dir.filePath(QStringLiteral("none.jsonl"))});
    QCOMPARE(missing.status, 1);
    QVERIFY(missing.err.contains("none.jsonl"));
}

void ExplainCliTest::unetHoleAsTheReadmeShowsIt()
{
    if (m_unet.isEmpty())
        QSKIP("the public U-Net trace is not installed (../shared, or traces/download-dtr-traces.sh)");
    const QJsonObject hole = at(json({QStringLiteral("explain"), m_unet, QStringLiteral("--ratio"),
                                      QStringLiteral("0.419"), QStringLiteral("--json")}),
                                "hole");
    QCOMPARE(number(hole, "first_fail_byte"), qint64{3525043904});
    QCOMPARE(number(hole, "last_fail_byte"), qint64{3535266239});
    const QJsonObject lower = at(hole, "lower_edge");
    QCOMPARE(string(at(lower, "avoided_eviction"), "victim"), QStringLiteral("x5551"));
    QCOMPARE(string(at(lower, "avoided_eviction"), "tensor"), QStringLiteral("x5583$"));
    const QJsonObject rescue = at(lower, "rescue");
    QCOMPARE(rescue.value(QStringLiteral("rescues")).toArray().size(), 16);
    QCOMPARE(string(rescue.value(QStringLiteral("rescues")).toArray().first().toObject(), "tensor"),
             QStringLiteral("x5616$"));
}

QTEST_GUILESS_MAIN(ExplainCliTest)
#include "tst_explain_cli.moc"
