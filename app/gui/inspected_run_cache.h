#pragma once

#include "core/analysis/inspected_run.h"

#include <list>
#include <memory>
#include <mutex>
#include <string>

namespace rematlens {

// The last few recorded runs of one program, so clicking back and forth between budgets (and
// the neighbours prefetched while the user looks) shows at once. Safe to share across threads.
class InspectedRunCache {
public:
    explicit InspectedRunCache(std::size_t capacity = 8) : m_capacity(capacity) {}

    std::shared_ptr<const InspectedRun> find(const Program *program, const RunRequest &request);
    // Unfinished (cancelled or timed out) runs are not kept.
    void insert(const Program *program, std::shared_ptr<const InspectedRun> run);
    void clear();
    std::size_t size() const;

    // What makes two requests the same replay.
    static std::string keyOf(const RunRequest &request);

private:
    struct Entry {
        std::string key;
        std::shared_ptr<const InspectedRun> run;
    };

    mutable std::mutex m_mutex;
    const Program *m_program = nullptr;
    std::list<Entry> m_entries; // most recently used first
    std::size_t m_capacity;
};

} // namespace rematlens
