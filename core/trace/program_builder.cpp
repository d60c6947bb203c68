#include "program_builder.h"

#include <algorithm>

namespace rematlens {

namespace {

constexpr std::int64_t kSumLimit = std::int64_t{1} << 62;

bool isConstantName(const std::string &name)
{
    return name.substr(0, name.find('/')) == "constant";
}

bool containsBackward(const std::string &name)
{
    return name.find("backward") != std::string::npos;
}

} // namespace

ProgramBuilder::ProgramBuilder(std::string sourceName)
{
    m_program.sourceName = std::move(sourceName);
}

bool ProgramBuilder::fail(int line, std::string message)
{
    m_error = ParseError{m_program.sourceName, line, std::move(message)};
    return false;
}

bool ProgramBuilder::lookup(const std::string &name, int line, TensorId &out)
{
    auto found = m_names.find(name);
    if (found == m_names.end())
        return fail(line, "undefined name \"" + name + "\" (no CONSTANT, CALL or COPY defined it before)");
    out = found->second;
    return true;
}

void ProgramBuilder::bind(const std::string &name, TensorId tensor)
{
    auto [it, inserted] = m_names.insert_or_assign(name, tensor);
    if (inserted)
        m_nameOrder.push_back(name);
    else
        m_releasedNames.erase(name);
}

std::optional<ParseError> ProgramBuilder::build(const std::vector<Instruction> &instructions, std::size_t begin)
{
    using K = Instruction::Kind;
    bool ok = true;
    for (Iter it = instructions.begin() + static_cast<std::ptrdiff_t>(begin); ok && it != instructions.end(); ++it) {
        const Instruction &ins = *it;
        ++m_program.instructionCount;
        switch (ins.kind) {
        case K::Annotate:
            if (ins.name == "BACKWARD")
                m_backward = true;
            break;
        case K::Constant: ok = constant(it, instructions.end()); break;
        case K::Call: ok = call(it, instructions.end()); break;
        case K::Mutate: ok = mutate(ins); break;
        case K::Copy: ok = copy(ins); break;
        case K::CopyFrom: ok = copyFrom(ins); break;
        case K::Release: ok = release(ins); break;
        case K::Memory:
        case K::Alias:
            ok = fail(ins.line, std::string("unexpected ") + instructionKindName(ins.kind)
                                    + " (it must directly follow its CONSTANT or CALL)");
            break;
        }
    }
    if (!ok)
        return m_error;
    finish();
    return std::nullopt;
}

bool ProgramBuilder::constant(Iter &it, Iter end)
{
    const Instruction &ins = *it;
    Iter next = it + 1;
    if (next == end || next->kind != Instruction::Kind::Memory || next->name != ins.name)
        return fail(next == end ? ins.line : next->line,
                    "expected MEMORY for constant \"" + ins.name + "\" right after its CONSTANT");
    if (next->number < 0)
        return fail(next->line, "expected a non-negative MEMORY size for \"" + ins.name + "\"");
    it = next;
    ++m_program.instructionCount;
    OpSpec spec{"constant", 0, {}, {next->number}, {-1}, {ins.name}, ins.line};
    OpId op = 0;
    if (!addOp(spec, op))
        return false;
    const TensorId t = m_program.ops[op].firstOutput;
    m_program.storages[m_program.tensors[t].storage].constant = true;
    m_program.schedule.push_back({StepKind::Pin, t, ins.line});
    bind(ins.name, t);
    return true;
}

bool ProgramBuilder::call(Iter &it, Iter end)
{
    const Instruction &ins = *it;
    if (ins.results.empty())
        return fail(ins.line, "expected at least one name in RESULT of CALL \"" + ins.name + "\"");
    if (ins.number < 0)
        return fail(ins.line, "expected a non-negative TIME for CALL \"" + ins.name + "\"");
    m_backward = m_backward || containsBackward(ins.name);
    OpSpec spec{ins.name, ins.number, {}, {}, {}, ins.results, ins.line};
    for (const std::string &arg : ins.args) {
        TensorId t = 0;
        if (!lookup(arg, ins.line, t))
            return false;
        spec.args.push_back(t);
    }
    for (const std::string &result : ins.results) {
        Iter memory = it + 1;
        Iter alias = it + 2;
        if (memory >= end || memory->kind != Instruction::Kind::Memory || memory->name != result)
            return fail(memory < end ? memory->line : ins.line,
                        "expected MEMORY for result \"" + result + "\" of CALL \"" + ins.name + "\"");
        if (alias >= end || alias->kind != Instruction::Kind::Alias || alias->name != result)
            return fail(alias < end ? alias->line : memory->line,
                        "expected ALIAS for result \"" + result + "\" of CALL \"" + ins.name + "\"");
        if (memory->number < 0)
            return fail(memory->line, "expected a non-negative MEMORY size for \"" + result + "\"");
        if (alias->number < -1 || alias->number >= static_cast<std::int64_t>(spec.args.size()))
            return fail(alias->line, "expected ALIAS of \"" + result + "\" to be -1 or an argument index below "
                                         + std::to_string(spec.args.size()));
        if (m_names.count(result))
            return fail(ins.line, "result name \"" + result + "\" is already bound");
        spec.aliases.push_back(static_cast<int>(alias->number));
        spec.sizes.push_back(alias->number == -1 ? memory->number : 0);
        it = alias;
        m_program.instructionCount += 2;
    }
    OpId op = 0;
    if (!addOp(spec, op))
        return false;
    for (std::size_t i = 0; i < ins.results.size(); ++i)
        bind(ins.results[i], m_program.ops[op].firstOutput + static_cast<TensorId>(i));
    return true;
}

bool ProgramBuilder::mutate(const Instruction &ins)
{
    if (ins.number < 0)
        return fail(ins.line, "expected a non-negative TIME for MUTATE \"" + ins.name + "\"");
    if (ins.mutated.empty()) // an operator with no output: simrd fails on it too
        return fail(ins.line, "expected at least one argument index in MUTATE of \"" + ins.name + "\"");
    m_backward = m_backward || containsBackward(ins.name);
    OpSpec spec{ins.name, ins.number, {}, {}, {}, {}, ins.line};
    for (const std::string &arg : ins.args) {
        TensorId t = 0;
        if (!lookup(arg, ins.line, t))
            return false;
        spec.args.push_back(t);
    }
    for (std::int64_t index : ins.mutated) {
        if (index < 0 || index >= static_cast<std::int64_t>(spec.args.size()))
            return fail(ins.line, "expected MUTATE indices below " + std::to_string(spec.args.size()) + ", got "
                                      + std::to_string(index));
        const TensorInfo &target = m_program.tensors[spec.args[static_cast<std::size_t>(index)]];
        spec.sizes.push_back(m_program.storages[target.storage].size);
        spec.aliases.push_back(-1);
        spec.names.push_back(target.name + "$");
    }
    OpId op = 0;
    if (!addOp(spec, op))
        return false;
    for (std::size_t i = 0; i < ins.mutated.size(); ++i) {
        const std::string &name = ins.args[static_cast<std::size_t>(ins.mutated[i])];
        const TensorId old = m_names.at(name);
        const TensorId fresh = m_program.ops[op].firstOutput + static_cast<TensorId>(i);
        m_names[name] = fresh;
        m_nameRefs[fresh] = 1;
        --m_nameRefs[old];
        if (!emitRelease(old, ins.line))
            return false;
    }
    return true;
}

bool ProgramBuilder::copy(const Instruction &ins)
{
    TensorId src = 0;
    if (!lookup(ins.source, ins.line, src))
        return false;
    if (m_names.count(ins.name))
        return fail(ins.line, "COPY destination \"" + ins.name + "\" is already bound");
    bind(ins.name, src);
    ++m_nameRefs[src];
    return emitGet(src, ins.line);
}

bool ProgramBuilder::copyFrom(const Instruction &ins)
{
    TensorId old = 0;
    TensorId src = 0;
    if (!lookup(ins.name, ins.line, old) || !lookup(ins.source, ins.line, src))
        return false;
    m_names[ins.name] = src;
    --m_nameRefs[old];
    ++m_nameRefs[src];
    return emitRelease(old, ins.line) && emitGet(src, ins.line);
}

bool ProgramBuilder::release(const Instruction &ins)
{
    auto found = m_names.find(ins.name);
    if (found == m_names.end())
        return true; // simrd ignores releases of unknown names
    m_releasedNames.insert(ins.name);
    --m_nameRefs[found->second];
    return emitRelease(found->second, ins.line);
}

bool ProgramBuilder::addOp(const OpSpec &spec, OpId &out)
{
    OpInfo op;
    op.name = spec.name;
    op.cost = spec.cost;
    op.firstArg = static_cast<std::uint32_t>(m_program.args.size());
    op.argCount = static_cast<std::uint32_t>(spec.args.size());
    op.firstOutput = static_cast<TensorId>(m_program.tensors.size());
    op.outputCount = static_cast<std::uint32_t>(spec.sizes.size());
    op.isConstant = isConstantName(spec.name);
    op.isBackward = m_backward;
    op.line = spec.line;
    for (Bytes size : spec.sizes) {
        if (size > kSumLimit - op.totalSize || size > kSumLimit - m_totalBytes)
            return fail(spec.line, "expected sizes whose sum fits in 62 bits");
        op.totalSize += size;
        m_totalBytes += size;
    }
    if (op.cost > kSumLimit - m_totalCost)
        return fail(spec.line, "expected TIME values whose sum fits in 62 bits");
    m_totalCost += op.cost;
    out = static_cast<OpId>(m_program.ops.size());
    m_program.args.insert(m_program.args.end(), spec.args.begin(), spec.args.end());

    for (std::size_t i = 0; i < spec.sizes.size(); ++i) {
        TensorInfo t;
        t.name = spec.names[i];
        t.op = out;
        t.index = static_cast<std::uint32_t>(i);
        t.size = spec.sizes[i];
        t.isAlias = spec.aliases[i] != -1;
        t.storageComputeDelta = op.cost;
        if (t.isAlias) {
            t.storage = m_program.tensors[spec.args[static_cast<std::size_t>(spec.aliases[i])]].storage;
            // Two outputs of one op aliasing one storage add the op's cost once.
            for (std::size_t j = 0; j < i; ++j)
                if (m_program.tensors[op.firstOutput + j].storage == t.storage)
                    t.storageComputeDelta = 0;
        } else {
            t.storage = static_cast<StorageId>(m_program.storages.size());
            m_program.storages.push_back({t.size, static_cast<TensorId>(m_program.tensors.size())});
            m_storageRefs.push_back(0);
        }
        ++m_storageRefs[t.storage];
        m_program.tensors.push_back(std::move(t));
        m_nameRefs.push_back(1);
    }
    for (TensorId arg : spec.args)
        for (std::uint32_t i = 0; i < op.outputCount; ++i)
            m_childEdges.emplace_back(arg, op.firstOutput + i);
    m_program.ops.push_back(std::move(op));
    m_program.schedule.push_back({StepKind::Compute, out, spec.line});
    return true;
}

bool ProgramBuilder::emitGet(TensorId t, int line)
{
    int &refs = m_storageRefs[m_program.tensors[t].storage];
    if (refs <= 0)
        return fail(line, "COPY of \"" + m_program.tensors[t].name + "\", whose tensor was already released");
    ++refs;
    m_program.schedule.push_back({StepKind::Get, t, line});
    return true;
}

bool ProgramBuilder::emitRelease(TensorId t, int line)
{
    int &refs = m_storageRefs[m_program.tensors[t].storage];
    if (refs <= 0)
        return fail(line, "release of \"" + m_program.tensors[t].name + "\", which has no references left");
    --refs;
    m_program.schedule.push_back({StepKind::Release, t, line});
    return true;
}

void ProgramBuilder::finish()
{
    for (const std::string &name : m_nameOrder) {
        const TensorId t = m_names.at(name);
        if (m_nameRefs[t] > 0)
            m_program.schedule.push_back({StepKind::Pin, t, 0});
        if (!m_releasedNames.count(name))
            m_program.unreleasedNames.push_back(name);
    }
    m_program.names = m_nameOrder;

    const std::size_t tensorCount = m_program.tensors.size();
    m_program.childOffsets.assign(tensorCount + 1, 0);
    for (auto [parent, child] : m_childEdges)
        ++m_program.childOffsets[parent + 1];
    for (std::size_t i = 0; i < tensorCount; ++i)
        m_program.childOffsets[i + 1] += m_program.childOffsets[i];
    m_program.children.resize(m_childEdges.size());
    std::vector<std::uint32_t> cursor(m_program.childOffsets.begin(), m_program.childOffsets.end() - 1);
    for (auto [parent, child] : m_childEdges) // stable: keeps creation order per parent
        m_program.children[cursor[parent]++] = child;

    const std::size_t storageCount = m_program.storages.size();
    m_program.storageTensorOffsets.assign(storageCount + 1, 0);
    for (const TensorInfo &t : m_program.tensors)
        ++m_program.storageTensorOffsets[t.storage + 1];
    for (std::size_t i = 0; i < storageCount; ++i)
        m_program.storageTensorOffsets[i + 1] += m_program.storageTensorOffsets[i];
    m_program.storageTensors.resize(tensorCount);
    std::vector<std::uint32_t> slot(m_program.storageTensorOffsets.begin(), m_program.storageTensorOffsets.end() - 1);
    for (TensorId t = 0; t < tensorCount; ++t)
        m_program.storageTensors[slot[m_program.tensors[t].storage]++] = t;
    buildStorageEdges();
}

void ProgramBuilder::buildStorageEdges()
{
    Program &p = m_program;
    const std::size_t storageCount = p.storages.size();
    std::vector<std::vector<StorageEdge>> forward(storageCount);
    std::vector<std::vector<StorageEdge>> backward(storageCount);
    for (TensorId t = 0; t < p.tensors.size(); ++t) {
        const StorageId s = p.tensors[t].storage;
        for (TensorId parent : p.parentsOf(t)) {
            const StorageId ps = p.tensors[parent].storage;
            if (ps == s || p.storages[ps].constant || p.storages[s].constant)
                continue;
            backward[s].push_back({t, ps}); // seen once t exists
            forward[ps].push_back({t, s});  // t is a child of parent
        }
    }
    auto flatten = [storageCount](std::vector<std::vector<StorageEdge>> &lists, std::vector<std::uint32_t> &offsets,
                                  std::vector<StorageEdge> &edges) {
        offsets.assign(storageCount + 1, 0);
        std::vector<StorageId> seenBy(storageCount, kNone);
        for (std::size_t s = 0; s < storageCount; ++s) {
            auto &list = lists[s];
            // Keep each neighbour once, at its earliest visibility, in visibility order.
            std::stable_sort(list.begin(), list.end(),
                             [](const StorageEdge &a, const StorageEdge &b) { return a.visibleFrom < b.visibleFrom; });
            for (const StorageEdge &e : list)
                if (seenBy[e.storage] != s) {
                    seenBy[e.storage] = static_cast<StorageId>(s);
                    edges.push_back(e);
                }
            offsets[s + 1] = static_cast<std::uint32_t>(edges.size());
        }
    };
    flatten(forward, p.forwardEdgeOffsets, p.forwardEdges);
    flatten(backward, p.backwardEdgeOffsets, p.backwardEdges);
}

Program ProgramBuilder::take()
{
    return std::move(m_program);
}

} // namespace rematlens
