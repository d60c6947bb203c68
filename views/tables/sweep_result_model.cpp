#include "views/tables/sweep_result_model.h"

#include "views/strip/outcome_palette.h"

#include "views/common/number_format.h"

#include <QLocale>

#include <algorithm>

namespace rematlens {

SweepResultModel::SweepResultModel(QObject *parent) : QAbstractTableModel(parent) {}

void SweepResultModel::reset(const Baseline &baseline, std::vector<GridPoint> grid, std::vector<RunRequest> requests,
                             std::size_t policyCount, double overheadLimit, std::string traceHash)
{
    beginResetModel();
    m_traceHash = std::move(traceHash);
    m_baseline = baseline;
    m_grid = std::move(grid);
    m_requests = std::move(requests);
    m_results.assign(m_requests.size(), std::nullopt);
    m_policyCount = policyCount;
    m_finished = 0;
    m_overheadLimit = overheadLimit;
    m_rowsByModel = std::any_of(m_requests.begin(), m_requests.end(), [this](const RunRequest &r) {
        return !(r.config.allocator == m_requests.front().config.allocator);
    });
    m_rowIdentities.clear();
    for (std::size_t p = 0; p < m_policyCount && !m_grid.empty(); ++p)
        m_rowIdentities.push_back(rowIdentityOf(m_traceHash, m_requests[p * m_grid.size()]));
    endResetModel();
}

void SweepResultModel::clear()
{
    reset(Baseline{}, {}, {}, 0, 2.0);
}

void SweepResultModel::addResults(const std::vector<IndexedResult> &results)
{
    if (results.empty())
        return;
    std::size_t first = m_results.size();
    std::size_t last = 0;
    for (const IndexedResult &r : results) {
        if (r.index >= m_results.size())
            continue;
        if (!m_results[r.index])
            ++m_finished;
        m_results[r.index] = r.result;
        first = std::min(first, r.index);
        last = std::max(last, r.index);
    }
    if (first <= last)
        emit dataChanged(index(static_cast<int>(first), 0), index(static_cast<int>(last), ColumnCount - 1));
}

QString SweepResultModel::policyName(std::size_t policy) const
{
    if (policy >= m_policyCount || m_grid.empty())
        return {};
    const RunConfig &config = m_requests[policy * m_grid.size()].config;
    QString name = QString::fromStdString(config.policy.name);
    if (config.seed != 0)
        name += QStringLiteral(" \u00b7 seed %1").arg(config.seed);
    if (m_rowsByModel)
        name += QStringLiteral(" \u00b7 ") + QString::fromUtf8(allocatorKindName(config.allocator.kind).data());
    return name;
}

RunIdentity SweepResultModel::identity(std::size_t policy, std::size_t column) const
{
    return RunIdentity{m_rowIdentities[policy], request(policy, column).config.budget};
}

SelectedRun SweepResultModel::runAt(std::size_t policy, std::size_t column) const
{
    return SelectedRun{identity(policy, column), request(policy, column), std::nullopt};
}

SelectedRun SweepResultModel::intervalRun(std::size_t policy, const BudgetInterval &interval) const
{
    RunRequest run = request(policy, 0);
    run.config.budget = interval.lo;
    run.ratio = m_baseline.memory > 0 ? static_cast<double>(interval.lo) / static_cast<double>(m_baseline.memory) : 0;
    return SelectedRun{RunIdentity{m_rowIdentities[policy], interval.lo}, std::move(run), interval};
}

std::optional<std::size_t> SweepResultModel::rowOf(const RowIdentity &row) const
{
    for (std::size_t p = 0; p < m_rowIdentities.size(); ++p)
        if (m_rowIdentities[p] == row)
            return p;
    return std::nullopt;
}

// Grid budgets increase along a row.
std::optional<std::size_t> SweepResultModel::columnOf(std::size_t policy, Bytes budget) const
{
    if (policy >= m_policyCount || m_grid.empty())
        return std::nullopt;
    const auto first = m_requests.begin() + static_cast<std::ptrdiff_t>(policy * m_grid.size());
    const auto last = first + static_cast<std::ptrdiff_t>(m_grid.size());
    const auto found = std::lower_bound(first, last, budget,
                                        [](const RunRequest &r, Bytes b) { return r.config.budget < b; });
    if (found == last || found->config.budget != budget)
        return std::nullopt;
    return static_cast<std::size_t>(found - first);
}

const RunRequest &SweepResultModel::request(std::size_t policy, std::size_t column) const
{
    return m_requests[policy * m_grid.size() + column];
}

const std::optional<RunResult> &SweepResultModel::result(std::size_t policy, std::size_t column) const
{
    return m_results[policy * m_grid.size() + column];
}

int SweepResultModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_requests.size());
}

int SweepResultModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SweepResultModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const RunRequest &request = m_requests[row];
    const std::optional<RunResult> &result = m_results[row];
    if (role == Qt::BackgroundRole && index.column() == ResultColumn)
        return result ? OutcomePalette::outcome(result->outcome) : OutcomePalette::notRun();
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const QLocale c = numberLocale();
    switch (index.column()) {
    case PolicyColumn: return QString::fromStdString(request.config.policy.name);
    case RatioColumn: return QString::fromStdString(m_grid[row % m_grid.size()].text);
    case BudgetColumn: return c.toString(request.config.budget);
    default: break;
    }
    if (!result)
        return index.column() == ResultColumn ? OutcomePalette::outcomeLabel(Outcome::Cancelled) : QVariant();
    switch (index.column()) {
    case ResultColumn: return OutcomePalette::outcomeLabel(result->outcome);
    case OverheadColumn:
        return m_baseline.compute > 0 ? QVariant(static_cast<double>(result->clock) / static_cast<double>(m_baseline.compute))
                                      : QVariant();
    case ClockColumn: return c.toString(result->clock);
    case PeakColumn: return c.toString(result->maxMemory);
    case EvictionsColumn: return QVariant::fromValue(result->evictions + result->releasedEvictions);
    case RematsColumn: return QVariant::fromValue(result->remats);
    default: return {};
    }
}

QVariant SweepResultModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PolicyColumn: return tr("Policy");
    case RatioColumn: return tr("Ratio");
    case BudgetColumn: return tr("Budget (B)");
    case ResultColumn: return tr("Result");
    case OverheadColumn: return tr("Overhead");
    case ClockColumn: return tr("Clock");
    case PeakColumn: return tr("Peak memory (B)");
    case EvictionsColumn: return tr("Evictions");
    case RematsColumn: return tr("Remats");
    default: return {};
    }
}

} // namespace rematlens
