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
    : QObject(parent), m_sweep(sweep), m_maps(maps), m_status(status)
{
    connect(&m_controller, &MapController::intervalsArrived, this, &MapCoordinator::showIntervals);
    connect(&m_controller, &MapController::progress, this, [this](int job, qint64 mapped, qint64 total) {
        if (job != m_controller.currentJob())
            return;
        const double percent = total > 0 ? 100.0 * static_cast<double>(mapped) / static_cast<double>(total) : 100.0;
        m_status.showProgress(mapped, total, tr("%1 % of budgets mapped").arg(percent, 0, 'f', 1));
    });
    connect(&m_controller, &MapController::finished, this, &MapCoordinator::showFinished);
    connect(&m_atlas, &AtlasLoader::loaded, this, &MapCoordinator::showAtlas);
}

void MapCoordinator::setTrace(std::shared_ptr<const Program> program, const Baseline &baseline,
                              const QString &traceHash)
{
    m_controller.cancel();
    m_deferred.reset();
    m_program = std::move(program);
    m_baseline = baseline;
    m_traceHash = traceHash;
    m_maps.setTrace(traceHash);
    if (m_cache.open(traceHash) && m_maps.empty())
        m_cache.loadInto(m_maps); // maps made in earlier sessions
    m_atlas.load(traceHash);
}

// The atlas's maps join the rows' maps like the intervals of a walk; budgets of their range that
// no interval covers (a map stopped before it was complete) stay unmapped.
void MapCoordinator::showAtlas(const AtlasLoader::Scan &scan)
{
    if (scan.traceHash != m_traceHash)
        return; // another trace opened since
    QStringList lines;
    for (const BundledMap &map : scan.maps)
        for (const BundledMap::Row &row : map.rows) {
            m_maps.add(QString::fromStdString(row.identity.key()), map.range, row.intervals);
            lines << describeAtlasRow(map, row);
        }
    for (const QString &problem : scan.problems) {
        std::cerr << "rematlens: atlas map ignored: " << problem.toStdString() << std::endl;
        lines << tr("Atlas map ignored, unreadable: %1").arg(problem);
    }
    if (!scan.maps.empty())
        emit intervalsChanged();
    if (!lines.isEmpty())
        emit message(lines.join(QStringLiteral("; ")));
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
        m_status.setText(problem);
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

QString MapCoordinator::describeAtlasRow(const BundledMap &map, const BundledMap::Row &row) const
{
    std::vector<BudgetInterval> known;
    for (const RunResult &r : row.intervals)
        known.push_back(r.interval);
    Bytes unmapped = 0;
    for (const ByteRange &gap : uncoveredRanges(map.range, known))
        unmapped += gap.size();
    const auto ratio = [this](Bytes budget) {
        return m_baseline.memory > 0 ? QString::number(double(budget) / double(m_baseline.memory), 'f', 2)
                                     : numberLocale().toString(budget);
    };
    const QLocale c = numberLocale();
    const QString span = ratio(map.range.from) + QStringLiteral("–") + ratio(map.range.end - 1);
    const QString source = QFileInfo(QString::fromStdString(map.path)).fileName();
    const QString policy = QString::fromStdString(row.identity.policy);
    if (unmapped == 0)
        return tr("%1: complete map from the atlas: %2 intervals, %3 (%4)")
            .arg(policy, c.toString(qulonglong(row.intervals.size())), span, source);
    return tr("%1: map from the atlas with gaps: %2 intervals, %3, %4 B unmapped (%5)")
        .arg(policy, c.toString(qulonglong(row.intervals.size())), span, c.toString(unmapped), source);
}

// Why the window cannot map a row, in the window's words.
static QString unmappable(const RunConfig &config)
{
    if (!config.allocator.isSum())
        return QObject::tr("an allocator model places blocks in ways that depend on the budget beyond what one "
                           "replay's interval captures; its row keeps the sweep's cells");
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
    if (m_atlas.loading()) { // what the atlas knows is not walked again
        m_deferred = DeferredStart{columns, threads};
        m_status.setText(tr("Reading this trace's maps from the atlas first; mapping starts when they are read…"));
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
    for (std::size_t p = 0; p < m_sweep.policyCount(); ++p) {
        const RunRequest &request = m_sweep.request(p, 0);
        if (const QString why = unmappable(request.config); !why.isEmpty()) {
            skipped << tr("%1: %2").arg(m_sweep.policyName(p), why);
            continue;
        }
        MapJobRow row{ExactMapModel::keyOf(request), request.config, {}};
        if (const MappedRow *known = m_maps.row(row.key))
            for (const RunResult &r : known->intervals)
                row.known.push_back(r.interval);
        rows.push_back(std::move(row));
    }
    if (rows.empty())
        return tr("No row of the strip can be mapped exactly:\n%1").arg(skipped.join(QLatin1Char('\n')));
    m_keys.clear();
    for (const MapJobRow &row : rows)
        m_keys.push_back(row.key);
    m_range = range;
    for (const QString &key : m_keys)
        m_cache.storeRange(key, range);
    m_controller.start(m_program, std::move(rows), range, threads);
    const QLocale c = numberLocale();
    m_status.setText(tr("Mapping %1 to %2 B exactly for %3…")
                         .arg(c.toString(range.from), c.toString(range.end - 1),
                              countOf(qint64(m_keys.size()), tr("row"), tr("rows"))));
    emit runningChanged();
    return {};
}

void MapCoordinator::showIntervals(int job, const QString &key, ByteRange range, const std::vector<RunResult> &intervals)
{
    if (job != m_controller.currentJob())
        return;
    m_maps.add(key, range, intervals);
    m_cache.storeIntervals(key, intervals, m_baseline);
    emit intervalsChanged();
}

// Every row of the job gets its range, so budgets never reached show as unmapped.
void MapCoordinator::showFinished(int job, bool cancelled, double seconds, std::size_t replays)
{
    if (job != m_controller.currentJob())
        return;
    m_lastReplays = replays;
    std::size_t intervals = 0;
    Bytes unmapped = 0;
    std::size_t holes = 0;
    for (const QString &key : m_keys) {
        m_maps.add(key, m_range, {});
        const MappedRow *row = m_maps.row(key);
        intervals += row->summary.intervals;
        holes += row->summary.holes.size();
        for (const ByteRange &gap : row->summary.unmapped)
            unmapped += gap.size();
    }
    emit intervalsChanged();
    const QLocale c = numberLocale();
    const QString holeCount = countOf(qint64(holes), tr("hole"), tr("holes"));
    m_status.setText(cancelled ? tr("Map cancelled: %1 intervals kept, %2 B unmapped (hatched); %3 between mapped "
                                    "budgets")
                                     .arg(c.toString(static_cast<qulonglong>(intervals)), c.toString(unmapped), holeCount)
                               : tr("Mapped exactly: %1 intervals, %2 replays in %3 s; %4")
                                     .arg(c.toString(static_cast<qulonglong>(intervals)))
                                     .arg(replays)
                                     .arg(seconds, 0, 'f', 2)
                                     .arg(holeCount));
    emit runningChanged();
    emit finished(cancelled);
}

} // namespace rematlens
