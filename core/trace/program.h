#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace rematlens {

using Bytes = std::int64_t;
using Cost = std::int64_t;
using TensorId = std::uint32_t;
using StorageId = std::uint32_t;
using OpId = std::uint32_t;

inline constexpr std::uint32_t kNone = 0xffffffffu;

// One operator call of the trace (CALL, MUTATE or CONSTANT).
struct OpInfo {
    std::string name;          // the trace's operator name
    Cost cost = 0;             // TIME
    Bytes totalSize = 0;       // summed output sizes; aliases count 0
    std::uint32_t firstArg = 0;    // into Program::args
    std::uint32_t argCount = 0;
    TensorId firstOutput = 0;  // outputs are consecutive tensor ids
    std::uint32_t outputCount = 0;
    bool isConstant = false;   // a CONSTANT, or a call named "constant"
    bool isBackward = false;
    int line = 0;              // trace line of the instruction
};

// One output of one operator call.
struct TensorInfo {
    std::string name;
    OpId op = 0;
    std::uint32_t index = 0;   // position among the op's outputs
    StorageId storage = 0;
    Bytes size = 0;            // the op's output size (0 for an alias)
    bool isAlias = false;
    // Cost added to the storage's compute when this tensor is created:
    // the op's cost unless an earlier tensor of the same storage came from the same op.
    Cost storageComputeDelta = 0;
};

struct StorageInfo {
    Bytes size = 0;
    TensorId root = 0;         // the tensor that owns the storage
    bool constant = false;     // made by a CONSTANT: pinned from its creation on
};

// An edge between two different storages, seen once the tensor `visibleFrom` exists.
struct StorageEdge {
    TensorId visibleFrom;
    StorageId storage;
};

// What the replay does, step by step, in the order simrd's schedule has it.
enum class StepKind : std::uint8_t { Compute, Get, Pin, Release };

struct Step {
    StepKind kind;
    std::uint32_t id;          // OpId for Compute, TensorId otherwise
    int line;                  // trace line that produced the step (0 for final output pins)
};

// An immutable, parsed trace. Tensor, storage and op ids are dense and follow creation order,
// so "created so far" is always a prefix: a replay at op k sees tensors with id < firstOutput(k+1).
class Program {
public:
    std::string sourceName;
    std::vector<OpInfo> ops;
    std::vector<TensorInfo> tensors;
    std::vector<StorageInfo> storages;
    std::vector<TensorId> args;                 // parents of every op, in argument order
    std::vector<std::uint32_t> childOffsets;    // CSR: children of tensor t in [childOffsets[t], childOffsets[t+1])
    std::vector<TensorId> children;             // in creation order, with repeats for repeated arguments
    std::vector<std::uint32_t> storageTensorOffsets;
    std::vector<TensorId> storageTensors;       // tensors of each storage in creation order
    // Storage-level adjacency: for each storage, the other storages its tensors' children
    // (forward) or parents (backward) live in, each once with its earliest visibility,
    // sorted by visibility so that the edges visible at any moment form a prefix. Constants'
    // storages are left out: pinned from creation and never evicted, no evicted-neighbourhood
    // search crosses them, and as pinned frontier storages they would be ignored.
    std::vector<std::uint32_t> forwardEdgeOffsets;
    std::vector<StorageEdge> forwardEdges;
    std::vector<std::uint32_t> backwardEdgeOffsets;
    std::vector<StorageEdge> backwardEdges;
    std::vector<Step> schedule;
    int instructionCount = 0;                   // trace lines replayed (after START)
    // Names as the trace spells them (a COPY binds a second name to a tensor): every name bound,
    // in first-binding order, and those still bound at the end. A capture's side file speaks of
    // names, so telling a complete capture from a truncated one needs them.
    std::vector<std::string> names;
    std::vector<std::string> unreleasedNames;  // not released since last bound

    std::span<const TensorId> parentsOf(TensorId t) const
    {
        const OpInfo &op = ops[tensors[t].op];
        return {args.data() + op.firstArg, op.argCount};
    }
    std::span<const TensorId> childrenOf(TensorId t) const
    {
        return {children.data() + childOffsets[t], childOffsets[t + 1] - childOffsets[t]};
    }
    std::span<const TensorId> tensorsOf(StorageId s) const
    {
        return {storageTensors.data() + storageTensorOffsets[s],
                storageTensorOffsets[s + 1] - storageTensorOffsets[s]};
    }
    StorageId storageOf(TensorId t) const { return tensors[t].storage; }
    std::span<const StorageEdge> storageNeighbours(StorageId s, bool forward) const
    {
        const auto &offsets = forward ? forwardEdgeOffsets : backwardEdgeOffsets;
        const auto &edges = forward ? forwardEdges : backwardEdges;
        return {edges.data() + offsets[s], offsets[s + 1] - offsets[s]};
    }
};

} // namespace rematlens
