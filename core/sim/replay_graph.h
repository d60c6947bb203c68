#pragma once

#include "../trace/program.h"

#include <span>
#include <vector>

namespace rematlens {

// The tensor graph as one replay sees it: only tensors created so far are visible. The banishing
// runtime edits parent and child lists (it detaches banished tensors), so in that mode each run
// keeps its own copies; otherwise the program's shared lists are read directly.
class ReplayGraph {
public:
    ReplayGraph(const Program &program, bool editable);

    // Makes the outputs of op visible (simrd's Tensor.from_op).
    void create(OpId op);

    std::span<const TensorId> parents(TensorId t) const;
    std::span<const TensorId> children(TensorId t) const;
    std::span<const TensorId> tensorsOf(StorageId s) const;

    bool editable() const { return m_editable; }
    TensorId created() const { return m_created; }
    std::vector<TensorId> &editableParents(TensorId t) { return m_parents[t]; }
    std::vector<TensorId> &editableChildren(TensorId t) { return m_children[t]; }

    // The same tensors visible, with the same edges.
    bool sameEdges(const ReplayGraph &other) const
    {
        return m_created == other.m_created && m_parents == other.m_parents && m_children == other.m_children;
    }

    // Python's list.remove: drops the first occurrence, if any.
    static void removeFirst(std::vector<TensorId> &list, TensorId t);

private:
    std::span<const TensorId> visiblePrefix(std::span<const TensorId> ids) const;

    const Program &m_program;
    bool m_editable;
    TensorId m_created = 0;
    std::vector<std::vector<TensorId>> m_parents;
    std::vector<std::vector<TensorId>> m_children;
};

} // namespace rematlens
