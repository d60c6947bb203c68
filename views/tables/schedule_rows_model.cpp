#include "views/tables/schedule_rows_model.h"

#include "views/strip/outcome_palette.h"

namespace rematlens {

ScheduleRowsModel::ScheduleRowsModel(QObject *parent) : QObject(parent) {}

void ScheduleRowsModel::reset(bool checkpointing, bool optimal, std::size_t columns)
{
    m_rows.clear();
    if (checkpointing)
        m_rows.push_back(Row::Checkpointing);
    if (optimal)
        m_rows.push_back(Row::Optimal);
    m_checkpoints.assign(columns, std::nullopt);
    m_optima.assign(columns, std::nullopt);
    emit changed();
}

void ScheduleRowsModel::setCheckpoint(std::size_t column, const CheckpointAnswer &answer)
{
    if (column < m_checkpoints.size())
        m_checkpoints[column] = answer;
    emit changed();
}

void ScheduleRowsModel::setOptimal(std::size_t column, const OptimalAnswer &answer)
{
    if (column < m_optima.size())
        m_optima[column] = answer;
    emit changed();
}

ScheduleRowsModel::State ScheduleRowsModel::state(std::size_t row, std::size_t column) const
{
    if (row >= m_rows.size() || column >= m_checkpoints.size())
        return State::Pending;
    if (m_rows[row] == Row::Checkpointing)
        return !m_checkpoints[column] ? State::Pending : m_checkpoints[column]->pass ? State::Pass : State::Fail;
    const std::optional<OptimalAnswer> &answer = m_optima[column];
    if (!answer)
        return State::Pending;
    if (!answer->declined.empty())
        return State::Declined;
    switch (answer->status) {
    case SolveStatus::Optimal: return State::Optimal;
    case SolveStatus::Feasible: return State::Feasible;
    case SolveStatus::Infeasible: return State::Infeasible;
    case SolveStatus::Unknown: return State::Unknown;
    }
    return State::Unknown;
}

QString ScheduleRowsModel::rowName(Row row)
{
    return row == Row::Checkpointing ? tr("checkpointing") : tr("optimal");
}

QString ScheduleRowsModel::stateLabel(State state)
{
    switch (state) {
    case State::Pending: return tr("not computed");
    case State::Pass: return tr("checkpointing fits");
    case State::Fail: return tr("checkpointing does not fit");
    case State::Optimal: return tr("optimal");
    case State::Feasible: return tr("feasible (time limit)");
    case State::Infeasible: return tr("no schedule fits");
    case State::Unknown: return tr("unknown (time limit)");
    case State::Declined: return tr("out of reach");
    }
    return {};
}

QString ScheduleRowsModel::stateName(State state)
{
    switch (state) {
    case State::Pending: return QStringLiteral("not-computed");
    case State::Pass: return QStringLiteral("pass");
    case State::Fail: return QStringLiteral("fail");
    case State::Optimal: return QStringLiteral("optimal");
    case State::Feasible: return QStringLiteral("feasible");
    case State::Infeasible: return QStringLiteral("infeasible");
    case State::Unknown: return QStringLiteral("unknown");
    case State::Declined: return QStringLiteral("out-of-reach");
    }
    return {};
}

QColor ScheduleRowsModel::stateColour(State state)
{
    switch (state) {
    case State::Pending: return OutcomePalette::notRun();
    case State::Pass:
    case State::Optimal: return OutcomePalette::outcome(Outcome::Pass);
    case State::Fail:
    case State::Infeasible: return OutcomePalette::outcome(Outcome::OutOfMemory);
    case State::Feasible: return QColor(0x56, 0xB4, 0xE9); // sky blue
    case State::Unknown: return QColor(0xF0, 0xE4, 0x42);  // yellow
    case State::Declined: return QColor(0x80, 0x80, 0x80);
    }
    return OutcomePalette::notRun();
}

std::vector<ScheduleRowsModel::State> ScheduleRowsModel::statesShown() const
{
    std::vector<bool> present(std::size_t(State::Declined) + 1, false);
    for (std::size_t row = 0; row < m_rows.size(); ++row)
        for (std::size_t column = 0; column < columnCount(); ++column)
            present[std::size_t(state(row, column))] = true;
    std::vector<State> states;
    for (State s : {State::Pass, State::Fail, State::Optimal, State::Feasible, State::Infeasible, State::Unknown,
                    State::Declined, State::Pending})
        if (present[std::size_t(s)])
            states.push_back(s);
    return states;
}

} // namespace rematlens
