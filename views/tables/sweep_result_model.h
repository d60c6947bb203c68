#pragma once

#include "core/sim/baseline.h"
#include "core/sim/run_identity.h"
#include "views/common/run_selection.h"
#include "core/sim/run_result.h"
#include "core/sweep/decimal_grid.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace rematlens {

// One finished run of a sweep, identified by its index in the sweep's request list.
struct IndexedResult {
    std::size_t index;
    RunResult result;
};

// The runs of one sweep (policy-major: row = policy x grid size + grid index), filled in as
// results arrive. The feasibility strip, the hole list and the details panel read it.
class SweepResultModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { PolicyColumn, RatioColumn, BudgetColumn, ResultColumn, OverheadColumn, ClockColumn,
                  PeakColumn, EvictionsColumn, RematsColumn, ColumnCount };

    explicit SweepResultModel(QObject *parent = nullptr);

    void reset(const Baseline &baseline, std::vector<GridPoint> grid, std::vector<RunRequest> requests,
               std::size_t policyCount, double overheadLimit, std::string traceHash = {});
    void clear();
    void addResults(const std::vector<IndexedResult> &results);

    std::size_t policyCount() const { return m_policyCount; }
    std::size_t gridSize() const { return m_grid.size(); }
    std::size_t finishedCount() const { return m_finished; }
    double overheadLimit() const { return m_overheadLimit; }
    const Baseline &baseline() const { return m_baseline; }
    const std::vector<GridPoint> &grid() const { return m_grid; }
    // The row's label: its policy, and its allocator model ("DTR \u00b7 caching") when the rows
    // differ in model.
    QString policyName(std::size_t policy) const;
    const RunRequest &request(std::size_t policy, std::size_t column) const;
    const std::optional<RunResult> &result(std::size_t policy, std::size_t column) const;
    // Which configuration a strip row is, and which row (and grid column) holds a run.
    const RowIdentity &rowIdentity(std::size_t policy) const { return m_rowIdentities[policy]; }
    RunIdentity identity(std::size_t policy, std::size_t column) const;
    std::optional<std::size_t> rowOf(const RowIdentity &row) const;
    std::optional<std::size_t> columnOf(std::size_t policy, Bytes budget) const;
    const std::string &traceHash() const { return m_traceHash; }
    // The selection of a grid cell, or of an exact map's interval of a row (replayed at its lo).
    SelectedRun runAt(std::size_t policy, std::size_t column) const;
    SelectedRun intervalRun(std::size_t policy, const BudgetInterval &interval) const;
    // The row of a run in the table.
    int rowOf(std::size_t policy, std::size_t column) const { return static_cast<int>(policy * gridSize() + column); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    Baseline m_baseline;
    std::vector<GridPoint> m_grid;
    std::vector<RunRequest> m_requests;
    std::vector<std::optional<RunResult>> m_results;
    std::vector<RowIdentity> m_rowIdentities;
    std::string m_traceHash;
    std::size_t m_policyCount = 0;
    std::size_t m_finished = 0;
    double m_overheadLimit = 2.0;
    bool m_rowsByModel = false; // rows differ in allocator model: labels name it
};

} // namespace rematlens
