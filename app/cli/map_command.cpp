// rematlens map: every budget of a range classified exactly, interval by interval.
#include "commands.h"
#include "app/requests/request_reporter.h"
#include "app/requests/exact_map.h"
#include "app/reports/map_report.h"

#include "app/mpi/mpi_world.h"

#include <iostream>

namespace rematlens {

int runMapCommand(const MapOptions &options)
{
    const MpiWorld world;
    if (!world.problem().empty())
        return reportError(ExitBadInput, world.problem());
    ExactMap map;
    if (const int status = makeExactMap(options, map, &world); status != ExitOk)
        return status;
    if (!world.isRoot())
        return map.interrupted ? ExitInterrupted : ExitOk;
    if (options.json)
        std::cout << exactMapJson(map, options.outPath.empty()).dump(2) << std::endl;
    else
        std::cout << exactMapText(map, options.outPath);
    if (map.interrupted) {
        std::cerr << "map: interrupted; what is unmapped is listed as such. Rerun the same command with --out to "
                     "resume."
                  << std::endl;
        return ExitInterrupted;
    }
    return ExitOk;
}

} // namespace rematlens
