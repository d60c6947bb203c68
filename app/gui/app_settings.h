#pragma once

#include "figure_export_choices.h"

#include "views/sweep/sweep_parameters.h"

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
    // The split between the strip and the timeline below it.
    QByteArray centreState() const;
    void setCentreState(const QByteArray &state);

    QStringList recentTraces() const;
    void addRecentTrace(const QString &path); // most recent first, at most kMaxRecent
    QString lastDirectory() const;
    void setLastDirectory(const QString &directory);
    // Byte counts in kB, MB, GB rather than KiB, MiB, GiB.
    bool decimalUnits() const;
    void setDecimalUnits(bool decimal);
    // The trace the window showed last (a path, or ":demo"), and whether to open it at start.
    QString lastTrace() const;
    void setLastTrace(const QString &pathOrDemo);
    bool reopenLastTrace() const; // on unless the user turned it off
    void setReopenLastTrace(bool reopen);
    QString lastSessionDirectory() const;
    void setLastSessionDirectory(const QString &directory);

    SweepParameters sweepParameters() const;
    void setSweepParameters(const SweepParameters &parameters);

    // The timeline's x axis and overlay, as the integers of TimelineAxis and TimelinePanel::Overlay.
    int timelineAxis() const;
    void setTimelineAxis(int axis);
    int timelineOverlay() const;
    void setTimelineOverlay(int overlay);
    // Whether the Hole anatomy panel runs the rescue searches (on unless turned off).
    bool holeAnatomyRescue() const;
    void setHoleAnatomyRescue(bool rescue);
    FigureExportChoices figureExport() const;
    void setFigureExport(const FigureExportChoices &choices);
    // Score expressions the user wrote in the policy editor, most recent first.
    QStringList userExpressions() const;
    void addUserExpression(const QString &expression); // at most kMaxExpressions
    void removeUserExpression(const QString &expression);

    static constexpr int kMaxRecent = 8;
    static constexpr int kMaxExpressions = 20;

private:
    mutable QSettings m_settings;
};

} // namespace rematlens
