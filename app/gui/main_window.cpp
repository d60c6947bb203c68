#include "main_window.h"

#include "app/cli/trace_source.h"
#include "views/trace_summary_model.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QHeaderView>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>

namespace rematlens {

namespace {
const char *const kGeometryKey = "window/geometry";
const char *const kLastDirectoryKey = "files/lastDirectory";
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_summaryModel(new TraceSummaryModel(this)), m_summaryView(new QTableView(this))
{
    setWindowTitle(tr("RematLens"));
    setAcceptDrops(true);
    m_summaryView->setModel(m_summaryModel);
    m_summaryView->horizontalHeader()->setStretchLastSection(true);
    m_summaryView->verticalHeader()->hide();
    m_summaryView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_summaryView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_summaryView->setAlternatingRowColors(true);
    setCentralWidget(m_summaryView);
    createMenus();
    connect(&m_loader, &TraceLoader::loaded, this, &MainWindow::showLoaded);
    connect(&m_loader, &TraceLoader::failed, this, &MainWindow::showFailure);

    const QByteArray geometry = QSettings().value(QLatin1String(kGeometryKey)).toByteArray();
    if (geometry.isEmpty() || !restoreGeometry(geometry))
        resize(760, 420);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open Trace…"), this, &MainWindow::chooseTrace);
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("Open a simrd JSON-lines trace"));
    QAction *demo = file->addAction(tr("Open &Demo Trace"), this, [this] { openTrace(QLatin1String(kDemoTraceName)); });
    demo->setStatusTip(tr("Open the small trace embedded in RematLens"));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About RematLens"), this, [this] {
        QMessageBox::about(this, tr("About RematLens"),
                           tr("<b>RematLens</b> replays Dynamic Tensor Rematerialization traces exactly as simrd "
                              "does, sweeps memory budgets and explains failures."));
    });
}

void MainWindow::chooseTrace()
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Trace"),
                                                      settings.value(QLatin1String(kLastDirectoryKey)).toString(),
                                                      tr("simrd traces (*.log *.jsonl *.json);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QLatin1String(kLastDirectoryKey), QFileInfo(path).absolutePath());
    openTrace(path);
}

void MainWindow::openTrace(const QString &pathOrDemo)
{
    m_pendingPath = pathOrDemo;
    statusBar()->showMessage(tr("Reading %1…").arg(pathOrDemo));
    m_loader.load(pathOrDemo);
}

void MainWindow::showLoaded(const LoadedTraceResult &result)
{
    m_program = result.program;
    m_summaryModel->setSummary(result.summary);
    m_summaryView->resizeColumnToContents(0);
    setWindowTitle(tr("%1 — RematLens").arg(result.summary.name));
    statusBar()->showMessage(tr("Read %1 in %2 ms").arg(result.summary.name).arg(result.milliseconds, 0, 'f', 1));
}

void MainWindow::showFailure(const QString &message)
{
    // The trace shown before stays: a bad file loses nothing.
    statusBar()->showMessage(tr("Could not open %1").arg(m_pendingPath));
    QMessageBox::warning(this, tr("Cannot open trace"), message);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings().setValue(QLatin1String(kGeometryKey), saveGeometry());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile())
        openTrace(urls.first().toLocalFile());
}

} // namespace rematlens
