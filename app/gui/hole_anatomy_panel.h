#pragma once

#include "hole_link.h"
#include "progress_throttle.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QProgressBar;
class QTextBrowser;
class QToolButton;

namespace rematlens {

// The Hole anatomy dock: which hole, what explaining it is doing (with Cancel), and its story
// in sentences whose steps, tensors and budgets are links. It shows; the coordinator decides.
class HoleAnatomyPanel : public QWidget {
    Q_OBJECT

public:
    explicit HoleAnatomyPanel(QWidget *parent = nullptr);

    // No hole selected: how to get a story, after why the last one went (when it went).
    void showIntroduction(const QString &why = {});
    // "Explaining the hole at 0.419…", with a busy bar until progress says more.
    void showExplaining(const QString &hole);
    // Shown at most every tenth of a second (see ProgressThrottle).
    void showProgress(const QString &text, qint64 done, qint64 total);
    void showStory(const QString &hole, const QString &html);
    // One sentence saying why there is no story (the row cannot be mapped, the job was cancelled).
    void showProblem(const QString &hole, const QString &sentence);

    QTextBrowser *browser() const { return m_text; }
    QString storyText() const; // as plain text
    QString holeText() const;  // the hole the panel tells of, as its heading names it
    QString statusText() const;
    bool busy() const;
    bool rescue() const;
    void setRescue(bool rescue); // quietly: no rescueToggled

signals:
    void linkActivated(const rematlens::HoleLink &link);
    void cancelRequested();
    void exportRequested();
    void rescueToggled(bool rescue);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void setBusy(bool busy);
    void applyProgress(const QString &text, qint64 done, qint64 total);

    QLabel *m_title;
    QLabel *m_status;
    QProgressBar *m_progress;
    QToolButton *m_cancel;
    QToolButton *m_export;
    QCheckBox *m_rescue;
    QTextBrowser *m_text;
    ProgressThrottle m_throttle;
};

} // namespace rematlens
