#include "views/common/table_copier.h"

#include <QAbstractItemView>
#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QItemSelectionModel>

#include <algorithm>
#include <map>

namespace rematlens {

TableCopier::TableCopier(QAbstractItemView *view)
    : QObject(view), m_view(view), m_copy(new QAction(tr("&Copy"), view))
{
    m_copy->setShortcut(QKeySequence::Copy);
    // Only while the view has focus: the window's other Copy actions, if any, keep theirs.
    m_copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_copy->setToolTip(tr("Copy the selected cells' exact values"));
    view->addAction(m_copy);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_copy, &QAction::triggered, this, &TableCopier::copy);
}

QString TableCopier::selectedText() const
{
    QModelIndexList cells = m_view->selectionModel() ? m_view->selectionModel()->selectedIndexes() : QModelIndexList();
    if (cells.isEmpty() && m_view->currentIndex().isValid())
        cells << m_view->currentIndex();
    std::map<int, std::map<int, QString>> rows; // row -> column -> value, in order
    for (const QModelIndex &cell : cells) {
        const QVariant exact = cell.data(kExactValueRole);
        rows[cell.row()][cell.column()] = exact.isValid() ? exact.toString() : cell.data(Qt::DisplayRole).toString();
    }
    QStringList lines;
    for (const auto &[row, columns] : rows) {
        QStringList values;
        for (const auto &[column, value] : columns)
            values << value;
        lines << values.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

void TableCopier::copy() const
{
    const QString text = selectedText();
    if (!text.isEmpty())
        QGuiApplication::clipboard()->setText(text);
}

} // namespace rematlens
