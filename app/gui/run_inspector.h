#pragma once

#include "core/analysis/inspected_run.h"

#include <QFuture>
#include <QObject>

#include <atomic>
#include <memory>
#include <optional>

namespace rematlens {

// Replays the selected run (and the run it is compared with) again with a recorder, off the
// GUI thread, for the timeline and the cascade. A new request cancels the one in flight;
// only the newest job's runs are delivered.
class RunInspector : public QObject {
    Q_OBJECT

public:
    explicit RunInspector(QObject *parent = nullptr);
    ~RunInspector() override;

    int inspect(std::shared_ptr<const Program> program, RunRequest run, std::optional<RunRequest> comparison);
    void cancel();
    bool busy() const { return m_busy; }

signals:
    void inspected(int job, std::shared_ptr<const rematlens::InspectedRun> run,
                   std::shared_ptr<const rematlens::InspectedRun> comparison);

private:
    int m_job = 0;
    bool m_busy = false;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFuture<void> m_future;
};

} // namespace rematlens
