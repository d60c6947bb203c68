#pragma once

#include <QWidget>

class QListWidget;
class QTextBrowser;

namespace rematlens {

// Help > RematLens Help (F1): the README's sections for users, shipped in the program, with
// their images and a table of every keyboard shortcut of the window. A list of the sections
// beside the text jumps to each; it opens at the top, Help > Keyboard Shortcuts opens it at the
// table, Escape closes it. Its first size fits the screen it opens on.
class HelpWindow : public QWidget {
    Q_OBJECT

public:
    static constexpr const char *kShortcutsAnchor = "keyboard-shortcuts";

    // `shortcutTable` is Markdown (ShortcutTable::toMarkdown), placed at the end.
    explicit HelpWindow(const QString &shortcutTable, QWidget *parent = nullptr);

    // An empty anchor is the top of the page.
    void showSection(const QString &anchor);
    void showTop();
    QTextBrowser *browser() const { return m_browser; }
    QStringList sectionAnchors() const;

    // The README's parts a user reads: the introduction after the build commands, then "The
    // window" onward without the sections for developers (Layout, Building by hand).
    static QString userSections(const QString &readme);
    static QString introduction(const QString &readme);
    // GitHub's anchor of a heading: "Running a sweep on a Slurm cluster" -> "running-a-sweep-on-a-slurm-cluster".
    static QString anchorOf(const QString &heading);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void nameHeadings();
    void fitImages();
    void followLink(const QUrl &url);

    QTextBrowser *m_browser;
    QListWidget *m_sections;
};

} // namespace rematlens
