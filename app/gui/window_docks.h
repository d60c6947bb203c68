#pragma once

#include <QList>
#include <QObject>

#include <array>

class QAbstractItemModel;
class QAction;
class QDockWidget;
class QMainWindow;
class QTableView;
class QWidget;

namespace rematlens {

// The window's docks around the strip: the trace summary and the sweep controls on the left,
// the holes and the selected run (with every run beside it) on the right, the memory map
// below; and their default sizes for the window's size.
class WindowDocks : public QObject {
    Q_OBJECT

public:
    struct Contents {
        QAbstractItemModel *summary;
        QAbstractItemModel *holes;
        QAbstractItemModel *details;
        QAbstractItemModel *runs;
        QWidget *sweepPanel;
        QWidget *memoryMap;
        QWidget *holeAnatomy;
    };

    WindowDocks(QMainWindow &window, const Contents &contents);

    QTableView *summaryView() const { return m_summaryView; }
    QTableView *holeView() const { return m_holeView; }
    // The Holes table's columns to their contents, a long row name elided.
    void fitHoleColumns();
    QDockWidget *memoryMapDock() const { return m_memoryMapDock; }
    QDockWidget *holeAnatomyDock() const { return m_holeAnatomyDock; }
    // The Hole anatomy dock in front of Selected run.
    void showHoleAnatomy();
    // Each dock's View menu entry.
    QList<QAction *> toggleActions() const;
    // The side columns take about a fifth of the window each, the strip and the timeline the
    // rest; in each column the lower dock gets the larger share.
    void arrange();

protected:
    // Tab bars of tabified docks read in full ("Selected run", not "Selecte…"), scrolling
    // when a column is too narrow for all of them.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    int holeAnatomyWidth() const;

    QMainWindow &m_window;
    QTableView *m_summaryView;
    QTableView *m_holeView;
    QDockWidget *m_memoryMapDock;
    QDockWidget *m_holeAnatomyDock;
    std::array<QDockWidget *, 5> m_docks{}; // trace, sweep, holes, selected run, all runs
};

} // namespace rematlens
