#pragma once

#include "mpi_world.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>

namespace rematlens {

// Runs work items 0..N-1 on every rank of an MPI world and gathers their results, as byte
// strings, on rank 0. Items differ in cost by orders of magnitude, so nothing is split in
// advance: rank 0 keeps a counter and hands out small chunks of item numbers to ranks that ask
// (it works on them too), shrinking the chunks as the end nears. Each rank runs its items on
// `threads` threads of oneTBB. Every rank calls run() with the same item count; with one rank it
// all happens in this process.
//
// Test-only: REMATLENS_TEST_KILL_RANK=R:K makes rank R (R > 0) report only its first K results
// and kill itself with SIGKILL when no items are left, holding the others, so tests can check
// that a job losing a rank fails and stays resumable.
class WorkDistributor {
public:
    // Runs item i on some rank, on one of its threads, and returns its result. Runs in flight
    // may end early once *stop turns true; their results are then not used.
    using RunItem = std::function<std::string(std::size_t item, const std::atomic<bool> *stop)>;
    // Rank 0 only: each item's result, one call at a time, in the order they arrive.
    using OnResult = std::function<void(std::size_t item, std::string &&result)>;

    enum class Ending { Finished, Cancelled };

    WorkDistributor(const MpiWorld &world, int threads);

    // Ends Cancelled when *cancel turns true on any rank (or rank 0 tells the others to stop).
    Ending run(std::size_t items, const RunItem &runItem, const OnResult &onResult, const std::atomic<bool> *cancel);

    int threads() const { return m_threads; }

private:
    const MpiWorld &m_world;
    int m_threads;
};

} // namespace rematlens
