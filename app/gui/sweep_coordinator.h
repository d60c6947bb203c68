#pragma once

#include "sweep_cache.h"
#include "sweep_controller.h"

#include "app/requests/allocator_options.h"
#include "core/sim/baseline.h"
#include "views/common/run_selection.h"
#include "views/sweep/sweep_parameters.h"

#include <QObject>

#include <memory>
#include <vector>

namespace rematlens {

class AppSettings;
class JobStatusBar;
class RunSelection;
class SweepPanel;
class SweepResultModel;

// Sweeping: the panel's parameters become the strip's rows (one per policy and allocator model,
// each a row identity) and their runs; what earlier sessions ran shows at once from the cache,
// the rest is replayed off the GUI thread. A new sweep keeps the selected run when a row of the
// new strip is its configuration (or, failing that, the same policy) and the grid has its budget.
class SweepCoordinator : public QObject {
    Q_OBJECT

public:
    struct Parts {
        SweepPanel *panel;
        SweepResultModel *results;
        RunSelection *selection;
        AppSettings *settings;
        JobStatusBar *status;
    };

    SweepCoordinator(Parts parts, QObject *parent);

    // A new trace: its cache, no rows yet.
    void setTrace(std::shared_ptr<const Program> program, const Baseline &baseline, const QString &traceName,
                  const QString &traceHash);
    // Sweeps with the panel's parameters; the reason (empty when it started) otherwise.
    QString start();
    void cancel() { m_controller.cancel(); }
    bool running() const { return m_controller.running(); }
    // The marked grid columns again, ten times finer; the reason when it cannot start.
    QString refine(std::size_t firstColumn, std::size_t lastColumn);

    // The capacity and caching options of the allocator models the panel chooses (from the
    // command line; the models and the eviction coupling are the panel's).
    void setAllocatorOptions(const AllocatorOptions &options) { m_allocatorOptions = options; }
    // The command line's --allocator (and --eviction) choose the panel's models too.
    void chooseAllocatorModels(const AllocatorOptions &options);

signals:
    void started();         // rows planned, cached results shown
    void resultsChanged();  // more runs finished
    void finished(bool cancelled);
    void runningChanged();

private:
    AllocatorOptions allocatorOptionsFor(const SweepParameters &p) const;
    QString plan(const SweepParameters &p);
    void keepSelection(const std::optional<SelectedRun> &previous);
    void showResults(int job, const std::vector<IndexedResult> &results);
    void showFinished(int job, bool cancelled, double seconds);

    Parts m_parts;
    SweepController m_controller;
    SweepCache m_cache;
    AllocatorOptions m_allocatorOptions;
    std::shared_ptr<const Program> m_program;
    Baseline m_baseline;
    QString m_traceName;
    QString m_traceHash;
    QString m_lastStep;                    // of the sweep shown, for refining
    std::vector<RunRequest> m_requests;    // of the sweep shown
    std::vector<std::size_t> m_jobIndices; // the running job's requests, as indices into m_requests
};

} // namespace rematlens
