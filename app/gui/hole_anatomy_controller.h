#pragma once

#include "controller_jobs.h"
#include "hole_key.h"

#include "core/analysis/hole_anatomy.h"
#include "core/sim/baseline.h"
#include "core/trace/program.h"
#include "views/timeline/timeline_plot.h"

#include <QObject>
#include <QString>

#include <map>
#include <memory>
#include <optional>

namespace rematlens {

// What explaining one hole takes.
struct HoleAnatomyRequest {
    HoleKey key;
    std::shared_ptr<const Program> program;
    Baseline baseline;
    RunRequest request;  // the row's configuration (its budget is set per replay)
    bool exactBounds = false; // key's budgets are the hole's bytes; else the hole holding key.firstFail is walked to
    bool rescue = true;  // the rescue search at each edge's failing budget
    int threads = 0;     // 0: every core
};

struct HoleAnatomyAnswer {
    HoleKey key;
    std::optional<HoleAnatomy> anatomy;
    QString problem; // why there is none (no pass bounds the budget, say)
    bool rescued = false; // the rescue searches ran
    // The lower edge's two runs, recorded, for the anatomy figure.
    std::shared_ptr<const TimelinePlot> passingPlot;
    std::shared_ptr<const TimelinePlot> failingPlot;
    double seconds = 0;
};

// Explains holes off the GUI thread, as `rematlens explain` does (HoleAnatomist): one job at a
// time, the newest request wins (a new one cancels the running one, whose result is dropped),
// Cancel stops it between replays. Answers are remembered per hole, so asking again is instant.
class HoleAnatomyController : public QObject {
    Q_OBJECT

public:
    explicit HoleAnatomyController(QObject *parent = nullptr);

    // Why this row's holes cannot be explained, in one sentence; empty when they can.
    static QString problemOf(const RunRequest &request);

    // The answer known for this hole, if any (with the rescue searches when asked).
    std::shared_ptr<const HoleAnatomyAnswer> known(const HoleKey &key, bool rescue = false) const;
    // Starts a job (cancelling the one running); returns its id.
    int explain(HoleAnatomyRequest request);
    void cancel();
    // A new trace: nothing known of the last one may show.
    void forget();
    bool running() const { return m_jobs.running(); }
    int currentJob() const { return m_jobs.current(); }

signals:
    // What the job does now ("Finding the hole's edges", "Rescue search of the upper edge"), and
    // how far it is when that is known (total 0: not known).
    void progress(int job, const QString &text, qint64 done, qint64 total);
    void answered(int job, std::shared_ptr<const rematlens::HoleAnatomyAnswer> answer);
    void finished(int job, bool cancelled, double seconds);

private:
    struct Job;
    void work(const std::shared_ptr<Job> &job);
    void report(const std::shared_ptr<Job> &job, const QString &text, qint64 done, qint64 total);
    void reportRescues(const std::shared_ptr<Job> &job);
    void jobFinished(const std::shared_ptr<Job> &job);

    std::map<HoleKey, std::shared_ptr<const HoleAnatomyAnswer>> m_known; // GUI thread only
    ControllerJobs m_jobs{this}; // last: its destructor waits for the workers
};

} // namespace rematlens
