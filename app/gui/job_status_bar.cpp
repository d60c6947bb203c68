#include "job_status_bar.h"

#include "status_field.h"

#include <QAction>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>

namespace rematlens {

JobStatusBar::JobStatusBar(QStatusBar *bar, QObject *parent)
    : QObject(parent), m_label(newStatusField(bar, QStringLiteral("jobStatus"))), m_progress(new QProgressBar(bar)),
      m_cancel(new QToolButton(bar))
{
    m_progress->setMaximumWidth(240);
    // Wide enough for "hole: 1,674 of 1,674" on one line, however narrow the window.
    m_progress->setMinimumWidth(m_progress->fontMetrics().horizontalAdvance(QStringLiteral("hole: 1,674 of 1,674")) +
                                24);
    m_progress->setTextVisible(true);
    m_progress->setToolTip(tr("Work finished so far"));
    m_progress->hide();
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop the sweep or the map (Ctrl+.)"));
    m_cancel->hide();
    connect(m_cancel, &QToolButton::clicked, this, &JobStatusBar::cancelRequested);
    bar->addPermanentWidget(m_label);
    bar->addPermanentWidget(m_progress);
    bar->addPermanentWidget(m_cancel);
}

void JobStatusBar::setText(const QString &text)
{
    m_label->setText(text);
    m_label->setToolTip(text);
    m_label->setVisible(!text.isEmpty());
}

QString JobStatusBar::text() const
{
    return m_label->text();
}

void JobStatusBar::showProgress(qint64 done, qint64 total, const QString &format)
{
    m_throttle.offer([this, done, total, format] { applyProgress(done, total, format); });
}

// Large counts (bytes mapped) are scaled to the bar's int range.
void JobStatusBar::applyProgress(qint64 done, qint64 total, const QString &format)
{
    const bool scaled = total > 1000000;
    m_progress->setRange(0, scaled ? 1000 : static_cast<int>(total));
    m_progress->setValue(scaled ? static_cast<int>(1000.0 * static_cast<double>(done) / static_cast<double>(total))
                                : static_cast<int>(done));
    m_progress->setFormat(format);
    m_progress->show();
}

void JobStatusBar::setRunning(bool running)
{
    if (!running)
        m_throttle.drop();
    m_progress->setVisible(running);
    m_cancel->setVisible(running);
    if (m_cancelAction)
        m_cancelAction->setEnabled(running);
}

} // namespace rematlens
