#pragma once

#include <QString>

#include <vector>

class QWidget;

namespace rematlens {

// Every keyboard shortcut of a window, read from its actions and buttons (so the list follows
// the menus as they change), then the keys and gestures the strip and the timeline handle
// themselves (and Escape in the help window); rendered as the Markdown table of the help window.
class ShortcutTable {
public:
    struct Entry {
        QString keys;
        QString action;
        QString where; // the menu, dock or view
    };

    explicit ShortcutTable(const QWidget &window);

    const std::vector<Entry> &entries() const { return m_entries; }
    QString toMarkdown() const;

private:
    void addActions(const QWidget &window);
    void addButtons(const QWidget &window);
    void addViewKeys();

    std::vector<Entry> m_entries;
};

} // namespace rematlens
