#include "views/tables/run_details_model.h"

#include "views/strip/outcome_palette.h"

#include "views/common/number_format.h"

#include <QLocale>

namespace rematlens {

RunDetailsModel::RunDetailsModel(QObject *parent) : QAbstractTableModel(parent) {}

void RunDetailsModel::setRun(const RunRequest &request, const std::optional<RunResult> &result, const Baseline &baseline)
{
    const QLocale c = numberLocale();
    auto bytes = [&](qint64 v) -> QString { return c.toString(v) + QStringLiteral(" B"); };
    beginResetModel();
    m_rows = {
        {QStringLiteral("heuristic"), QString::fromStdString(request.config.policy.name)},
        {QStringLiteral("runtime"), QString::fromLatin1(runtimeName(request.config.runtime).data())},
        {QStringLiteral("ratio"), QString::number(request.ratio, 'g', 10)},
        {QStringLiteral("budget"), bytes(request.config.budget)},
        {QStringLiteral("overhead_limit"), QString::number(request.overheadLimit)},
    };
    if (!result) {
        m_rows.emplace_back(QStringLiteral("result"), tr("not run yet"));
    } else {
        const RunResult &r = *result;
        const double overhead = baseline.compute > 0 ? static_cast<double>(r.clock) / static_cast<double>(baseline.compute) : 0;
        m_rows.insert(m_rows.end(), {
            {QStringLiteral("result"), OutcomePalette::outcomeLabel(r.outcome)},
            {QStringLiteral("clock"), c.toString(r.clock)},
            {QStringLiteral("overhead"), QString::number(overhead, 'f', 4)},
            {QStringLiteral("remat_compute"), c.toString(r.rematCompute)},
            {QStringLiteral("max_memory"), bytes(r.maxMemory)},
            {QStringLiteral("memory_at_end"), bytes(r.memoryAtEnd)},
            {QStringLiteral("evictions"), c.toString(r.evictions)},
            {QStringLiteral("released_evictions"), c.toString(r.releasedEvictions)},
            {QStringLiteral("remats"), c.toString(r.remats)},
            {QStringLiteral("seconds"), QString::number(r.seconds * 1000.0, 'f', 2) + QStringLiteral(" ms")},
        });
        if (r.failure) {
            const Failure &f = *r.failure;
            m_rows.insert(m_rows.end(), {
                {QStringLiteral("failure.tensor"), QString::fromStdString(f.tensor)},
                {QStringLiteral("failure.operator"), QString::fromStdString(f.operatorName)},
                {QStringLiteral("failure.line"), QString::number(f.line)},
                {QStringLiteral("failure.bytes_needed"), bytes(f.bytesNeeded)},
                {QStringLiteral("failure.memory_in_use"), bytes(f.memoryInUse)},
                {QStringLiteral("failure.bytes_short"), bytes(f.bytesShort)},
                {QStringLiteral("failure.depth"), QString::number(f.depth)},
                {QStringLiteral("failure.locked_bytes"), bytes(f.lockedBytes)},
            });
        }
    }
    endResetModel();
}

void RunDetailsModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int RunDetailsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RunDetailsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : 2;
}

QVariant RunDetailsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= 2 || role != Qt::DisplayRole)
        return {};
    const auto &row = m_rows[static_cast<std::size_t>(index.row())];
    return index.column() == 0 ? row.first : row.second;
}

QVariant RunDetailsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == 0 ? tr("Field") : tr("Value");
}

} // namespace rematlens
