#include "help_window.h"

#include "screen_fit.h"

#include <QDesktopServices>
#include <QFile>
#include <QHBoxLayout>
#include <QImageReader>
#include <QListWidget>
#include <QRegularExpression>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>

#include <algorithm>
#include <vector>

namespace rematlens {

namespace {

const QString kReadme = QStringLiteral(":/help/README.md");
const QString kResourceRoot = QStringLiteral(":/help");
constexpr int kMaxImageWidth = 760; // pixels: screenshots are drawn at most this wide
constexpr QSize kWantedSize(1000, 760);

const QStringList &developerSections()
{
    static const QStringList sections{QStringLiteral("Layout"), QStringLiteral("Building by hand")};
    return sections;
}

QString readResource(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

// The introduction under the title, after the build commands (indented code) that open it.
QString HelpWindow::introduction(const QString &readme)
{
    const QRegularExpression heading(QStringLiteral("^## "), QRegularExpression::MultilineOption);
    const qsizetype end = readme.indexOf(heading);
    const QStringList paragraphs = readme.left(end < 0 ? readme.size() : end).split(QStringLiteral("\n\n"));
    qsizetype first = 0;
    for (qsizetype i = 0; i < paragraphs.size(); ++i)
        if (paragraphs[i].startsWith(QLatin1String("    ")) || paragraphs[i].startsWith(QLatin1String("# ")))
            first = i + 1;
    QString kept;
    for (qsizetype i = first; i < paragraphs.size(); ++i)
        if (!paragraphs[i].trimmed().isEmpty())
            kept += paragraphs[i].trimmed() + QStringLiteral("\n\n");
    return kept;
}

QString HelpWindow::userSections(const QString &readme)
{
    const QRegularExpression heading(QStringLiteral("^## (.+)$"), QRegularExpression::MultilineOption);
    QString kept = introduction(readme);
    bool started = false;
    QRegularExpressionMatchIterator it = heading.globalMatch(readme);
    std::vector<QRegularExpressionMatch> matches;
    while (it.hasNext())
        matches.push_back(it.next());
    for (std::size_t i = 0; i < matches.size(); ++i) {
        const QString title = matches[i].captured(1).trimmed();
        started = started || title == QLatin1String("The window");
        if (!started || developerSections().contains(title))
            continue;
        const qsizetype end = i + 1 < matches.size() ? matches[i + 1].capturedStart() : readme.size();
        kept += readme.mid(matches[i].capturedStart(), end - matches[i].capturedStart());
    }
    return kept;
}

QString HelpWindow::anchorOf(const QString &heading)
{
    QString anchor;
    for (const QChar c : heading.toLower()) {
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_'))
            anchor += c;
        else if (c == QLatin1Char(' '))
            anchor += QLatin1Char('-');
    }
    return anchor;
}

HelpWindow::HelpWindow(const QString &shortcutTable, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_browser(new QTextBrowser(this))
    , m_sections(new QListWidget(this))
{
    setWindowTitle(tr("RematLens Help"));
    setObjectName(QStringLiteral("helpWindow"));
    m_browser->setSearchPaths({kResourceRoot});
    m_browser->setOpenLinks(false);
    const QString readme = readResource(kReadme);
    const QString text = tr("# RematLens Help\n\n") + userSections(readme) + tr("\n## Keyboard shortcuts\n\n")
                         + shortcutTable;
    m_browser->document()->setMarkdown(text, QTextDocument::MarkdownDialectGitHub);
    nameHeadings();
    fitImages();
    // Filling the document carried the browser's cursor to its end, the shortcut table, where the
    // browser would scroll as soon as it is shown.
    m_browser->moveCursor(QTextCursor::Start);
    m_sections->setToolTip(tr("Sections of the help; click one to go there"));

    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_sections);
    splitter->addWidget(m_browser);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({220, 780});
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    fitToScreen(this, kWantedSize);

    auto *escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setContext(Qt::WindowShortcut);
    connect(escape, &QShortcut::activated, this, &QWidget::close);

    connect(m_browser, &QTextBrowser::anchorClicked, this, &HelpWindow::followLink);
    connect(m_sections, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { showSection(item->data(Qt::UserRole).toString()); });
    connect(m_sections, &QListWidget::itemClicked, this,
            [this](QListWidgetItem *item) { showSection(item->data(Qt::UserRole).toString()); });
}

// Markdown headings get their GitHub anchors, so the README's links inside the page work,
// and the section list fills with them.
void HelpWindow::nameHeadings()
{
    for (QTextBlock block = m_browser->document()->begin(); block.isValid(); block = block.next()) {
        const int level = block.blockFormat().headingLevel();
        if (level < 2 || level > 3)
            continue;
        const QString anchor = anchorOf(block.text());
        QTextCharFormat format;
        format.setAnchor(true);
        format.setAnchorNames({anchor});
        QTextCursor cursor(block);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        cursor.mergeCharFormat(format);
        auto *item = new QListWidgetItem((level == 3 ? QStringLiteral("    ") : QString()) + block.text(), m_sections);
        item->setData(Qt::UserRole, anchor);
    }
}

// Screenshots shrink to a readable width; an image the program does not carry is dropped.
void HelpWindow::fitImages()
{
    struct Image {
        int position;
        int length;
        QTextImageFormat format;
    };
    QTextDocument *document = m_browser->document();
    std::vector<Image> images;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().isValid() && it.fragment().charFormat().isImageFormat())
                images.push_back({it.fragment().position(), it.fragment().length(),
                                  it.fragment().charFormat().toImageFormat()});
    for (auto image = images.rbegin(); image != images.rend(); ++image) { // last first: positions stay valid
        const QSize size = QImageReader(kResourceRoot + QLatin1Char('/') + image->format.name()).size();
        QTextCursor cursor(document);
        cursor.setPosition(image->position);
        cursor.setPosition(image->position + image->length, QTextCursor::KeepAnchor);
        if (!size.isValid()) {
            cursor.removeSelectedText();
            continue;
        }
        image->format.setWidth(std::min(size.width(), kMaxImageWidth));
        cursor.setCharFormat(image->format);
    }
}

void HelpWindow::followLink(const QUrl &url)
{
    if (url.scheme().isEmpty() && url.path().isEmpty() && url.hasFragment())
        showSection(url.fragment());
    else if (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https"))
        QDesktopServices::openUrl(url);
}

// Each opening starts at the top; Help > Keyboard Shortcuts then goes on to the table.
void HelpWindow::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    showTop();
}

void HelpWindow::showTop()
{
    m_browser->moveCursor(QTextCursor::Start);
    m_browser->verticalScrollBar()->setValue(0);
    if (m_sections->count() > 0)
        m_sections->setCurrentRow(0);
}

void HelpWindow::showSection(const QString &anchor)
{
    if (anchor.isEmpty()) {
        showTop();
        return;
    }
    m_browser->scrollToAnchor(anchor);
    for (int i = 0; i < m_sections->count(); ++i)
        if (m_sections->item(i)->data(Qt::UserRole).toString() == anchor)
            m_sections->setCurrentRow(i);
}

QStringList HelpWindow::sectionAnchors() const
{
    QStringList anchors;
    for (int i = 0; i < m_sections->count(); ++i)
        anchors << m_sections->item(i)->data(Qt::UserRole).toString();
    return anchors;
}

} // namespace rematlens
