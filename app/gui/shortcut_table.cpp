#include "shortcut_table.h"

#include "views/strip/feasibility_strip.h"
#include "views/timeline/timeline_view.h"

#include <QAbstractButton>
#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QTabWidget>
#include <QMenu>

#include <algorithm>

namespace rematlens {

namespace {

// "&Open Trace…" -> "Open Trace"; "(R in the strip)" and such hints stay.
QString plainText(QString text)
{
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    if (text.endsWith(QChar(0x2026)))
        text.chop(1);
    else if (text.endsWith(QLatin1String("...")))
        text.chop(3);
    return text.trimmed();
}

QString keysOf(const QList<QKeySequence> &shortcuts)
{
    QStringList keys;
    for (const QKeySequence &shortcut : shortcuts)
        keys << shortcut.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

// The menu an action sits in, as the menu bar names it.
QString menuOf(const QAction &action)
{
    for (const QObject *object : action.associatedObjects())
        if (const auto *menu = qobject_cast<const QMenu *>(object))
            return plainText(menu->title());
    return QCoreApplication::translate("ShortcutTable", "Window");
}

// The dock, or the tab under the strip, a control sits in.
QString placeOf(const QWidget &widget)
{
    for (const QWidget *w = &widget; w; w = w->parentWidget()) {
        if (const auto *dock = qobject_cast<const QDockWidget *>(w))
            return dock->windowTitle();
        const QWidget *stack = w->parentWidget();
        if (const auto *tabs = qobject_cast<const QTabWidget *>(stack ? stack->parentWidget() : nullptr))
            if (const int index = tabs->indexOf(const_cast<QWidget *>(w)); index >= 0)
                return plainText(tabs->tabText(index));
    }
    return QCoreApplication::translate("ShortcutTable", "Window");
}

// A tooltip without its trailing "(Ctrl+Shift+P)": the table has a column for the keys.
QString withoutKeyHint(QString tip)
{
    if (tip.endsWith(QLatin1Char(')')) && tip.lastIndexOf(QLatin1String(" (")) > 0)
        tip.truncate(tip.lastIndexOf(QLatin1String(" (")));
    return tip;
}

QString cell(QString text)
{
    return text.replace(QLatin1Char('|'), QLatin1String("\\|"));
}

// The place of an action outside the menus: the docks or views of the widgets it belongs to.
QString placesOf(const QAction &action)
{
    QStringList places;
    for (const QObject *object : action.associatedObjects())
        if (const auto *widget = qobject_cast<const QWidget *>(object); widget && !qobject_cast<const QMenu *>(widget))
            places << placeOf(*widget);
    return places.isEmpty() ? menuOf(action) : places.join(QStringLiteral(", "));
}

} // namespace

ShortcutTable::ShortcutTable(const QWidget &window)
{
    addActions(window);
    addButtons(window);
    addViewKeys();
}

// One entry per key and action: a Copy that every table has is one line naming the tables.
void ShortcutTable::addActions(const QWidget &window)
{
    for (const QAction *action : window.findChildren<QAction *>()) {
        if (action->shortcuts().isEmpty() || action->isSeparator())
            continue;
        const Entry entry{keysOf(action->shortcuts()), plainText(action->text()), placesOf(*action)};
        const auto same = std::find_if(m_entries.begin(), m_entries.end(), [&](const Entry &e) {
            return e.keys == entry.keys && e.action == entry.action;
        });
        if (same == m_entries.end())
            m_entries.push_back(entry);
        else if (!same->where.split(QStringLiteral(", ")).contains(entry.where))
            same->where += QStringLiteral(", ") + entry.where;
    }
}

// Buttons with a shortcut of their own (not the mnemonic of their label).
void ShortcutTable::addButtons(const QWidget &window)
{
    for (const QAbstractButton *button : window.findChildren<QAbstractButton *>()) {
        const QKeySequence shortcut = button->shortcut();
        if (shortcut.isEmpty() || shortcut == QKeySequence::mnemonic(button->text()))
            continue;
        const QString tip = withoutKeyHint(button->toolTip());
        m_entries.push_back({keysOf({shortcut}), tip.isEmpty() ? plainText(button->text()) : tip, placeOf(*button)});
    }
}

void ShortcutTable::addViewKeys()
{
    // An entry whose keys a view's list already has is left out: the table never says one key twice.
    const auto add = [this](const KeyBindings &bindings, const QString &where) {
        for (const KeyBinding &binding : bindings) {
            const bool listed = std::any_of(m_entries.begin(), m_entries.end(), [&](const Entry &e) {
                return e.keys == binding.keys && e.where == where;
            });
            if (!listed)
                m_entries.push_back({binding.keys, binding.action, where});
        }
    };
    const QString strip = QCoreApplication::translate("ShortcutTable", "Feasibility strip");
    add(FeasibilityStrip::keyBindings(), strip);
    add(TimelineView::keyBindings(), QCoreApplication::translate("ShortcutTable", "Memory timeline"));
    add({{QCoreApplication::translate("ShortcutTable", "Esc"), QCoreApplication::translate("ShortcutTable", "Close the help")}},
        QCoreApplication::translate("ShortcutTable", "Help"));
}

QString ShortcutTable::toMarkdown() const
{
    QString table = QCoreApplication::translate("ShortcutTable", "| Keys | Action | Where |\n|---|---|---|\n");
    for (const Entry &entry : m_entries)
        table += QStringLiteral("| %1 | %2 | %3 |\n").arg(cell(entry.keys), cell(entry.action), cell(entry.where));
    return table;
}

} // namespace rematlens
