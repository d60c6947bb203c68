#include "app_settings.h"

#include "app/public_traces/public_trace_set.h"

#include <QDir>
#include <QFileInfo>

namespace rematlens {

namespace {
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kCentre = QStringLiteral("window/centre");
const QString kRecent = QStringLiteral("files/recent");
const QString kLastDirectory = QStringLiteral("files/lastDirectory");
const QString kLastTrace = QStringLiteral("files/lastTrace");
const QString kReopenLastTrace = QStringLiteral("files/reopenLastTrace");
const QString kLastSessionDirectory = QStringLiteral("files/lastSessionDirectory");
const QString kSweep = QStringLiteral("sweep/");
const QString kTimelineAxis = QStringLiteral("timeline/axis");
const QString kTimelineOverlay = QStringLiteral("timeline/overlay");
const QString kHoleAnatomyRescue = QStringLiteral("holeAnatomy/rescue");
const QString kFigure = QStringLiteral("figure/");
const QString kExpressions = QStringLiteral("policies/expressions");
const QString kDecimalUnits = QStringLiteral("view/decimalUnits");
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

QByteArray AppSettings::centreState() const
{
    return m_settings.value(kCentre).toByteArray();
}

void AppSettings::setCentreState(const QByteArray &state)
{
    m_settings.setValue(kCentre, state);
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

QStringList AppSettings::userExpressions() const
{
    return m_settings.value(kExpressions).toStringList();
}

void AppSettings::addUserExpression(const QString &expression)
{
    QStringList expressions = userExpressions();
    expressions.removeAll(expression);
    expressions.prepend(expression);
    while (expressions.size() > kMaxExpressions)
        expressions.removeLast();
    m_settings.setValue(kExpressions, expressions);
}

void AppSettings::removeUserExpression(const QString &expression)
{
    QStringList expressions = userExpressions();
    expressions.removeAll(expression);
    m_settings.setValue(kExpressions, expressions);
}

QString AppSettings::lastDirectory() const
{
    // A folder that is gone (or the public traces' before they are installed) would reach the
    // open dialog as a file name to open; the home folder is the fallback.
    for (const QString &directory : {m_settings.value(kLastDirectory).toString(), PublicTraceSet::defaultDirectory()})
        if (!directory.isEmpty() && QFileInfo(directory).isDir())
            return directory;
    return QDir::homePath();
}

bool AppSettings::decimalUnits() const
{
    return m_settings.value(kDecimalUnits, false).toBool();
}

void AppSettings::setDecimalUnits(bool decimal)
{
    m_settings.setValue(kDecimalUnits, decimal);
}

void AppSettings::setLastDirectory(const QString &directory)
{
    m_settings.setValue(kLastDirectory, directory);
}

QString AppSettings::lastTrace() const
{
    return m_settings.value(kLastTrace).toString();
}

void AppSettings::setLastTrace(const QString &pathOrDemo)
{
    m_settings.setValue(kLastTrace, pathOrDemo);
}

bool AppSettings::reopenLastTrace() const
{
    return m_settings.value(kReopenLastTrace, true).toBool();
}

void AppSettings::setReopenLastTrace(bool reopen)
{
    m_settings.setValue(kReopenLastTrace, reopen);
}

QString AppSettings::lastSessionDirectory() const
{
    return m_settings.value(kLastSessionDirectory, QDir::homePath()).toString();
}

void AppSettings::setLastSessionDirectory(const QString &directory)
{
    m_settings.setValue(kLastSessionDirectory, directory);
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
    p.allocators = m_settings.value(kSweep + QStringLiteral("allocators"), defaults.allocators).toStringList();
    p.eviction = m_settings.value(kSweep + QStringLiteral("eviction"), defaults.eviction).toString();
    p.checkpointing = m_settings.value(kSweep + QStringLiteral("checkpointing"), defaults.checkpointing).toBool();
    p.optimal = m_settings.value(kSweep + QStringLiteral("optimal"), defaults.optimal).toBool();
    p.timeLimit = m_settings.value(kSweep + QStringLiteral("timeLimit"), defaults.timeLimit).toString();
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
    m_settings.setValue(kSweep + QStringLiteral("allocators"), p.allocators);
    m_settings.setValue(kSweep + QStringLiteral("eviction"), p.eviction);
    m_settings.setValue(kSweep + QStringLiteral("checkpointing"), p.checkpointing);
    m_settings.setValue(kSweep + QStringLiteral("optimal"), p.optimal);
    m_settings.setValue(kSweep + QStringLiteral("timeLimit"), p.timeLimit);
}

int AppSettings::timelineAxis() const
{
    return m_settings.value(kTimelineAxis, 0).toInt();
}

void AppSettings::setTimelineAxis(int axis)
{
    m_settings.setValue(kTimelineAxis, axis);
}

bool AppSettings::holeAnatomyRescue() const
{
    return m_settings.value(kHoleAnatomyRescue, true).toBool();
}

void AppSettings::setHoleAnatomyRescue(bool rescue)
{
    m_settings.setValue(kHoleAnatomyRescue, rescue);
}

int AppSettings::timelineOverlay() const
{
    return m_settings.value(kTimelineOverlay, 0).toInt();
}

void AppSettings::setTimelineOverlay(int overlay)
{
    m_settings.setValue(kTimelineOverlay, overlay);
}

FigureExportChoices AppSettings::figureExport() const
{
    const FigureExportChoices d;
    FigureExportChoices c;
    c.view = m_settings.value(kFigure + QStringLiteral("view"), d.view).toString();
    c.size = m_settings.value(kFigure + QStringLiteral("size"), d.size).toString();
    c.widthInches = m_settings.value(kFigure + QStringLiteral("width"), d.widthInches).toDouble();
    c.heightInches = m_settings.value(kFigure + QStringLiteral("height"), d.heightInches).toDouble();
    c.fontSize = m_settings.value(kFigure + QStringLiteral("fontSize"), d.fontSize).toDouble();
    c.palette = m_settings.value(kFigure + QStringLiteral("palette"), d.palette).toString();
    c.dpi = m_settings.value(kFigure + QStringLiteral("dpi"), d.dpi).toInt();
    c.writeCsv = m_settings.value(kFigure + QStringLiteral("writeCsv"), d.writeCsv).toBool();
    c.lastPath = m_settings.value(kFigure + QStringLiteral("lastPath"), d.lastPath).toString();
    return c;
}

void AppSettings::setFigureExport(const FigureExportChoices &c)
{
    m_settings.setValue(kFigure + QStringLiteral("view"), c.view);
    m_settings.setValue(kFigure + QStringLiteral("size"), c.size);
    m_settings.setValue(kFigure + QStringLiteral("width"), c.widthInches);
    m_settings.setValue(kFigure + QStringLiteral("height"), c.heightInches);
    m_settings.setValue(kFigure + QStringLiteral("fontSize"), c.fontSize);
    m_settings.setValue(kFigure + QStringLiteral("palette"), c.palette);
    m_settings.setValue(kFigure + QStringLiteral("dpi"), c.dpi);
    m_settings.setValue(kFigure + QStringLiteral("writeCsv"), c.writeCsv);
    m_settings.setValue(kFigure + QStringLiteral("lastPath"), c.lastPath);
}

} // namespace rematlens
