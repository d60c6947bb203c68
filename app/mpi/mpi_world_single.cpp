// Builds without MPI: the world is always this one process.
#include "mpi_world.h"

namespace rematlens {

MpiWorld::MpiWorld() = default;
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
