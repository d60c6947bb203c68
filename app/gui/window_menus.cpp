#include "window_menus.h"

#include "help_window.h"
#include "main_window.h"
#include "session_controller.h"

#include "app/public_traces/public_trace_set.h"
#include "app/formats/trace_source.h"
#include "views/strip/feasibility_strip.h"

#include <QActionGroup>
#include <QDir>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QToolBar>

namespace rematlens {

WindowMenus::WindowMenus(MainWindow &window, const QList<QAction *> &viewActions) : QObject(&window), m_window(window)
{
    addFileMenu();
    addSweepMenu();
    addEditMenu();
    addViewMenu(viewActions);
    addHelpMenu();
}

void WindowMenus::addFileMenu()
{
    MainWindow &w = m_window;
    QMenu *file = w.menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open Trace…"), &w, &MainWindow::chooseTrace);
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("Open a simrd JSON-lines trace"));
    m_recent = file->addMenu(tr("Open &Recent"));
    refreshRecent();
    file->addAction(tr("Open &Demo Trace"), &w, [&w] { w.openTrace(QLatin1String(kDemoTraceName)); })
        ->setStatusTip(tr("Open the small trace embedded in RematLens"));
    file->addSeparator();
    QAction *openSession = file->addAction(tr("Open &Session…"), &w, [&w] { w.sessions().chooseAndOpen(&w); });
    openSession->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openSession->setStatusTip(tr("Bring back a saved session: its trace, sweep, selected and pinned runs, overlay and zoom"));
    QAction *saveSession = file->addAction(tr("Sa&ve Session…"), &w, [&w] { w.sessions().chooseAndSave(&w); });
    saveSession->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_S));
    saveSession->setStatusTip(tr("Write what the window shows to a .rematlens file, to open again later"));
    file->addSeparator();
    QAction *exportFigure = file->addAction(tr("&Export Figure…"), &w, &MainWindow::exportFigure);
    exportFigure->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportFigure->setStatusTip(tr("Write a view as SVG, PDF or PNG for a paper or a slide, with its data as CSV"));
    file->addAction(tr("Export &Runs…"), &w, &MainWindow::exportRuns)
        ->setStatusTip(tr("Write the strip's finished runs as JSON lines or CSV, as rematlens sweep --out does"));
    file->addSeparator();
    QAction *reopen = file->addAction(tr("Reopen &Last Trace at Start"));
    reopen->setCheckable(true);
    reopen->setChecked(w.settings().reopenLastTrace());
    reopen->setStatusTip(tr("At start, open the trace shown when the window was last used instead of the demo"));
    connect(reopen, &QAction::toggled, this, [&w](bool on) { w.settings().setReopenLastTrace(on); });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), &w, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
}

void WindowMenus::addSweepMenu()
{
    MainWindow &w = m_window;
    QMenu *sweep = w.menuBar()->addMenu(tr("&Sweep"));
    QAction *run = sweep->addAction(tr("&Sweep Budgets"), &w, &MainWindow::startSweep);
    run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    run->setStatusTip(tr("Replay every policy at every budget of the range and step"));
    QAction *map = sweep->addAction(tr("&Map Exactly"), &w, &MainWindow::startMap);
    map->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    map->setStatusTip(tr("Classify every byte of the marked range (or of the sweep's range) for each row of the "
                         "strip that can be mapped: its rows then draw the intervals of budgets that replay alike"));
    map->setToolTip(tr("Map every budget byte of the marked range, or of the sweep's range, exactly (Ctrl+M)"));
    m_cancel = sweep->addAction(tr("&Cancel Sweep or Map"), &w, &MainWindow::cancelJobs);
    m_cancel->setObjectName(QStringLiteral("cancelAction"));
    m_cancel->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    m_cancel->setStatusTip(tr("Stop the sweep or the map; what is finished stays"));
    m_cancel->setEnabled(false); // until something runs
    sweep->addAction(tr("&Refine Marked Range (R in the strip)"), &w, &MainWindow::refineMarkedRange);
    QAction *focus = sweep->addAction(tr("Focus the &Strip"), &w, [&w] { w.strip()->setFocus(); });
    focus->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    QToolBar *tools = w.addToolBar(tr("Sweep Toolbar")); // the View menu lists it beside the Sweep dock
    tools->setObjectName(QStringLiteral("sweepToolBar")); // for saveState
    tools->setToolButtonStyle(Qt::ToolButtonTextOnly);
    tools->addAction(run);
    tools->addAction(map);
    tools->addAction(m_cancel);
    m_toolbarToggle = tools->toggleViewAction();
}

void WindowMenus::addEditMenu()
{
    QMenu *edit = m_window.menuBar()->addMenu(tr("&Edit"));
    m_undoKeep = edit->addAction(tr("&Undo Keep Resident"), &m_window, &MainWindow::undoKeep);
    m_undoKeep->setShortcut(QKeySequence::Undo);
    m_undoKeep->setStatusTip(tr("Drop the comparison with storages kept resident and show the selected run alone"));
    m_undoKeep->setEnabled(false);
}

void WindowMenus::addViewMenu(const QList<QAction *> &viewActions)
{
    MainWindow &w = m_window;
    m_view = w.menuBar()->addMenu(tr("&View"));
    m_view->addActions(viewActions);
    m_view->addAction(m_toolbarToggle);
    m_view->addSeparator();
    m_view->addAction(tr("Reset &Layout"), &w, &MainWindow::arrangeDocks)
        ->setStatusTip(tr("Side columns, strip and timeline back to their default sizes"));
    QMenu *units = m_view->addMenu(tr("Byte &Units"));
    auto *unitGroup = new QActionGroup(this);
    QAction *binary = units->addAction(tr("&Binary (KiB, MiB, GiB)"));
    QAction *decimal = units->addAction(tr("&Decimal (kB, MB, GB)"));
    for (QAction *action : {binary, decimal}) {
        action->setCheckable(true);
        unitGroup->addAction(action);
    }
    (w.settings().decimalUnits() ? decimal : binary)->setChecked(true);
    connect(decimal, &QAction::toggled, &w, &MainWindow::setDecimalUnits);
}

void WindowMenus::addHelpMenu()
{
    MainWindow &w = m_window;
    QMenu *help = w.menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("RematLens &Help"), &w, [&w] { w.showHelp(); })->setShortcut(QKeySequence(Qt::Key_F1));
    help->addAction(tr("&Keyboard Shortcuts"), &w, [&w] { w.showHelp(QLatin1String(HelpWindow::kShortcutsAnchor)); })
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    help->addSeparator();
    help->addAction(tr("&Public DTR Traces…"), this, &WindowMenus::explainPublicTraces);
    help->addAction(tr("&About RematLens"), &w, [&w] {
        QMessageBox::about(&w, tr("About RematLens"),
                           tr("<b>RematLens</b> replays Dynamic Tensor Rematerialization traces exactly as simrd "
                              "does, sweeps memory budgets and explains failures.<p>In the strip: click or use the "
                              "arrow keys to select a run (Shift moves faster, Up/Down change row), drag to mark "
                              "a range and press R to sweep it at a finer step."));
    });
}

void WindowMenus::explainPublicTraces()
{
    const QString directory = PublicTraceSet::defaultDirectory();
    const bool present = QDir(directory).entryList({QStringLiteral("*.log")}, QDir::Files).size() >= 8;
    QMessageBox::information(
        &m_window, tr("Public DTR traces"),
        present ? tr("The eight public DTR traces are installed in<br><tt>%1</tt><br>File > Open starts there.")
                      .arg(directory)
                : tr("The eight traces of the DTR paper's evaluation are not installed. To fetch them (about 11 MB, "
                     "checked against their SHA-256), run<br><tt>rematlens traces download</tt><br>"
                     "in a terminal; they go to<br><tt>%1</tt><br>where File > Open looks first.")
                      .arg(directory));
}

void WindowMenus::refreshRecent()
{
    m_recent->clear();
    const QStringList recent = m_window.settings().recentTraces();
    for (const QString &path : recent)
        m_recent->addAction(QFileInfo(path).fileName(), &m_window, [this, path] { m_window.openTrace(path); })
            ->setToolTip(path);
    m_recent->setEnabled(!recent.isEmpty());
}

} // namespace rematlens
