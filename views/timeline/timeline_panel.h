#pragma once

#include "views/timeline/timeline_view.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QTimer;
class QToolButton;

namespace rematlens {

// The timeline dock: the chart and its controls (x axis, which run to overlay, pin, reset)
// and a line saying what is shown and where the two runs part; over the chart, what it waits for
// (a replay) or why it is empty.
class TimelinePanel : public QWidget {
    Q_OBJECT

public:
    enum class Overlay { None, BudgetBelow, BudgetAbove, Pinned };

    explicit TimelinePanel(QWidget *parent = nullptr);

    TimelineView *view() const { return m_view; }
    Overlay overlay() const;
    void setOverlay(Overlay overlay);
    void setAxis(TimelineAxis axis);
    TimelineAxis axis() const;
    // The chart is being computed again (another axis); the message over it says so.
    void setBusy(bool busy);
    // This run replays: "Replaying DTR at 0.31…" over the chart until its plot arrives.
    void showReplaying(const RunRequest &run);
    void showPlot(std::shared_ptr<const TimelinePlot> plot);
    void clear();
    QString statusText() const;
    // What the message over the chart says; empty while the chart shows a plot.
    QString messageText() const;
    void setSideFile(std::shared_ptr<const CaptureSideFile> sideFile) { m_view->setSideFile(std::move(sideFile)); }

signals:
    void overlayChanged(rematlens::TimelinePanel::Overlay overlay);
    void axisChanged(rematlens::TimelineAxis axis);
    void pinRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateStatus();
    void updateMessage();
    void placeMessage();

    TimelineView *m_view;
    QComboBox *m_axis;
    QComboBox *m_overlay;
    QToolButton *m_pin;
    QToolButton *m_reset;
    QLabel *m_status;
    QLabel *m_message;
    QTimer *m_messageDelay;
    QString m_replaying; // the run replaying, as the status names it
    bool m_busy = false;
};

} // namespace rematlens
