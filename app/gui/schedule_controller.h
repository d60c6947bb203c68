#pragma once

#include "controller_jobs.h"
#include "schedule_cache.h"
#include "core/schedule/budget_schedules.h"
#include "core/trace/program.h"

#include <QObject>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace rematlens {

// Computes the strip's schedule rows off the GUI thread: for each budget, static checkpointing
// (fast) and then, when asked, the optimum (CBC, up to the time limit per budget). Answers come
// back one budget at a time; a new job or Cancel stops the running one between budgets. Answers
// are remembered per trace content, in memory and on disk (ScheduleCache), so sweeping again or
// reopening the trace shows known budgets at once.
class ScheduleController : public QObject {
    Q_OBJECT

public:
    struct Request {
        std::shared_ptr<const Program> program;
        QString traceHash; // answers are remembered under it
        std::vector<Bytes> budgets; // one per grid column
        bool checkpointing = false;
        bool optimal = false;
        double timeLimitSeconds = 2;
    };

    explicit ScheduleController(QObject *parent = nullptr);

    // Starts a job (cancelling the one running); returns its id.
    int start(Request request);
    void cancel();
    bool running() const { return m_jobs.running(); }
    int currentJob() const { return m_jobs.current(); }

signals:
    void checkpointAnswered(int job, std::size_t column, const rematlens::CheckpointAnswer &answer);
    void optimalAnswered(int job, std::size_t column, const rematlens::OptimalAnswer &answer);
    void progress(int job, std::size_t done, std::size_t total);
    void finished(int job, bool cancelled, double seconds);

private:
    struct Job;
    void work(const std::shared_ptr<Job> &job);
    std::shared_ptr<const BudgetSchedules> schedulesFor(const Job &job);
    void deliver(const std::shared_ptr<Job> &job, std::size_t column, std::optional<CheckpointAnswer> checkpoint,
                 std::optional<OptimalAnswer> optimal);
    void jobFinished(const std::shared_ptr<Job> &job);

    // The answers known per trace hash: read from the disk cache at the trace's first job.
    ScheduleCache::Answers &knownFor(const QString &traceHash);

    std::mutex m_mutex; // guards m_known, m_cache and m_schedules, which the workers use
    std::map<QString, ScheduleCache::Answers> m_known;
    ScheduleCache m_cache;
    std::shared_ptr<const Program> m_scheduledProgram;
    std::shared_ptr<const BudgetSchedules> m_schedules; // of m_scheduledProgram
    ControllerJobs m_jobs{this}; // last: its destructor waits for the workers (a solve ends at its time limit)
};

} // namespace rematlens
