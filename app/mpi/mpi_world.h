#pragma once

#include <optional>
#include <string>

namespace rematlens {

// The processes of the MPI job this one belongs to. MPI starts only when an MPI launcher
// (mpirun, srun with PMI/PMIx) started this process, so a plain run, the GUI included, never
// touches MPI and behaves exactly as a build without it; there, as in builds without MPI, the
// world is this one process. Messages are byte strings with a tag; receive() never blocks.
// MPI calls may come from any one thread at a time (MPI_THREAD_SERIALIZED).
class MpiWorld {
public:
    struct Message {
        int source = 0;
        int tag = 0;
        std::string bytes;
    };

    MpiWorld();
    ~MpiWorld();
    MpiWorld(const MpiWorld &) = delete;
    MpiWorld &operator=(const MpiWorld &) = delete;

    int rank() const { return m_rank; }
    int size() const { return m_size; }
    bool isRoot() const { return m_rank == 0; }
    bool distributed() const { return m_size > 1; }
    // Empty when MPI started (or was not needed); else why it could not, for the caller to report.
    const std::string &problem() const { return m_problem; }

    // True on every rank when every rank says ok: a collective, every rank must call it.
    bool allAgree(bool ok) const;
    // Rank 0's bytes on every rank: a collective.
    void broadcast(std::string &bytes) const;
    void send(int rank, int tag, const std::string &bytes) const;
    std::optional<Message> receive() const;

    // True when an MPI launcher started this process (its environment says so).
    static bool launchedByMpi();

private:
    int m_rank = 0;
    int m_size = 1;
    bool m_started = false;
    std::string m_problem;
};

} // namespace rematlens
