#pragma once

#include "app/requests/request_outcome.h"
#include "app/requests/run_options.h"

namespace rematlens {

// explain: why a hole exists, told at both its edges (from a budget inside it, or a passing and
// a failing budget, or --pair-only the story of those two alone), or every hole of a saved map
// classified by the mechanism that opens it (one of them told with --hole K).
RequestOutcome executeExplain(const ExplainOptions &options);

} // namespace rematlens
