#include "app_settings.h"

#include <QStandardPaths>

namespace rematlens {

namespace {
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kRecent = QStringLiteral("files/recent");
const QString kLastDirectory = QStringLiteral("files/lastDirectory");
const QString kSweep = QStringLiteral("sweep/");
const QString kTimelineAxis = QStringLiteral("timeline/axis");
const QString kTimelineOverlay = QStringLiteral("timeline/overlay");
} // namespace

QByteArray AppSettings::windowGeometry() const
{
    return m_settings.value(kGeometry).toByteArray();
}

void AppSettings::setWindowGeometry(const QByteArray &geometry)
{
    m_settings.setValue(kGeometry, geometry);
}

QByteArray AppSettings::windowState() const
{
    return m_settings.value(kState).toByteArray();
}

void AppSettings::setWindowState(const QByteArray &state)
{
    m_settings.setValue(kState, state);
}

QStringList AppSettings::recentTraces() const
{
    return m_settings.value(kRecent).toStringList();
}

void AppSettings::addRecentTrace(const QString &path)
{
    QStringList recent = recentTraces();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    m_settings.setValue(kRecent, recent);
}

QString AppSettings::lastDirectory() const
{
    return m_settings.value(kLastDirectory, publicTracesDirectory()).toString();
}

QString AppSettings::publicTracesDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
           + QStringLiteral("/RematLens/traces/dtr-2020");
}

void AppSettings::setLastDirectory(const QString &directory)
{
    m_settings.setValue(kLastDirectory, directory);
}

SweepParameters AppSettings::sweepParameters() const
{
    SweepParameters defaults;
    SweepParameters p;
    p.policies = m_settings.value(kSweep + QStringLiteral("policies"), defaults.policies).toStringList();
    p.runtime = m_settings.value(kSweep + QStringLiteral("runtime"), defaults.runtime).toString();
    p.from = m_settings.value(kSweep + QStringLiteral("from"), defaults.from).toString();
    p.to = m_settings.value(kSweep + QStringLiteral("to"), defaults.to).toString();
    p.step = m_settings.value(kSweep + QStringLiteral("step"), defaults.step).toString();
    p.overheadLimit = m_settings.value(kSweep + QStringLiteral("overheadLimit"), defaults.overheadLimit).toString();
    p.threads = m_settings.value(kSweep + QStringLiteral("threads"), defaults.threads).toInt();
    return p;
}

void AppSettings::setSweepParameters(const SweepParameters &p)
{
    m_settings.setValue(kSweep + QStringLiteral("policies"), p.policies);
    m_settings.setValue(kSweep + QStringLiteral("runtime"), p.runtime);
    m_settings.setValue(kSweep + QStringLiteral("from"), p.from);
    m_settings.setValue(kSweep + QStringLiteral("to"), p.to);
    m_settings.setValue(kSweep + QStringLiteral("step"), p.step);
    m_settings.setValue(kSweep + QStringLiteral("overheadLimit"), p.overheadLimit);
    m_settings.setValue(kSweep + QStringLiteral("threads"), p.threads);
}

int AppSettings::timelineAxis() const
{
    return m_settings.value(kTimelineAxis, 0).toInt();
}

void AppSettings::setTimelineAxis(int axis)
{
    m_settings.setValue(kTimelineAxis, axis);
}

int AppSettings::timelineOverlay() const
{
    return m_settings.value(kTimelineOverlay, 0).toInt();
}

void AppSettings::setTimelineOverlay(int overlay)
{
    m_settings.setValue(kTimelineOverlay, overlay);
}

} // namespace rematlens
