#include "views/tables/trace_summary_model.h"

#include "views/common/byte_units.h"
#include "views/common/number_format.h"

#include <QLocale>

namespace rematlens {

TraceSummaryModel::TraceSummaryModel(QObject *parent) : QAbstractTableModel(parent)
{
}

QString TraceSummaryModel::formatBytes(qint64 bytes)
{
    return QStringLiteral("%1 (%2)").arg(ByteUnits::format(double(bytes)), ByteUnits::exact(bytes));
}

void TraceSummaryModel::setSummary(const TraceSummary &summary)
{
    const QLocale c = numberLocale();
    const Baseline &b = summary.baseline;
    const ProgramStats &s = summary.stats;
    beginResetModel();
    m_rows = {
        {tr("Trace"), summary.name, tr("The trace file")},
        {tr("Baseline memory"), formatBytes(b.memory), tr("Peak memory of the replay with no budget")},
        {tr("Baseline compute"), c.toString(b.compute),
         tr("Total operator cost of the model, in the trace's time unit")},
        {tr("Constant memory"), formatBytes(b.constMemory), tr("Weights and inputs, pinned for the whole run")},
        {tr("Bottleneck"), formatBytes(b.bottleneck),
         tr("Largest operator output plus its arguments' outputs: memory one step needs at once")},
        {tr("Impossible below"), formatBytes(b.constMemory + b.bottleneck),
         tr("Constants plus bottleneck: no policy can run under this budget")},
        {tr("Operators"),
         tr("%1 (%2 calls, %3 constants, %4 backward)").arg(s.operators).arg(s.calls).arg(s.constants).arg(s.backwardOperators),
         tr("Operators of the replayed part of the trace: calls (CALL and MUTATE lines) and constants (CONSTANT lines)")},
        {tr("Tensors"), tr("%1 (%2 aliases) in %3 storages").arg(s.tensors).arg(s.aliases).arg(s.storages),
         tr("Aliases share their argument's storage and take no memory of their own")},
        {tr("Outputs"), QString::number(s.outputs), tr("Tensors still referenced at the end, pinned in memory")},
    };
    if (!summary.incomplete.isEmpty())
        m_rows.insert(m_rows.begin() + 1, {tr("Warning"), summary.incomplete,
                                           tr("A trace that ends early replays only the part it holds; capture it again")});
    appendCapture(summary);
    endResetModel();
}

// Rows from the capture's side file: what the baseline memory holds, and what that rules out.
void TraceSummaryModel::appendCapture(const TraceSummary &summary)
{
    if (!summary.sideFileProblem.isEmpty())
        m_rows.push_back({tr("Side file"), summary.sideFileProblem, tr("The capture's side file beside the trace could not be used")});
    if (!summary.sideFile || !summary.memorySplit)
        return;
    m_rows.push_back({tr("Captured with"),
                      tr("PyTorch %1, time: %2").arg(QString::fromStdString(summary.sideFile->torchVersion),
                                                     QString::fromStdString(summary.sideFile->timeMode)),
                      tr("wall: measured nanoseconds of the capturing machine; flops: a roofline estimate; unit: 1 per operator")});
    appendMemorySplit(*summary.memorySplit);
}

void TraceSummaryModel::appendMemorySplit(const MemorySplit &split)
{
    const QLocale c = numberLocale();
    const auto share = [&](Bytes bytes) {
        const double percent = split.baseline > 0 ? 100.0 * double(bytes) / double(split.baseline) : 0.0;
        return QStringLiteral("%1, %2 %").arg(formatBytes(bytes), c.toString(percent, 'f', 1));
    };
    m_rows.push_back({tr("Weights"), share(split.weights), tr("Parameters and buffers, resident for the whole step")});
    m_rows.push_back({tr("Gradients"), share(split.gradients), tr("The parameters' gradients, kept to the end of the step")});
    m_rows.push_back({tr("Optimizer state"), share(split.optimizerState), tr("Momentum and moment estimates, resident")});
    m_rows.push_back({tr("Inputs"), share(split.inputs), tr("Data and targets of the step")});
    m_rows.push_back({tr("Activations"), share(split.activations),
                      tr("The rest of the baseline peak: what the forward pass keeps for the backward, and temporaries")});
    const QString ratio = c.toString(split.residentRatio(), 'f', 2);
    const QString floor = split.residentRatio() >= 0.5
        ? tr("weights, gradients and optimizer state are most of the memory: every budget below %1 fails "
             "whatever the policy (typical of small batches)").arg(ratio)
        : tr("every budget below %1 fails whatever the policy").arg(ratio);
    m_rows.push_back({tr("Resident floor"), floor,
                      tr("Weights, gradients and optimizer state stay in memory to the end of the step")});
}

void TraceSummaryModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int TraceSummaryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int TraceSummaryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : 2;
}

QVariant TraceSummaryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= 2)
        return {};
    const Row &row = m_rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole)
        return index.column() == 0 ? row.quantity : row.value;
    if (role == Qt::ToolTipRole)
        return row.tooltip;
    return {};
}

QVariant TraceSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == 0 ? tr("Quantity") : tr("Value");
}

} // namespace rematlens
