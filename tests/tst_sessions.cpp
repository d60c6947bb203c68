// Sessions, runs export, help and start-up, on the main window offscreen: a saved session opens
// to the same state; a session whose trace is gone or changed is refused and the window keeps
// what it shows; exported runs are the records `rematlens sweep --out` writes for the same grid;
// the help window lists every shortcut of the window; the last trace reopens only when asked.
#include "gui/test_window.h"

#include "app/formats/sweep_file.h"
#include "app/gui/app_settings.h"
#include "app/gui/help_window.h"
#include "app/gui/main_window.h"
#include "app/gui/runs_export.h"
#include "app/gui/session_controller.h"
#include "app/gui/session_file.h"
#include "app/gui/shortcut_table.h"
#include "app/gui/startup_trace.h"
#include "views/cascade/cascade_view.h"
#include "views/strip/feasibility_strip.h"
#include "views/tables/sweep_result_model.h"
#include "views/timeline/timeline_panel.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QProgressBar>
#include <QTabBar>
#include <QListWidget>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTextBlock>
#include <QtTest>

using namespace rematlens;

class SessionsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void sessionFileRoundTrip();
    void sessionReopensToTheSameState();
    void changedOrMissingTraceIsRefusedAndNothingLost();
    void badSessionFilesAreRefused();
    void exportedRunsAreTheSweepCommandsRecords();
    void helpListsEveryShortcut();
    void helpKeepsTheUserSections();
    void reopenLastTraceHonoursTheSetting();
    void everyControlHasATooltip();

private:
    QString copyDemoTrace(const QString &name) const;
    SweepParameters smallGrid() const;

    std::unique_ptr<MainWindow> m_window;
    GuiTestUser m_user;
    std::optional<SessionState::Range> m_stripView; // stands for the strip's zoom window
};

void SessionsTest::initTestCase()
{
    m_user.setUp(QStringLiteral("RematLensSessionsTest"));
}

void SessionsTest::init()
{
    m_user.reset();
    m_stripView.reset();
    m_window = showNewWindow();
    m_window->sessions().setStripViewAccess([this] { return m_stripView; },
                                            [this](const SessionState::Range &range) { m_stripView = range; });
}

void SessionsTest::cleanup()
{
    m_window.reset();
}

QString SessionsTest::copyDemoTrace(const QString &name) const
{
    const QString path = m_user.filePath(name);
    QFile::remove(path);
    if (!QFile::copy(QStringLiteral(REMATLENS_SOURCE_DIR "/traces/demo.log"), path))
        qFatal("cannot copy the demo trace");
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    return path;
}

SweepParameters SessionsTest::smallGrid() const
{
    return sweepGrid(QStringLiteral("0.3"), QStringLiteral("0.5"), QStringLiteral("0.01"),
                     {QStringLiteral("DTR"), QStringLiteral("LRU")});
}


void SessionsTest::sessionFileRoundTrip()
{
    SessionState state;
    state.tracePath = QStringLiteral("/data/traces/unet, \"quoted\".log");
    state.traceSha256 = QString(64, QLatin1Char('a'));
    state.sweep = smallGrid();
    state.sweep.policies << QStringLiteral("expr:(compute + estar) / (size * staleness)");
    state.sweep.threads = 3;
    state.selection = SessionState::Selection{1, QStringLiteral("LRU"), 0.419};
    state.pinned = SessionState::Run{QStringLiteral("DTRPenalty:b=0.5"), QStringLiteral("lazy"), 1.5, 3526205384, 0.419,
                                     {QStringLiteral("x5865"), QStringLiteral("x12$")}};
    state.overlay = TimelinePanel::Overlay::Pinned;
    state.timelineAxis = TimelineAxis::Clock;
    state.timelineRange = SessionState::Range{0.1 + 0.2, 1234.5678901234567};
    state.stripView = SessionState::Range{0.4, 0.45};
    const QString path = m_user.filePath(QStringLiteral("round-trip.rematlens"));
    QString error;
    QVERIFY2(SessionFile::write(state, path, error), qPrintable(error));
    const std::optional<SessionState> read = SessionFile::read(path, error);
    QVERIFY2(read, qPrintable(error));
    QVERIFY(*read == state);

    SessionState empty; // nothing selected, pinned or zoomed
    empty.tracePath = QStringLiteral(":demo");
    QVERIFY(SessionFile::write(empty, path, error));
    const std::optional<SessionState> emptyRead = SessionFile::read(path, error);
    QVERIFY2(emptyRead, qPrintable(error));
    QVERIFY(*emptyRead == empty);
}

void SessionsTest::sessionReopensToTheSameState()
{
    const QString trace = copyDemoTrace(QStringLiteral("session-trace.log"));
    QVERIFY(openAndSweep(*m_window, trace, smallGrid()));
    const SweepResultModel &model = *m_window->sweepModel();
    QCOMPARE(model.gridSize(), std::size_t{21});

    // A state worth saving: LRU at 0.42 selected over the pinned DTR run at 0.35, on the clock
    // axis, zoomed in, with the strip showing part of the range.
    m_window->setPinnedRun(model.request(0, 5));
    m_window->timeline()->setAxis(TimelineAxis::Clock);
    m_window->timeline()->setOverlay(TimelinePanel::Overlay::Pinned);
    QSignalSpy shown(m_window.get(), &MainWindow::timelineShown);
    m_window->strip()->setSelection(FeasibilityStrip::Cell{1, 12});
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->timeline()->view()->plot().empty(), 10000);
    const ZoomWindow whole = m_window->timeline()->view()->window();
    m_window->timeline()->view()->showRange(whole.extent * 0.25, whole.extent * 0.5);
    m_stripView = SessionState::Range{0.33, 0.47};

    const SessionState saved = m_window->sessions().capture();
    QCOMPARE(saved.tracePath, trace);
    QCOMPARE(saved.traceSha256.size(), 64);
    QVERIFY(saved.sweep == smallGrid());
    QVERIFY(saved.selection && saved.selection->policy == QStringLiteral("LRU"));
    QCOMPARE(saved.selection->ratio, model.grid()[12].ratio);
    QVERIFY(saved.pinned && saved.pinned->budget == model.request(0, 5).config.budget);
    QCOMPARE(saved.overlay, TimelinePanel::Overlay::Pinned);
    QCOMPARE(saved.timelineAxis, TimelineAxis::Clock);
    QVERIFY(saved.timelineRange);
    QVERIFY(saved.stripView == m_stripView);
    const QString path = m_user.filePath(QStringLiteral("state.rematlens"));
    QString error;
    QVERIFY2(m_window->sessions().save(path, error), qPrintable(error));

    // Something else entirely, then the session again.
    SweepParameters other;
    other.policies = {QStringLiteral("MSPS")};
    other.from = QStringLiteral("0.6");
    other.to = QStringLiteral("0.7");
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), other));
    m_window->timeline()->setAxis(TimelineAxis::Step);
    m_window->timeline()->setOverlay(TimelinePanel::Overlay::None);
    m_stripView.reset();

    QSignalSpy restored(&m_window->sessions(), &SessionController::restored);
    QVERIFY2(m_window->sessions().open(path, error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(restored.count(), 1, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->sweepRunning(), 30000);
    QVERIFY(m_window->sessions().capture() == saved);
    // What the state stands for: the runs shown are those of the session's grid and choices.
    QCOMPARE(m_window->sweepModel()->policyName(1), QStringLiteral("LRU"));
    QCOMPARE(m_window->strip()->selection()->column, std::size_t{12});
    const TimelinePlot &plot = m_window->timeline()->view()->plot();
    QVERIFY(!plot.empty() && plot.comparison);
    QCOMPARE(plot.run->request.config.budget, model.request(1, 12).config.budget);
    QCOMPARE(plot.comparison->request.config.budget, model.request(0, 5).config.budget);
    QCOMPARE(plot.comparison->request.config.policy.name, std::string("DTR"));
    QCOMPARE(m_window->timeline()->view()->window().from, saved.timelineRange->first);
    QCOMPARE(m_window->timeline()->view()->window().to, saved.timelineRange->second);
}

void SessionsTest::changedOrMissingTraceIsRefusedAndNothingLost()
{
    const QString trace = copyDemoTrace(QStringLiteral("changing-trace.log"));
    QVERIFY(openAndSweep(*m_window, trace, smallGrid()));
    const QString path = m_user.filePath(QStringLiteral("changing.rematlens"));
    QString error;
    QVERIFY2(m_window->sessions().save(path, error), qPrintable(error));
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), smallGrid()));
    QSignalSpy shown(m_window.get(), &MainWindow::timelineShown);
    m_window->strip()->setSelection(FeasibilityStrip::Cell{0, 3});
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);
    const SessionState before = m_window->sessions().capture();

    QFile file(trace);
    QVERIFY(file.open(QIODevice::Append));
    file.write("\n");
    file.close();
    QSignalSpy loads(m_window.get(), &MainWindow::traceLoaded);
    QVERIFY(!m_window->sessions().open(path, error));
    QVERIFY2(error.contains(QStringLiteral("SHA-256")) && error.contains(trace), qPrintable(error));
    QVERIFY(!m_window->sessions().open(path, error, trace)); // locating the same changed file does not help
    QVERIFY(QFile::remove(trace));
    QVERIFY(!m_window->sessions().open(path, error));
    QVERIFY2(error.contains(QStringLiteral("not there")) && error.contains(trace), qPrintable(error));
    QTest::qWait(200);
    QCOMPARE(loads.count(), 0);
    QVERIFY(m_window->sessions().capture() == before);
    QCOMPARE(m_window->sweepModel()->finishedCount(), std::size_t{2 * 21});

    // The trace located elsewhere, unchanged: the session opens.
    const QString moved = copyDemoTrace(QStringLiteral("moved-trace.log"));
    QSignalSpy restored(&m_window->sessions(), &SessionController::restored);
    QVERIFY2(m_window->sessions().open(path, error, moved), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(restored.count(), 1, 20000);
    QCOMPARE(m_window->tracePath(), moved);
}

void SessionsTest::badSessionFilesAreRefused()
{
    const auto refuse = [this](const QByteArray &content, const QString &expected) {
        const QString path = m_user.filePath(QStringLiteral("bad.rematlens"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(content);
        file.close();
        QString error;
        QVERIFY(!SessionFile::read(path, error));
        QVERIFY2(error.startsWith(path) && error.contains(expected), qPrintable(error));
    };
    refuse("{\"format\": \"rematlens-session\", \"format_version\": 1,", QStringLiteral("not JSON"));
    refuse("[1, 2]", QStringLiteral("not a RematLens session"));
    refuse("{\"format\": \"rematlens-session\", \"format_version\": 9}", QStringLiteral("newer RematLens"));
    refuse("{\"format\": \"rematlens-session\", \"format_version\": 1, \"trace\": {\"path\": \"a.log\"}}",
           QStringLiteral("trace.sha256: missing"));

    SessionState state;
    state.tracePath = QStringLiteral(":demo");
    const QString path = m_user.filePath(QStringLiteral("field.rematlens"));
    QString error;
    QVERIFY(SessionFile::write(state, path, error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QByteArray content = file.readAll();
    file.close();
    refuse(QByteArray(content).replace("\"step\": \"0.01\"", "\"step\": 0.01"), QStringLiteral("sweep.step: expected a string"));
    refuse(QByteArray(content).replace("\"overlay\": \"none\"", "\"overlay\": \"sideways\""),
           QStringLiteral("timeline.overlay"));
    QString missing;
    QVERIFY(!m_window->sessions().open(m_user.filePath(QStringLiteral("absent.rematlens")), missing));
    QVERIFY2(missing.contains(QStringLiteral("absent.rematlens")), qPrintable(missing));
}

void SessionsTest::exportedRunsAreTheSweepCommandsRecords()
{
    const QString trace = copyDemoTrace(QStringLiteral("export-trace.log"));
    QVERIFY(openAndSweep(*m_window, trace, smallGrid()));
    const SweepResultModel &model = *m_window->sweepModel();
    QCOMPARE(model.finishedCount(), std::size_t{2 * 21});
    const std::vector<SweepFile::Record> exported = RunsExport::records(model, "export-trace.log");
    for (const QString &format : {QStringLiteral("jsonl"), QStringLiteral("csv")}) {
        const QString gui = m_user.filePath(QStringLiteral("gui.") + format);
        const QString cli = m_user.filePath(QStringLiteral("cli.") + format);
        QString error;
        QVERIFY2(RunsExport::write(exported, gui, error), qPrintable(error));
        QFile::remove(cli);
        QProcess sweep;
        sweep.start(QStringLiteral(REMATLENS_BINARY),
                    {QStringLiteral("sweep"), trace, QStringLiteral("--from"), QStringLiteral("0.3"), QStringLiteral("--to"),
                     QStringLiteral("0.5"), QStringLiteral("--step"), QStringLiteral("0.01"), QStringLiteral("--policy"),
                     QStringLiteral("DTR"), QStringLiteral("--policy"), QStringLiteral("LRU"), QStringLiteral("--out"), cli});
        QVERIFY(sweep.waitForFinished(60000));
        QCOMPARE(sweep.exitCode(), 0);
        std::string problem;
        const auto guiRecords = SweepFile::readRecords(gui.toStdString(), problem);
        QVERIFY2(guiRecords, problem.c_str());
        const auto cliRecords = SweepFile::readRecords(cli.toStdString(), problem);
        QVERIFY2(cliRecords, problem.c_str());
        QCOMPARE(guiRecords->size(), std::size_t{42});
        QCOMPARE(guiRecords->size(), cliRecords->size());
        for (std::size_t i = 0; i < guiRecords->size(); ++i) {
            SweepFile::Record a = (*guiRecords)[i];
            SweepFile::Record b = (*cliRecords)[i];
            QVERIFY(a.contains("seconds") && b.contains("seconds"));
            a.erase("seconds"); // wall time: differs from run to run
            b.erase("seconds");
            QCOMPARE(QString::fromStdString(a.dump()), QString::fromStdString(b.dump()));
        }
        // And against the window's results directly, field by field.
        for (const SweepFile::Record &record : *guiRecords) {
            const std::size_t policy = record["heuristic"] == "DTR" ? 0 : 1;
            std::size_t column = 0;
            while (model.request(policy, column).config.budget != record["budget"].get<std::int64_t>())
                ++column;
            const RunResult &result = *model.result(policy, column);
            QCOMPARE(record["trace"].get<std::string>(), std::string("export-trace.log"));
            QCOMPARE(record["ratio"].get<double>(), model.grid()[column].ratio);
            QCOMPARE(record["result"].get<std::string>(), std::string(outcomeName(result.outcome)));
            QCOMPARE(record["clock"].get<Cost>(), result.clock);
            QCOMPARE(record["remat_compute"].get<Cost>(), result.rematCompute);
            QCOMPARE(record["max_memory"].get<Bytes>(), result.maxMemory);
            QCOMPARE(record["memory_at_end"].get<Bytes>(), result.memoryAtEnd);
            QCOMPARE(record["evictions"].get<std::int64_t>(), result.evictions);
            QCOMPARE(record["released_evictions"].get<std::int64_t>(), result.releasedEvictions);
            QCOMPARE(record["remats"].get<std::int64_t>(), result.remats);
            QCOMPARE(record["heuristic_evals"].get<std::int64_t>(), result.heuristicEvals);
            QCOMPARE(record.contains("failure"), result.failure.has_value());
            if (result.failure) {
                QCOMPARE(record["failure"]["tensor"].get<std::string>(), result.failure->tensor);
                QCOMPARE(record["failure"]["bytes_short"].get<Bytes>(), result.failure->bytesShort);
                QCOMPARE(record["failure"]["step"].get<std::size_t>(), result.failure->step);
            }
        }
    }
    QString error;
    QVERIFY(!RunsExport::write(exported, m_user.filePath(QStringLiteral("runs.txt")), error));
    QVERIFY2(error.contains(QStringLiteral(".jsonl or .csv")), qPrintable(error));
}

void SessionsTest::helpListsEveryShortcut()
{
    HelpWindow *help = m_window->showHelp();
    QVERIFY(help && help->isVisible());
    const QString text = help->browser()->toPlainText();
    int withShortcut = 0;
    for (const QAction *action : m_window->findChildren<QAction *>()) {
        for (const QKeySequence &shortcut : action->shortcuts()) {
            QVERIFY2(text.contains(shortcut.toString(QKeySequence::NativeText)),
                     qPrintable(action->text() + QStringLiteral(": ") + shortcut.toString()));
            ++withShortcut;
        }
    }
    QVERIFY2(withShortcut >= 9, qPrintable(QString::number(withShortcut))); // Quit's depends on the platform
    for (const char *keys : {"Ctrl+O", "Ctrl+S", "Ctrl+Shift+O", "Ctrl+R", "Ctrl+.", "Ctrl+Shift+P", "F1", "Ctrl+/"})
        QVERIFY2(text.contains(QLatin1String(keys)), keys);
    const ShortcutTable table(*m_window);
    const auto has = [&](const QString &keys, const QString &where) {
        return std::any_of(table.entries().begin(), table.entries().end(),
                           [&](const ShortcutTable::Entry &e) { return e.keys == keys && e.where == where; });
    };
    QVERIFY(has(QStringLiteral("Ctrl+Shift+P"), QStringLiteral("Memory timeline"))); // the Pin button
    QVERIFY(has(QStringLiteral("Ctrl+Shift+O"), QStringLiteral("File")));
    QVERIFY(has(QStringLiteral("Shift+Drag"), QStringLiteral("Feasibility strip")));
    QVERIFY(has(QStringLiteral("R"), QStringLiteral("Feasibility strip")));
    QVERIFY(has(QStringLiteral("+ / -"), QStringLiteral("Memory timeline")));
    QVERIFY(!has(QStringLiteral("Alt+S"), QStringLiteral("Sweep"))); // mnemonics are not shortcuts

    // Help > Keyboard Shortcuts opens the same window at the table.
    auto *sections = help->findChild<QListWidget *>();
    QVERIFY(sections);
    QCOMPARE(m_window->showHelp(QLatin1String(HelpWindow::kShortcutsAnchor)), help);
    QCOMPARE(sections->currentItem()->data(Qt::UserRole).toString(), QLatin1String(HelpWindow::kShortcutsAnchor));
    QVERIFY(help->sectionAnchors().contains(QStringLiteral("running-a-sweep-on-a-slurm-cluster")));

    // The README's images come with the program, drawn no wider than the page.
    int images = 0;
    for (QTextBlock block = help->browser()->document()->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isImageFormat()) {
                const QTextImageFormat image = it.fragment().charFormat().toImageFormat();
                QVERIFY2(QFile::exists(QStringLiteral(":/help/") + image.name()), qPrintable(image.name()));
                QVERIFY(image.width() > 0 && image.width() <= 760);
                ++images;
            }
    QVERIFY(images >= 3);
    help->close();
}

void SessionsTest::helpKeepsTheUserSections()
{
    const QString readme = QStringLiteral("# Tool\n\nBuild it:\n\n    make\n\nTool does X.\n\n![pic](a.png)\n\n"
                                          "## The window\n\nwin\n\n### Sub\n\nsub\n\n"
                                          "## Layout\n\ndev\n\n## Command line\n\ncli\n\n## Building by hand\n\nmake\n");
    QCOMPARE(HelpWindow::userSections(readme),
             QStringLiteral("Tool does X.\n\n![pic](a.png)\n\n## The window\n\nwin\n\n### Sub\n\nsub\n\n"
                            "## Command line\n\ncli\n\n"));
    QCOMPARE(HelpWindow::anchorOf(QStringLiteral("What \"the same as simrd\" means")),
             QStringLiteral("what-the-same-as-simrd-means"));
    HelpWindow help(QStringLiteral("| Keys | Action | Where |\n|---|---|---|\n| F1 | Help | Help |\n"));
    const QString text = help.browser()->toPlainText();
    QVERIFY(text.contains(QStringLiteral("The window")));
    QVERIFY(text.contains(QStringLiteral("replays Dynamic Tensor Rematerialization (DTR) training traces")));
    QVERIFY(text.contains(QStringLiteral("Figures for papers")));
    QVERIFY(!text.contains(QStringLiteral("Building by hand")));
    QVERIFY(!text.contains(QStringLiteral("cmake --preset release && cmake --build --preset release")));
}

void SessionsTest::reopenLastTraceHonoursTheSetting()
{
    const QString trace = copyDemoTrace(QStringLiteral("last-trace.log"));
    QVERIFY(openAndSweep(*m_window, trace, smallGrid()));
    AppSettings settings;
    QCOMPARE(settings.lastTrace(), trace);
    QVERIFY(settings.reopenLastTrace()); // on by default
    QCOMPARE(startupTrace(QString(), settings), trace);
    QCOMPARE(startupTrace(QStringLiteral("given.log"), settings), QStringLiteral("given.log"));

    QAction *reopen = nullptr;
    for (QAction *action : m_window->findChildren<QAction *>())
        if (action->isCheckable() && action->text().contains(QStringLiteral("Reopen")))
            reopen = action;
    QVERIFY(reopen && reopen->isChecked());
    reopen->setChecked(false);
    QVERIFY(!settings.reopenLastTrace());
    QCOMPARE(startupTrace(QString(), settings), QStringLiteral(":demo"));
    reopen->setChecked(true);
    QCOMPARE(startupTrace(QString(), settings), trace);

    QVERIFY(QFile::remove(trace)); // gone: the demo instead
    QCOMPARE(startupTrace(QString(), settings), QStringLiteral(":demo"));
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), smallGrid()));
    QCOMPARE(settings.lastTrace(), QStringLiteral(":demo"));
    QCOMPARE(startupTrace(QString(), settings), QStringLiteral(":demo"));
}

// Buttons, fields, lists and tables of the window explain themselves on hover (the cascade,
// a graph with a tooltip of its own, aside; Qt's own dock and scroll buttons too).
void SessionsTest::everyControlHasATooltip()
{
    const HelpWindow *help = m_window->findChild<HelpWindow *>();
    int checked = 0;
    for (QWidget *widget : m_window->findChildren<QWidget *>()) {
        const bool control = qobject_cast<QAbstractButton *>(widget) || qobject_cast<QComboBox *>(widget)
                             || qobject_cast<QLineEdit *>(widget) || qobject_cast<QAbstractSpinBox *>(widget)
                             || qobject_cast<QAbstractItemView *>(widget) || qobject_cast<QProgressBar *>(widget);
        const QWidget *parent = widget->parentWidget();
        const bool qtInternal = widget->objectName().startsWith(QLatin1String("qt_"))
                                || QByteArray(widget->metaObject()->className()).startsWith("QDockWidget")
                                || QByteArray(widget->metaObject()->className()) == "QTableCornerButton"
                                || qobject_cast<const QTabBar *>(parent) || qobject_cast<const QAbstractSpinBox *>(parent)
                                || qobject_cast<const QComboBox *>(parent) || widget->inherits("QComboBoxListView")
                                || qobject_cast<const QAbstractItemView *>(parent) // headers, editors
                                || (help && help->isAncestorOf(widget));
        if (!control || qtInternal || m_window->cascade()->isAncestorOf(widget))
            continue;
        QVERIFY2(!widget->toolTip().isEmpty(),
                 qPrintable(QStringLiteral("%1 %2 has no tooltip").arg(QLatin1String(widget->metaObject()->className()),
                                                                       widget->objectName())));
        ++checked;
    }
    QVERIFY(checked >= 15);
}

QTEST_MAIN(SessionsTest)
#include "tst_sessions.moc"
