#pragma once

#include "../trace/program.h"

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
        Node r = n;
        while (m_parent[r] != r)
            r = m_parent[r];
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

    // Alike node for node (two forests of one partition may still differ in their paths).
    bool operator==(const EqClassForest &) const = default;

private:
    std::vector<Node> m_parent;
    std::vector<Cost> m_value;
};

} // namespace rematlens
