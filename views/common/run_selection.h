#pragma once

#include "core/sim/budget_interval.h"
#include "core/sim/run_identity.h"

#include <QObject>

#include <optional>

namespace rematlens {

// The run the window has selected, named by its full identity: a grid cell of the sweep, or an
// interval of an exact map (replayed at its lowest budget). The request is what replaying it takes.
struct SelectedRun {
    RunIdentity identity;
    RunRequest request;
    std::optional<BudgetInterval> interval; // set when an exact map's interval is selected

    bool sameAs(const SelectedRun &other) const
    {
        return identity == other.identity && interval == other.interval;
    }
};

// One selection that every view showing a run observes, as Qt's views share a
// QItemSelectionModel: the strip, the Holes table, Selected run, the timeline, the cascade and
// the memory map draw the run it names or nothing. Nobody tells a view what to show but this.
class RunSelection : public QObject {
    Q_OBJECT

public:
    explicit RunSelection(QObject *parent = nullptr) : QObject(parent) {}

    const std::optional<SelectedRun> &current() const { return m_current; }
    bool holds(const RunIdentity &identity) const { return m_current && m_current->identity == identity; }

    // Emits changed() when the run (or interval) differs from the one held.
    void select(SelectedRun run);
    void clear();

signals:
    void changed();

private:
    std::optional<SelectedRun> m_current;
};

} // namespace rematlens
