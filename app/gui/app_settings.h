#pragma once

#include "views/sweep_parameters.h"

#include <QByteArray>
#include <QSettings>
#include <QStringList>

namespace rematlens {

// Every setting the GUI remembers, behind typed accessors: the one place that knows the keys.
class AppSettings {
public:
    AppSettings() = default;

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray &state);

    QStringList recentTraces() const;
    void addRecentTrace(const QString &path); // most recent first, at most kMaxRecent
    QString lastDirectory() const;
    void setLastDirectory(const QString &directory);

    SweepParameters sweepParameters() const;
    void setSweepParameters(const SweepParameters &parameters);

    // The timeline's x axis and overlay, as the integers of TimelineAxis and TimelinePanel::Overlay.
    int timelineAxis() const;
    void setTimelineAxis(int axis);
    int timelineOverlay() const;
    void setTimelineOverlay(int overlay);

    static constexpr int kMaxRecent = 8;

    // Where traces/download-dtr-traces.sh puts the public DTR traces.
    static QString publicTracesDirectory();

private:
    mutable QSettings m_settings;
};

} // namespace rematlens
