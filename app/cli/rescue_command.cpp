// rematlens rescue: the request's list of rescues, as JSON or as text, on rank 0.
#include "commands.h"

#include "app/mpi/mpi_world.h"
#include "app/requests/rescue_request.h"

namespace rematlens {

int runRescueCommand(const RescueOptions &options)
{
    const MpiWorld world;
    if (!world.problem().empty())
        return reportError(ExitBadInput, world.problem());
    const RequestOutcome outcome = executeRescue(options, world);
    return world.isRoot() ? printOutcome(outcome, options.json) : outcome.status;
}

} // namespace rematlens
