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
