#include "window_docks.h"

#include "views/common/table_copier.h"
#include "views/tables/hole_list_model.h"

#include <QAction>
#include <QDockWidget>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenuBar>
#include <QStatusBar>
#include <QChildEvent>
#include <QTabBar>
#include <QTableView>

#include <algorithm>

namespace rematlens {

namespace {

QTableView *makeTable(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->horizontalHeader()->setStretchLastSection(true);
    view->verticalHeader()->hide();
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    new TableCopier(view); // Ctrl+C and Copy give the selected cells, bytes exact
    return view;
}

// A long row name ("RandomStorage · seed 1 · caching") is elided (the row's tooltip names it in
// full) so that a narrow dock still shows where the hole starts.
void fitHolesPolicyColumn(QTableView *view)
{
    const int widest = view->fontMetrics().horizontalAdvance(QStringLiteral("LargestStorage")) + 12;
    view->horizontalHeader()->setSectionResizeMode(HoleListModel::PolicyColumn, QHeaderView::Interactive);
    const int contents = static_cast<const QAbstractItemView *>(view)->sizeHintForColumn(HoleListModel::PolicyColumn);
    view->setColumnWidth(HoleListModel::PolicyColumn, std::min(std::max(contents, view->horizontalHeader()->sectionSizeHint(HoleListModel::PolicyColumn)), widest));
}

QDockWidget *makeDock(const QString &title, const QString &name, QWidget *content, QWidget *parent)
{
    auto *dock = new QDockWidget(title, parent);
    dock->setObjectName(name); // for saveState
    dock->setWidget(content);
    return dock;
}

} // namespace

WindowDocks::WindowDocks(QMainWindow &window, const Contents &contents)
    : QObject(&window), m_window(window), m_summaryView(makeTable(contents.summary, &window)),
      m_holeView(makeTable(contents.holes, &window))
{
    window.installEventFilter(this);
    m_summaryView->setObjectName(QStringLiteral("summaryView"));
    m_summaryView->horizontalHeader()->hide();
    m_summaryView->setToolTip(tr("The trace's baseline memory and compute, constant memory, bottleneck and sizes"));
    QDockWidget *trace = makeDock(tr("Trace"), QStringLiteral("traceDock"), m_summaryView, &window);
    QDockWidget *sweep = makeDock(tr("Sweep"), QStringLiteral("sweepDock"), contents.sweepPanel, &window);
    m_holeView->setToolTip(tr("Failing budgets with a pass right below and right above; click one to select it"));
    m_holeView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_holeView->horizontalHeader()->setStretchLastSection(false);
    fitHolesPolicyColumn(m_holeView);
    QDockWidget *holes = makeDock(tr("Holes"), QStringLiteral("holesDock"), m_holeView, &window);
    QTableView *details = makeTable(contents.details, &window);
    details->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    details->setTextElideMode(Qt::ElideMiddle);
    details->setToolTip(tr("Every field of the run selected in the strip, with its failure if it ran out of memory"));
    QDockWidget *run = makeDock(tr("Selected run"), QStringLiteral("runDock"), details, &window);
    QTableView *runs = makeTable(contents.runs, &window);
    runs->setToolTip(tr("Every run of the sweep, as File > Export Runs writes them"));
    QDockWidget *runsDock = makeDock(tr("All runs"), QStringLiteral("runsDock"), runs, &window);
    window.addDockWidget(Qt::LeftDockWidgetArea, trace);
    window.addDockWidget(Qt::LeftDockWidgetArea, sweep);
    window.addDockWidget(Qt::RightDockWidgetArea, holes);
    window.addDockWidget(Qt::RightDockWidgetArea, run);
    window.tabifyDockWidget(run, runsDock);
    // Beside Selected run: the story of the hole the selected run is in. Closed until a hole
    // is first selected (Ctrl+Shift+A opens it).
    m_holeAnatomyDock = makeDock(tr("Hole anatomy"), QStringLiteral("holeAnatomyDock"), contents.holeAnatomy, &window);
    m_holeAnatomyDock->setToolTip(tr("Why the selected hole fails while the budgets around it pass, told at both edges"));
    window.tabifyDockWidget(runsDock, m_holeAnatomyDock);
    m_holeAnatomyDock->toggleViewAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    m_holeAnatomyDock->toggleViewAction()->setStatusTip(tr("Show or hide the story of the selected hole"));
    run->raise();
    m_docks = {trace, sweep, holes, run, runsDock};
    // Under the strip and the timeline, between the side columns: beside the cascade, so the
    // timeline (where a click picks the step) and the map show together.
    m_memoryMapDock = makeDock(tr("Memory map"), QStringLiteral("memoryMapDock"), contents.memoryMap, &window);
    m_memoryMapDock->setToolTip(
        tr("The allocator's segments and blocks of the selected run at one step (allocator models only)"));
    window.setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    window.setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    window.addDockWidget(Qt::BottomDockWidgetArea, m_memoryMapDock);
}

QList<QAction *> WindowDocks::toggleActions() const
{
    QList<QAction *> actions;
    for (QDockWidget *dock : m_docks)
        actions << dock->toggleViewAction();
    actions << m_memoryMapDock->toggleViewAction() << m_holeAnatomyDock->toggleViewAction();
    return actions;
}

void WindowDocks::fitHoleColumns()
{
    m_holeView->resizeColumnsToContents();
    fitHolesPolicyColumn(m_holeView);
}

int WindowDocks::holeAnatomyWidth() const
{
    return std::clamp(m_window.width() * 2 / 5, 300, 560);
}

// In front of Selected run, at the column's width: widening it here would move the strip
// under the pointer that selected the hole (Reset Layout widens it).
void WindowDocks::showHoleAnatomy()
{
    m_holeAnatomyDock->show();
    m_holeAnatomyDock->raise();
}

void WindowDocks::arrange()
{
    const auto [trace, sweep, holes, run, runs] = m_docks;
    (void)runs; // tabbed with the selected run
    const int side = std::clamp(m_window.width() / 5, 200, 380);
    // A story needs a wider column than the tables: the right one widens while it shows.
    const int right = m_holeAnatomyDock->isHidden() || m_holeAnatomyDock->isFloating() ? side : holeAnatomyWidth();
    m_window.resizeDocks({trace, holes}, {side, right}, Qt::Horizontal);
    const int column = std::max(200, m_window.height() - m_window.menuBar()->height() - m_window.statusBar()->height());
    m_window.resizeDocks({trace, sweep}, {column * 3 / 10, column * 7 / 10}, Qt::Vertical);
    m_window.resizeDocks({holes, run}, {column * 3 / 10, column * 7 / 10}, Qt::Vertical);
    // On a small screen the timeline keeps the larger share: the map is read at one step, the
    // timeline across all of them.
    const bool small = column < 800;
    m_window.resizeDocks({m_memoryMapDock}, {small ? std::max(130, column / 4) : column * 3 / 10}, Qt::Vertical);
}

bool WindowDocks::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == &m_window && event->type() == QEvent::ChildPolished)
        if (auto *tabs = qobject_cast<QTabBar *>(static_cast<QChildEvent *>(event)->child())) {
            tabs->setElideMode(Qt::ElideNone);
            tabs->setUsesScrollButtons(true);
        }
    return QObject::eventFilter(watched, event);
}

} // namespace rematlens
