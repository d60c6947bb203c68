#pragma once

#include "views/timeline/timeline_view.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QToolButton;

namespace rematlens {

// The timeline dock: the chart and its controls (x axis, which run to overlay, pin, reset)
// and a line saying what is shown and where the two runs part.
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
    void setBusy(bool busy);
    void showPlot(std::shared_ptr<const TimelinePlot> plot);
    void clear();
    QString statusText() const;
    void setSideFile(std::shared_ptr<const CaptureSideFile> sideFile) { m_view->setSideFile(std::move(sideFile)); }

signals:
    void overlayChanged(rematlens::TimelinePanel::Overlay overlay);
    void axisChanged(rematlens::TimelineAxis axis);
    void pinRequested();

private:
    void updateStatus();

    TimelineView *m_view;
    QComboBox *m_axis;
    QComboBox *m_overlay;
    QToolButton *m_pin;
    QToolButton *m_reset;
    QLabel *m_status;
    bool m_busy = false;
};

} // namespace rematlens
