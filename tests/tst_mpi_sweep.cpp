// rematlens sweep, holes and rescue across the ranks of an MPI job (mpirun -np 3 on any machine):
// the same file or report as one process writes, a job that loses a rank fails and resumes, and a
// job of one rank is a plain run. Skipped when mpirun is not installed.
#include "provenance_text.h"
#include "shared_data.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

class MpiSweepTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void sameFileAsOneProcess();
    void csvSameAsOneProcess();
    void jobOfOneRankIsAPlainRun();
    void lostRankFailsAndResumes();
    void holesSameAsOneProcess();
    void rescueSameAsOneProcess();
    void rescueUsageErrorFromRankZeroAlone();

private:
    struct Outcome {
        int status = -1;
        QByteArray out;
        QByteArray err;
    };
    static Outcome run(const QString &program, const QStringList &arguments, const QStringList &environment = {});
    Outcome mpirun(int ranks, const QStringList &arguments, const QStringList &environment = {}) const;
    static Outcome rematlens(const QStringList &arguments);
    static QByteArray withoutTiming(QByteArray content);
    static void compareReports(const QByteArray &single, const QByteArray &spread);
    static QByteArray contentOf(const QString &path);
    static QStringList sweep(const QString &out, const QString &trace = QStringLiteral("unet.log"),
                             const QString &step = QStringLiteral("0.001"));

    QString m_mpirun;
    QTemporaryDir m_dir;
};

void MpiSweepTest::initTestCase()
{
    m_mpirun = QStandardPaths::findExecutable(QStringLiteral("mpirun"));
    if (m_mpirun.isEmpty())
        QSKIP("mpirun is not installed (Debian: openmpi-bin): nothing to launch the ranks with");
}

MpiSweepTest::Outcome MpiSweepTest::run(const QString &program, const QStringList &arguments,
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

// Open MPI refuses root without both variables (CI runs as root), and in containers its shared
// memory transport cannot always map another process's memory: plain copies through
// self and vader always work.
MpiSweepTest::Outcome MpiSweepTest::mpirun(int ranks, const QStringList &arguments, const QStringList &environment) const
{
    const QStringList launch{QStringLiteral("-np"),    QString::number(ranks),  QStringLiteral("--oversubscribe"),
                             QStringLiteral("--mca"),  QStringLiteral("btl"),   QStringLiteral("self,vader"),
                             QStringLiteral(REMATLENS_BINARY)};
    return run(m_mpirun, launch + arguments,
               QStringList{QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT=1"), QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"),
                           QStringLiteral("OMPI_MCA_btl_vader_single_copy_mechanism=none")}
                   + environment);
}

MpiSweepTest::Outcome MpiSweepTest::rematlens(const QStringList &arguments)
{
    return run(QStringLiteral(REMATLENS_BINARY), arguments);
}

// The replay's wall time is the one field that differs from run to run: every other byte counts.
QByteArray MpiSweepTest::withoutTiming(QByteArray content)
{
    static const QRegularExpression seconds(QStringLiteral("\"seconds\":[-+.0-9eE]+"));
    return QString::fromUtf8(content).replace(seconds, QStringLiteral("\"seconds\":0")).toUtf8();
}

QByteArray MpiSweepTest::contentOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Two policies over the budgets 0.2 to 1.0 of one of the repository's small traces.
QStringList MpiSweepTest::sweep(const QString &out, const QString &trace, const QString &step)
{
    return {QStringLiteral("sweep"), QStringLiteral(REMATLENS_SOURCE_DIR "/traces/") + trace, QStringLiteral("--from"),
            QStringLiteral("0.2"), QStringLiteral("--to"), QStringLiteral("1.0"), QStringLiteral("--step"),
            step, QStringLiteral("--policy"), QStringLiteral("DTR"), QStringLiteral("--policy"),
            QStringLiteral("LRU"), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--out"), out};
}

void MpiSweepTest::sameFileAsOneProcess()
{
    const QString single = m_dir.filePath(QStringLiteral("single.jsonl"));
    const QString spread = m_dir.filePath(QStringLiteral("spread.jsonl"));
    QCOMPARE(rematlens(sweep(single)).status, 0);
    const Outcome job = mpirun(3, sweep(spread));
    QVERIFY2(job.status == 0, job.err.constData());
    QVERIFY2(job.err.contains("1602 runs") && job.err.contains("3 ranks x 1 threads"), job.err.constData());
    QCOMPARE(contentOf(spread).count('\n'), 1 + 1602); // the provenance, then the records
    QCOMPARE(withoutCommand(withoutTiming(contentOf(spread))), withoutCommand(withoutTiming(contentOf(single))));
}

void MpiSweepTest::csvSameAsOneProcess()
{
    const QString single = m_dir.filePath(QStringLiteral("single.csv"));
    const QString spread = m_dir.filePath(QStringLiteral("spread.csv"));
    QStringList arguments = sweep(single, QStringLiteral("unet.log"), QStringLiteral("0.01"));
    QCOMPARE(rematlens(arguments).status, 0);
    arguments.last() = spread;
    const Outcome job = mpirun(3, arguments);
    QVERIFY2(job.status == 0, job.err.constData());
    const QByteArray expected = contentOf(single);
    QCOMPARE(expected.count('\n'), 2 + 2 * 81); // provenance, columns, records
    // CSV: the seconds column is the 17th.
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
    QCOMPARE(withoutSeconds(withoutCommand(contentOf(spread))), withoutSeconds(withoutCommand(expected)));
}

void MpiSweepTest::jobOfOneRankIsAPlainRun()
{
    const QString out = m_dir.filePath(QStringLiteral("one.jsonl"));
    const QStringList arguments = sweep(out, QStringLiteral("unet.log"), QStringLiteral("0.01"));
    const Outcome job = mpirun(1, arguments);
    QVERIFY2(job.status == 0, job.err.constData());
    QVERIFY2(job.err.contains("162 runs") && job.err.contains("on 1 threads"), job.err.constData());
}

void MpiSweepTest::lostRankFailsAndResumes()
{
    // 16,002 runs of the LSTM (about 2 s in one process, so every rank surely gets work): rank 1
    // dies with runs it finished and never reported.
    const QString single = m_dir.filePath(QStringLiteral("lstm-single.jsonl"));
    const QString out = m_dir.filePath(QStringLiteral("lstm-lost.jsonl"));
    const QString trace = QStringLiteral("lstm.log");
    const QString step = QStringLiteral("0.0001");
    QCOMPARE(rematlens(sweep(single, trace, step)).status, 0);
    // Rank 1 reports 5 results, keeps the others and kills itself (SIGKILL) when no runs are left:
    // the job must fail, and say why.
    const Outcome lost = mpirun(3, sweep(out, trace, step), {QStringLiteral("REMATLENS_TEST_KILL_RANK=1:5")});
    QVERIFY2(lost.status != 0, lost.err.constData());
    QVERIFY2(lost.err.contains("rank 1") && lost.err.contains("signal 9"), lost.err.constData());
    QVERIFY2(lost.err.contains("Rerun the same command to resume"), lost.err.constData());
    const qsizetype kept = contentOf(out).count('\n') - 1; // records, after the provenance
    QVERIFY2(kept >= 5 && kept < 16002, QByteArray::number(kept).constData());

    const Outcome resumed = mpirun(3, sweep(out, trace, step));
    QVERIFY2(resumed.status == 0, resumed.err.constData());
    QVERIFY2(resumed.err.contains(QStringLiteral("%1 already in").arg(kept).toLatin1()), resumed.err.constData());
    QCOMPARE(withoutCommand(withoutTiming(contentOf(out))), withoutCommand(withoutTiming(contentOf(single))));
}

// Two JSON reports, but for their wall times.
void MpiSweepTest::compareReports(const QByteArray &single, const QByteArray &spread)
{
    QJsonObject expected = QJsonDocument::fromJson(single).object();
    QJsonObject actual = QJsonDocument::fromJson(spread).object();
    QVERIFY(!expected.isEmpty());
    expected.remove(QStringLiteral("seconds"));
    actual.remove(QStringLiteral("seconds"));
    QCOMPARE(withoutTiming(QJsonDocument(actual).toJson(QJsonDocument::Compact)),
             withoutTiming(QJsonDocument(expected).toJson(QJsonDocument::Compact)));
}

void MpiSweepTest::holesSameAsOneProcess()
{
    const QStringList holes{QStringLiteral("holes"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.2"),
                            QStringLiteral("--to"), QStringLiteral("1.0"), QStringLiteral("--step"), QStringLiteral("0.005"),
                            QStringLiteral("--edges"), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--json")};
    const Outcome single = rematlens(holes);
    QCOMPARE(single.status, 0);
    const Outcome job = mpirun(3, holes);
    QVERIFY2(job.status == 0, job.err.constData());
    compareReports(single.out, job.out);
}

// U-Net fails at 0.419 under DTR; keeping any one of 16 of the 185 storages it evicted rescues it.
void MpiSweepTest::rescueSameAsOneProcess()
{
    const QString shared = sharedDirectory();
    if (shared.isEmpty())
        QSKIP("../shared is absent: no public U-Net trace to rescue");
    const QString unet = publicTracePath(shared, QStringLiteral("unet-6-8000000000.0-2020-10-1-10-57-18-default.log"));
    if (!QFile::exists(unet))
        QSKIP("the public U-Net trace is absent");
    const QStringList rescue{QStringLiteral("rescue"), unet, QStringLiteral("--ratio"), QStringLiteral("0.419"),
                             QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--json")};
    const Outcome single = rematlens(rescue);
    QCOMPARE(single.status, 0);
    const Outcome job = mpirun(3, rescue);
    QVERIFY2(job.status == 0, job.err.constData());
    const QJsonObject report = QJsonDocument::fromJson(job.out).object();
    QCOMPARE(report.value(QStringLiteral("candidates")).toInt(), 185);
    QCOMPARE(report.value(QStringLiteral("tried")).toInt(), 185);
    const QJsonArray rescues = report.value(QStringLiteral("rescues")).toArray();
    QCOMPARE(rescues.size(), 16);
    QCOMPARE(rescues.first().toObject().value(QStringLiteral("tensor")).toString(), QStringLiteral("x5616$"));
    compareReports(single.out, job.out);
}

void MpiSweepTest::rescueUsageErrorFromRankZeroAlone()
{
    const Outcome job = mpirun(3, {QStringLiteral("rescue"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                   QStringLiteral("0.5"), QStringLiteral("--policy"), QStringLiteral("NoSuchPolicy")});
    QVERIFY2(job.status != 0, job.err.constData());
    QVERIFY2(job.err.count("unknown policy") == 1, job.err.constData());
}

QTEST_GUILESS_MAIN(MpiSweepTest)
#include "tst_mpi_sweep.moc"
