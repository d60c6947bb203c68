#pragma once

#include "app/requests/request_outcome.h"
#include "app/requests/run_options.h"

namespace rematlens {

class MpiWorld;

// rescue: which single storage the policy evicted, kept resident, turns a failing run into a
// passing one (best first). Across the ranks of `world` every rank calls it; rank 0's outcome
// holds the list.
RequestOutcome executeRescue(const RescueOptions &options, const MpiWorld &world);

} // namespace rematlens
