#pragma once

#include "sweep_file.h"

#include <cstddef>
#include <optional>
#include <string>

namespace rematlens {

// One of N parts of a sweep for schedulers without MPI (sweep --shard I/N, I from 0 to N-1, as
// Slurm's --array=0-(N-1) numbers its tasks). Run k of the grid (policy-major, budgets
// increasing) belongs to shard k mod N: interleaved, so the costly budgets spread over all shards.
struct Shard {
    std::size_t index = 0;
    std::size_t count = 1;

    // "I/N"; nothing, with a message in error, when it is not a shard of that form.
    static std::optional<Shard> parse(const std::string &text, std::string &error);
    bool owns(std::size_t run) const { return run % count == index; }
    std::string name() const { return std::to_string(index) + "/" + std::to_string(count); }

    // What the shard's file's provenance says of it: {"index": I, "count": N}.
    nlohmann::ordered_json toJson() const { return {{"index", index}, {"count", count}}; }
};

} // namespace rematlens
