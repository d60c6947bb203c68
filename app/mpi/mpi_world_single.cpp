// Builds without MPI: the world is always this one process.
#include "mpi_world.h"

#include <cstdlib>
#include <string>

namespace rematlens {

// Started as one of several ranks, each copy would run the whole sweep into the same file.
MpiWorld::MpiWorld()
{
    for (const char *variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
        if (const char *size = std::getenv(variable); size && std::atoi(size) > 1)
            m_problem = "started as one of " + std::string(size) + " MPI ranks, but this rematlens was built "
                        "without MPI (every rank would run the whole sweep): rebuild with libopenmpi-dev installed, "
                        "or use --shard";
}
MpiWorld::~MpiWorld() = default;

bool MpiWorld::allAgree(bool ok) const
{
    return ok;
}

void MpiWorld::broadcast(std::string &) const {}

void MpiWorld::send(int, int, const std::string &) const {}

std::optional<MpiWorld::Message> MpiWorld::receive() const
{
    return std::nullopt;
}

bool MpiWorld::launchedByMpi()
{
    return false;
}

} // namespace rematlens
