#pragma once

#include "instruction.h"
#include "parse_error.h"
#include "program.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace rematlens {

// Interprets decoded instructions into a Program, following simrd's reading of a trace:
// the same tensors, storages, schedule and final outputs. Anything simrd would reject
// (or trip an assertion on) becomes a ParseError naming the line.
class ProgramBuilder {
public:
    explicit ProgramBuilder(std::string sourceName);

    // Builds from instructions[begin, end). Returns the error, if any.
    std::optional<ParseError> build(const std::vector<Instruction> &instructions, std::size_t begin);
    Program take();

private:
    using Iter = std::vector<Instruction>::const_iterator;

    bool fail(int line, std::string message);
    bool lookup(const std::string &name, int line, TensorId &out);
    void bind(const std::string &name, TensorId tensor);

    bool constant(Iter &it, Iter end);
    bool call(Iter &it, Iter end);
    bool mutate(const Instruction &ins);
    bool copy(const Instruction &ins);
    bool copyFrom(const Instruction &ins);
    bool release(const Instruction &ins);

    struct OpSpec {
        std::string name;
        Cost cost = 0;
        std::vector<TensorId> args;
        std::vector<Bytes> sizes;
        std::vector<int> aliases;
        std::vector<std::string> names;
        int line = 0;
    };
    bool addOp(const OpSpec &spec, OpId &out);

    bool emitGet(TensorId t, int line);
    bool emitRelease(TensorId t, int line);
    void finish();
    void buildStorageEdges();

    Program m_program;
    std::unordered_map<std::string, TensorId> m_names;
    std::vector<std::string> m_nameOrder;        // first-bound order, as a Python dict keeps it
    std::vector<int> m_nameRefs;                 // per tensor: names that hold it (simrd's _ref)
    std::unordered_set<std::string> m_releasedNames; // released and not bound again since
    std::vector<int> m_storageRefs;              // per storage: live external references
    std::vector<std::pair<TensorId, TensorId>> m_childEdges;
    bool m_backward = false;
    Bytes m_totalBytes = 0;
    Cost m_totalCost = 0;
    ParseError m_error;
};

} // namespace rematlens
