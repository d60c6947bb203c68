#pragma once

#include "core/schedule/budget_schedules.h"

#include <QColor>
#include <QObject>
#include <QString>

#include <optional>
#include <vector>

namespace rematlens {

// The strip's rows of static schedules, one cell per grid budget: "checkpointing" (pass or fail,
// Chen et al.) and "optimal" (Checkmate's answer). Filled in as a schedule job answers.
class ScheduleRowsModel : public QObject {
    Q_OBJECT

public:
    enum class Row { Checkpointing, Optimal };
    // What a cell shows; Pending until its job answers.
    enum class State { Pending, Pass, Fail, Optimal, Feasible, Infeasible, Unknown, Declined };

    explicit ScheduleRowsModel(QObject *parent = nullptr);

    // The rows shown (none, either or both) over a grid of this many budgets; answers dropped.
    void reset(bool checkpointing, bool optimal, std::size_t columns);
    void setCheckpoint(std::size_t column, const CheckpointAnswer &answer);
    void setOptimal(std::size_t column, const OptimalAnswer &answer);

    const std::vector<Row> &rows() const { return m_rows; }
    std::size_t rowCount() const { return m_rows.size(); }
    std::size_t columnCount() const { return m_checkpoints.size(); }
    State state(std::size_t row, std::size_t column) const;
    const std::optional<CheckpointAnswer> &checkpoint(std::size_t column) const { return m_checkpoints[column]; }
    const std::optional<OptimalAnswer> &optimal(std::size_t column) const { return m_optima[column]; }

    static QString rowName(Row row);
    static QString stateLabel(State state);
    // One word for files: "pass", "fail", "optimal", "feasible", "infeasible", "unknown",
    // "out-of-reach", "not-computed".
    static QString stateName(State state);
    // Okabe-Ito colours: pass and optimal as a passing run, fail and infeasible as out of
    // memory; feasible sky blue, unknown yellow (neither a pass nor a fail), out of reach grey.
    static QColor stateColour(State state);
    // The states these rows show, for the legend, in a fixed order.
    std::vector<State> statesShown() const;

signals:
    void changed();

private:
    std::vector<Row> m_rows;
    std::vector<std::optional<CheckpointAnswer>> m_checkpoints;
    std::vector<std::optional<OptimalAnswer>> m_optima;
};

} // namespace rematlens
