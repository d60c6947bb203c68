#pragma once

#include <QObject>

class QAction;
class QMenu;

namespace rematlens {

class MainWindow;

// The window's menu bar and toolbar: each action calls the window's public operations, so
// the menus hold no state of their own beyond what they enable.
class WindowMenus : public QObject {
    Q_OBJECT

public:
    // Builds the menus into the window; the View menu lists `viewActions` (the docks') first.
    WindowMenus(MainWindow &window, const QList<QAction *> &viewActions);

    void refreshRecent();
    QAction *cancelAction() const { return m_cancel; }
    QAction *undoKeepAction() const { return m_undoKeep; }

private:
    void addFileMenu();
    void addSweepMenu();
    void addEditMenu();
    void addViewMenu(const QList<QAction *> &viewActions);
    void addHelpMenu();
    void explainPublicTraces();

    MainWindow &m_window;
    QMenu *m_recent = nullptr;
    QMenu *m_view = nullptr;
    QAction *m_cancel = nullptr;
    QAction *m_undoKeep = nullptr;
    QAction *m_toolbarToggle = nullptr;
};

} // namespace rematlens
