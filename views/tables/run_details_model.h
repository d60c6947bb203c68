#pragma once

#include "core/sim/baseline.h"
#include "core/sim/run_request.h"
#include "core/sim/run_result.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace rematlens {

// The fields of the selected run as readable (label, value) rows; each row's tooltip names the
// field of simrd's records it shows, a byte value's tooltip starts with its exact count, and a
// TableCopier copies a byte value as its number of bytes (TableCopier::kExactValueRole).
class RunDetailsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    explicit RunDetailsModel(QObject *parent = nullptr);

    void setRun(const RunRequest &request, const std::optional<RunResult> &result, const Baseline &baseline);
    void clear();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // Under an allocator model: its peaks, and why a failing request did not fit.
    void addAllocationRows(const AllocationSummary &allocation);
    void addAllocatorFailureRows(const Failure &failure);

    struct Row {
        QString label;
        QString value;
        QString field; // as records name it
        std::optional<std::int64_t> bytes = std::nullopt; // the exact count of a byte value
    };
    std::vector<Row> m_rows;
};

} // namespace rematlens
