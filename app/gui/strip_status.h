#pragma once

#include <QObject>
#include <QStringList>

class QLabel;
class QStatusBar;

namespace rematlens {

class ExactMapModel;
class HoleListModel;
class SweepResultModel;

// The status bar's fields about what the strip holds, each derived from the strip's rows and
// their identities whenever they change, never kept from an earlier sweep or map: where the
// maps drawn on the strip's rows came from, and how many holes the Holes table lists.
class StripStatus : public QObject {
    Q_OBJECT

public:
    StripStatus(QStatusBar *bar, const SweepResultModel &sweep, const ExactMapModel &maps, const HoleListModel &holes,
                QObject *parent);

    // While the trace's known maps (the atlas's, this computer's) are read, the maps field says
    // so: rows drawn as swept meanwhile may be mapped a moment later.
    void setReadingKnownMaps(bool reading);

    QString mapsText() const;
    QString holesText() const;

private:
    QStringList mapRows() const;
    void showMaps();
    void showHoles();

    const SweepResultModel &m_sweep;
    const ExactMapModel &m_maps;
    const HoleListModel &m_holes;
    QLabel *m_mapsLabel;
    QLabel *m_holesLabel;
    bool m_readingKnownMaps = false;
};

} // namespace rematlens
