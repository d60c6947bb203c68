#pragma once

#include "progress_throttle.h"

#include <QObject>
#include <QString>

#include <functional>

class QLabel;
class QProgressBar;
class QStatusBar;
class QToolButton;
class QAction;

namespace rematlens {

// The status bar's part for long work: a line saying how the last sweep or map went, a
// progress bar and Cancel, shown only while a sweep, a map or the schedule rows run.
class JobStatusBar : public QObject {
    Q_OBJECT

public:
    JobStatusBar(QStatusBar *bar, QObject *parent);

    // Sweep > Cancel (and the toolbar's) follows the button.
    void setCancelAction(QAction *action) { m_cancelAction = action; }
    void setText(const QString &text);
    QString text() const;
    // Shown at most every tenth of a second (see ProgressThrottle).
    void showProgress(qint64 done, qint64 total, const QString &format);
    // running: whether anything runs now; the bar and Cancel show only then.
    void setRunning(bool running);

signals:
    void cancelRequested();

private:
    void applyProgress(qint64 done, qint64 total, const QString &format);

    QLabel *m_label;
    QProgressBar *m_progress;
    QToolButton *m_cancel;
    QAction *m_cancelAction = nullptr;
    ProgressThrottle m_throttle;
};

} // namespace rematlens
