#include "sweep_cache.h"

#include "app/reports/run_report.h"

#include <QDir>
#include <QStandardPaths>

#include <iostream>

namespace rematlens {

QString SweepCache::directory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sweeps");
}

bool SweepCache::open(const QString &traceHash)
{
    m_file.reset();
    if (traceHash.isEmpty() || !QDir().mkpath(directory()))
        return false;
    auto file = std::make_unique<SweepFile>();
    std::string error;
    const QString path = directory() + QLatin1Char('/') + traceHash + QStringLiteral(".jsonl");
    if (!file->open(path.toStdString(), error)) {
        std::cerr << "rematlens: the sweep cache is unusable and stays off: " << error << std::endl;
        return false;
    }
    m_file = std::move(file);
    return true;
}

std::vector<IndexedResult> SweepCache::known(const std::vector<RunRequest> &requests) const
{
    std::vector<IndexedResult> results;
    if (!m_file)
        return results;
    for (std::size_t i = 0; i < requests.size(); ++i)
        if (const SweepFile::Record *record = m_file->find(SweepFile::keyFor(requests[i])))
            results.push_back({i, runFromJson(*record)});
    return results;
}

void SweepCache::store(const RunRequest &request, const RunResult &result, const Baseline &baseline)
{
    if (!m_file || !isResolved(result.outcome) || m_file->contains(SweepFile::keyFor(request)))
        return; // timeouts depend on the wall limit of the day: not worth keeping
    std::string error;
    if (!m_file->append(runToJson(request, result, baseline), error)) {
        std::cerr << "rematlens: the sweep cache stops: " << error << std::endl;
        m_file.reset();
    }
}

} // namespace rematlens
