#include "inspected_run_cache.h"

#include "core/sim/run_identity.h"

namespace rematlens {

// The run's identity: the trace is the cache's program already.
std::string InspectedRunCache::keyOf(const RunRequest &request)
{
    return runIdentityOf({}, request).key();
}

std::shared_ptr<const InspectedRun> InspectedRunCache::find(const Program *program, const RunRequest &request)
{
    const std::string key = keyOf(request);
    const std::lock_guard lock(m_mutex);
    if (program != m_program)
        return nullptr;
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        if (it->key == key) {
            m_entries.splice(m_entries.begin(), m_entries, it);
            return m_entries.front().run;
        }
    }
    return nullptr;
}

void InspectedRunCache::insert(const Program *program, std::shared_ptr<const InspectedRun> run)
{
    if (!run || !isResolved(run->result.outcome))
        return;
    std::string key = keyOf(run->request);
    const std::lock_guard lock(m_mutex);
    if (program != m_program) {
        m_entries.clear();
        m_program = program;
    }
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
        if (it->key == key) {
            m_entries.erase(it);
            break;
        }
    m_entries.push_front(Entry{std::move(key), std::move(run)});
    if (m_entries.size() > m_capacity)
        m_entries.pop_back();
}

void InspectedRunCache::clear()
{
    const std::lock_guard lock(m_mutex);
    m_entries.clear();
    m_program = nullptr;
}

std::size_t InspectedRunCache::size() const
{
    const std::lock_guard lock(m_mutex);
    return m_entries.size();
}

} // namespace rematlens
