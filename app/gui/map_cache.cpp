#include "map_cache.h"

#include "app/formats/map_record.h"
#include "core/sim/run_identity.h"
#include "core/sim/run_request.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>

#include <nlohmann/json.hpp>

#include <iostream>
#include <map>

namespace rematlens {

namespace {

// Keys written before maps were keyed by the whole row identity read "policy/runtime/limit/kept".
// Only the byte sum could be mapped then, so such a map is the sum row's.
QString upgradedKey(const QString &key)
{
    if (key.contains(QLatin1Char('|')))
        return key;
    const qsizetype keptAt = key.lastIndexOf(QLatin1Char('/'));
    const qsizetype limitAt = keptAt > 0 ? key.lastIndexOf(QLatin1Char('/'), keptAt - 1) : -1;
    const qsizetype runtimeAt = limitAt > 0 ? key.lastIndexOf(QLatin1Char('/'), limitAt - 1) : -1;
    if (runtimeAt <= 0)
        return key;
    const std::optional<RuntimeKind> runtime = findRuntime(key.mid(runtimeAt + 1, limitAt - runtimeAt - 1).toStdString());
    bool ok = false;
    const double limit = key.mid(limitAt + 1, keptAt - limitAt - 1).toDouble(&ok);
    if (!runtime || !ok)
        return key;
    RowIdentity row;
    row.policy = key.left(runtimeAt).toStdString();
    row.runtime = *runtime;
    row.allocator = allocatorKey(AllocatorConfig{});
    row.overheadLimit = limit;
    for (const QString &name : key.mid(keptAt + 1).split(QLatin1Char(','), Qt::SkipEmptyParts))
        row.keep.push_back(name.toStdString());
    return QString::fromStdString(row.key());
}

} // namespace

QString MapCache::directory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/maps");
}

QString MapCache::pathOf(const QString &traceHash)
{
    return directory() + QLatin1Char('/') + traceHash + QStringLiteral(".jsonl");
}

// The file is made at the first record written: a trace never mapped leaves none.
bool MapCache::open(const QString &traceHash)
{
    m_out.reset();
    m_path.clear();
    m_failed = false;
    m_seen = 0;
    if (traceHash.isEmpty())
        return false;
    m_path = pathOf(traceHash);
    return true;
}

// A line cut short (the window killed mid-write) or not ours is skipped: the budgets it held
// are simply unmapped again. Intervals of a walk whose range was never written are left out:
// there is nothing to draw them in.
std::map<QString, MapCache::Stored> MapCache::read(const QString &path, qint64 *bytesRead)
{
    std::ifstream in(path.toStdString());
    std::map<QString, Stored> maps;
    std::string line;
    qint64 bytes = 0;
    while (std::getline(in, line)) {
        if (in.eof())
            break; // a last line without its end is being written: read it next time
        bytes += static_cast<qint64>(line.size()) + 1;
        const nlohmann::ordered_json record = nlohmann::ordered_json::parse(line, nullptr, false);
        if (!record.is_object() || !record.contains("key") || !record["key"].is_string())
            continue;
        Stored &stored = maps[upgradedKey(QString::fromStdString(record["key"].get<std::string>()))];
        if (const auto range = record.find("range"); range != record.end() && range->is_array() && range->size() == 2 &&
                                                      (*range)[0].is_number_integer() && (*range)[1].is_number_integer())
            stored.ranges.push_back(ByteRange{(*range)[0].get<Bytes>(), (*range)[1].get<Bytes>()});
        else if (const auto interval = record.find("interval"); interval != record.end())
            if (std::optional<RunResult> r = mapRecordFromJson(*interval))
                stored.intervals.push_back(std::move(*r));
    }
    std::erase_if(maps, [](const auto &stored) { return stored.second.ranges.empty(); });
    if (bytesRead)
        *bytesRead = bytes;
    return maps;
}

qint64 MapCache::sizeOf(const QString &path)
{
    const QFileInfo file(path);
    return file.exists() ? file.size() : 0;
}

bool MapCache::changedElsewhere() const
{
    return !m_path.isEmpty() && sizeOf(m_path) != m_seen;
}

std::unique_ptr<QLockFile> MapCache::lockRow(const QString &key) const
{
    if (m_path.isEmpty() || !QDir().mkpath(directory()))
        return nullptr;
    const QString row = QString::fromLatin1(QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha1).toHex().left(16));
    auto lock = std::make_unique<QLockFile>(m_path + QLatin1Char('.') + row + QStringLiteral(".lock"));
    lock->setStaleLockTime(0); // held as long as its window maps; a crashed window's lock is stale at once
    return lock->tryLock(0) ? std::move(lock) : nullptr;
}

bool MapCache::append(const std::string &line)
{
    if (m_path.isEmpty() || m_failed)
        return false;
    if (!m_out) {
        if (QDir().mkpath(directory()))
            m_out = std::make_unique<std::ofstream>(m_path.toStdString(), std::ios::app);
        if (!m_out || !*m_out) {
            std::cerr << "rematlens: the map cache is unusable and stays off: cannot write " << m_path.toStdString()
                      << std::endl;
            m_out.reset();
            m_failed = true;
            return false;
        }
    }
    *m_out << line << '\n';
    m_out->flush();
    m_seen += static_cast<qint64>(line.size()) + 1;
    if (!*m_out) {
        std::cerr << "rematlens: the map cache stops: cannot write " << m_path.toStdString() << std::endl;
        m_out.reset();
        m_failed = true;
        return false;
    }
    return true;
}

void MapCache::storeRange(const QString &key, ByteRange range)
{
    nlohmann::ordered_json record;
    record["key"] = key.toStdString();
    record["range"] = {range.from, range.end};
    append(record.dump());
}

void MapCache::storeIntervals(const QString &key, const RunRequest &request, const std::vector<RunResult> &intervals,
                              const Baseline &baseline)
{
    const MapIdentity identity{request.trace, request.config.policy.name,
                               std::string(simrdRuntimeName(request.config.runtime)), request.overheadLimit, request.keep,
                               allocatorKey(request.config.allocator)};
    for (const RunResult &r : intervals) {
        nlohmann::ordered_json record;
        record["key"] = key.toStdString();
        record["interval"] = mapRecordToJson(identity, r, baseline);
        if (!append(record.dump()))
            return;
    }
}

} // namespace rematlens
