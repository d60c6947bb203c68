// Windows and dialogs of the GUI open within the screen: fitToScreen cuts a wanted size to the
// screen's available geometry, frame included, and centres the window over its owner or the
// screen; the help window opens at the top, at the shortcut table when asked, and Escape closes it.
#include "app/gui/app_settings.h"
#include "app/gui/export_figure_dialog.h"
#include "app/gui/help_window.h"
#include "app/gui/policy_editor_dialog.h"
#include "app/gui/screen_fit.h"
#include "app/gui/shortcut_table.h"

#include <QListWidget>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

using namespace rematlens;

class WindowFitTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void largeWindowIsCutToTheScreen();
    void smallWindowKeepsItsSizeAndIsCentred();
    void dialogIsCentredOverItsOwnerAndStaysOnScreen();
    void dialogsOfTheWindowFit();
    void helpOpensAtTheTopAndEscapeClosesIt();
    void shortcutTableListsTheViewsKeys();

private:
    QRect available() const { return QGuiApplication::primaryScreen()->availableGeometry(); }
    QTemporaryDir m_dir;
};

void WindowFitTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
    QVERIFY(QGuiApplication::primaryScreen());
}

void WindowFitTest::largeWindowIsCutToTheScreen()
{
    QWidget window;
    const QSize huge = available().size() + QSize(400, 300);
    const QRect frame = fitToScreen(&window, huge);
    QVERIFY2(available().contains(frame), qPrintable(QStringLiteral("%1,%2 %3x%4").arg(frame.x()).arg(frame.y())
                                                         .arg(frame.width()).arg(frame.height())));
    QVERIFY(window.width() < huge.width() && window.height() < huge.height());
    QVERIFY(window.width() > available().width() / 2); // cut to the screen, not shrunk beyond it
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(available().contains(window.frameGeometry()));
}

void WindowFitTest::smallWindowKeepsItsSizeAndIsCentred()
{
    QWidget window;
    const QRect frame = fitToScreen(&window, QSize(300, 200));
    QCOMPARE(window.size(), QSize(300, 200));
    QVERIFY(qAbs(frame.center().x() - available().center().x()) <= 1);
    QVERIFY(qAbs(frame.center().y() - available().center().y()) <= 1);
}

void WindowFitTest::dialogIsCentredOverItsOwnerAndStaysOnScreen()
{
    QWidget owner;
    owner.setGeometry(QRect(available().topLeft() + QPoint(10, 10), QSize(300, 200)));
    owner.show();
    QVERIFY(QTest::qWaitForWindowExposed(&owner));
    QWidget small(&owner, Qt::Dialog);
    const QRect over = fitToScreen(&small, QSize(100, 80));
    QVERIFY(qAbs(over.center().x() - owner.frameGeometry().center().x()) <= 1);
    QVERIFY(qAbs(over.center().y() - owner.frameGeometry().center().y()) <= 1);
    QWidget big(&owner, Qt::Dialog); // centred over an owner in the corner, it would leave the screen
    const QRect kept = fitToScreen(&big, QSize(available().width() - 100, 300));
    QVERIFY(available().contains(kept));
}

void WindowFitTest::dialogsOfTheWindowFit()
{
    AppSettings settings;
    PolicyEditorDialog editor(settings);
    QVERIFY(available().contains(editor.frameGeometry()));
    ExportFigureDialog exporter({}, FigureExportChoices{}, nullptr);
    QVERIFY(exporter.width() <= available().width() && exporter.height() <= available().height());
    exporter.show();
    QVERIFY(QTest::qWaitForWindowExposed(&exporter));
    QVERIFY(available().contains(exporter.frameGeometry()));
}

void WindowFitTest::helpOpensAtTheTopAndEscapeClosesIt()
{
    HelpWindow help(QStringLiteral("| Keys | Where | What |\n|---|---|---|\n| F1 | Help | Help |\n"));
    QVERIFY(available().contains(help.frameGeometry()));
    help.show();
    QVERIFY(QTest::qWaitForWindowActive(&help));
    QScrollBar *scroll = help.browser()->verticalScrollBar();
    QVERIFY(scroll->maximum() > 0); // the README is longer than a window
    QCOMPARE(scroll->value(), 0);
    QCOMPARE(help.browser()->textCursor().position(), 0);

    help.showSection(QLatin1String(HelpWindow::kShortcutsAnchor));
    QVERIFY(scroll->value() > 0);
    auto *sections = help.findChild<QListWidget *>();
    QCOMPARE(sections->currentItem()->data(Qt::UserRole).toString(), QLatin1String(HelpWindow::kShortcutsAnchor));

    QTest::keyClick(help.browser(), Qt::Key_Escape);
    QVERIFY(!help.isVisible());
    help.show(); // opened again (F1): at the top
    QVERIFY(QTest::qWaitForWindowExposed(&help));
    QCOMPARE(scroll->value(), 0);
    QCOMPARE(sections->currentRow(), 0);
}

// The keys the views answer themselves, each once: the strip's and the timeline's zoom among them.
void WindowFitTest::shortcutTableListsTheViewsKeys()
{
    QWidget window;
    const ShortcutTable table(window);
    const auto count = [&](const QString &keys, const QString &where) {
        return std::count_if(table.entries().begin(), table.entries().end(),
                             [&](const ShortcutTable::Entry &e) { return e.keys == keys && e.where == where; });
    };
    QCOMPARE(count(QStringLiteral("+ / -"), QStringLiteral("Feasibility strip")), 1);
    QCOMPARE(count(QStringLiteral("+ / -"), QStringLiteral("Memory timeline")), 1);
    QCOMPARE(count(QStringLiteral("0"), QStringLiteral("Feasibility strip")), 1);
    QCOMPARE(count(QStringLiteral("Esc"), QStringLiteral("Help")), 1);
    for (const ShortcutTable::Entry &entry : table.entries())
        QCOMPARE(count(entry.keys, entry.where), 1);
    QVERIFY(table.toMarkdown().contains(QStringLiteral("| + / - | Zoom the budget axis")));
}

QTEST_MAIN(WindowFitTest)
#include "tst_window_fit.moc"
