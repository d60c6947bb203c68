#pragma once

#include "app/requests/request_reporter.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rematlens {

// What a request gives back to the face that asked: its exit status (ExitOk, or why it stopped,
// reported already), and its result both as JSON (the command line's --json, the Python
// module's data) and as the text the command line prints.
struct RequestOutcome {
    int status = ExitOk;
    nlohmann::ordered_json json;
    std::string text;

    bool ok() const { return status == ExitOk; }
    static RequestOutcome failed(int status)
    {
        RequestOutcome outcome;
        outcome.status = status;
        return outcome;
    }
};

} // namespace rematlens
