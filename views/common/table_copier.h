#pragma once

#include <QObject>
#include <QString>

class QAbstractItemView;
class QAction;

namespace rematlens {

// Copy for a table or list: Ctrl+C (the platform's Copy) and a context menu "Copy" put the
// selected cells on the clipboard, a tab between columns and a line per row. A cell gives its
// exact value when its model answers kExactValueRole (a byte count in bytes, not "3.45 GiB"),
// else its text. Owned by the view: `new TableCopier(view)`.
class TableCopier : public QObject {
    Q_OBJECT

public:
    static constexpr int kExactValueRole = Qt::UserRole + 0x4c0;

    explicit TableCopier(QAbstractItemView *view);

    // What Copy puts on the clipboard now (the current cell when nothing is selected).
    QString selectedText() const;
    QAction *copyAction() const { return m_copy; }
    void copy() const;

private:
    QAbstractItemView *m_view;
    QAction *m_copy;
};

} // namespace rematlens
