#pragma once

#include "hole_anatomy_controller.h"
#include "hole_link.h"

#include "views/timeline/hole_anatomy_figure.h"

#include <QObject>

#include <functional>
#include <memory>
#include <optional>

class QDockWidget;

namespace rematlens {

class ExactMapModel;
class HoleAnatomyPanel;
class HoleListModel;
class RunSelection;
class RunViewsController;
class SweepResultModel;
struct SelectedRun;

// The Hole anatomy panel follows the one selection: a run inside a listed hole (a row of the
// Holes table, a failing cell or interval inside an outlined hole of the strip) names that hole,
// whose story is explained off the GUI thread (or shown from the cache). The panel's links
// select runs through the selection and move the run views to the story's moments.
class HoleAnatomyCoordinator : public QObject {
    Q_OBJECT

public:
    struct Parts {
        RunSelection *selection;
        const SweepResultModel *sweep;
        const ExactMapModel *maps;
        const HoleListModel *holes;
        RunViewsController *runViews;
        HoleAnatomyPanel *panel;
        QDockWidget *dock;
        std::function<int()> threads; // the sweep panel's
        std::function<void()> openDock; // shows the dock in front, wide enough to read
    };

    HoleAnatomyCoordinator(Parts parts, QObject *parent);

    void setProgram(std::shared_ptr<const Program> program);
    // Explains the hole of this row of the Holes table.
    void showHole(int holeRow);
    void cancel();
    // Whether stories include the rescue searches; the hole shown is told again when needed.
    void setRescue(bool rescue);
    bool running() const { return m_controller.running(); }
    // The hole shown (or being explained) and its answer once there is one.
    const std::optional<HoleKey> &shownHole() const { return m_key; }
    std::shared_ptr<const HoleAnatomyAnswer> answer() const;
    const RunRequest *shownRequest() const { return m_request ? &*m_request : nullptr; }
    void followLink(const HoleLink &link);
    HoleAnatomyController &controller() { return m_controller; }
    // The lower edge of the hole shown, for File > Export Figure.
    const HoleAnatomyFigure &figure() const { return m_figure; }

signals:
    void runningChanged();
    void explained(); // a story (or why there is none) is shown
    void message(const QString &text, int milliseconds);

private:
    void selectionChanged();
    // The hole shown is still on the strip; otherwise the panel says it went, and why.
    void holesChanged();
    void forgetShown(const QString &why);
    std::optional<HoleKey> keyOf(int holeRow) const;
    void startIfShown();
    void showAnswer(const HoleAnatomyAnswer &answer);
    void drawFigure(const HoleAnatomyAnswer &answer);
    QString holeTitle(const HoleAnatomy *told = nullptr) const;
    void selectBudget(Bytes budget);
    std::optional<SelectedRun> runAt(Bytes budget) const;
    RunRequest requestAt(Bytes budget) const;

    Parts m_parts;
    HoleAnatomyController m_controller;
    HoleAnatomyFigure m_figure;
    std::shared_ptr<const Program> m_program;
    std::optional<HoleKey> m_key;         // the hole shown
    std::optional<RunRequest> m_request;  // its row's configuration
    bool m_exactBounds = false;
    std::pair<QString, QString> m_gridRange; // the grid hole's first and last failing ratios
    bool m_pending = false; // to explain once the dock shows
    bool m_offered = false; // the dock opened itself once
    bool m_rescue = true;
};

} // namespace rematlens
