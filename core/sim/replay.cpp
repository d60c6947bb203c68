#include "replay.h"

#include "exact_ratio.h"

#include "../alloc/allocator_factory.h"

#include <algorithm>
#include <chrono>

namespace rematlens {

namespace {

// A storage's share of the material set's hash (splitmix64).
std::uint64_t storageHash(StorageId s)
{
    std::uint64_t x = std::uint64_t(s) + 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

} // namespace

Replay::Replay(const Program &program, const RunConfig &config, RegionBook::Buffers recycled)
    : m_program(program)
    , m_config(config)
    , m_graph(program, config.runtime == RuntimeKind::Banishing)
    , m_pool(program.storages.size(), config.policy.cost == CostTerm::Random)
    , m_eqClasses(config.policy.needsEqClasses())
    , m_flags(program.storages.size())
    , m_locks(program.storages.size(), 0)
    , m_externalRefs(program.storages.size(), 0)
    , m_lastAccess(program.storages.size(), kNeverAccessed)
    , m_compute(program.storages.size(), 0)
    , m_defined(program.tensors.size(), 0)
    , m_random(config.seed)
    , m_search(program, m_graph, m_flags, m_compute)
{
    if (config.policy.needsRegions())
        m_regions.emplace(program, m_graph, config.deferRegionRebuilds, scoresBoundWithoutRegions(),
                          std::move(recycled));
    if (m_eqClasses)
        m_eqNode.assign(program.storages.size(), kNone);
    if (config.runtime == RuntimeKind::Banishing)
        m_evictedDependents.resize(program.storages.size());
    if (!config.keepResident.empty()) {
        m_kept.assign(program.storages.size(), 0);
        for (TensorId t : config.keepResident)
            m_kept[program.storageOf(t)] = 1;
    }
    if (!config.allocator.isSum()) {
        const bool onFailure = config.allocator.eviction == EvictionCoupling::OnFailure;
        m_allocator = makeAllocator(config.allocator, onFailure ? config.budget : config.allocator.capacity);
        m_blockOf.assign(program.storages.size(), kNone);
    }
}

// Every member but the ones bound to the other replay's state (rebound here) and its scratch.
Replay::Replay(const Replay &other)
    : m_program(other.m_program)
    , m_config(other.m_config)
    , m_graph(other.m_graph)
    , m_pool(other.m_pool)
    , m_eqClasses(other.m_eqClasses)
    , m_flags(other.m_flags)
    , m_locks(other.m_locks)
    , m_externalRefs(other.m_externalRefs)
    , m_lastAccess(other.m_lastAccess)
    , m_compute(other.m_compute)
    , m_eqNode(other.m_eqNode)
    , m_evictedDependents(other.m_evictedDependents)
    , m_kept(other.m_kept)
    , m_defined(other.m_defined)
    , m_eq(other.m_eq)
    , m_random(other.m_random)
    , m_frames(other.m_frames)
    , m_pending(other.m_pending)
    , m_search(other.m_program, m_graph, m_flags, m_compute)
    , m_step(other.m_step)
    , m_untilInterruptionCheck(other.m_untilInterruptionCheck)
    , m_clock(other.m_clock)
    , m_memory(other.m_memory)
    , m_lockedBytes(other.m_lockedBytes)
    , m_result(other.m_result)
    , m_largestFitted(other.m_largestFitted)
    , m_smallestOver(other.m_smallestOver)
    , m_flip(other.m_flip)
    , m_flipAwaitsVictim(other.m_flipAwaitsVictim)
    , m_allocator(other.m_allocator ? other.m_allocator->clone() : nullptr)
    , m_blockOf(other.m_blockOf)
    , m_untilValidation(other.m_untilValidation)
    , m_layoutProblem(other.m_layoutProblem)
    , m_hashing(other.m_hashing)
    , m_materialHash(other.m_materialHash)
    , m_segmentBase(other.m_segmentBase)
{
    if (other.m_regions)
        m_regions.emplace(*other.m_regions, m_graph);
    // m_expression is compiled again at the next choice; its variables are set before each use.
}

void Replay::setCheckpoints(std::size_t every, std::function<void(const Replay &)> onCheckpoint)
{
    m_checkpointEvery = every;
    m_onCheckpoint = std::move(onCheckpoint);
}

void Replay::continueUnder(Bytes budget, std::optional<std::chrono::steady_clock::time_point> deadline,
                           const std::atomic<bool> *cancel)
{
    m_config.budget = budget;
    if (m_allocator && m_config.allocator.eviction == EvictionCoupling::OnFailure)
        m_allocator->setCapacity(budget);
    m_config.deadline = deadline;
    m_config.cancel = cancel;
}

RunResult Replay::run()
{
    const auto started = std::chrono::steady_clock::now();
    const std::size_t first = m_step;
    // A copy taken at a waypoint inside a step first finishes that step.
    bool resumed = !m_frames.empty();
    try {
        for (; m_step < m_program.schedule.size(); ++m_step, resumed = false) {
            if (m_step != first) {
                if (m_checkpointEvery && m_step % m_checkpointEvery == 0)
                    m_onCheckpoint(*this);
                waypoint();
            }
            checkInterruption();
            runStep(resumed);
            if (m_config.recording)
                sampleStepEnd();
            if (m_allocator && m_config.snapshot && m_config.snapshot->step == m_step) {
                takeSnapshot(nullptr);
                break; // the rest of the run is not asked for
            }
        }
    } catch (const Stopped &) {
        // m_result.outcome says why
    }
    m_result.clock = m_clock;
    m_result.memoryAtEnd = m_memory;
    m_result.interval.lo = m_largestFitted;
    if (m_allocator)
        summarizeAllocation();
    if (m_smallestOver != std::numeric_limits<Bytes>::max()) {
        m_result.interval.hi = m_smallestOver;
        m_result.flip = m_flip;
    }
    m_result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return m_result;
}

void Replay::runStep(bool resumed)
{
    const Step &step = m_program.schedule[m_step];
    switch (step.kind) {
    case StepKind::Compute:
        if (!resumed)
            startCompute(step.id);
        drainFrames();
        finishCompute(step.id);
        break;
    case StepKind::Get: getStep(step.id); break;
    case StepKind::Release: releaseStep(step.id); break;
    case StepKind::Pin:
        if (!resumed && !m_defined[step.id])
            m_frames.push_back(Frame{step.id, true});
        drainFrames();
        pin(step.id);
        break;
    }
}

void Replay::waypoint()
{
    if (m_onWaypoint && !m_onWaypoint(*this)) {
        m_halted = true;
        throw Stopped{};
    }
}

void Replay::startCompute(OpId op)
{
    const OpInfo &info = m_program.ops[op];
    m_graph.create(op);
    for (TensorId t = info.firstOutput; t < info.firstOutput + info.outputCount; ++t) {
        const TensorInfo &tensor = m_program.tensors[t];
        const StorageId s = tensor.storage;
        ++m_externalRefs[s];
        // A new alias of an evicted storage changes its compute and its edges, which deferred
        // searches may reach: they run first. (A new storage is out of their sight.)
        if (m_regions && tensor.isAlias && !material(s))
            m_regions->resolvePending(m_graph.created());
        m_compute[s] += tensor.storageComputeDelta;
        if (m_regions)
            m_regions->addCompute(s, tensor.storageComputeDelta);
        if (m_eqClasses && !tensor.isAlias)
            m_eqNode[s] = m_eq.make(0);
        if (info.isConstant)
            m_result.constMemory += tensor.size;
    }
    if (m_config.runtime == RuntimeKind::Banishing)
        addEvictedDependents(op);
    m_frames.push_back(Frame{info.firstOutput, false});
}

void Replay::finishCompute(OpId op)
{
    const OpInfo &info = m_program.ops[op];
    for (TensorId t = info.firstOutput; t < info.firstOutput + info.outputCount; ++t)
        m_lastAccess[m_program.storageOf(t)] = m_clock;
}

void Replay::getStep(TensorId t)
{
    ++m_externalRefs[m_program.storageOf(t)];
}

void Replay::releaseStep(TensorId t)
{
    const StorageId s = m_program.storageOf(t);
    --m_externalRefs[s];
    if (m_externalRefs[s] != 0)
        return;
    if (m_config.runtime == RuntimeKind::Eager && material(s) && !m_flags.pinned(s))
        evict(s, EvictCause::Release);
    else if (m_config.runtime == RuntimeKind::Banishing)
        tryBanish(s);
}

void Replay::pin(TensorId t)
{
    const StorageId s = m_program.storageOf(t);
    if (m_flags.pinned(s))
        return;
    lock(s);
    m_flags.setPinned(s);
    if (m_regions)
        m_regions->setPinned(s);
}

// simrd materializes recursively; an explicit stack of frames keeps chains of any depth off
// the call stack. A frame locks its defined parents, materializes the undefined ones one by
// one (locking each after it returns), then frees memory, computes and unlocks.
void Replay::drainFrames()
{
    while (!m_frames.empty()) {
        checkInterruption();
        Frame &frame = m_frames.back();
        if (frame.phase == 0) {
            beginFrame(frame);
            frame.phase = 1;
            continue;
        }
        if (frame.phase == 1) {
            if (frame.awaitingParent) {
                frame.awaitingParent = false;
                lock(m_program.storageOf(m_pending[frame.pendingBegin + frame.cursor]));
                ++frame.cursor;
                continue;
            }
            if (frame.cursor < frame.pendingCount) {
                const TensorId parent = m_pending[frame.pendingBegin + frame.cursor];
                if (!m_defined[parent]) {
                    frame.awaitingParent = true;
                    m_frames.push_back(Frame{parent, true}); // invalidates `frame`
                    continue;
                }
                lock(m_program.storageOf(parent));
                ++frame.cursor;
                continue;
            }
            frame.phase = 2;
        }
        finishFrame(frame);
        m_pending.resize(frame.pendingBegin);
        m_frames.pop_back();
        if (!m_frames.empty())
            waypoint();
    }
}

void Replay::beginFrame(Frame &frame)
{
    touchParents(frame.tensor);
    const auto parents = m_graph.parents(frame.tensor);
    for (TensorId p : parents)
        if (m_defined[p])
            lock(m_program.storageOf(p));
    frame.pendingBegin = static_cast<std::uint32_t>(m_pending.size());
    for (TensorId p : parents)
        if (!m_defined[p])
            m_pending.push_back(p);
    frame.pendingCount = static_cast<std::uint32_t>(m_pending.size()) - frame.pendingBegin;
}

void Replay::touchParents(TensorId t)
{
    const bool banishing = m_config.runtime == RuntimeKind::Banishing;
    for (TensorId p : m_graph.parents(t)) {
        const StorageId s = m_program.storageOf(p);
        // The banishing runtime only stamps storages the program can still reach.
        if (!banishing || m_externalRefs[s] > 0)
            m_lastAccess[s] = m_clock;
    }
}

void Replay::finishFrame(const Frame &frame)
{
    const TensorId t = frame.tensor;
    const OpInfo &op = m_program.ops[m_program.tensors[t].op];
    if (m_allocator)
        placeOutputs(t);
    else if (overBudget(m_memory + op.totalSize, t, 0))
        freeMemory(t);
    computeOperator(t, frame.remat);
    if (m_config.runtime == RuntimeKind::Banishing) {
        unlockParentsBanishing(t);
    } else {
        for (TensorId p : m_graph.parents(t))
            unlock(m_program.storageOf(p));
    }
    if (m_allocator)
        evictWhileOverBudget(t);
    if (exceedsExactly(m_result.rematCompute, m_config.rematLimit)) {
        m_result.outcome = Outcome::Thrash;
        throw Stopped{};
    }
    if (m_config.measureBottleneck) {
        Bytes required = op.totalSize;
        for (TensorId p : m_graph.parents(t))
            required += m_program.tensors[p].size;
        m_result.bottleneck = std::max(m_result.bottleneck, required);
    }
}

void Replay::freeMemory(TensorId t)
{
    const Bytes needed = m_program.ops[m_program.tensors[t].op].totalSize;
    for (std::int64_t evicted = 0; overBudget(m_memory + needed, t, evicted); ++evicted) {
        if (m_pool.empty())
            stopOutOfMemory(t);
        const StorageId victim = chooseVictim(m_memory + needed - m_config.budget);
        if (m_flipAwaitsVictim) {
            m_flip.victim = m_program.storages[victim].root;
            m_flipAwaitsVictim = false;
        }
        evict(victim, EvictCause::Policy);
    }
}

// Every comparison with the budget goes through here, so that the run knows the interval of
// budgets that would compare the same way everywhere (and where the first flip would be).
bool Replay::overBudget(Bytes demand, TensorId t, std::int64_t evictionsSoFar)
{
    if (demand <= m_config.budget) {
        m_largestFitted = std::max(m_largestFitted, demand);
        return false;
    }
    if (demand < m_smallestOver) {
        m_smallestOver = demand;
        m_flip = FlippingComparison{m_step, t, m_memory, demand - m_memory, evictionsSoFar, kNone, m_result.remats,
                                    m_result.evictions};
        m_flipAwaitsVictim = true;
    }
    return true;
}

void Replay::stopOutOfMemory(TensorId t)
{
    stopWith(failureAt(t));
}

Failure Replay::failureAt(TensorId t) const
{
    const TensorInfo &tensor = m_program.tensors[t];
    const OpInfo &op = m_program.ops[tensor.op];
    Failure failure;
    failure.step = m_step;
    failure.line = m_step < m_program.schedule.size() ? m_program.schedule[m_step].line : 0;
    failure.operatorName = op.name;
    failure.tensor = tensor.name;
    failure.bytesNeeded = op.totalSize;
    failure.memoryInUse = m_memory;
    failure.bytesShort = m_memory + op.totalSize - m_config.budget;
    failure.depth = static_cast<int>(m_frames.size());
    failure.lockedBytes = m_lockedBytes;
    return failure;
}

void Replay::stopWith(Failure failure)
{
    m_result.failure = std::move(failure);
    m_result.outcome = Outcome::OutOfMemory;
    throw Stopped{};
}

void Replay::computeOperator(TensorId t, bool remat)
{
    const TensorInfo &tensor = m_program.tensors[t];
    const OpInfo &op = m_program.ops[tensor.op];
    const TensorId first = op.firstOutput;
    const TensorId last = op.firstOutput + op.outputCount;

    m_rematSiblings.clear();
    m_rematStorages.clear();
    Bytes duplicated = 0; // siblings already defined are computed twice; their copy is dropped
    for (TensorId u = first; u < last; ++u) {
        if (u == t)
            continue;
        if (m_defined[u])
            duplicated += m_program.tensors[u].size;
        else
            m_rematSiblings.push_back(u);
        if (!material(m_program.storageOf(u)))
            m_rematStorages.push_back(m_program.storageOf(u));
    }
    if (!material(tensor.storage))
        m_rematStorages.push_back(tensor.storage);

    if (m_allocator)
        bindPlacedBlocks(op);
    m_clock += op.cost;
    m_memory += op.totalSize;
    m_result.maxMemory = std::max(m_result.maxMemory, m_memory);
    if (remat) {
        record(ReplayEvent::Kind::Remat, t, op.totalSize);
        m_result.rematCompute += op.cost;
        ++m_result.remats;
    } else {
        record(ReplayEvent::Kind::Compute, t, op.totalSize);
        m_result.modelCompute += op.cost;
    }
    setMaterial(tensor.storage, true);
    m_defined[t] = 1;
    for (TensorId u : m_rematSiblings) {
        setMaterial(m_program.storageOf(u), true);
        m_defined[u] = 1;
    }
    m_memory -= duplicated;
    for (StorageId s : m_rematStorages)
        offerToPolicy(s);
    if (m_regions)
        m_regions->computed(m_rematStorages, m_graph.created());
    if (m_eqClasses)
        updateEqClassesOnCompute();
    if (m_config.recording)
        sample();
}

void Replay::evict(StorageId s, EvictCause cause)
{
    if (m_regions)
        m_regions->evicting(s, m_graph.created()); // deferred searches must see s still material
    const StorageInfo &storage = m_program.storages[s];
    record(cause == EvictCause::Policy ? ReplayEvent::Kind::Evict : ReplayEvent::Kind::Free, storage.root,
           storage.size);
    setMaterial(s, false);
    m_memory -= storage.size;
    if (m_allocator && m_blockOf[s] != kNone) {
        m_allocator->free(m_blockOf[s]);
        m_blockOf[s] = kNone;
    }
    m_pool.remove(s);
    for (TensorId t : m_graph.tensorsOf(s))
        m_defined[t] = 0;
    if (m_config.runtime == RuntimeKind::Banishing)
        for (TensorId t : m_graph.tensorsOf(s))
            for (TensorId p : m_graph.parents(t))
                if (m_program.storageOf(p) != s)
                    insertValue(m_evictedDependents[m_program.storageOf(p)], t);
    if (m_regions)
        m_regions->evicted(s);
    if (m_eqClasses)
        updateEqClassesOnEvict(s);
    if (cause == EvictCause::Policy)
        ++m_result.evictions;
    else
        ++m_result.releasedEvictions;
}

// m_lockedBytes totals the material storages with locks, as simrd's diagnosis counts them (the
// banishing runtime can banish a locked storage, which then holds nothing).
void Replay::lock(StorageId s)
{
    if (m_locks[s]++ == 0) {
        m_pool.remove(s);
        if (material(s))
            m_lockedBytes += m_program.storages[s].size;
    }
}

void Replay::unlock(StorageId s)
{
    if (--m_locks[s] == 0) {
        if (material(s))
            m_lockedBytes -= m_program.storages[s].size;
        offerToPolicy(s);
    }
}

void Replay::setMaterial(StorageId s, bool on)
{
    if (material(s) == on)
        return;
    m_flags.set(s, on);
    if (m_hashing)
        m_materialHash ^= storageHash(s);
    if (m_regions)
        m_regions->setMaterial(s, on);
    if (m_locks[s] > 0)
        m_lockedBytes += on ? m_program.storages[s].size : -m_program.storages[s].size;
}

void Replay::startHashing() const
{
    m_materialHash = 0;
    for (StorageId s = 0; s < m_program.storages.size(); ++s)
        if (material(s))
            m_materialHash ^= storageHash(s);
    m_hashing = true;
}

void Replay::offerToPolicy(StorageId s)
{
    if (m_kept.empty() || !m_kept[s])
        m_pool.append(s);
}

// Wall limits and cancel requests are polled, cheaply, every few thousand steps.
void Replay::checkInterruption()
{
    if (++m_untilInterruptionCheck < 4096)
        return;
    m_untilInterruptionCheck = 0;
    if (m_config.cancel && m_config.cancel->load(std::memory_order_relaxed)) {
        m_result.outcome = Outcome::Cancelled;
        throw Stopped{};
    }
    if (m_config.deadline && std::chrono::steady_clock::now() > *m_config.deadline) {
        m_result.outcome = Outcome::Timeout;
        throw Stopped{};
    }
}

void Replay::record(ReplayEvent::Kind kind, TensorId tensor, Bytes bytes)
{
    if (m_config.recording)
        m_config.recording->events.push_back(ReplayEvent{kind, static_cast<std::uint16_t>(m_frames.size()),
                                                         static_cast<std::uint32_t>(m_step), m_clock, tensor, bytes,
                                                         m_memory});
}

void Replay::sample()
{
    m_config.recording->samples.push_back(TimelineSample{m_clock, m_memory, m_lockedBytes,
                                                         static_cast<std::uint32_t>(m_step),
                                                         static_cast<std::uint32_t>(m_frames.size()),
                                                         static_cast<std::uint32_t>(m_pool.size())});
    if (m_allocator)
        sampleAllocation();
}

// Releases and pins change memory or locks without a clock tick; a step that changed nothing
// adds no sample.
void Replay::sampleStepEnd()
{
    const std::vector<TimelineSample> &samples = m_config.recording->samples;
    if (!samples.empty()) {
        const TimelineSample &last = samples.back();
        if (last.memory == m_memory && last.lockedBytes == m_lockedBytes && last.poolSize == m_pool.size()
            && last.depth == m_frames.size()
            && (!m_allocator || m_allocator->changes() == m_allocatorChangesAtSample))
            return;
    }
    sample();
}

} // namespace rematlens
