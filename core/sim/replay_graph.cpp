#include "replay_graph.h"

#include <algorithm>

namespace rematlens {

ReplayGraph::ReplayGraph(const Program &program, bool editable) : m_program(program), m_editable(editable)
{
    if (editable) {
        m_parents.resize(program.tensors.size());
        m_children.resize(program.tensors.size());
    }
}

void ReplayGraph::create(OpId op)
{
    const OpInfo &info = m_program.ops[op];
    m_created = info.firstOutput + info.outputCount;
    if (!m_editable)
        return;
    const std::span<const TensorId> args(m_program.args.data() + info.firstArg, info.argCount);
    for (std::uint32_t i = 0; i < info.outputCount; ++i)
        m_parents[info.firstOutput + i].assign(args.begin(), args.end());
    for (TensorId arg : args)
        for (std::uint32_t i = 0; i < info.outputCount; ++i)
            m_children[arg].push_back(info.firstOutput + i);
}

std::span<const TensorId> ReplayGraph::visiblePrefix(std::span<const TensorId> ids) const
{
    // Lists are in creation order, so the tensors created so far form a prefix.
    if (ids.empty() || ids.back() < m_created)
        return ids;
    auto end = std::lower_bound(ids.begin(), ids.end(), m_created);
    return ids.first(static_cast<std::size_t>(end - ids.begin()));
}

std::span<const TensorId> ReplayGraph::parents(TensorId t) const
{
    return m_editable ? std::span<const TensorId>(m_parents[t]) : m_program.parentsOf(t);
}

std::span<const TensorId> ReplayGraph::children(TensorId t) const
{
    return m_editable ? std::span<const TensorId>(m_children[t]) : visiblePrefix(m_program.childrenOf(t));
}

std::span<const TensorId> ReplayGraph::tensorsOf(StorageId s) const
{
    return visiblePrefix(m_program.tensorsOf(s));
}

void ReplayGraph::removeFirst(std::vector<TensorId> &list, TensorId t)
{
    auto it = std::find(list.begin(), list.end(), t);
    if (it != list.end())
        list.erase(it);
}

} // namespace rematlens
