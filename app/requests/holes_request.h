#pragma once

#include "app/requests/grid_options.h"
#include "app/requests/request_outcome.h"

namespace rematlens {

class MpiWorld;

// holes: the feasibility holes of one policy over a budget grid (optionally checked for
// repeatability, sharpened to the byte and searched for holes narrower than the step), or with
// --exact those of the exact map. Across the ranks of `world` every rank calls it; rank 0's
// outcome holds the report, written to --out too when asked.
RequestOutcome executeHoles(const HolesOptions &options, const MpiWorld &world);

} // namespace rematlens
