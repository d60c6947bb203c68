// rematlens holes: the request's report, as JSON or as text, on rank 0.
#include "commands.h"

#include "app/mpi/mpi_world.h"
#include "app/requests/holes_request.h"

namespace rematlens {

int runHolesCommand(const HolesOptions &options)
{
    const MpiWorld world;
    if (!world.problem().empty())
        return reportError(ExitBadInput, world.problem());
    const RequestOutcome outcome = executeHoles(options, world);
    return world.isRoot() ? printOutcome(outcome, options.json) : outcome.status;
}

} // namespace rematlens
