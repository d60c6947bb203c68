#include "backward_closures.h"

#include <bit>

namespace rematlens {

BackwardClosures::BackwardClosures(const Program &program, MaterialFlags &flags, const std::vector<Cost> &compute)
    : m_program(program)
    , m_flags(flags)
    , m_compute(compute)
    , m_wordsPerSet((program.storages.size() + 63) / 64)
    , m_listed(m_wordsPerSet * 64)
    , m_closureOf(program.storages.size(), 0)
    , m_batchOf(program.storages.size(), 0)
    , m_state(program.storages.size(), 0)
{
}

bool BackwardClosures::worthwhile(const std::vector<Request> &requests) const
{
    // A bitmap union costs a word per 64 storages of the whole trace, so bitmaps only win on
    // traces of at most four thousand or so storages, and only when the regions are large
    // (measured on the public traces: ResNet-32, U-Net, Inception and the Transformer gain up
    // to 2.5x; the LSTMs and the unrolled GAN, with five thousand storages and regions that
    // overlap less, lose).
    if (m_wordsPerSet > 64)
        return false;
    std::size_t previous = 0;
    for (const Request &request : requests)
        previous += request.out->interior.size();
    return previous >= 4 * requests.size() * m_wordsPerSet;
}

std::uint32_t BackwardClosures::allocate()
{
    const auto offset = static_cast<std::uint32_t>(m_words.size());
    m_words.resize(m_words.size() + m_wordsPerSet, 0);
    return offset;
}

bool BackwardClosures::searchAll(const std::vector<Request> &requests, TensorId createdNow)
{
    ++m_batch;
    m_words.clear();
    m_closures.clear();
    for (const Request &request : requests)
        for (const StorageEdge &edge : m_program.storageNeighbours(request.base, false)) {
            if (edge.visibleFrom >= request.visibleBelow)
                break;
            if (!m_flags.material(edge.storage) && !computeClosure(edge.storage, createdNow))
                return false;
        }
    for (const Request &request : requests)
        fill(request);
    return true;
}

// Post-order over evicted storages: a closure is {s} plus the closures of its evicted backward
// neighbours; material neighbours (pinned ones aside) go to the frontier.
bool BackwardClosures::computeClosure(StorageId root, TensorId createdNow)
{
    if (m_batchOf[root] == m_batch && m_state[root] == 2)
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
            if (m_flags.material(u) || (m_batchOf[u] == m_batch && m_state[u] == 2))
                continue;
            if (m_batchOf[u] == m_batch && m_state[u] == 1) {
                m_stack.clear(); // a cycle
                return false;
            }
            enter(u);
            continue;
        }
        const Closure closure{allocate(), allocate()};
        Word *interior = bits(closure.interior);
        Word *frontier = bits(closure.frontier);
        interior[s / 64] |= Word{1} << (s % 64);
        for (const StorageEdge &edge : edges)
            merge(edge.storage, interior, frontier);
        m_closureOf[s] = static_cast<std::uint32_t>(m_closures.size());
        m_closures.push_back(closure);
        m_state[s] = 2;
        m_stack.pop_back();
    }
    return true;
}

// What a search passing from a storage to its neighbour u adds: u to the frontier when it is
// material (pinned ones aside), u's whole closure when it is evicted.
void BackwardClosures::merge(StorageId u, Word *interior, Word *frontier)
{
    if (m_flags.material(u)) {
        if (!m_flags.pinned(u))
            frontier[u / 64] |= Word{1} << (u % 64);
        return;
    }
    const Closure &theirs = m_closures[m_closureOf[u]];
    const Word *ti = bits(theirs.interior);
    const Word *tf = bits(theirs.frontier);
    for (std::size_t w = 0; w < m_wordsPerSet; ++w) {
        interior[w] |= ti[w];
        frontier[w] |= tf[w];
    }
}

void BackwardClosures::fill(const Request &request)
{
    std::vector<Word> &interior = m_interior;
    std::vector<Word> &frontier = m_frontier;
    interior.assign(m_wordsPerSet, 0);
    frontier.assign(m_wordsPerSet, 0);
    for (const StorageEdge &edge : m_program.storageNeighbours(request.base, false)) {
        if (edge.visibleFrom >= request.visibleBelow)
            break;
        merge(edge.storage, interior.data(), frontier.data());
    }
    frontier[request.base / 64] &= ~(Word{1} << (request.base % 64)); // the base is never its own frontier
    Region &out = *request.out;
    out.clear();
    out.adoptMembers(interior); // the bitmap an absorb into this region would build
    StorageId *listed = m_listed.data();
    Cost compute = 0;
    out.interior.assign(listed, listBits(interior, listed, &compute));
    out.compute = compute;
    out.frontier.assign(listed, listBits(frontier, listed, nullptr));
}

// Writes the storages of a bitmap in order and returns the end of the list; adds their
// compute to *sum when asked.
StorageId *BackwardClosures::listBits(const std::vector<Word> &bitmap, StorageId *out, Cost *sum) const
{
    Cost total = 0;
    const Cost *compute = m_compute.data();
    for (std::size_t w = 0; w < bitmap.size(); ++w)
        for (Word word = bitmap[w]; word != 0; word &= word - 1) {
            const auto s = static_cast<StorageId>(w * 64 + static_cast<std::size_t>(std::countr_zero(word)));
            *out++ = s;
            if (sum)
                total += compute[s];
        }
    if (sum)
        *sum += total;
    return out;
}

} // namespace rematlens
