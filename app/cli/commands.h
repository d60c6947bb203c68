#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rematlens {

// Exit statuses of the command-line contract.
enum ExitStatus { ExitOk = 0, ExitBadInput = 1, ExitBadUsage = 2 };

struct InfoOptions {
    std::string trace;
    bool json = false;
};

struct RunOptions {
    std::string trace;
    std::optional<std::string> ratio;  // kept as text: parsed once, correctly rounded
    std::optional<std::int64_t> budget;
    std::string policy = "DTR";
    std::string runtime = "eager";
    std::string overheadLimit = "2.0";
    std::uint64_t seed = 0;
    std::string eventsPath;
    bool json = false;
};

int runInfoCommand(const InfoOptions &options);
int runRunCommand(const RunOptions &options);
int runPoliciesCommand();

// Prints "rematlens: error: message" to stderr and returns status.
int reportError(int status, const std::string &message);

} // namespace rematlens
