// RuntimeV1 (banishing): a storage with no external references and no evicted dependents is
// freed for good, detached from the graph, and its children are pinned.
#include "replay.h"

#include <algorithm>

namespace rematlens {

void Replay::insertValue(std::vector<TensorId> &set, TensorId t)
{
    auto it = std::lower_bound(set.begin(), set.end(), t);
    if (it == set.end() || *it != t)
        set.insert(it, t);
}

void Replay::eraseValue(std::vector<TensorId> &set, TensorId t)
{
    auto it = std::lower_bound(set.begin(), set.end(), t);
    if (it != set.end() && *it == t)
        set.erase(it);
}

// Every new output is an evicted dependent of its arguments' storages until it is computed.
void Replay::addEvictedDependents(OpId op)
{
    const OpInfo &info = m_program.ops[op];
    for (TensorId t = info.firstOutput; t < info.firstOutput + info.outputCount; ++t) {
        const StorageId s = m_program.storageOf(t);
        if (!m_program.tensors[t].isAlias)
            m_evictedDependents[s].clear();
        for (TensorId p : m_graph.parents(t))
            if (m_program.storageOf(p) != s)
                insertValue(m_evictedDependents[m_program.storageOf(p)], t);
    }
}

// simrd walks t's parent list while banishing may remove entries from that same list; like
// a Python for loop over a list, the walk goes by index, so a removal skips the next parent
// (which then keeps its lock). Reproducing that keeps results identical.
void Replay::unlockParentsBanishing(TensorId t)
{
    std::vector<TensorId> &parents = m_graph.editableParents(t);
    for (std::size_t i = 0; i < parents.size(); ++i) {
        const StorageId ps = m_program.storageOf(parents[i]);
        unlock(ps);
        for (TensorId u : m_rematSiblings)
            if (m_program.storageOf(u) != ps)
                eraseValue(m_evictedDependents[ps], u);
        if (m_program.storageOf(t) != ps)
            eraseValue(m_evictedDependents[ps], t);
        tryBanish(ps);
    }
}

void Replay::tryBanish(StorageId s)
{
    if (m_externalRefs[s] > 0 || !m_evictedDependents[s].empty())
        return;
    if (material(s)) {
        if (m_locks[s] > 0)
            m_lockedBytes -= m_program.storages[s].size;
        m_locks[s] = 0;
        evict(s, EvictCause::Release);
    }
    for (TensorId t : m_graph.tensorsOf(s)) {
        for (TensorId p : m_graph.editableParents(t)) {
            const StorageId ps = m_program.storageOf(p);
            if (ps == s)
                continue;
            eraseValue(m_evictedDependents[ps], t);
            ReplayGraph::removeFirst(m_graph.editableChildren(p), t);
        }
        const std::vector<TensorId> &children = m_graph.editableChildren(t);
        for (std::size_t i = 0; i < children.size(); ++i) {
            const TensorId c = children[i];
            if (m_program.storageOf(c) == s)
                continue;
            ReplayGraph::removeFirst(m_graph.editableParents(c), t);
            pin(c);
        }
    }
}

} // namespace rematlens
