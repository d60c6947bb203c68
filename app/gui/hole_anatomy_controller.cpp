#include "hole_anatomy_controller.h"

#include "core/analysis/inspected_run.h"
#include "core/map/budget_walker.h"
#include "core/sweep/sweep_runner.h"

#include <optional>

namespace rematlens {

struct HoleAnatomyController::Job : ControllerJob {
    HoleAnatomyRequest request;
    std::shared_ptr<HoleAnatomyAnswer> answer = std::make_shared<HoleAnatomyAnswer>();
    std::atomic<int> rescueSearch{0};          // which rescue search reports (0: the lower edge's)
    std::atomic<std::size_t> lastRescueDone{0}; // written by the search's workers
    // The current search's rescues so far (written by its callbacks, one call at a time).
    std::size_t rescueTotal = 0;
    std::size_t rescuesFound = 0;
    std::optional<Rescue> bestRescue; // the cheapest so far
};

HoleAnatomyController::HoleAnatomyController(QObject *parent) : QObject(parent) {}

QString HoleAnatomyController::problemOf(const RunRequest &request)
{
    const std::string problem = mapProblem(request.config);
    if (problem.empty())
        return {};
    return tr("This row's holes cannot be explained: %1.").arg(QString::fromStdString(problem));
}

std::shared_ptr<const HoleAnatomyAnswer> HoleAnatomyController::known(const HoleKey &key, bool rescue) const
{
    const auto found = m_known.find(key);
    if (found == m_known.end() || (rescue && !found->second->rescued && found->second->anatomy))
        return nullptr;
    return found->second;
}

int HoleAnatomyController::explain(HoleAnatomyRequest request)
{
    auto job = std::make_shared<Job>();
    job->id = m_jobs.beginJob();
    job->answer->key = request.key;
    job->answer->rescued = request.rescue;
    job->request = std::move(request);
    m_jobs.launch(job, [this, job] { work(job); }, [this, job] { jobFinished(job); });
    return job->id;
}

void HoleAnatomyController::cancel()
{
    m_jobs.cancel();
}

void HoleAnatomyController::forget()
{
    m_jobs.cancel();
    m_known.clear();
}

// On a worker thread: the hole's edges (walked unless a map gave them), then both stories.
void HoleAnatomyController::work(const std::shared_ptr<Job> &job)
{
    const HoleAnatomyRequest &r = job->request;
    const SweepRunner runner(r.program, r.threads);
    const HoleAnatomist anatomist(runner, r.baseline, r.request);
    Bytes first = r.key.firstFail;
    Bytes last = r.key.lastFail;
    std::size_t walked = 0;
    if (!r.exactBounds) {
        report(job, tr("Finding the hole's edges, byte by byte"), 0, 0);
        const HoleAnatomist::Located located = anatomist.locate(r.key.firstFail, &job->cancel);
        if (!located.hole) {
            job->answer->problem = QString::fromStdString(located.problem);
            return;
        }
        std::tie(first, last) = *located.hole;
        walked = located.replays;
    }
    report(job, tr("Replaying both edges with a recorder"), 0, 0);
    AnatomyOptions options;
    options.rescue = r.rescue;
    options.cancel = &job->cancel;
    options.rescueProgress = [this, job](std::size_t done, std::size_t total) {
        if (job->lastRescueDone.exchange(done) > done) {
            ++job->rescueSearch; // the next edge's search began
            job->rescuesFound = 0;
            job->bestRescue.reset();
        }
        job->rescueTotal = total;
        reportRescues(job);
    };
    options.rescueTried = [this, job](TensorId, const RunResult &, const Rescue *rescue) {
        if (!rescue)
            return;
        ++job->rescuesFound;
        if (!job->bestRescue || rescue->result.clock < job->bestRescue->result.clock)
            job->bestRescue = *rescue;
        reportRescues(job);
    };
    HoleAnatomy anatomy = anatomist.explain(first, last, std::nullopt, options);
    anatomy.walkReplays = walked;
    if (job->cancel)
        return;
    report(job, tr("Recording the lower edge's runs for the figure"), 0, 0);
    const auto plotAt = [&](Bytes budget) {
        return std::make_shared<const TimelinePlot>(
            TimelinePlot::build(r.program, inspectRun(*r.program, anatomist.at(budget)), nullptr, TimelineAxis::Step));
    };
    const EdgeStory &lower = anatomy.lower;
    job->answer->passingPlot = plotAt(lower.failingIsSmaller ? lower.largerBudget : lower.smallerBudget);
    job->answer->failingPlot = plotAt(lower.failingBudget());
    job->answer->anatomy = std::move(anatomy);
}

// The rescue search's progress, with the rescues found so far and the cheapest of them.
void HoleAnatomyController::reportRescues(const std::shared_ptr<Job> &job)
{
    QString text = job->rescueSearch == 0 ? tr("Rescue search of the lower edge") : tr("Rescue search of the upper edge");
    if (job->bestRescue) {
        const Rescue &best = *job->bestRescue;
        const QString found = job->rescuesFound == 1 ? tr("1 rescue") : tr("%1 rescues").arg(job->rescuesFound);
        text += tr(": %1 so far, the cheapest keeps %2 (%3x)")
                    .arg(found, QString::fromStdString(job->request.program->tensors[best.tensor].name))
                    .arg(best.overhead, 0, 'f', 4);
    }
    report(job, text, qint64(job->lastRescueDone.load()), qint64(job->rescueTotal));
}

void HoleAnatomyController::report(const std::shared_ptr<Job> &job, const QString &text, qint64 done, qint64 total)
{
    QMetaObject::invokeMethod(
        this,
        [this, job, text, done, total] {
            if (job->id == m_jobs.current() && !job->cancel)
                emit progress(job->id, text, done, total);
        },
        Qt::QueuedConnection);
}

// The current job's end, on the GUI thread: a cancelled job's partial anatomy is never shown.
void HoleAnatomyController::jobFinished(const std::shared_ptr<Job> &job)
{
    const bool cancelled = job->cancel.load();
    job->answer->seconds = job->seconds();
    if (!cancelled) {
        m_known[job->answer->key] = job->answer;
        emit answered(job->id, job->answer);
    }
    emit finished(job->id, cancelled, job->seconds());
}

} // namespace rematlens
