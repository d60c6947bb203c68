// The window never hangs: a scripted session (open, sweep, select with the arrow keys, overlay,
// cascade, zoom, export, resize) on each of the project's traces and, when present, on each
// public DTR trace, with a heartbeat on the GUI thread. A stall over 2 s fails (a hang detector,
// generous for loaded machines); bench_responsiveness reports the longest stalls against 50 ms.
#include "gui/responsiveness_script.h"
#include "shared_data.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace rematlens;

class ResponsivenessTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void neverStalls_data();
    void neverStalls();
    void screenshotOfTheLargestTraceFinishes_data();
    void screenshotOfTheLargestTraceFinishes();

private:
    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_dir;
};

void ResponsivenessTest::initTestCase()
{
    m_window = ResponsivenessScript::makeWindow(m_dir);
}

void ResponsivenessTest::neverStalls_data()
{
    QTest::addColumn<QString>("trace");
    for (const QString &name :
         QDir(QStringLiteral(REMATLENS_SOURCE_DIR "/traces")).entryList({QStringLiteral("*.log")}))
        QTest::newRow(qPrintable(name)) << QStringLiteral(REMATLENS_SOURCE_DIR "/traces/") + name;
    const QString shared = sharedDirectory();
    if (shared.isEmpty())
        return;
    for (const QString &name : QDir(shared + QStringLiteral("/traces/dtr-2020")).entryList({QStringLiteral("*.log")}))
        QTest::newRow(qPrintable(name.section(QLatin1Char('-'), 0, 0))) << publicTracePath(shared, name);
}

void ResponsivenessTest::neverStalls()
{
    QFETCH(QString, trace);
    ResponsivenessScript script(*m_window);
    const ResponsivenessScript::Result result = script.run(trace);
    qInfo("%s: longest stall %.0f ms (%s); GUI thread busy at most %.0f ms (%s); %d selections shown",
          qPrintable(QFileInfo(trace).fileName()), result.longestStallMs, qPrintable(result.worstStep),
          result.longestBusyMs, qPrintable(result.busiestStep), result.selectionsShown);
    QStringList steps;
    for (auto it = result.busyByStep.begin(); it != result.busyByStep.end(); ++it)
        steps << QStringLiteral("%1 %2").arg(it.key()).arg(it.value(), 0, 'f', 0);
    qInfo("  busy per step (ms): %s", qPrintable(steps.join(QStringLiteral(", "))));
    QVERIFY2(result.failure.isEmpty(), qPrintable(result.failure));
    QCOMPARE(result.selectionsShown, 7); // 0.3, three arrow keys, three overlays
    QVERIFY2(
        result.longestStallMs < 2000,
        qPrintable(QStringLiteral("the window hung %1 ms while %2").arg(result.longestStallMs).arg(result.worstStep)));
}

void ResponsivenessTest::screenshotOfTheLargestTraceFinishes_data()
{
    QTest::addColumn<QString>("allocator");
    QTest::newRow("sum") << QStringLiteral("sum");
    QTest::newRow("caching") << QStringLiteral("caching"); // the timeline's series and the memory map too
}

// `gui TRACE --select R --screenshot` finishes on the largest trace at hand: the public LSTM
// when ../shared is there, else the project's own LSTM.
void ResponsivenessTest::screenshotOfTheLargestTraceFinishes()
{
    QFETCH(QString, allocator);
    const QString shared = sharedDirectory();
    const QStringList publicLstm =
        shared.isEmpty() ? QStringList()
                         : QDir(shared + QStringLiteral("/traces/dtr-2020")).entryList({QStringLiteral("lstm-*.log")});
    const QString trace = publicLstm.isEmpty() ? QStringLiteral(REMATLENS_SOURCE_DIR "/traces/lstm.log")
                                               : shared + QStringLiteral("/traces/dtr-2020/") + publicLstm.front();
    const QString png = m_dir.filePath(QStringLiteral("lstm-%1.png").arg(allocator));
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(REMATLENS_BINARY),
                  {QStringLiteral("gui"), trace, QStringLiteral("--sweep"), QStringLiteral("0.2:1.0:0.1"),
                   QStringLiteral("--select"), QStringLiteral("0.3"), QStringLiteral("--screenshot"), png,
                   QStringLiteral("--size"), QStringLiteral("1024x700"), QStringLiteral("--allocator"), allocator});
    QVERIFY2(process.waitForFinished(180000), "gui --select --screenshot did not finish within 3 minutes");
    QCOMPARE(process.exitCode(), 0);
    const QImage image(png);
    QCOMPARE(image.size(), QSize(1024, 700));
}

QTEST_MAIN(ResponsivenessTest)
#include "tst_responsiveness.moc"
