#include "views/tables/run_details_model.h"

#include "views/strip/outcome_palette.h"

#include "views/common/byte_units.h"
#include "views/common/number_format.h"
#include "views/common/table_copier.h"

#include <QLocale>
#include <QStringList>

#include <cmath>

namespace rematlens {

RunDetailsModel::RunDetailsModel(QObject *parent) : QAbstractTableModel(parent)
{
}

namespace {

// "8,415,764,640 B" reads exactly; "7.84 GiB" reads at a glance: both.
QString bytesText(std::int64_t bytes)
{
    if (std::abs(double(bytes)) < ByteUnits::base())
        return ByteUnits::exact(bytes);
    return QStringLiteral("%1 (%2)").arg(ByteUnits::format(double(bytes)), ByteUnits::exact(bytes));
}

// The exact count first, for a tooltip the narrow column cannot cut: "3,704,610,816 B (3.45 GiB)".
QString exactFirst(std::int64_t bytes)
{
    if (std::abs(double(bytes)) < ByteUnits::base())
        return ByteUnits::exact(bytes);
    return QStringLiteral("%1 (%2)").arg(ByteUnits::exact(bytes), ByteUnits::format(double(bytes)));
}

} // namespace

void RunDetailsModel::setRun(const RunRequest &request, const std::optional<RunResult> &result,
                             const Baseline &baseline)
{
    const QLocale c = numberLocale();
    beginResetModel();
    m_rows = {
        {tr("policy"), QString::fromStdString(request.config.policy.name), QStringLiteral("heuristic")},
        {tr("runtime"), QString::fromLatin1(runtimeName(request.config.runtime).data()), QStringLiteral("runtime")},
        {tr("budget ratio"), QString::number(request.ratio, 'g', 10), QStringLiteral("ratio")},
        {tr("budget"), bytesText(request.config.budget), QStringLiteral("budget"), std::int64_t(request.config.budget)},
        {tr("overhead limit"), QString::number(request.overheadLimit), QStringLiteral("overhead_limit")},
        {tr("allocator"), QString::fromStdString(allocatorKey(request.config.allocator)), QStringLiteral("allocator")},
    };
    if (!request.keep.empty()) {
        QStringList kept;
        for (const std::string &name : request.keep)
            kept << QString::fromStdString(name);
        m_rows.push_back({tr("kept resident"), kept.join(QStringLiteral(", ")), QStringLiteral("keep")});
    }
    if (!result) {
        m_rows.push_back({tr("result"), tr("not run yet"), QStringLiteral("result")});
    } else {
        const RunResult &r = *result;
        const double overhead =
            baseline.compute > 0 ? static_cast<double>(r.clock) / static_cast<double>(baseline.compute) : 0;
        m_rows.insert(
            m_rows.end(),
            {
                {tr("result"), OutcomePalette::outcomeLabel(r.outcome), QStringLiteral("result")},
                {tr("clock"), c.toString(r.clock), QStringLiteral("clock")},
                {tr("overhead"), QString::number(overhead, 'f', 4) + QStringLiteral("×"), QStringLiteral("overhead")},
                {tr("remat compute"), c.toString(r.rematCompute), QStringLiteral("remat_compute")},
                {tr("peak memory"), bytesText(r.maxMemory), QStringLiteral("max_memory"), std::int64_t(r.maxMemory)},
                {tr("memory at end"), bytesText(r.memoryAtEnd), QStringLiteral("memory_at_end"),
                 std::int64_t(r.memoryAtEnd)},
                {tr("evictions"), c.toString(r.evictions), QStringLiteral("evictions")},
                {tr("evictions on release"), c.toString(r.releasedEvictions), QStringLiteral("released_evictions")},
                {tr("rematerializations"), c.toString(r.remats), QStringLiteral("remats")},
                {tr("replay time"), QString::number(r.seconds * 1000.0, 'f', 2) + QStringLiteral(" ms"),
                 QStringLiteral("seconds")},
            });
        if (r.allocation)
            addAllocationRows(*r.allocation);
        if (r.failure) {
            const Failure &f = *r.failure;
            m_rows.insert(
                m_rows.end(),
                {
                    {tr("failed on"), QString::fromStdString(f.tensor), QStringLiteral("failure.tensor")},
                    {tr("its operator"), QString::fromStdString(f.operatorName), QStringLiteral("failure.operator")},
                    {tr("trace line"), QString::number(f.line), QStringLiteral("failure.line")},
                    {tr("bytes needed"), bytesText(f.bytesNeeded), QStringLiteral("failure.bytes_needed"),
                     std::int64_t(f.bytesNeeded)},
                    {tr("memory in use"), bytesText(f.memoryInUse), QStringLiteral("failure.memory_in_use"),
                     std::int64_t(f.memoryInUse)},
                    {tr("bytes short"), bytesText(f.bytesShort), QStringLiteral("failure.bytes_short"),
                     std::int64_t(f.bytesShort)},
                    {tr("nesting depth"), QString::number(f.depth), QStringLiteral("failure.depth")},
                    {tr("locked bytes"), bytesText(f.lockedBytes), QStringLiteral("failure.locked_bytes"),
                     std::int64_t(f.lockedBytes)},
                });
            if (f.oomKind)
                addAllocatorFailureRows(f);
        }
    }
    endResetModel();
}

void RunDetailsModel::addAllocationRows(const AllocationSummary &allocation)
{
    m_rows.insert(m_rows.end(), {
                                    {tr("peak reserved"), bytesText(allocation.peakReserved),
                                     QStringLiteral("peak_reserved"), std::int64_t(allocation.peakReserved)},
                                    {tr("peak allocated"), bytesText(allocation.peakAllocated),
                                     QStringLiteral("peak_allocated"), std::int64_t(allocation.peakAllocated)},
                                    {tr("fragmentation"), QString::number(allocation.fragmentation(), 'f', 4),
                                     QStringLiteral("fragmentation")},
                                });
}

void RunDetailsModel::addAllocatorFailureRows(const Failure &failure)
{
    m_rows.insert(m_rows.end(),
                  {
                      {tr("out of memory by"), QString::fromLatin1(oomKindName(*failure.oomKind).data()),
                       QStringLiteral("failure.oom_kind")},
                      {tr("request"), bytesText(failure.request), QStringLiteral("failure.request"),
                       std::int64_t(failure.request)},
                      {tr("largest free block"), bytesText(failure.largestFreeBlock),
                       QStringLiteral("failure.largest_free_block"), std::int64_t(failure.largestFreeBlock)},
                  });
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
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= 2)
        return {};
    // The whole value (a narrow column elides it) and the record field it comes from.
    const Row &shown = m_rows[std::size_t(index.row())];
    if (role == Qt::ToolTipRole) {
        const QString value = shown.bytes ? exactFirst(*shown.bytes) : shown.value;
        return tr("%1: %2\n%3 in the records of run --json and sweep --out").arg(shown.label, value, shown.field);
    }
    // Copy takes a byte count as the number of bytes, ready for --budget.
    if (role == TableCopier::kExactValueRole && index.column() == 1 && shown.bytes)
        return QString::number(*shown.bytes);
    if (role != Qt::DisplayRole)
        return {};
    const Row &row = m_rows[static_cast<std::size_t>(index.row())];
    return index.column() == 0 ? row.label : row.value;
}

QVariant RunDetailsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == 0 ? tr("Field") : tr("Value");
}

} // namespace rematlens
