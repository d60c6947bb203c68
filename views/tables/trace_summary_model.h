#pragma once

#include "views/tables/trace_summary.h"

#include <QAbstractTableModel>
#include <optional>

namespace rematlens {

// Two columns (quantity, value) describing the open trace: its baseline and its size.
class TraceSummaryModel : public QAbstractTableModel {
    Q_OBJECT

public:
    explicit TraceSummaryModel(QObject *parent = nullptr);

    void setSummary(const TraceSummary &summary);
    void clear();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "8.42 GB (8,415,764,640 B)"
    static QString formatBytes(qint64 bytes);

private:
    struct Row {
        QString quantity;
        QString value;
        QString tooltip;
    };
    void appendCapture(const TraceSummary &summary);
    void appendMemorySplit(const MemorySplit &split);
    std::vector<Row> m_rows;
};

} // namespace rematlens
