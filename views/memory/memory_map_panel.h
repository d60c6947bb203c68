#pragma once

#include "views/memory/memory_map_view.h"

#include <QWidget>

class QLabel;
class QSpinBox;
class QToolButton;

namespace rematlens {

// The memory map dock: the map and the step it shows. The step follows a click in the timeline
// or the spin box; "Default step" goes back to the failing step (or the peak of reserved
// memory). The window replays to the step asked for and hands the result to the view.
class MemoryMapPanel : public QWidget {
    Q_OBJECT

public:
    explicit MemoryMapPanel(QWidget *parent = nullptr);

    MemoryMapView *view() const { return m_view; }
    // The schedule's length and the step shown, without announcing a request.
    void setSteps(std::size_t count, std::size_t step);
    void setStepsEnabled(bool enabled);

signals:
    void stepRequested(std::size_t step);
    void defaultStepRequested();

private:
    MemoryMapView *m_view;
    QSpinBox *m_step;
    QToolButton *m_default;
    QLabel *m_label;
};

} // namespace rematlens
