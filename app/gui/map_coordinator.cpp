#include "map_coordinator.h"

#include "job_status_bar.h"

#include "core/map/budget_walker.h"
#include "views/common/number_format.h"
#include "views/tables/exact_map_model.h"
#include "views/tables/sweep_result_model.h"

#include <QFileInfo>

#include <iostream>

namespace rematlens {

MapCoordinator::MapCoordinator(const SweepResultModel &sweep, ExactMapModel &maps, JobStatusBar &status,
                               QObject *parent)
    : QObject(parent), m_sweep(sweep), m_maps(maps), m_status(status), m_builder(maps, this)
{
    connect(&m_controller, &MapController::intervalsArrived, this, &MapCoordinator::showIntervals);
    connect(&m_controller, &MapController::progress, this, [this](int job, qint64 mapped, qint64 total) {
        if (job != m_controller.currentJob())
            return;
        const double percent = total > 0 ? 100.0 * static_cast<double>(mapped) / static_cast<double>(total) : 100.0;
        m_status.showProgress(mapped, total, tr("%1 % of budgets mapped").arg(percent, 0, 'f', 1));
    });
    connect(&m_controller, &MapController::finished, this, &MapCoordinator::showFinished);
    connect(&m_loader, &TraceMapsLoader::loaded, this, &MapCoordinator::showLoaded);
    connect(&maps, &ExactMapModel::changed, this, &MapCoordinator::intervalsChanged);
    connect(&m_builder, &MapRowBuilder::settled, this, &MapCoordinator::whenSettled);
}

void MapCoordinator::setTrace(std::shared_ptr<const Program> program, const Baseline &baseline,
                              const QString &traceHash)
{
    m_controller.cancel();
    m_deferred.reset();
    m_finishing.reset();
    m_locks.clear();
    m_builder.forget();
    m_program = std::move(program);
    m_baseline = baseline;
    m_traceHash = traceHash;
    m_maps.setTrace(traceHash);
    m_cache.open(traceHash);
    // Maps of a trace shown before in this window are in the model already, with its cache's.
    m_loader.load(traceHash, m_maps.empty());
    emit readingKnownMaps();
}

// The known maps join the rows' maps like the intervals of a walk; budgets of their range that
// no interval covers (a map stopped before it was complete) stay unmapped.
void MapCoordinator::showLoaded(std::shared_ptr<TraceMapsLoader::Scan> scan)
{
    if (scan->traceHash != m_traceHash)
        return; // another trace opened since
    if (scan->cacheBytes > 0)
        m_cache.setSeen(scan->cacheBytes);
    for (auto &[key, stored] : scan->cached) {
        ByteRange range = stored.ranges.front();
        for (const ByteRange &walked : stored.ranges)
            range = ByteRange{std::min(range.from, walked.from), std::max(range.end, walked.end)};
        m_builder.add(key, range, std::move(stored.intervals), MapProvenance{{}, true, false});
    }
    for (BundledMap &map : scan->atlas) {
        const MapProvenance fromAtlas{{QFileInfo(QString::fromStdString(map.path)).fileName()}, false, false};
        for (BundledMap::Row &row : map.rows)
            m_builder.add(QString::fromStdString(row.identity.key()), map.range, std::move(row.intervals), fromAtlas);
    }
    QStringList problems;
    for (const QString &problem : scan->problems) {
        std::cerr << "rematlens: atlas map ignored: " << problem.toStdString() << std::endl;
        problems << tr("Atlas map ignored, unreadable: %1").arg(problem);
    }
    if (!problems.isEmpty())
        emit message(problems.join(QStringLiteral("; ")));
    if (!m_builder.busy())
        whenSettled(); // nothing to build
}

// Every map asked for is built: a walk that finished meanwhile reports, a map asked for
// meanwhile starts.
void MapCoordinator::whenSettled()
{
    if (settling())
        return;
    if (m_finishing)
        reportFinished();
    emit settled();
    startDeferred();
}

void MapCoordinator::startDeferred()
{
    if (!m_deferred)
        return;
    const DeferredStart asked = *m_deferred;
    m_deferred.reset();
    QStringList skipped;
    if (const QString problem = start(asked.columns, asked.threads, skipped); !problem.isEmpty()) {
        m_status.setText(problem.simplified());
        emit runningChanged();
        emit finished(true);
        return;
    }
    if (!skipped.isEmpty())
        emit message(tr("Not mapped, kept as swept: %1").arg(skipped.join(QStringLiteral("; "))), 12000);
}

void MapCoordinator::cancel()
{
    m_controller.cancel();
    if (!m_deferred)
        return;
    m_deferred.reset();
    m_status.setText(tr("Map cancelled before it started"));
    emit runningChanged();
    emit finished(true);
}

// Why the window cannot map a row, in the window's words.
static QString unmappable(const RunConfig &config)
{
    if (config.policy.readsBudget())
        return QObject::tr("its score reads the bytes an allocation still lacks, which change with every byte of "
                           "budget");
    return mapProblem(config).empty() ? QString() : QString::fromStdString(mapProblem(config));
}

QString MapCoordinator::start(std::optional<std::pair<std::size_t, std::size_t>> columns, int threads,
                              QStringList &skipped)
{
    if (!m_program || m_sweep.gridSize() == 0 || m_sweep.policyCount() == 0)
        return tr("Sweep first: a map draws over the strip's rows, for their policies.");
    if (!settling() && m_cache.changedElsewhere()) // another window mapped this trace since: read that first
        m_loader.load(m_traceHash, true, false);
    if (settling()) { // what is known already is not walked again
        m_deferred = DeferredStart{columns, threads};
        m_status.setText(tr("Reading this trace's known maps first; mapping starts when they are shown…"));
        emit runningChanged();
        return {};
    }
    std::size_t first = 0;
    std::size_t last = m_sweep.gridSize() - 1;
    if (columns) {
        first = columns->first;
        last = std::min(columns->second, last);
    }
    const ByteRange range{m_sweep.request(0, first).config.budget, m_sweep.request(0, last).config.budget + 1};
    std::vector<MapJobRow> rows;
    std::map<QString, RunRequest> requests;
    for (std::size_t p = 0; p < m_sweep.policyCount(); ++p) {
        const RunRequest &request = m_sweep.request(p, 0);
        if (const QString why = unmappable(request.config); !why.isEmpty()) {
            skipped << tr("%1: %2").arg(m_sweep.policyName(p), why);
            continue;
        }
        MapJobRow row{ExactMapModel::keyOf(request), request.config, {}};
        std::unique_ptr<QLockFile> lock = m_cache.lockRow(row.key);
        if (!lock) {
            skipped << tr("%1: another RematLens window is mapping it now; map again once it is done to show its "
                          "intervals here")
                           .arg(m_sweep.policyName(p));
            continue;
        }
        m_locks[row.key] = std::move(lock);
        if (const MappedRow *known = m_maps.row(row.key))
            for (const RunResult &r : known->intervals)
                row.known.push_back(r.interval);
        requests.emplace(row.key, request);
        rows.push_back(std::move(row));
    }
    if (rows.empty()) {
        m_locks.clear();
        return tr("No row of the strip can be mapped exactly:\n%1").arg(skipped.join(QLatin1Char('\n')));
    }
    m_rows = std::move(requests);
    m_range = range;
    for (const auto &[key, request] : m_rows)
        m_cache.storeRange(key, range);
    m_controller.start(m_program, std::move(rows), range, threads);
    const QLocale c = numberLocale();
    m_status.setText(tr("Mapping %1 to %2 B exactly for %3…")
                         .arg(c.toString(range.from), c.toString(range.end - 1),
                              countOf(qint64(m_rows.size()), tr("row"), tr("rows"))));
    emit runningChanged();
    return {};
}

void MapCoordinator::showIntervals(int job, const QString &key, ByteRange range, const std::vector<RunResult> &intervals)
{
    if (job != m_controller.currentJob())
        return;
    if (const auto row = m_rows.find(key); row != m_rows.end())
        m_cache.storeIntervals(key, row->second, intervals, m_baseline);
    m_builder.add(key, range, intervals, MapProvenance{{}, false, true});
}

// Every row of the job gets its range, so budgets never reached show as unmapped; the report
// waits until the last intervals are built into the maps.
void MapCoordinator::showFinished(int job, bool cancelled, double seconds, std::size_t replays)
{
    if (job != m_controller.currentJob())
        return;
    m_lastReplays = replays;
    for (const auto &[key, request] : m_rows) // its range alone: a walk that found nothing new is no source
        m_builder.add(key, m_range, {}, MapProvenance{});
    m_finishing = Finishing{cancelled, seconds, replays};
    if (!m_builder.busy())
        whenSettled();
}

void MapCoordinator::reportFinished()
{
    const Finishing done = *m_finishing;
    m_finishing.reset();
    m_locks.clear(); // another window may map these rows now
    std::size_t intervals = 0;
    Bytes unmapped = 0;
    for (const auto &[key, request] : m_rows) {
        const MappedRow *row = m_maps.row(key);
        if (!row)
            continue;
        intervals += row->summary.intervals;
        for (const ByteRange &gap : row->summary.unmapped)
            unmapped += gap.size();
    }
    const QLocale c = numberLocale();
    m_status.setText(done.cancelled ? tr("Map cancelled: %1 intervals kept, %2 B unmapped (hatched)")
                                          .arg(c.toString(static_cast<qulonglong>(intervals)), c.toString(unmapped))
                                    : tr("Mapped exactly: %1 intervals, %2 replays in %3 s")
                                          .arg(c.toString(static_cast<qulonglong>(intervals)))
                                          .arg(done.replays)
                                          .arg(done.seconds, 0, 'f', 2));
    emit runningChanged();
    emit finished(done.cancelled);
}

} // namespace rematlens
