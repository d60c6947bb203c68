#pragma once

#include "../sim/run_recording.h"
#include "../sim/run_result.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// One thing in a cascade of rematerializations.
struct CascadeNode {
    // Release: freed when the program released it (the eager runtime), yet needed again later.
    enum class Kind { Compute, Remat, Evict, Release, Failure };
    Kind kind = Kind::Remat;
    std::size_t event = 0; // index into RunRecording::events (the failure: events.size())
    TensorId tensor = 0;   // materialized, evicted (the storage's root) or failing to allocate
    Bytes bytes = 0;       // output size, storage size, or bytes needed
    Bytes bytesShort = 0;  // the failure only
    std::uint32_t depth = 0;
    std::uint32_t step = 0;
    Cost clock = 0;
};

// Every edge points forward in time, so the failure is the cascade's sink.
struct CascadeEdge {
    enum class Kind {
        MadeRoomFor,      // eviction -> the materialization it made room for
        RematerializedAs, // eviction -> the later rematerialization of that storage
        NeededBy,         // nested rematerialization -> the materialization that needed it
    };
    std::size_t from = 0;
    std::size_t to = 0;
    Kind kind = Kind::MadeRoomFor;
};

struct Cascade {
    std::vector<CascadeNode> nodes; // in event order
    std::vector<CascadeEdge> edges;
    std::optional<std::size_t> focus;        // the node the cascade was built around
    std::size_t materializationsLeftOut = 0; // causes beyond the limit
};

struct CascadeOptions {
    // Materializations (and remats) to follow back from the focus, nearest causes first.
    std::size_t materializations = 12;
    // Build around this event (an index into the recording's events) instead of the failure;
    // without a failure and without a focus event, around the last rematerialization.
    std::optional<std::size_t> focusEvent;
};

// The causes of a failure (or of one event): the materializations that led up to it, the
// evictions that made room for them, and the rematerializations those evictions caused later.
Cascade buildCascade(const Program &program, const RunRecording &recording, const RunResult &result,
                     const CascadeOptions &options = {});

std::string cascadeNodeKindName(CascadeNode::Kind kind);
std::string cascadeEdgeKindName(CascadeEdge::Kind kind);

} // namespace rematlens
