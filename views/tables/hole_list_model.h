#pragma once

#include "core/map/map_summary.h"
#include "core/sweep/hole_finder.h"

#include <QAbstractTableModel>

#include <vector>

namespace rematlens {

class ExactMapModel;
class SweepResultModel;

// The holes of every policy of the current sweep, recomputed as results arrive. Runs not yet
// finished count as unresolved, so a hole is only listed once its edges are known. Where a
// policy's row has an exact map, the map's holes are listed instead, with exact byte bounds.
class HoleListModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { PolicyColumn, FirstFailColumn, LastFailColumn, WidthColumn, PassBelowColumn, PassAboveColumn, ColumnCount };

    struct Entry {
        std::size_t policy;
        Hole hole;                   // grid columns (unused when exact)
        std::optional<MapHole> exact; // first and last failing byte, from the policy's map
    };

    explicit HoleListModel(QObject *parent = nullptr);

    void rebuild(const SweepResultModel &sweep, const ExactMapModel *maps = nullptr);
    const std::vector<HoleReport> &reports() const { return m_reports; }
    const Entry &entry(int row) const { return m_entries[static_cast<std::size_t>(row)]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString ratioText(std::size_t column) const;
    QVariant exactData(const Entry &e, int column, int role) const;
    std::vector<Entry> entriesOf(const SweepResultModel &sweep, std::size_t policy, const HoleReport &report,
                                 const ExactMapModel *maps) const;
    double m_memory = 0; // baseline bytes, for the ratios of exact bounds

    std::vector<HoleReport> m_reports;
    std::vector<Entry> m_entries;
    std::vector<QString> m_policyNames;
    std::vector<QString> m_ratios;
};

} // namespace rematlens
