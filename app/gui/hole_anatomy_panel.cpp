#include "hole_anatomy_panel.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QProgressBar>
#include <QTextBrowser>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

namespace rematlens {

HoleAnatomyPanel::HoleAnatomyPanel(QWidget *parent)
    : QWidget(parent), m_title(new QLabel(this)), m_status(new QLabel(this)), m_progress(new QProgressBar(this)),
      m_cancel(new QToolButton(this)), m_export(new QToolButton(this)),
      m_rescue(new QCheckBox(tr("Rescue search"), this)), m_text(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("holeAnatomyPanel"));
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("holeAnatomyStatus"));
    m_progress->setTextVisible(false);
    m_progress->setToolTip(tr("How far explaining the hole has come (the rescue searches take the longest)"));
    m_progress->setMaximumHeight(fontMetrics().height() / 2 + 4);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("holeAnatomyCancel"));
    m_cancel->setToolTip(tr("Stop explaining this hole; select it again to start over"));
    m_export->setText(tr("Export Figure…"));
    m_export->setObjectName(QStringLiteral("holeAnatomyExport"));
    m_export->setToolTip(tr("Write the two timelines of the lower edge with the story's moments marked, as SVG, "
                            "PDF or PNG"));
    m_rescue->setObjectName(QStringLiteral("holeAnatomyRescue"));
    m_rescue->setChecked(true);
    m_rescue->setToolTip(tr("Also find the single storages whose residency makes each edge's failing budget pass: "
                            "one replay per storage its policy evicted (minutes on the largest traces)"));
    connect(m_rescue, &QCheckBox::toggled, this, &HoleAnatomyPanel::rescueToggled);
    m_text->setOpenLinks(false);
    m_text->document()->setDefaultStyleSheet(QStringLiteral("a { text-decoration: none; }"));
    m_text->setObjectName(QStringLiteral("holeAnatomyText"));
    m_text->viewport()->installEventFilter(this);
    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (const std::optional<HoleLink> link = HoleLink::parse(url))
            emit linkActivated(*link);
    });
    connect(m_cancel, &QToolButton::clicked, this, &HoleAnatomyPanel::cancelRequested);
    connect(m_export, &QToolButton::clicked, this, &HoleAnatomyPanel::exportRequested);

    auto *statusRow = new QHBoxLayout;
    statusRow->setContentsMargins(0, 0, 0, 0);
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_cancel);
    auto *toolRow = new QHBoxLayout;
    toolRow->setContentsMargins(0, 0, 0, 0);
    toolRow->addWidget(m_rescue);
    toolRow->addStretch(1);
    toolRow->addWidget(m_export);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(3);
    layout->addWidget(m_title);
    layout->addLayout(toolRow);
    layout->addLayout(statusRow);
    layout->addWidget(m_progress);
    layout->addWidget(m_text, 1);
    showIntroduction();
}

void HoleAnatomyPanel::setBusy(bool busy)
{
    if (!busy)
        m_throttle.drop();
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    m_export->setEnabled(!busy && !m_text->document()->isEmpty() && m_status->text().isEmpty());
}

void HoleAnatomyPanel::showIntroduction(const QString &why)
{
    m_title->setText(tr("No hole selected"));
    m_status->show();
    const QString how = tr("Select a hole in the Holes table, or a failing budget inside an outlined hole of the "
                           "strip, to read why it fails while the budgets around it pass.");
    m_status->setText(why.isEmpty() ? how : why + QLatin1Char(' ') + how);
    m_text->clear();
    setBusy(false);
}

void HoleAnatomyPanel::showExplaining(const QString &hole)
{
    m_throttle.drop(); // the last hole's progress is not this one's
    m_title->setText(hole);
    m_status->show();
    m_status->setText(tr("Explaining the hole…"));
    m_progress->setRange(0, 0);
    m_text->clear();
    setBusy(true);
}

void HoleAnatomyPanel::showProgress(const QString &text, qint64 done, qint64 total)
{
    m_throttle.offer([this, text, done, total] { applyProgress(text, done, total); });
}

void HoleAnatomyPanel::applyProgress(const QString &text, qint64 done, qint64 total)
{
    m_status->setText(total > 0 ? tr("%1: %2 of %3").arg(text).arg(done).arg(total) : text + QStringLiteral("…"));
    m_progress->setRange(0, total > 0 ? int(total) : 0);
    if (total > 0)
        m_progress->setValue(int(done));
}

void HoleAnatomyPanel::showStory(const QString &hole, const QString &html)
{
    m_title->setText(hole);
    m_status->clear();
    m_status->hide();
    m_text->setHtml(html);
    setBusy(false);
}

void HoleAnatomyPanel::showProblem(const QString &hole, const QString &sentence)
{
    m_title->setText(hole);
    m_status->show();
    m_status->setText(sentence);
    m_text->clear();
    setBusy(false);
}

QString HoleAnatomyPanel::storyText() const
{
    return m_text->toPlainText();
}

QString HoleAnatomyPanel::holeText() const
{
    return m_title->text();
}

QString HoleAnatomyPanel::statusText() const
{
    return m_status->text();
}

bool HoleAnatomyPanel::rescue() const
{
    return m_rescue->isChecked();
}

void HoleAnatomyPanel::setRescue(bool rescue)
{
    const QSignalBlocker quiet(m_rescue);
    m_rescue->setChecked(rescue);
}

bool HoleAnatomyPanel::busy() const
{
    return m_cancel->isVisibleTo(this);
}

// Links and byte counts carry their tooltip in the text's format (the title attribute).
bool HoleAnatomyPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_text->viewport() && event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString tip = m_text->cursorForPosition(help->pos()).charFormat().toolTip();
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, m_text->viewport());
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace rematlens
