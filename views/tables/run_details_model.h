#pragma once

#include "core/sim/baseline.h"
#include "core/sim/run_request.h"
#include "core/sim/run_result.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace rematlens {

// The fields of the selected run, as (field, value) rows with the names of simrd's records.
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
    std::vector<std::pair<QString, QString>> m_rows;
};

} // namespace rematlens
