#include "mpi_world.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace rematlens {

bool MpiWorld::launchedByMpi()
{
    // Open MPI's mpirun, and srun with PMIx or PMI-2; Open MPI's singleton start would also work
    // without them, but costs a second and a helper process for nothing.
    for (const char *variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
        if (std::getenv(variable))
            return true;
    return false;
}

MpiWorld::MpiWorld()
{
    if (!launchedByMpi())
        return;
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        m_problem = "MPI did not start (MPI_Init_thread failed)";
        return;
    }
    m_started = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m_size);
    if (provided < MPI_THREAD_SERIALIZED && m_size > 1)
        m_problem = "this MPI library cannot be called from a second thread (MPI_THREAD_SERIALIZED)";
}

MpiWorld::~MpiWorld()
{
    if (m_started)
        MPI_Finalize();
}

bool MpiWorld::allAgree(bool ok) const
{
    if (!m_started)
        return ok;
    int mine = ok ? 1 : 0;
    int all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all == 1;
}

void MpiWorld::broadcast(std::string &bytes) const
{
    if (!m_started)
        return;
    std::uint64_t size = bytes.size();
    MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    bytes.resize(size);
    // MPI counts are ints: large payloads go in pieces.
    constexpr std::uint64_t piece = 1u << 30;
    for (std::uint64_t offset = 0; offset < size; offset += piece)
        MPI_Bcast(bytes.data() + offset, static_cast<int>(std::min(piece, size - offset)), MPI_BYTE, 0, MPI_COMM_WORLD);
}

void MpiWorld::send(int rank, int tag, const std::string &bytes) const
{
    MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, rank, tag, MPI_COMM_WORLD);
}

std::optional<MpiWorld::Message> MpiWorld::receive() const
{
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
    if (!arrived)
        return std::nullopt;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    Message message{status.MPI_SOURCE, status.MPI_TAG, std::string(static_cast<std::size_t>(count), '\0')};
    MPI_Recv(message.bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    return message;
}

} // namespace rematlens
