#pragma once

#include "inspected_run_cache.h"

#include "core/analysis/inspected_run.h"

#include <QFuture>
#include <QObject>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace rematlens {

// Replays the selected run (and the run it is compared with) again with a recorder, off the
// GUI thread, for the timeline and the cascade. A new request cancels the one in flight;
// only the newest job's runs are delivered. Recent runs are kept, and the neighbours the user
// is likely to select next can be recorded ahead while nothing else runs.
class RunInspector : public QObject {
    Q_OBJECT

public:
    explicit RunInspector(QObject *parent = nullptr);
    ~RunInspector() override;

    int inspect(std::shared_ptr<const Program> program, RunRequest run, std::optional<RunRequest> comparison);
    // Records these in the background (dropping any earlier prefetch) for inspect to find.
    void prefetch(std::shared_ptr<const Program> program, std::vector<RunRequest> runs);
    void cancel();
    // Forgets the kept runs (a new trace).
    void forget();
    bool busy() const { return m_busy; }
    std::size_t keptRuns() const { return m_cache->size(); }

signals:
    void inspected(int job, std::shared_ptr<const rematlens::InspectedRun> run,
                   std::shared_ptr<const rematlens::InspectedRun> comparison);

private:
    int m_job = 0;
    bool m_busy = false;
    std::shared_ptr<InspectedRunCache> m_cache = std::make_shared<InspectedRunCache>();
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<std::atomic<bool>> m_prefetchCancel;
    QFuture<void> m_future;
    QFuture<void> m_prefetch;
};

} // namespace rematlens
