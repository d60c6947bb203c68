#pragma once

#include "../trace/program.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace rematlens {

// Union-find over evicted storages for DTR's equivalence-class heuristic: each class holds the
// summed compute of its members. Nodes are never freed during a run; a rematerialized storage
// simply stops pointing at its node.
class EqClassForest {
public:
    using Node = std::uint32_t;

    Node make(Cost value)
    {
        m_parent.push_back(static_cast<Node>(m_parent.size()));
        m_value.push_back(value);
        return static_cast<Node>(m_parent.size() - 1);
    }

    Node root(Node n)
    {
        const Node r = rootOf(n);
        while (m_parent[n] != r) { // path compression
            Node next = m_parent[n];
            m_parent[n] = r;
            n = next;
        }
        return r;
    }

    std::size_t size() const { return m_parent.size(); }
    Cost value(Node n) { return m_value[root(n)]; }
    void setValue(Node n, Cost v) { m_value[root(n)] = v; }

    // Attaches lhs's class under rhs's root, summing their values (simrd's merge order).
    void merge(Node lhs, Node rhs)
    {
        const Node l = root(lhs);
        const Node r = root(rhs);
        if (l == r)
            return;
        m_parent[l] = r;
        m_value[r] += m_value[l];
    }

    // Whether the storages holding nodes (mine here, theirs in other) fall into classes alike,
    // class for class of equal value, however each forest grew: two runs that evicted and
    // recomputed differently can meet with different nodes and paths yet score alike from then on.
    // Both lists hold a node or kNoNode per storage.
    bool sameClasses(const std::vector<Node> &mine, const EqClassForest &other, const std::vector<Node> &theirs,
                     Node kNoNode) const
    {
        if (mine.size() != theirs.size())
            return false;
        std::vector<std::pair<Node, Node>> roots; // (my root, their root), one per storage with a node
        for (std::size_t s = 0; s < mine.size(); ++s) {
            if ((mine[s] == kNoNode) != (theirs[s] == kNoNode))
                return false;
            if (mine[s] != kNoNode)
                roots.emplace_back(rootOf(mine[s]), other.rootOf(theirs[s]));
        }
        std::sort(roots.begin(), roots.end());
        roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
        for (std::size_t i = 0; i < roots.size(); ++i)
            if ((i > 0 && roots[i].first == roots[i - 1].first) ||
                m_value[roots[i].first] != other.m_value[roots[i].second])
                return false; // one class of mine is two of theirs, or their values differ
        std::sort(roots.begin(), roots.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
        for (std::size_t i = 1; i < roots.size(); ++i)
            if (roots[i].second == roots[i - 1].second)
                return false; // two classes of mine are one of theirs
        return true;
    }

private:
    Node rootOf(Node n) const // without compressing: comparing leaves both forests as they are
    {
        while (m_parent[n] != n)
            n = m_parent[n];
        return n;
    }

    std::vector<Node> m_parent;
    std::vector<Cost> m_value;
};

} // namespace rematlens
