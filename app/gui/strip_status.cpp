#include "strip_status.h"

#include "status_field.h"

#include "views/common/number_format.h"
#include "views/strip/mapped_row.h"
#include "views/tables/exact_map_model.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/sweep_result_model.h"

#include <QLabel>
#include <QStatusBar>

#include <map>

namespace rematlens {

namespace {

QLabel *fieldLabel(QStatusBar *bar, const QString &name, int index)
{
    QLabel *label = newStatusField(bar, name);
    bar->insertPermanentWidget(index, label);
    return label;
}

// "0.10–1.00", or bytes when the baseline is unknown.
QString spanOf(const ByteRange &range, const SweepResultModel &sweep)
{
    const double memory = double(sweep.baseline().memory);
    const auto at = [&](Bytes budget) {
        return memory > 0 ? QString::number(double(budget) / memory, 'f', 2) : numberLocale().toString(budget);
    };
    return at(range.from) + QStringLiteral("–") + at(range.end - 1);
}

} // namespace

StripStatus::StripStatus(QStatusBar *bar, const SweepResultModel &sweep, const ExactMapModel &maps,
                         const HoleListModel &holes, QObject *parent)
    : QObject(parent), m_sweep(sweep), m_maps(maps), m_holes(holes),
      m_mapsLabel(fieldLabel(bar, QStringLiteral("mapsStatus"), 1)),
      m_holesLabel(fieldLabel(bar, QStringLiteral("holesStatus"), 2))
{
    connect(&maps, &ExactMapModel::changed, this, &StripStatus::showMaps);
    connect(&sweep, &QAbstractItemModel::modelReset, this, &StripStatus::showMaps);
    connect(&holes, &QAbstractItemModel::modelReset, this, &StripStatus::showHoles);
    connect(&holes, &QAbstractItemModel::dataChanged, this, &StripStatus::showHoles);
}

// One line per strip row with a map: its span, whether complete, and where it came from.
QStringList StripStatus::mapRows() const
{
    QStringList rows;
    for (std::size_t p = 0; p < m_sweep.policyCount() && m_sweep.gridSize() > 0; ++p) {
        const ExactMapModel::Entry *entry = m_maps.entry(ExactMapModel::keyOf(m_sweep.request(p, 0)));
        if (!entry || !entry->map)
            continue;
        const MapSummary &summary = entry->map->summary;
        const QString extent = summary.unmapped.empty() ? tr("complete") : tr("with unmapped gaps");
        rows << tr("%1: map %2, %3, from %4")
                    .arg(m_sweep.policyName(p), spanOf(summary.range, m_sweep), extent, entry->provenance.describe());
    }
    return rows;
}

QString StripStatus::mapsText() const
{
    return mapRows().join(QLatin1Char('\n'));
}

QString StripStatus::holesText() const
{
    return countOf(m_holes.rowCount(), tr("hole"), tr("holes"));
}

void StripStatus::setReadingKnownMaps(bool reading)
{
    m_readingKnownMaps = reading;
    showMaps();
}

void StripStatus::showMaps()
{
    const QStringList rows = mapRows();
    m_mapsLabel->setVisible(!rows.isEmpty() || m_readingKnownMaps);
    if (m_readingKnownMaps) {
        m_mapsLabel->setText(tr("Reading known maps… (%1 of %2 rows so far)").arg(rows.size()).arg(m_sweep.policyCount()));
        m_mapsLabel->setToolTip(tr("The atlas's maps and those this computer made earlier are being read for this trace; "
                                   "rows drawn as swept meanwhile show their exact maps once they are read"));
        return;
    }
    m_mapsLabel->setText(rows.size() == 1
                             ? rows.front()
                             : tr("Exact maps on %1 of %2 rows").arg(rows.size()).arg(m_sweep.policyCount()));
    m_mapsLabel->setToolTip(
        tr("Where the exact maps drawn on the strip's rows came from:\n%1").arg(rows.join(QLatin1Char('\n'))));
}

// Per row in the tooltip: the table lists every row's holes.
void StripStatus::showHoles()
{
    m_holesLabel->setVisible(m_sweep.policyCount() > 0);
    m_holesLabel->setText(holesText());
    std::map<std::size_t, int> perRow;
    for (int i = 0; i < m_holes.rowCount(); ++i)
        ++perRow[m_holes.entry(i).policy];
    QStringList lines;
    for (std::size_t p = 0; p < m_sweep.policyCount(); ++p)
        lines << tr("%1: %2").arg(m_sweep.policyName(p), countOf(perRow[p], tr("hole"), tr("holes")));
    m_holesLabel->setToolTip(
        tr("Holes the Holes table lists, per row of the strip:\n%1").arg(lines.join(QLatin1Char('\n'))));
}

} // namespace rematlens
