#include "sweep_coordinator.h"

#include "app_settings.h"
#include "job_status_bar.h"
#include "seeded_policy.h"

#include "app/requests/grid_options.h"
#include "app/requests/run_options.h"
#include "core/sweep/sweep_plan.h"
#include "views/common/number_format.h"
#include "views/sweep/sweep_panel.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/sweep_result_model.h"

namespace rematlens {

namespace {

// The step ten times finer, as an exact decimal: "0.01" -> "0.001", "1" -> "0.1".
QString finerStep(const QString &step)
{
    const int point = step.indexOf(QLatin1Char('.'));
    if (point < 0)
        return QStringLiteral("0.") + QString(step.size() - 1, QLatin1Char('0')) + step;
    return step.left(point + 1) + QLatin1Char('0') + step.mid(point + 1);
}

// A seed named for a policy that draws nothing is a mistake worth saying.
QString seedProblem(const std::vector<SeededPolicy> &rows, const std::vector<Policy> &policies)
{
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].seeded && policies[i].cost != CostTerm::Random)
            return QObject::tr("%1 takes no seed: only the random policies (RandomStorage, AbRandom) draw").arg(rows[i].spec);
    return {};
}

// Requests are policy-major, each policy's rows (one per allocator model) of the same length.
void seedRows(const std::vector<SeededPolicy> &rows, std::vector<RunRequest> &requests)
{
    const std::size_t perPolicy = rows.empty() ? 0 : requests.size() / rows.size();
    for (std::size_t i = 0; i < requests.size(); ++i)
        requests[i].config.seed = rows[i / perPolicy].seed;
}

} // namespace

SweepCoordinator::SweepCoordinator(Parts parts, QObject *parent) : QObject(parent), m_parts(parts)
{
    connect(&m_controller, &SweepController::resultsArrived, this, &SweepCoordinator::showResults);
    connect(&m_controller, &SweepController::progress, this, [this](int job, std::size_t done, std::size_t total) {
        if (job == m_controller.currentJob())
            m_parts.status->showProgress(qint64(done), qint64(total), tr("%v of %m runs"));
    });
    connect(&m_controller, &SweepController::finished, this, &SweepCoordinator::showFinished);
}

void SweepCoordinator::setTrace(std::shared_ptr<const Program> program, const Baseline &baseline,
                                const QString &traceName, const QString &traceHash)
{
    m_controller.cancel();
    m_program = std::move(program);
    m_baseline = baseline;
    m_traceName = traceName;
    m_traceHash = traceHash;
    m_cache.open(traceHash);
    m_requests.clear();
    m_jobIndices.clear();
    m_parts.selection->clear();
    m_parts.results->clear();
}

// The panel's models (a row each per policy) with its eviction coupling; the capacity and the
// caching options come from the command line, where they apply.
AllocatorOptions SweepCoordinator::allocatorOptionsFor(const SweepParameters &p) const
{
    AllocatorOptions options = m_allocatorOptions;
    options.models.clear();
    for (const QString &model : p.allocators)
        options.models.push_back(model.toStdString());
    if (options.models.empty())
        options.models.push_back("sum");
    options.allocator = options.models.front();
    const bool onlySum = options.models.size() == 1 && options.allocator == "sum";
    options.eviction = onlySum ? std::string() : p.eviction.toStdString();
    if (!p.allocators.contains(QStringLiteral("caching")))
        options.options.clear();
    if (options.eviction != "after-op")
        options.capacity.reset();
    return options;
}

void SweepCoordinator::chooseAllocatorModels(const AllocatorOptions &options)
{
    setAllocatorOptions(options);
    if (options.models.empty() && options.isSum() && options.eviction.empty())
        return;
    SweepParameters p = m_parts.panel->parameters();
    if (!options.models.empty() || !options.isSum()) {
        p.allocators.clear();
        for (const std::string &model : options.models)
            p.allocators << QString::fromStdString(model);
        if (p.allocators.isEmpty())
            p.allocators << QString::fromStdString(options.allocator);
    }
    if (!options.eviction.empty())
        p.eviction = QString::fromStdString(options.eviction);
    m_parts.panel->setParameters(p);
}

// The rows and their runs, with the results already known; the reason when the parameters
// do not make a sweep.
QString SweepCoordinator::plan(const SweepParameters &p)
{
    if (p.policies.isEmpty())
        return tr("Check at least one policy.");
    if (bool ok = false; p.optimal && !(p.timeLimit.toDouble(&ok) > 0 && ok))
        return tr("Time limit: expected a positive number of seconds for the optimal row, not \"%1\".").arg(p.timeLimit);
    GridOptions options;
    std::vector<SeededPolicy> rows;
    for (const QString &policy : p.policies) {
        QString error;
        const std::optional<SeededPolicy> row = SeededPolicy::parse(policy, error);
        if (!row)
            return error;
        rows.push_back(*row);
        options.policies.push_back(row->spec.toStdString());
    }
    options.runtime = p.runtime.toStdString();
    options.from = p.from.toStdString();
    options.to = p.to.toStdString();
    options.step = p.step.toStdString();
    options.overheadLimit = p.overheadLimit.toStdString();
    SweepSettings settings;
    std::vector<GridPoint> grid;
    std::vector<AllocatorConfig> models; // the grid's settings leave them out: a row each
    std::string problem = prepareGrid(options, settings, grid);
    if (problem.empty())
        problem = resolveAllocatorRows(allocatorOptionsFor(p), models);
    if (!problem.empty())
        return QString::fromStdString(problem);
    if (const QString seedError = seedProblem(rows, settings.policies); !seedError.isEmpty())
        return seedError;
    settings.trace = m_traceName.toStdString();
    m_requests = planSweepRows(settings, m_baseline, grid, models);
    seedRows(rows, m_requests);
    m_parts.results->reset(m_baseline, grid, m_requests, settings.policies.size() * models.size(),
                           settings.overheadLimit, m_traceHash.toStdString());
    return {};
}

QString SweepCoordinator::start()
{
    if (!m_program)
        return tr("Open a trace first.");
    const SweepParameters p = m_parts.panel->parameters();
    const std::optional<SelectedRun> previous = m_parts.selection->current();
    if (const QString problem = plan(p); !problem.isEmpty())
        return problem;
    m_parts.settings->setSweepParameters(p);
    m_lastStep = p.step;
    // What earlier sessions ran shows at once; only the rest is replayed.
    const std::vector<IndexedResult> cached = m_cache.known(m_requests);
    m_parts.results->addResults(cached);
    std::vector<bool> done(m_requests.size(), false);
    for (const IndexedResult &r : cached)
        done[r.index] = true;
    m_jobIndices.clear();
    std::vector<RunRequest> todo;
    for (std::size_t i = 0; i < m_requests.size(); ++i)
        if (!done[i]) {
            m_jobIndices.push_back(i);
            todo.push_back(m_requests[i]);
        }
    keepSelection(previous);
    emit started();
    m_controller.start(m_program, std::move(todo), p.threads);
    m_parts.status->setText(tr("Sweeping %1 (%2 already known)…")
                                .arg(countOf(qint64(m_jobIndices.size()), tr("run"), tr("runs")))
                                .arg(cached.size()));
    emit runningChanged();
    return {};
}

// The selected run stays when a row of the new strip is its configuration; else the same
// policy's row at the same budget (the allocator rows or the overhead limit changed); else
// nothing is selected.
void SweepCoordinator::keepSelection(const std::optional<SelectedRun> &previous)
{
    if (!previous)
        return;
    const SweepResultModel &results = *m_parts.results;
    if (const auto row = results.rowOf(previous->identity.row)) {
        if (previous->interval || results.columnOf(*row, previous->identity.budget))
            return; // the selection names a run of the new strip as it is
    }
    std::optional<std::size_t> best;
    int bestScore = -1;
    for (std::size_t row = 0; row < results.policyCount(); ++row) {
        const RowIdentity &candidate = results.rowIdentity(row);
        if (candidate.policy != previous->identity.row.policy || !results.columnOf(row, previous->identity.budget))
            continue;
        const int score = int(candidate.allocator == previous->identity.row.allocator) +
                          int(candidate.runtime == previous->identity.row.runtime);
        if (score > bestScore) {
            best = row;
            bestScore = score;
        }
    }
    if (best)
        m_parts.selection->select(results.runAt(*best, *results.columnOf(*best, previous->identity.budget)));
    else
        m_parts.selection->clear();
}

void SweepCoordinator::showResults(int job, const std::vector<IndexedResult> &results)
{
    if (job != m_controller.currentJob())
        return;
    std::vector<IndexedResult> placed;
    placed.reserve(results.size());
    for (const IndexedResult &r : results) {
        const std::size_t index = m_jobIndices[r.index];
        placed.push_back({index, r.result});
        m_cache.store(m_requests[index], r.result, m_baseline);
    }
    m_parts.results->addResults(placed);
    emit resultsChanged();
}

void SweepCoordinator::showFinished(int job, bool cancelled, double seconds)
{
    if (job != m_controller.currentJob())
        return;
    const SweepResultModel &results = *m_parts.results;
    const std::size_t replayed = m_jobIndices.size();
    const std::size_t fromCache = static_cast<std::size_t>(results.rowCount()) - replayed;
    m_parts.status->setText(cancelled ? tr("Sweep cancelled: %1 of %2 runs kept")
                                            .arg(results.finishedCount())
                                            .arg(results.rowCount())
                                      : tr("%1 replayed in %2 s, %3 already known")
                                            .arg(countOf(qint64(replayed), tr("run"), tr("runs")))
                                            .arg(seconds, 0, 'f', 2)
                                            .arg(fromCache));
    emit runningChanged();
    emit finished(cancelled);
}

QString SweepCoordinator::refine(std::size_t firstColumn, std::size_t lastColumn)
{
    const auto &grid = m_parts.results->grid();
    if (lastColumn >= grid.size() || firstColumn > lastColumn)
        return tr("Mark a range of budgets in the strip first.");
    SweepParameters p = m_parts.panel->parameters();
    p.from = QString::fromStdString(grid[firstColumn].text);
    p.to = QString::fromStdString(grid[lastColumn].text);
    p.step = finerStep(m_lastStep.isEmpty() ? p.step : m_lastStep);
    m_parts.panel->setParameters(p);
    return start();
}

} // namespace rematlens
