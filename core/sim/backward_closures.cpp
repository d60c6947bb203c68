#include "backward_closures.h"

#include <bit>

namespace rematlens {

BackwardClosures::BackwardClosures(const Program &program, MaterialFlags &flags, const std::vector<Cost> &compute)
    : m_program(program)
    , m_flags(flags)
    , m_sums(compute)
    , m_wordsPerSet((program.storages.size() + 63) / 64)
{
}

// Sized at the first batch, not at construction: most copies of a replay (the map walker's
// copies along its path) never resolve a batch.
void BackwardClosures::prepareScratch()
{
    if (!m_state.empty())
        return;
    const std::size_t storages = m_program.storages.size();
    m_interior.assign(m_wordsPerSet, 0);
    m_frontier.assign(m_wordsPerSet, 0);
    m_changed.assign(m_wordsPerSet, 0);
    m_closureOf.assign(storages, 0);
    m_batchOf.assign(storages, 0);
    m_state.assign(storages, 0);
}

bool BackwardClosures::worthwhile(std::size_t previousSize, std::size_t requests) const
{
    // Building the closures costs a bitmap union per evicted storage met, over the words its
    // closure spans, so they only win on traces of at most four thousand or so storages, and
    // only when the regions are large (measured on the public traces: ResNet-32, U-Net,
    // Inception and the Transformer gain up to 2.5x; on the LSTMs, whose closures span most of
    // the trace, they lose up to 2.7x to SharedBackwardSearch, and on the unrolled GAN they do
    // no better than it).
    if (m_wordsPerSet > 64)
        return false;
    return previousSize >= 4 * requests * m_wordsPerSet;
}

std::uint32_t BackwardClosures::allocate(std::uint32_t words)
{
    const auto offset = static_cast<std::uint32_t>(m_words.size());
    m_words.resize(m_words.size() + words, 0);
    return offset;
}

bool BackwardClosures::searchAll(const std::vector<Request> &requests, TensorId createdNow)
{
    prepareScratch();
    ++m_batch;
    if (m_words.size() > kArenaWords) { // start afresh: no closure is carried into this batch
        m_words.clear();
        m_closures.clear();
        ++m_batch;
    }
    bool complete = true;
    for (const Request &request : requests) {
        for (const StorageEdge &edge : m_program.storageNeighbours(request.base, false)) {
            if (edge.visibleFrom >= request.visibleBelow)
                break;
            if (!m_flags.material(edge.storage) && !computeClosure(edge.storage, createdNow)) {
                complete = false;
                break;
            }
        }
        if (!complete)
            break;
    }
    m_previousComplete = complete;
    std::fill(m_changed.begin(), m_changed.end(), Word{0});
    if (!complete)
        return false;
    for (const Request &request : requests)
        fill(request);
    return true;
}

bool BackwardClosures::carry(StorageId s)
{
    if (!m_previousComplete || m_batchOf[s] != m_batch - 1 || m_state[s] != 2)
        return false;
    const Closure &closure = m_closures[m_closureOf[s]];
    const std::uint32_t width = closure.span.high - closure.span.low;
    const Word *held = bits(closure.offset); // interior, then frontier
    const Word *changed = m_changed.data() + closure.span.low;
    for (std::uint32_t i = 0; i < width; ++i)
        if (((held[i] | held[width + i]) & changed[i]) != 0)
            return false;
    m_batchOf[s] = m_batch;
    return true;
}

// Post-order over evicted storages: a closure is {s} plus the closures of its evicted backward
// neighbours; material neighbours (pinned ones aside) go to the frontier.
bool BackwardClosures::computeClosure(StorageId root, TensorId createdNow)
{
    if (done(root) || carry(root))
        return true;
    auto enter = [&](StorageId s) {
        m_batchOf[s] = m_batch;
        m_state[s] = 1;
        m_stack.emplace_back(s, 0);
    };
    enter(root);
    while (!m_stack.empty()) {
        auto &[s, next] = m_stack.back();
        auto edges = m_program.storageNeighbours(s, false);
        while (!edges.empty() && edges.back().visibleFrom >= createdNow) // tensors not created yet
            edges = edges.first(edges.size() - 1);
        if (next < edges.size()) {
            const StorageId u = edges[next++].storage;
            if (m_flags.material(u) || done(u))
                continue;
            if (m_batchOf[u] == m_batch && m_state[u] == 1) {
                m_stack.clear(); // a cycle
                return false;
            }
            if (!carry(u))
                enter(u);
            continue;
        }
        Closure closure{0, {}};
        closure.span.widen(s / 64, s / 64 + 1);
        for (const StorageEdge &edge : edges) {
            const Span theirs = spanOf(edge.storage);
            if (theirs.high > theirs.low)
                closure.span.widen(theirs.low, theirs.high);
        }
        const std::uint32_t width = closure.span.high - closure.span.low;
        closure.offset = allocate(2 * width);
        const Target target{bits(closure.offset), bits(closure.offset + width), closure.span.low};
        target.interior[s / 64 - target.low] |= Word{1} << (s % 64);
        for (const StorageEdge &edge : edges)
            merge(edge.storage, target);
        m_closureOf[s] = static_cast<std::uint32_t>(m_closures.size());
        m_closures.push_back(closure);
        m_state[s] = 2;
        m_stack.pop_back();
    }
    return true;
}

BackwardClosures::Span BackwardClosures::spanOf(StorageId u) const
{
    if (!m_flags.material(u))
        return m_closures[m_closureOf[u]].span;
    if (m_flags.pinned(u))
        return {};
    return {u / 64, u / 64 + 1};
}

// What a search passing from a storage to its neighbour u adds: u to the frontier when it is
// material (pinned ones aside), u's whole closure when it is evicted.
void BackwardClosures::merge(StorageId u, const Target &target)
{
    if (m_flags.material(u)) {
        if (!m_flags.pinned(u))
            target.frontier[u / 64 - target.low] |= Word{1} << (u % 64);
        return;
    }
    const Closure &theirs = m_closures[m_closureOf[u]];
    const std::uint32_t width = theirs.span.high - theirs.span.low;
    const Word *ti = bits(theirs.offset);
    const Word *tf = ti + width;
    Word *interior = target.interior + (theirs.span.low - target.low);
    Word *frontier = target.frontier + (theirs.span.low - target.low);
    for (std::uint32_t i = 0; i < width; ++i) {
        interior[i] |= ti[i];
        frontier[i] |= tf[i];
    }
}

// The scratch bitmaps are zero on entry and left zero.
void BackwardClosures::fill(const Request &request)
{
    const Target target{m_interior.data(), m_frontier.data(), 0};
    Span span;
    for (const StorageEdge &edge : m_program.storageNeighbours(request.base, false)) {
        if (edge.visibleFrom >= request.visibleBelow)
            break;
        const Span theirs = spanOf(edge.storage);
        if (theirs.high > theirs.low)
            span.widen(theirs.low, theirs.high);
        merge(edge.storage, target);
    }
    Word *interior = target.interior;
    Word *frontier = target.frontier;
    frontier[request.base / 64] &= ~(Word{1} << (request.base % 64)); // the base is never its own frontier
    Region &out = *request.out;
    out.clear();
    out.interiorFor(m_program.storages.size()).assign(interior, span.low, span.high);
    out.compute = m_sums.sum(interior, span.low, span.high);
    out.frontierFor(m_program.storages.size()).assign(frontier, span.low, span.high);
    std::fill(interior + span.low, interior + span.high, Word{0});
    std::fill(frontier + span.low, frontier + span.high, Word{0});
}

} // namespace rematlens
