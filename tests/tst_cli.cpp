// The command-line contract: outputs, exit statuses (0 done, 1 bad input, 2 bad usage) and one
// clear error line naming the file and line.
#include "shared_data.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class CliTest : public QObject {
    Q_OBJECT

private slots:
    void runDemoAsJson();
    void infoDemo();
    void humanReadableRun();
    void eventsFile();
    void badInputExitsWithOne_data();
    void badInputExitsWithOne();
    void badUsageExitsWithTwo_data();
    void badUsageExitsWithTwo();
    void matchesReferenceRecord_data();
    void matchesReferenceRecord();
    void badExpressionShowsWhere_data();
    void badExpressionShowsWhere();
    void expressionAndVariantPolicies();
    void compareReportsEveryPolicy();
    void synthWritesReadableTraces();
    void traceTooLargeForMemoryIsAnError();
    void committedTracesMatchTheGenerator();
    void timelineFigure();
    void timelineFigureBadUsage();

private:
    struct Result {
        int status;
        QByteArray out;
        QByteArray err;
    };
    static Result rematlens(const QStringList &arguments);
    static void compareWithReference(const QString &traces, const QJsonObject &expected);
    QTemporaryDir m_dir;
};

// Headless: the figure command needs no display and writes each format at the asked size.
void CliTest::timelineFigure()
{
    const QString png = m_dir.filePath(QStringLiteral("timeline.png"));
    Result r = rematlens({QStringLiteral("figure"), QStringLiteral("timeline"), QStringLiteral(":demo"),
                          QStringLiteral("--ratio"), QStringLiteral("0.35"), QStringLiteral("--compare-ratio"),
                          QStringLiteral("0.37"), QStringLiteral("--size"), QStringLiteral("4x2"), QStringLiteral("--dpi"),
                          QStringLiteral("100"), QStringLiteral("--out"), png, QStringLiteral("--data"),
                          m_dir.filePath(QStringLiteral("timeline.csv"))});
    QVERIFY2(r.status == 0, r.err.constData());
    QCOMPARE(QImage(png).size(), QSize(400, 200));
    QFile csv(m_dir.filePath(QStringLiteral("timeline.csv")));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QVERIFY(csv.readLine().startsWith("# provenance {\"trace\":"));
    QVERIFY(csv.readLine().startsWith("run,ratio,budget,step,clock,memory,locked_bytes,depth,pool_size"));
    for (const char *suffix : {"svg", "pdf"}) {
        const QString path = m_dir.filePath(QStringLiteral("timeline.") + QLatin1String(suffix));
        r = rematlens({QStringLiteral("figure"), QStringLiteral("timeline"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                       QStringLiteral("0.35"), QStringLiteral("--x"), QStringLiteral("clock"), QStringLiteral("--out"), path});
        QVERIFY2(r.status == 0, r.err.constData());
        QVERIFY(QFileInfo(path).size() > 1000);
    }
}

void CliTest::timelineFigureBadUsage()
{
    const QString out = m_dir.filePath(QStringLiteral("never.png"));
    Result r = rematlens({QStringLiteral("figure"), QStringLiteral("timeline"), QStringLiteral(":demo"), QStringLiteral("--out"), out});
    QCOMPARE(r.status, 2);
    QVERIFY(r.err.contains("--ratio"));
    r = rematlens({QStringLiteral("figure"), QStringLiteral("timeline"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                   QStringLiteral("0.4"), QStringLiteral("--compare-ratio"), QStringLiteral("-1"), QStringLiteral("--out"), out});
    QCOMPARE(r.status, 2);
    QVERIFY(r.err.contains("--compare-ratio"));
    QVERIFY(!QFileInfo::exists(out));
}

CliTest::Result CliTest::rematlens(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(REMATLENS_BINARY), arguments);
    if (!process.waitForFinished(120000))
        return {-1, {}, "timed out"};
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

void CliTest::runDemoAsJson()
{
    const Result r = rematlens({QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                QStringLiteral("0.5"), QStringLiteral("--json")});
    QCOMPARE(r.status, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    for (const char *field : {"trace", "heuristic", "runtime", "ratio", "budget", "result", "clock", "remat_compute",
                              "max_memory", "memory_at_end", "evictions", "released_evictions", "remats", "overhead",
                              "seconds"})
        QVERIFY2(o.contains(QLatin1String(field)), field);
    QCOMPARE(o.value(QStringLiteral("trace")).toString(), QStringLiteral(":demo"));
    QCOMPARE(o.value(QStringLiteral("heuristic")).toString(), QStringLiteral("DTR"));
    QCOMPARE(o.value(QStringLiteral("result")).toString(), QStringLiteral("pass"));
    QVERIFY(o.value(QStringLiteral("max_memory")).toDouble() <= o.value(QStringLiteral("budget")).toDouble());
}

void CliTest::infoDemo()
{
    const Result r = rematlens({QStringLiteral("info"), QStringLiteral(":demo"), QStringLiteral("--json")});
    QCOMPARE(r.status, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QVERIFY(o.value(QStringLiteral("baseline_memory")).toDouble() > 0);
    QVERIFY(o.value(QStringLiteral("baseline_compute")).toDouble() > 0);
    QVERIFY(o.value(QStringLiteral("operators")).toInt() > 0);
}

void CliTest::humanReadableRun()
{
    const Result r = rematlens({QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                QStringLiteral("0.2")});
    QCOMPARE(r.status, 0); // running out of memory is a result, not an error
    QVERIFY(r.out.contains("result          oom"));
    QVERIFY(r.out.contains("short"));
}

void CliTest::eventsFile()
{
    const QString path = m_dir.filePath(QStringLiteral("events.jsonl"));
    const Result r = rematlens({QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                QStringLiteral("0.4"), QStringLiteral("--json"), QStringLiteral("--events"), path});
    QCOMPARE(r.status, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    // The first line says what made the file: the demo's hash, the policy and the budget.
    const QJsonObject provenance = QJsonDocument::fromJson(lines.takeFirst()).object().value(QStringLiteral("provenance")).toObject();
    QCOMPARE(provenance.value(QStringLiteral("trace_sha256")).toString().size(), 64);
    QCOMPARE(provenance.value(QStringLiteral("budget")).toInteger(), o.value(QStringLiteral("budget")).toInteger());
    QCOMPARE(provenance.value(QStringLiteral("policies")).toArray().first().toString(), QStringLiteral("DTR"));
    const int expected = o.value(QStringLiteral("evictions")).toInt() + o.value(QStringLiteral("released_evictions")).toInt()
                         + o.value(QStringLiteral("remats")).toInt();
    QVERIFY(expected > 0);
    QCOMPARE(lines.size(), expected);
    const QJsonArray first = QJsonDocument::fromJson(lines.first()).array();
    QCOMPARE(first.size(), 5);
}

void CliTest::badInputExitsWithOne_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected");
    QTest::newRow("malformed") << QByteArray("{\"INSTRUCTION\":\"ANNOTATE\",\"ANNOTATION\":\"START\"}\n{oops\n")
                               << QStringLiteral("bad.log:2:");
    QTest::newRow("unknown instruction") << QByteArray("{\"INSTRUCTION\":\"JUMP\"}\n") << QStringLiteral("bad.log:1:");
    QTest::newRow("empty") << QByteArray() << QStringLiteral("bad.log: the trace is empty");
    QTest::newRow("binary") << QByteArray("\x00\x01\x02\xff\xfe", 5) << QStringLiteral("bad.log:1:");
}

void CliTest::badInputExitsWithOne()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    const QString path = m_dir.filePath(QStringLiteral("bad.log"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(content);
    file.close();
    for (const QStringList &args : {QStringList{QStringLiteral("info"), path},
                                    QStringList{QStringLiteral("run"), path, QStringLiteral("--ratio"), QStringLiteral("0.5")}}) {
        const Result r = rematlens(args);
        QCOMPARE(r.status, 1);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(err.contains(expected), qPrintable(err));
        QCOMPARE(err.count(QLatin1Char('\n')), 0); // one line
    }
    const Result missing = rematlens({QStringLiteral("info"), m_dir.filePath(QStringLiteral("absent.log"))});
    QCOMPARE(missing.status, 1);
    QVERIFY(missing.err.contains("absent.log"));
}

void CliTest::badExpressionShowsWhere_data()
{
    QTest::addColumn<QString>("command");
    for (const char *command : {"run", "sweep", "holes", "compare"})
        QTest::newRow(command) << QString::fromLatin1(command);
}

// Refused before the trace is read (the trace here does not exist), with a caret line.
void CliTest::badExpressionShowsWhere()
{
    QFETCH(QString, command);
    QStringList arguments{command, m_dir.filePath(QStringLiteral("absent.log")), QStringLiteral("--policy"),
                          QStringLiteral("DTR"), QStringLiteral("--policy"),
                          QStringLiteral("expr:(compute + estar) / (size * stalenes)")};
    if (command == QStringLiteral("run"))
        arguments = QStringList{command, QStringLiteral(":demo"), QStringLiteral("--ratio"), QStringLiteral("0.5"),
                                QStringLiteral("--policy"), QStringLiteral("expr:(compute + estar) / (size * stalenes)")};
    if (command == QStringLiteral("holes")) // one policy only
        arguments.remove(2, 2);
    const Result r = rematlens(arguments);
    QCOMPARE(r.status, 2);
    const QStringList lines = QString::fromUtf8(r.err).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY2(lines[0].contains(QStringLiteral("invalid score expression")), qPrintable(lines[0]));
    QVERIFY2(lines[0].contains(QStringLiteral("character 29")), qPrintable(lines[0]));
    QCOMPARE(lines[1], QStringLiteral("    (compute + estar) / (size * stalenes)"));
    QCOMPARE(lines[2], QString(4 + 28, QLatin1Char(' ')) + QStringLiteral("^"));
}

void CliTest::expressionAndVariantPolicies()
{
    const auto runJson = [](const QString &policy) {
        const Result r = rematlens({QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                    QStringLiteral("0.5"), QStringLiteral("--policy"), policy, QStringLiteral("--json")});
        return std::make_pair(r.status, QJsonDocument::fromJson(r.out).object());
    };
    const auto [dtrStatus, dtr] = runJson(QStringLiteral("DTR"));
    const auto [exprStatus, expr] = runJson(QStringLiteral("expr:(compute + estar) / (size * staleness)"));
    QCOMPARE(dtrStatus, 0);
    QCOMPARE(exprStatus, 0);
    QCOMPARE(expr.value(QStringLiteral("heuristic")).toString(), QStringLiteral("expr:(compute + estar) / (size * staleness)"));
    for (const char *field : {"result", "clock", "evictions", "remats", "heuristic_evals", "max_memory"})
        QCOMPARE(expr.value(QLatin1String(field)), dtr.value(QLatin1String(field)));
    QCOMPARE(runJson(QStringLiteral("DTRPenalty")).second.value(QStringLiteral("heuristic")).toString(),
             QStringLiteral("DTRPenalty:b=0.5"));
    QCOMPARE(runJson(QStringLiteral("h-estar")).second.value(QStringLiteral("heuristic")).toString(),
             QStringLiteral("EStarCount"));
    QCOMPARE(runJson(QStringLiteral("DTRPenalty:b=nope")).first, 2);
    const Result listing = rematlens({QStringLiteral("policies")});
    QCOMPARE(listing.status, 0);
    for (const char *text : {"EStarCount", "DTRPenalty", "ShortfallFirst", "CostOverStaleness", "source:", "shortfall"})
        QVERIFY2(listing.out.contains(text), text);
}

void CliTest::compareReportsEveryPolicy()
{
    const QStringList policies{QStringLiteral("DTR"), QStringLiteral("expr:(compute + estar) / (size * staleness)"),
                               QStringLiteral("DTRPenalty:b=0.5"), QStringLiteral("ShortfallFirst")};
    QStringList arguments{QStringLiteral("compare"), QStringLiteral(":demo"), QStringLiteral("--from"),
                          QStringLiteral("0.2"), QStringLiteral("--to"), QStringLiteral("1.0"), QStringLiteral("--step"),
                          QStringLiteral("0.02"), QStringLiteral("--json")};
    for (const QString &policy : policies)
        arguments << QStringLiteral("--policy") << policy;
    const Result r = rematlens(arguments);
    QCOMPARE(r.status, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value(QStringLiteral("reference")).toString(), QStringLiteral("DTR"));
    QCOMPARE(o.value(QStringLiteral("budgets")).toInt(), 41);
    QVERIFY(o.value(QStringLiteral("all_pass_budgets")).toInt() > 0);
    const QJsonArray rows = o.value(QStringLiteral("policies")).toArray();
    QCOMPARE(rows.size(), policies.size());
    for (int i = 0; i < rows.size(); ++i) {
        const QJsonObject row = rows[i].toObject();
        for (const char *field : {"policy", "first_success", "stable_from", "failures_above_first_success", "holes",
                                  "mean_overhead", "geomean_overhead_ratio", "worst_regression"})
            QVERIFY2(row.contains(QLatin1String(field)), field);
        QVERIFY(row.value(QStringLiteral("mean_overhead")).toDouble() >= 1.0);
        QVERIFY(row.value(QStringLiteral("first_success")).toDouble()
                <= row.value(QStringLiteral("stable_from")).toDouble());
    }
    QCOMPARE(rows[0].toObject().value(QStringLiteral("geomean_overhead_ratio")).toDouble(), 1.0);
    QVERIFY(rows[0].toObject().value(QStringLiteral("worst_regression")).isNull()); // the reference
    // The expression is DTR's score: the same runs, so a ratio of exactly 1 everywhere.
    const QJsonObject expr = rows[1].toObject();
    QCOMPARE(expr.value(QStringLiteral("geomean_overhead_ratio")).toDouble(), 1.0);
    QCOMPARE(expr.value(QStringLiteral("first_success")), rows[0].toObject().value(QStringLiteral("first_success")));
    QCOMPARE(expr.value(QStringLiteral("worst_regression")).toObject().value(QStringLiteral("overhead_ratio")).toDouble(), 1.0);
    QVERIFY(expr.value(QStringLiteral("worst_regression")).toObject().contains(QStringLiteral("budget")));
    const QJsonObject variant = rows[2].toObject();
    QCOMPARE(variant.value(QStringLiteral("policy")).toString(), QStringLiteral("DTRPenalty:b=0.5"));

    QCOMPARE(rematlens({QStringLiteral("compare"), QStringLiteral(":demo"), QStringLiteral("--policy"),
                        QStringLiteral("DTR")})
                 .status,
             2); // one policy compares with nothing
}

void CliTest::badUsageExitsWithTwo_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("no budget") << QStringList{QStringLiteral("run"), QStringLiteral(":demo")};
    QTest::newRow("both budgets") << QStringList{QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                                 QStringLiteral("0.5"), QStringLiteral("--budget"), QStringLiteral("10")};
    QTest::newRow("unknown policy") << QStringList{QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                                   QStringLiteral("0.5"), QStringLiteral("--policy"), QStringLiteral("magic")};
    QTest::newRow("unknown runtime") << QStringList{QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                                    QStringLiteral("0.5"), QStringLiteral("--runtime"), QStringLiteral("fast")};
    QTest::newRow("bad ratio") << QStringList{QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                              QStringLiteral("half")};
    QTest::newRow("DTR on banishing") << QStringList{QStringLiteral("run"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                                     QStringLiteral("0.5"), QStringLiteral("--runtime"), QStringLiteral("banishing")};
    QTest::newRow("unknown option") << QStringList{QStringLiteral("info"), QStringLiteral(":demo"), QStringLiteral("--frobnicate")};
}

void CliTest::badUsageExitsWithTwo()
{
    QFETCH(QStringList, arguments);
    const Result r = rematlens(arguments);
    QCOMPARE(r.status, 2);
    QVERIFY(!r.err.isEmpty());
}

// simrd's U-Net records: of the project's own U-Net on every checkout, of the public one where
// ../shared is.
void CliTest::matchesReferenceRecord_data()
{
    QTest::addColumn<QString>("reference");
    QTest::addColumn<QString>("traces");
    QTest::newRow("own unet") << projectReferenceDirectory(QStringLiteral("own-traces")) + QStringLiteral("/unet-DTR-eager-grid0.05.jsonl")
                              << ownTracePath(QString());
    const QString shared = sharedDirectory();
    if (shared.isEmpty())
        qInfo("../shared is absent: the public U-Net's records are compared where it is (CI)");
    else
        QTest::newRow("public unet") << shared + QStringLiteral("/reference/unet-DTR-eager-grid0.05.jsonl")
                                     << publicTracePath(shared, QString());
}

void CliTest::matchesReferenceRecord()
{
    QFETCH(QString, reference);
    QFETCH(QString, traces);
    QFile file(reference);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QVERIFY(lines.size() > 2);
    for (qsizetype line : {qsizetype(1), lines.size() - 1}) { // an out-of-memory run with its failure, and a pass
        const QJsonObject expected = QJsonDocument::fromJson(lines.at(line)).object();
        QCOMPARE(expected.value(QStringLiteral("result")).toString(), line == 1 ? QStringLiteral("oom") : QStringLiteral("pass"));
        compareWithReference(traces, expected);
    }
}

void CliTest::compareWithReference(const QString &traces, const QJsonObject &expected)
{
    const QString trace = traces + expected.value(QStringLiteral("trace")).toString();
    const Result r = rematlens({QStringLiteral("run"), trace, QStringLiteral("--ratio"),
                                QString::number(expected.value(QStringLiteral("ratio")).toDouble()), QStringLiteral("--json")});
    QCOMPARE(r.status, 0);
    const QJsonObject ours = QJsonDocument::fromJson(r.out).object();
    for (const QString &field : expected.keys()) {
        if (field == QLatin1String("seconds"))
            continue;
        if (field == QLatin1String("failure")) {
            const QJsonObject failure = expected.value(field).toObject();
            for (const QString &key : failure.keys())
                QVERIFY2(ours.value(field).toObject().value(key) == failure.value(key), qPrintable(key));
            continue;
        }
        QVERIFY2(ours.value(field) == expected.value(field), qPrintable(field));
    }
}

void CliTest::synthWritesReadableTraces()
{
    const Result list = rematlens({QStringLiteral("synth"), QStringLiteral("--list")});
    QCOMPARE(list.status, 0);
    for (const char *preset : {"chain", "resnet", "unet", "transformer", "lstm"})
        QVERIFY2(list.out.contains(preset), preset);
    const QString path = m_dir.filePath(QStringLiteral("synth.log"));
    QCOMPARE(rematlens({QStringLiteral("synth"), QStringLiteral("--preset"), QStringLiteral("unet"), QStringLiteral("--layers"),
                        QStringLiteral("3"), QStringLiteral("--out"), path})
                 .status,
             0);
    QCOMPARE(rematlens({QStringLiteral("run"), path, QStringLiteral("--ratio"), QStringLiteral("0.9")}).status, 0);
    QCOMPARE(rematlens({QStringLiteral("synth"), QStringLiteral("--preset"), QStringLiteral("vgg")}).status, 2);
    QCOMPARE(rematlens({QStringLiteral("synth")}).status, 2);
}

void CliTest::traceTooLargeForMemoryIsAnError()
{
#ifdef REMATLENS_SANITIZED
    QSKIP("AddressSanitizer needs more address space than this test allows");
#endif
    // An 80 MB trace read with 400 MB of address space: a clear error, not an abort.
    const QString big = m_dir.filePath(QStringLiteral("big.log"));
    QCOMPARE(rematlens({QStringLiteral("synth"), QStringLiteral("--preset"), QStringLiteral("chain"), QStringLiteral("--layers"),
                        QStringLiteral("100000"), QStringLiteral("--out"), big})
                 .status,
             0);
    QProcess process;
    process.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("ulimit -v 400000 && exec \"$0\" info \"$1\""),
                                              QStringLiteral(REMATLENS_BINARY), big});
    QVERIFY(process.waitForFinished(120000));
    QCOMPARE(process.exitCode(), 1);
    QVERIFY(process.readAllStandardError().contains("too large for the memory available"));
    QFile::remove(big);
}

void CliTest::committedTracesMatchTheGenerator()
{
    // traces/manifest.json says how each committed trace was made; remaking it gives the same bytes.
    QFile manifestFile(QStringLiteral(REMATLENS_SOURCE_DIR "/traces/manifest.json"));
    QVERIFY(manifestFile.open(QIODevice::ReadOnly));
    const QJsonArray traces = QJsonDocument::fromJson(manifestFile.readAll()).object().value(QStringLiteral("traces")).toArray();
    QVERIFY(!traces.isEmpty());
    for (const QJsonValue &entry : traces) {
        QStringList command = entry.toObject().value(QStringLiteral("made_by")).toString().split(QLatin1Char(' '));
        QCOMPARE(command.takeFirst(), QStringLiteral("rematlens"));
        const int out = static_cast<int>(command.indexOf(QStringLiteral("--out")));
        QVERIFY(out > 0);
        const QString committed = QStringLiteral(REMATLENS_SOURCE_DIR "/") + command[out + 1];
        const QString remade = m_dir.filePath(QStringLiteral("remade.log"));
        command[out + 1] = remade;
        QCOMPARE(rematlens(command).status, 0);
        QFile a(committed);
        QFile b(remade);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QVERIFY2(a.readAll() == b.readAll(), qPrintable(committed));
    }
}

QTEST_GUILESS_MAIN(CliTest)
#include "tst_cli.moc"
