#pragma once

#include "export_figure_dialog.h"

#include <QObject>

class QMainWindow;

namespace rematlens {

class AppSettings;
class SweepResultModel;

// File > Export Figure and Export Runs: the views offered as figures (each registers itself
// with one line), and the strip's finished runs written as `rematlens sweep --out` writes them.
class WindowExports : public QObject {
    Q_OBJECT

public:
    WindowExports(QMainWindow &window, AppSettings &settings, const SweepResultModel &runs);

    void registerView(const QString &name, const FigureSource *source);
    const std::vector<FigureView> &views() const { return m_views; }
    // The dialog opens at this view when it is named.
    void exportFigure(const QString &view = {});
    void exportRuns(const QString &tracePath);

signals:
    void problem(const QString &title, const QString &message);

private:
    QMainWindow &m_window;
    AppSettings &m_settings;
    const SweepResultModel &m_runs;
    std::vector<FigureView> m_views;
};

} // namespace rematlens
