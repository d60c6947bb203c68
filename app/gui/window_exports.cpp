#include "window_exports.h"

#include "app_settings.h"
#include "runs_export.h"

#include "app/formats/trace_source.h"
#include "views/tables/sweep_result_model.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QStatusBar>

namespace rematlens {

WindowExports::WindowExports(QMainWindow &window, AppSettings &settings, const SweepResultModel &runs)
    : QObject(&window), m_window(window), m_settings(settings), m_runs(runs)
{
}

void WindowExports::registerView(const QString &name, const FigureSource *source)
{
    m_views.push_back({name, source});
}

void WindowExports::exportFigure(const QString &view)
{
    FigureExportChoices choices = m_settings.figureExport();
    if (!view.isEmpty())
        choices.view = view;
    ExportFigureDialog dialog(m_views, choices, &m_window);
    const int result = dialog.exec();
    m_settings.setFigureExport(dialog.choices()); // remembered even when cancelled
    if (result == QDialog::Accepted)
        m_window.statusBar()->showMessage(tr("Wrote %1").arg(dialog.choices().lastPath), 5000);
}

void WindowExports::exportRuns(const QString &tracePath)
{
    if (m_runs.finishedCount() == 0) {
        m_window.statusBar()->showMessage(tr("No finished runs to export: sweep first"), 4000);
        return;
    }
    const QString csv = tr("CSV (*.csv)");
    QString filter;
    QString path = QFileDialog::getSaveFileName(&m_window, tr("Export Runs"), m_settings.lastDirectory(),
                                                tr("JSON lines (*.jsonl)") + QStringLiteral(";;") + csv, &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter == csv ? QStringLiteral(".csv") : QStringLiteral(".jsonl");
    auto records = RunsExport::records(m_runs, traceDisplayName(tracePath.toStdString()));
    const std::size_t count = records.size();
    if (QString error; !RunsExport::write(std::move(records), path, error))
        emit problem(tr("Cannot export the runs"), error);
    else
        m_window.statusBar()->showMessage(tr("Wrote %1 runs to %2").arg(count).arg(path), 5000);
}

} // namespace rematlens
