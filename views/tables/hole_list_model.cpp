#include "views/tables/hole_list_model.h"

#include "views/tables/sweep_result_model.h"

#include "views/common/byte_units.h"
#include "views/common/number_format.h"
#include "views/tables/exact_map_model.h"

#include <algorithm>

namespace rematlens {

HoleListModel::HoleListModel(QObject *parent) : QAbstractTableModel(parent)
{
}

// A policy's holes in budget order: the grid's, except inside its exact map, whose holes
// stand there instead.
std::vector<HoleListModel::Entry> HoleListModel::entriesOf(const SweepResultModel &sweep, std::size_t policy,
                                                           const HoleReport &report, const ExactMapModel *maps) const
{
    const MappedRow *mapped = maps && sweep.gridSize() > 0 ? maps->row(sweep.request(policy, 0)) : nullptr;
    std::vector<std::pair<Bytes, Entry>> sorted;
    for (const Hole &hole : report.holes) {
        const Bytes first = sweep.request(policy, hole.firstFail).config.budget;
        const Bytes last = sweep.request(policy, hole.lastFail).config.budget;
        if (!(mapped && mapped->covers(first) && mapped->covers(last)))
            sorted.push_back({first, Entry{policy, hole, std::nullopt}});
    }
    if (mapped)
        for (const MapHole &hole : mapped->summary.holes)
            sorted.push_back({hole.firstFail, Entry{policy, Hole{}, hole}});
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<Entry> entries;
    for (auto &[budget, entry] : sorted)
        entries.push_back(std::move(entry));
    return entries;
}

void HoleListModel::rebuild(const SweepResultModel &sweep, const ExactMapModel *maps)
{
    m_memory = static_cast<double>(sweep.baseline().memory);
    std::vector<HoleReport> reports;
    std::vector<Entry> entries;
    for (std::size_t p = 0; p < sweep.policyCount(); ++p) {
        std::vector<BudgetOutcome> outcomes;
        for (std::size_t i = 0; i < sweep.gridSize(); ++i) {
            const std::optional<RunResult> &r = sweep.result(p, i);
            outcomes.push_back(
                {sweep.request(p, i).ratio, sweep.request(p, i).config.budget, r ? r->outcome : Outcome::Cancelled});
        }
        reports.push_back(findHoles(outcomes));
        for (Entry &entry : entriesOf(sweep, p, reports.back(), maps))
            entries.push_back(std::move(entry));
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
    if (e.exact)
        return exactData(e, index.column(), role);
    if (role == Qt::ToolTipRole)
        return tr("%1 fails from %2 to %3 but passes at %4 and at %5")
            .arg(m_policyNames[e.policy], ratioText(e.hole.firstFail), ratioText(e.hole.lastFail),
                 ratioText(e.hole.lastPassBelow), ratioText(e.hole.firstPassAbove));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case PolicyColumn:
        return m_policyNames[e.policy];
    case FirstFailColumn:
        return ratioText(e.hole.firstFail);
    case LastFailColumn:
        return ratioText(e.hole.lastFail);
    case WidthColumn:
        return static_cast<int>(e.hole.lastFail - e.hole.firstFail + 1);
    case PassBelowColumn:
        return ratioText(e.hole.lastPassBelow);
    case PassAboveColumn:
        return ratioText(e.hole.firstPassAbove);
    default:
        return {};
    }
}

// A hole of an exact map: every budget from first_fail_byte to last_fail_byte fails, and the
// bytes right below and right above pass.
QVariant HoleListModel::exactData(const Entry &e, int column, int role) const
{
    const MapHole &hole = *e.exact;
    const QLocale c = numberLocale();
    const auto ratio = [&](Bytes b) {
        return m_memory > 0 ? QString::number(static_cast<double>(b) / m_memory, 'f', 10) : QStringLiteral("?");
    };
    if (role == Qt::ToolTipRole)
        return tr("%1 fails at every budget from %2 B to %3 B (ratios %4 to %5) but passes at %6 B and at %7 B "
                  "(exact map)")
            .arg(m_policyNames[e.policy], c.toString(hole.firstFail), c.toString(hole.lastFail), ratio(hole.firstFail),
                 ratio(hole.lastFail), c.toString(hole.firstFail - 1), c.toString(hole.lastFail + 1));
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case PolicyColumn:
        return m_policyNames[e.policy];
    case FirstFailColumn:
        return ByteUnits::exact(hole.firstFail);
    case LastFailColumn:
        return ByteUnits::exact(hole.lastFail);
    case WidthColumn:
        return ByteUnits::exact(hole.lastFail - hole.firstFail + 1);
    case PassBelowColumn:
        return ByteUnits::exact(hole.firstFail - 1);
    case PassAboveColumn:
        return ByteUnits::exact(hole.lastFail + 1);
    default:
        return {};
    }
}

QVariant HoleListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case PolicyColumn:
            return tr("The policy (strip row) the hole is in");
        case FirstFailColumn:
            return tr("The lowest failing budget of the hole, as a fraction of the baseline (in bytes, exact, for a "
                      "mapped row)");
        case LastFailColumn:
            return tr("The highest failing budget of the hole");
        case WidthColumn:
            return tr("How many grid budgets fail in the hole (its width in bytes for a mapped row)");
        case PassBelowColumn:
            return tr("The passing budget just below the hole");
        case PassAboveColumn:
            return tr("The passing budget just above the hole");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    // Short: the table sits in a narrow column beside the strip.
    switch (section) {
    case PolicyColumn:
        return tr("Policy");
    case FirstFailColumn:
        return tr("From");
    case LastFailColumn:
        return tr("To");
    case WidthColumn:
        return tr("Runs");
    case PassBelowColumn:
        return tr("Pass ↓");
    case PassAboveColumn:
        return tr("Pass ↑");
    default:
        return {};
    }
}

} // namespace rematlens
