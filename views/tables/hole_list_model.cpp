#include "views/tables/hole_list_model.h"

#include "views/tables/sweep_result_model.h"

namespace rematlens {

HoleListModel::HoleListModel(QObject *parent) : QAbstractTableModel(parent) {}

void HoleListModel::rebuild(const SweepResultModel &sweep)
{
    std::vector<HoleReport> reports;
    std::vector<Entry> entries;
    for (std::size_t p = 0; p < sweep.policyCount(); ++p) {
        std::vector<BudgetOutcome> outcomes;
        for (std::size_t i = 0; i < sweep.gridSize(); ++i) {
            const std::optional<RunResult> &r = sweep.result(p, i);
            outcomes.push_back({sweep.request(p, i).ratio, sweep.request(p, i).config.budget,
                                r ? r->outcome : Outcome::Cancelled});
        }
        reports.push_back(findHoles(outcomes));
        for (const Hole &hole : reports.back().holes)
            entries.push_back({p, hole});
    }
    const bool sameShape = entries.size() == m_entries.size();
    if (!sameShape)
        beginResetModel();
    m_reports = std::move(reports);
    m_entries = std::move(entries);
    m_policyNames.clear();
    for (std::size_t p = 0; p < sweep.policyCount(); ++p)
        m_policyNames.push_back(sweep.policyName(p));
    m_ratios.clear();
    for (const GridPoint &g : sweep.grid())
        m_ratios.push_back(QString::fromStdString(g.text));
    if (!sameShape)
        endResetModel();
    else if (!m_entries.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

QString HoleListModel::ratioText(std::size_t column) const
{
    return column < m_ratios.size() ? m_ratios[column] : QString();
}

int HoleListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int HoleListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HoleListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Entry &e = m_entries[static_cast<std::size_t>(index.row())];
    if (role == Qt::ToolTipRole)
        return tr("%1 fails from %2 to %3 but passes at %4 and at %5%6")
            .arg(m_policyNames[e.policy], ratioText(e.hole.firstFail), ratioText(e.hole.lastFail),
                 ratioText(e.hole.lastPassBelow), ratioText(e.hole.firstPassAbove),
                 e.hole.hasUnresolved ? tr(" (some budgets inside timed out)") : QString());
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case PolicyColumn: return m_policyNames[e.policy];
    case FirstFailColumn: return ratioText(e.hole.firstFail);
    case LastFailColumn: return ratioText(e.hole.lastFail);
    case WidthColumn: return static_cast<int>(e.hole.lastFail - e.hole.firstFail + 1);
    case PassBelowColumn: return ratioText(e.hole.lastPassBelow);
    case PassAboveColumn: return ratioText(e.hole.firstPassAbove);
    default: return {};
    }
}

QVariant HoleListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PolicyColumn: return tr("Policy");
    case FirstFailColumn: return tr("First fail");
    case LastFailColumn: return tr("Last fail");
    case WidthColumn: return tr("Budgets");
    case PassBelowColumn: return tr("Pass below");
    case PassAboveColumn: return tr("Pass above");
    default: return {};
    }
}

} // namespace rematlens
