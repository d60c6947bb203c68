#include "trace_loader.h"

#include "background_jobs.h"

#include "trace_hash.h"

#include "app/formats/trace_source.h"
#include "core/sim/baseline.h"
#include "core/trace/capture_side_file.h"
#include "core/trace/memory_split.h"
#include "core/trace/program_stats.h"
#include "core/trace/trace_completeness.h"

#include <QElapsedTimer>
#include <QFileInfo>

namespace rematlens {

namespace {

// A capture's side file beside the trace adds roles and shapes; its absence is no problem.
void readSideFile(const QString &tracePath, TraceSummary &summary)
{
    const CaptureSideFileResult side = readCaptureSideFile(captureSideFilePath(tracePath.toStdString()));
    if (!side.sideFile) {
        if (!side.error.message.empty())
            summary.sideFileProblem = QString::fromStdString(side.error.toString());
        return;
    }
    summary.memorySplit = splitMemory(*side.sideFile, summary.baseline.memory);
    summary.sideFile = std::make_shared<const CaptureSideFile>(*side.sideFile);
}

LoadedTraceResult loadAndSummarize(const QString &pathOrDemo)
{
    QElapsedTimer timer;
    timer.start();
    LoadedTraceResult result;
    const TraceReadResult read = loadTrace(pathOrDemo.toStdString());
    if (!read.ok()) {
        result.error = QString::fromStdString(read.error.toString());
        return result;
    }
    result.program = read.program;
    result.summary.name = pathOrDemo == QLatin1String(kDemoTraceName) ? QStringLiteral("Demo trace (embedded)")
                                                                      : QFileInfo(pathOrDemo).fileName();
    result.summary.baseline = computeBaseline(*read.program);
    result.summary.stats = computeStats(*read.program);
    if (pathOrDemo != QLatin1String(kDemoTraceName))
        readSideFile(pathOrDemo, result.summary);
    result.summary.incomplete = QString::fromStdString(
        assessCompleteness(*read.program, result.summary.sideFile.get()).problem);
    result.contentHash = traceContentHash(pathOrDemo);
    result.milliseconds = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    return result;
}

} // namespace

TraceLoader::TraceLoader(QObject *parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<LoadedTraceResult>::finished, this, &TraceLoader::deliver);
}

TraceLoader::~TraceLoader()
{
    m_watcher.waitForFinished();
}

void TraceLoader::load(const QString &pathOrDemo)
{
    ++m_request;
    m_watcher.setFuture(runInBackground(loadAndSummarize, pathOrDemo));
}

bool TraceLoader::busy() const
{
    return m_watcher.isRunning();
}

void TraceLoader::deliver()
{
    const LoadedTraceResult result = m_watcher.result();
    if (result.program)
        emit loaded(result);
    else
        emit failed(result.error);
}

} // namespace rematlens
