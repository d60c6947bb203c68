#pragma once

#include "app/formats/sweep_file.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

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

// "A, B and C".
std::string listFiles(const std::vector<std::string> &paths);
// A shard field of a file's provenance ("index" or "count"); 0 when absent.
std::size_t shardField(const Provenance &header, const char *field);
// Whether the files' provenance lines describe one sweep or map (what) sharded, and name every
// shard of it once: empty when so, else what is wrong, naming the files.
std::string checkShardHeaders(const std::vector<std::string> &paths, const std::vector<std::optional<Provenance>> &headers,
                              const std::string &what);

} // namespace rematlens
