// rematlens explain: the request's story, as JSON or as text.
#include "commands.h"

#include "app/requests/explain_request.h"

#include <iostream>

namespace rematlens {

int runExplainCommand(const ExplainOptions &options)
{
    return printOutcome(executeExplain(options), options.json);
}

} // namespace rematlens
