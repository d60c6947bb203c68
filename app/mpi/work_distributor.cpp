#include "work_distributor.h"

#include "byte_pack.h"

#include "local_work_queue.h"

#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace rematlens {

namespace {

enum Tag { TagRequest = 1, TagChunk = 2, TagResults = 3, TagStop = 4 };

// How long the talking thread sleeps when nothing happens: short next to any run, long enough
// not to steal a core from the runs.
constexpr std::chrono::microseconds kIdleWait{200};
// A rank asks for about this much work per thread at a time (by its runs' mean time so far), so
// that quick runs do not each cost a message to rank 0 and back.
constexpr double kSecondsPerRequest = 0.05;
constexpr std::size_t kMaxItemsPerThread = 1024;

// The mean time of this rank's runs so far, for sizing its requests.
class RunClock {
public:
    void add(std::chrono::steady_clock::duration time)
    {
        m_nanoseconds += static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(time).count());
        ++m_runs;
    }
    // Items that keep `threads` threads busy for about kSecondsPerRequest; `threads` before any run.
    std::size_t itemsFor(std::size_t threads) const
    {
        const std::uint64_t runs = m_runs.load();
        if (runs == 0)
            return threads;
        const double mean = static_cast<double>(m_nanoseconds.load()) * 1e-9 / static_cast<double>(runs);
        const double items = static_cast<double>(threads) * kSecondsPerRequest / std::max(mean, 1e-9);
        return std::clamp(static_cast<std::size_t>(items), threads, threads * kMaxItemsPerThread);
    }

private:
    std::atomic<std::uint64_t> m_nanoseconds{0};
    std::atomic<std::uint64_t> m_runs{0};
};

std::string packResults(const std::vector<LocalWorkQueue::Result> &results)
{
    std::string bytes;
    for (const auto &[item, result] : results) {
        putNumber(bytes, item);
        putNumber(bytes, result.size());
        bytes += result;
    }
    return bytes;
}

template <typename Handler>
void unpackResults(const std::string &bytes, const Handler &handle)
{
    for (std::size_t offset = 0; offset < bytes.size();) {
        const std::size_t item = getNumber(bytes, offset);
        const std::size_t size = getNumber(bytes, offset);
        handle(item, bytes.substr(offset, size));
        offset += size;
    }
}

// REMATLENS_TEST_KILL_RANK=R:K (tests only): rank R reports K results, keeps the rest, and dies
// by SIGKILL once rank 0 has no more items for it. Dying at the end rather than at the next item
// makes the loss sure whatever the timing: a rank may be handed only one item.
std::optional<std::size_t> testKillAfter(int rank)
{
    const char *setting = std::getenv("REMATLENS_TEST_KILL_RANK");
    int killRank = -1;
    unsigned long long after = 0;
    if (!setting || std::sscanf(setting, "%d:%llu", &killRank, &after) != 2 || killRank != rank)
        return std::nullopt;
    return static_cast<std::size_t>(after);
}

// Rank 0's item counter: chunks as large as asked while much is left, one item at a time near
// the end, so no rank sits on a pile of items while the others are idle.
class ItemCounter {
public:
    ItemCounter(std::size_t items, int ranks) : m_items(items), m_ranks(static_cast<std::size_t>(ranks)) {}

    std::pair<std::size_t, std::size_t> take(std::size_t wanted)
    {
        const std::size_t left = m_items - m_next;
        const std::size_t count = std::min(left, std::clamp<std::size_t>(left / (2 * m_ranks), 1, std::max<std::size_t>(wanted, 1)));
        const std::size_t first = m_next;
        m_next += count;
        return {first, count};
    }
    bool exhausted() const { return m_next == m_items; }

private:
    std::size_t m_items;
    std::size_t m_ranks;
    std::size_t m_next = 0;
};

struct Session {
    const MpiWorld &world;
    std::size_t threads;
    LocalWorkQueue &queue;
    std::atomic<bool> &stop;
    const std::atomic<bool> *cancel;
    const RunClock &clock;

    bool cancelled() const { return (cancel && cancel->load()) || stop.load(); }
};

std::string chunkMessage(std::pair<std::size_t, std::size_t> chunk)
{
    std::string bytes;
    putNumber(bytes, chunk.first);
    putNumber(bytes, chunk.second);
    return bytes;
}

// Rank 0: hands out chunks, works on its own, passes every result on; until every item's result
// is in and every other rank has been told there is nothing left.
WorkDistributor::Ending serve(Session &s, std::size_t items, const WorkDistributor::OnResult &onResult)
{
    ItemCounter counter(items, s.world.size());
    std::vector<bool> released(static_cast<std::size_t>(s.world.size()), false);
    int stillWorking = s.world.size() - 1;
    std::size_t received = 0;
    while (received < items || stillWorking > 0) {
        if (s.cancelled()) {
            s.stop = true;
            s.queue.abandon();
            for (int rank = 1; rank < s.world.size(); ++rank)
                if (!released[static_cast<std::size_t>(rank)])
                    s.world.send(rank, TagStop, {});
            return WorkDistributor::Ending::Cancelled;
        }
        if (s.queue.waiting() < s.threads && !counter.exhausted()) {
            const auto [first, count] = counter.take(s.clock.itemsFor(s.threads));
            s.queue.add(first, count);
        }
        if (counter.exhausted())
            s.queue.close();
        bool busy = false;
        while (std::optional<MpiWorld::Message> message = s.world.receive()) {
            busy = true;
            if (message->tag == TagRequest) {
                std::size_t offset = 0;
                const auto chunk = counter.take(getNumber(message->bytes, offset));
                s.world.send(message->source, TagChunk, chunkMessage(chunk));
                if (chunk.second == 0 && !released[static_cast<std::size_t>(message->source)]) {
                    released[static_cast<std::size_t>(message->source)] = true;
                    --stillWorking;
                }
            } else if (message->tag == TagResults) {
                unpackResults(message->bytes, [&](std::size_t item, std::string &&result) {
                    onResult(item, std::move(result));
                    ++received;
                });
            }
        }
        for (LocalWorkQueue::Result &result : s.queue.takeResults()) {
            busy = true;
            onResult(result.first, std::move(result.second));
            ++received;
        }
        if (!busy)
            s.queue.awaitResult(kIdleWait);
    }
    return WorkDistributor::Ending::Finished;
}

// Any other rank: asks for a chunk while its threads have less than a chunk waiting, sends
// results as they come, and ends when rank 0 has nothing left and its own threads are done.
WorkDistributor::Ending work(Session &s)
{
    const std::optional<std::size_t> killAfter = testKillAfter(s.world.rank());
    bool asked = false;
    bool exhausted = false;
    std::size_t sent = 0;
    std::size_t withheld = 0;
    while (!s.queue.drained()) {
        if (s.cancelled()) {
            s.stop = true;
            s.queue.abandon();
            return WorkDistributor::Ending::Cancelled;
        }
        if (!exhausted && !asked && s.queue.waiting() < s.threads) {
            std::string wanted;
            putNumber(wanted, s.clock.itemsFor(s.threads));
            s.world.send(0, TagRequest, wanted);
            asked = true;
        }
        bool busy = false;
        while (std::optional<MpiWorld::Message> message = s.world.receive()) {
            busy = true;
            if (message->tag == TagStop) {
                s.stop = true;
                s.queue.abandon();
                return WorkDistributor::Ending::Cancelled;
            }
            if (message->tag == TagChunk) {
                std::size_t offset = 0;
                const std::size_t first = getNumber(message->bytes, offset);
                const std::size_t count = getNumber(message->bytes, offset);
                asked = false;
                if (count == 0) {
                    exhausted = true;
                    s.queue.close();
                } else {
                    s.queue.add(first, count);
                }
            }
        }
        const std::vector<LocalWorkQueue::Result> results = s.queue.takeResults();
        if (!results.empty()) {
            busy = true;
            if (killAfter && sent + results.size() > *killAfter) {
                withheld += results.size();
            } else {
                s.world.send(0, TagResults, packResults(results));
                sent += results.size();
            }
        }
        if (!busy)
            s.queue.awaitResult(kIdleWait);
    }
    if (withheld > 0)
        std::raise(SIGKILL); // dies holding finished work it never reported
    return WorkDistributor::Ending::Finished;
}

} // namespace

WorkDistributor::WorkDistributor(const MpiWorld &world, int threads)
    : m_world(world), m_threads(threads > 0 ? threads : tbb::this_task_arena::max_concurrency())
{
}

WorkDistributor::Ending WorkDistributor::run(std::size_t items, const RunItem &runItem, const OnResult &onResult,
                                             const std::atomic<bool> *cancel)
{
    LocalWorkQueue queue;
    std::atomic<bool> stop{false};
    RunClock clock;
    Session session{m_world, static_cast<std::size_t>(m_threads), queue, stop, cancel, clock};
    Ending ending = Ending::Finished;
    // One thread talks to the other ranks; this one lends itself to the arena that runs the items.
    std::thread talker([&] {
        ending = m_world.isRoot() ? serve(session, items, onResult) : work(session);
        queue.abandon();
    });
    tbb::task_arena arena(m_threads);
    arena.execute([&] {
        tbb::parallel_for(
            0, m_threads,
            [&](int) {
                while (const std::optional<std::size_t> item = queue.take()) {
                    const auto started = std::chrono::steady_clock::now();
                    std::string result = runItem(*item, &stop);
                    clock.add(std::chrono::steady_clock::now() - started);
                    queue.complete(*item, std::move(result));
                }
            },
            tbb::simple_partitioner());
    });
    talker.join();
    return ending;
}

} // namespace rematlens
