// A trace that ends early (a capture that failed half-way, a file cut at a line, a side file left
// from another capture) is told from a complete one: `info` warns in one line, --strict refuses
// it, and the window's Trace summary shows the warning. Every trace of the project and the public
// ones is complete. `info --json` carries the side file's memory split as the window shows it.
#include "shared_data.h"

#include "app/gui/trace_loader.h"
#include "core/trace/capture_side_file.h"
#include "core/trace/trace_completeness.h"
#include "core/trace/trace_reader.h"
#include "views/common/byte_units.h"
#include "views/tables/trace_summary_model.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace rematlens;

namespace {

struct Result {
    int status = -1;
    QByteArray out;
    QByteArray err;
};

Result runRematlens(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(REMATLENS_BINARY), arguments);
    if (!process.waitForFinished(120000))
        return {-1, {}, "timed out"};
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

QString capturePath(const QString &file)
{
    return QStringLiteral(REMATLENS_TEST_DATA "/capture/") + file;
}

QStringList readLines(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

void writeLines(const QString &path, const QStringList &lines)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write((lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8());
}

TraceCompleteness assess(const QString &trace)
{
    const TraceReadResult read = readTraceFile(trace.toStdString());
    if (!read.ok())
        return {"unreadable: " + read.error.toString()};
    const CaptureSideFileResult side = readCaptureSideFile(captureSideFilePath(trace.toStdString()));
    return assessCompleteness(*read.program, side.sideFile ? &*side.sideFile : nullptr);
}

// The summary the window shows, read by the window's own loader.
std::optional<LoadedTraceResult> loadAsTheWindowDoes(const QString &trace)
{
    TraceLoader loader;
    QSignalSpy loaded(&loader, &TraceLoader::loaded);
    loader.load(trace);
    if (!loaded.wait(60000))
        return std::nullopt;
    return loaded.first().first().value<LoadedTraceResult>();
}

QHash<QString, QString> summaryRows(const TraceSummary &summary)
{
    TraceSummaryModel model;
    model.setSummary(summary);
    QHash<QString, QString> rows;
    for (int row = 0; row < model.rowCount(); ++row)
        rows.insert(model.index(row, 0).data().toString(), model.index(row, 1).data().toString());
    return rows;
}

} // namespace

Q_DECLARE_METATYPE(rematlens::LoadedTraceResult)

class TestTraceCompleteness : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qRegisterMetaType<LoadedTraceResult>();
        QVERIFY(m_dir.isValid());
        const QStringList mlp = readLines(capturePath(QStringLiteral("mlp.log")));
        QVERIFY(mlp.size() > 40);
        // What the earlier capture left when a step failed: the first 13 lines, no BACKWARD.
        writeLines(path("forward-only.log"), mlp.mid(0, 13));
        // The same beside the side file of the good capture it overwrote.
        writeLines(path("stale-side.log"), mlp.mid(0, 13));
        QVERIFY(QFile::copy(capturePath(QStringLiteral("mlp.meta.json")), path("stale-side.meta.json")));
        // A step cut before its final releases: every name of the side file is there, the
        // activations are never released.
        int end = int(mlp.size());
        while (end > 0 && mlp[end - 1].contains(QLatin1String("\"RELEASE\"")))
            --end;
        QVERIFY(end < mlp.size());
        writeLines(path("no-final-releases.log"), mlp.mid(0, end));
        QVERIFY(QFile::copy(capturePath(QStringLiteral("mlp.meta.json")), path("no-final-releases.meta.json")));
    }

    void completeTracesAreComplete_data()
    {
        QTest::addColumn<QString>("trace");
        for (const QString &file : QDir(QStringLiteral(REMATLENS_SOURCE_DIR "/traces")).entryList({QStringLiteral("*.log")}))
            QTest::newRow(qPrintable(QStringLiteral("own ") + file)) << ownTracePath(file);
        for (const QString &file : QDir(capturePath(QString())).entryList({QStringLiteral("*.log")}))
            QTest::newRow(qPrintable(QStringLiteral("capture ") + file)) << capturePath(file);
        if (const QString shared = sharedDirectory(); !shared.isEmpty())
            addPublicTraceRows(shared);
    }

    void completeTracesAreComplete()
    {
        QFETCH(QString, trace);
        const TraceCompleteness completeness = assess(trace);
        QVERIFY2(completeness.complete(), completeness.problem.c_str());
    }

    void infoAndStrictAcceptCompleteTraces()
    {
        for (const QString &trace : {ownTracePath(QStringLiteral("demo.log")), capturePath(QStringLiteral("optimizer-step.log"))}) {
            const Result r = runRematlens({QStringLiteral("info"), trace, QStringLiteral("--strict")});
            QVERIFY2(r.status == 0, r.err.constData());
            QVERIFY2(r.err.isEmpty(), r.err.constData());
            QVERIFY(!r.out.contains("warning"));
        }
    }

    void truncatedTracesAreTold_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<QString>("reason");
        QTest::newRow("forward only") << path("forward-only.log") << QStringLiteral("it has no backward pass");
        QTest::newRow("stale side file") << path("stale-side.log")
                                         << QStringLiteral("its side file names 39 tensors the trace does not have (x5, x6, x7 and 36 more)");
        QTest::newRow("no final releases") << path("no-final-releases.log")
                                           << QStringLiteral("names are never released (x");
    }

    void truncatedTracesAreTold()
    {
        QFETCH(QString, trace);
        QFETCH(QString, reason);
        const std::string problem = assess(trace).problem;
        QVERIFY2(problem.rfind("the trace ends early: ", 0) == 0, problem.c_str());
        QVERIFY2(QString::fromStdString(problem).contains(reason), problem.c_str());

        const Result info = runRematlens({QStringLiteral("info"), trace});
        QCOMPARE(info.status, 0);
        QCOMPARE(info.err.count('\n'), 1); // one line
        QVERIFY2(info.err.startsWith("rematlens: warning: ") && info.err.contains(problem.c_str())
                     && info.err.contains("--strict makes this an error"),
                 info.err.constData());
        QVERIFY(info.out.contains("baseline memory")); // the trace is still described

        const Result json = runRematlens({QStringLiteral("info"), trace, QStringLiteral("--json")});
        const QJsonObject object = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(object.value(QStringLiteral("complete")).toBool(true), false);
        QCOMPARE(object.value(QStringLiteral("incomplete")).toString(), QString::fromStdString(problem));

        for (const QStringList &command : {QStringList{QStringLiteral("info"), trace},
                                           QStringList{QStringLiteral("run"), trace, QStringLiteral("--ratio"), QStringLiteral("0.9")},
                                           QStringList{QStringLiteral("sweep"), trace, QStringLiteral("--from"), QStringLiteral("0.5"),
                                                       QStringLiteral("--to"), QStringLiteral("0.6"), QStringLiteral("--step"), QStringLiteral("0.1")}}) {
            const Result strict = runRematlens(command + QStringList{QStringLiteral("--strict")});
            QCOMPARE(strict.status, 1);
            QVERIFY(strict.out.isEmpty());
            QCOMPARE(strict.err.count('\n'), 1);
            QVERIFY2(strict.err.startsWith("rematlens: error: ") && strict.err.contains(problem.c_str())
                         && strict.err.contains("--strict refuses it"),
                     strict.err.constData());
        }

        const std::optional<LoadedTraceResult> window = loadAsTheWindowDoes(trace);
        QVERIFY(window);
        QCOMPARE(window->summary.incomplete, QString::fromStdString(problem));
        QCOMPARE(summaryRows(window->summary).value(QStringLiteral("Warning")), QString::fromStdString(problem));
    }

    void completeTraceShowsNoWarningInTheWindow()
    {
        const std::optional<LoadedTraceResult> window = loadAsTheWindowDoes(capturePath(QStringLiteral("mlp.log")));
        QVERIFY(window);
        QVERIFY(window->summary.incomplete.isEmpty());
        QVERIFY(!summaryRows(window->summary).contains(QStringLiteral("Warning")));
    }

    // The split and the counts of `info` are the window's, number for number and word for word.
    void infoCarriesTheWindowsSplit()
    {
        const QString trace = capturePath(QStringLiteral("optimizer-step.log"));
        const Result json = runRematlens({QStringLiteral("info"), trace, QStringLiteral("--json")});
        QVERIFY2(json.status == 0, json.err.constData());
        const QJsonObject info = QJsonDocument::fromJson(json.out).object();
        const QJsonObject split = info.value(QStringLiteral("memory_split")).toObject();
        const Result text = runRematlens({QStringLiteral("info"), trace});
        const std::optional<LoadedTraceResult> window = loadAsTheWindowDoes(trace);
        QVERIFY(window);
        const QHash<QString, QString> rows = summaryRows(window->summary);
        const qint64 baseline = qint64(info.value(QStringLiteral("baseline_memory")).toDouble());
        qint64 sum = 0;
        for (const auto &[key, row] : {std::pair{"weights", "Weights"}, std::pair{"gradients", "Gradients"},
                                       std::pair{"optimizer_state", "Optimizer state"}, std::pair{"inputs", "Inputs"},
                                       std::pair{"activations", "Activations"}}) {
            const QJsonValue value = split.value(QLatin1String(key));
            QVERIFY2(value.isDouble(), key);
            const qint64 bytes = qint64(value.toDouble());
            QVERIFY2(bytes > 0, key); // optimizer-step has all five
            sum += bytes;
            const QString percent = QString::number(100.0 * double(bytes) / double(baseline), 'f', 1);
            QCOMPARE(rows.value(QLatin1String(row)), TraceSummaryModel::formatBytes(bytes) + QStringLiteral(", ") + percent + QStringLiteral(" %"));
            const QString label = QString::fromLatin1(key).replace(QLatin1Char('_'), QLatin1Char(' '));
            QVERIFY2(text.out.contains(QStringLiteral("  %1 ").arg(label).toUtf8()), key);
            QVERIFY2(text.out.contains(QStringLiteral(" %1, %2 %").arg(ByteUnits::exact(bytes), percent).toUtf8()), key);
        }
        QCOMPARE(sum, baseline);
        const QString floor = QString::number(split.value(QStringLiteral("resident_floor")).toDouble(), 'f', 2);
        QVERIFY2(rows.value(QStringLiteral("Resident floor")).contains(floor), qPrintable(floor));
        QVERIFY(text.out.contains((QStringLiteral("resident floor      ") + rows.value(QStringLiteral("Resident floor")) + QLatin1Char('\n')).toUtf8()));
        QCOMPARE(rows.value(QStringLiteral("Operators")),
                 QStringLiteral("%1 (%2 calls, %3 constants, %4 backward)")
                     .arg(info.value(QStringLiteral("operators")).toInt())
                     .arg(info.value(QStringLiteral("calls")).toInt())
                     .arg(info.value(QStringLiteral("constants")).toInt())
                     .arg(info.value(QStringLiteral("backward_operators")).toInt()));
        QCOMPARE(info.value(QStringLiteral("operators")).toInt(),
                 info.value(QStringLiteral("calls")).toInt() + info.value(QStringLiteral("constants")).toInt());
    }

private:
    QString path(const char *name) const { return m_dir.filePath(QLatin1String(name)); }

    QTemporaryDir m_dir;
};

QTEST_MAIN(TestTraceCompleteness)
#include "tst_trace_completeness.moc"
