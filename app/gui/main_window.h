#pragma once

#include "trace_loader.h"

#include <QMainWindow>

class QLabel;
class QTableView;

namespace rematlens {

class TraceSummaryModel;

// The RematLens window: open a trace (menu, drag and drop, command line) and see its summary.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);

    void openTrace(const QString &pathOrDemo);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createMenus();
    void chooseTrace();
    void showLoaded(const LoadedTraceResult &result);
    void showFailure(const QString &message);

    TraceLoader m_loader;
    TraceSummaryModel *m_summaryModel;
    QTableView *m_summaryView;
    std::shared_ptr<const Program> m_program;
    QString m_pendingPath;
};

} // namespace rematlens
