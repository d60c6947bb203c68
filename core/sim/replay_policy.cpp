// Choosing what to evict: simrd's scan of the pool, its scores, and the equivalence classes
// that DTREqClass reads (regions are kept by RegionBook).
#include "replay.h"

#include "exact_ratio.h"

#include <algorithm>
#include <limits>

namespace rematlens {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

double signedRatio(Cost numerator, uint128 denominator)
{
    if (numerator < 0)
        return -exactRatio(static_cast<std::uint64_t>(-numerator), denominator);
    return exactRatio(static_cast<std::uint64_t>(numerator), denominator);
}

} // namespace

// Lowest score wins; among equal scores the later one in the pool; a zero stops the scan.
// Storages `eligible` turns down are passed over unscored.
template <typename Score, typename Eligible>
StorageId Replay::scanPool(Score &&score, Eligible &&eligible)
{
    if (m_scoreTally.empty())
        return scanPoolTallying(score, eligible, [](StorageId) {});
    return scanPoolTallying(score, eligible, [this](StorageId s) { ++m_scoreTally[s]; });
}

template <typename Score, typename Eligible, typename Tally>
StorageId Replay::scanPoolTallying(Score &&score, Eligible &&eligible, Tally &&tally)
{
    using Value = decltype(score(StorageId{}));
    Value best{};
    StorageId chosen = kNone;
    m_pool.scan([&](StorageId s) {
        if (!eligible(s))
            return true;
        const Value value = score(s);
        ++m_result.heuristicEvals;
        tally(s);
        if (chosen == kNone || value <= best) {
            best = value;
            chosen = s;
        }
        return value != 0;
    });
    return chosen;
}

StorageId Replay::chooseVictim(Bytes shortfall)
{
    if (m_regions && m_regions->acrossChoices())
        return scanResolvingContenders();
    if (m_regions)
        m_regions->catchUp(m_graph.created()); // the scores read regions
    const Policy &policy = m_config.policy;
    switch (policy.cost) {
    case CostTerm::Random: {
        ++m_result.heuristicEvals;
        std::uniform_int_distribution<std::size_t> pick(0, m_pool.size() - 1);
        return m_pool.nth(pick(m_random));
    }
    case CostTerm::LastAccess:
        return scanPool([&](StorageId s) { return m_lastAccess[s]; });
    case CostTerm::EStarCount:
        return scanPool([&](StorageId s) { return neighbourhoodCount(s); });
    case CostTerm::Penalized:
        return scanPool([&](StorageId s) {
            const double dtr = ratioScore(s, costTerm(s), m_lastAccess[s]);
            return dtr * (1.0 + policy.penalty * static_cast<double>(neighbourhoodCount(s)));
        });
    case CostTerm::ShortfallFirst:
        return shortfallFirstVictim(shortfall);
    case CostTerm::Expression:
        if (!m_expression) {
            ExpressionError error; // configProblem refused bad expressions before the run
            m_expression = ScoreExpression::compile(policy.expression, error);
        }
        if (m_expression) {
            m_expression->variables().clock = static_cast<double>(m_clock);
            m_expression->variables().shortfall = static_cast<double>(shortfall);
            return scanPool([&](StorageId s) { return expressionScore(s); });
        }
        return scanPool([](StorageId) { return kInfinity; });
    default:
        break;
    }
    if (!policy.divideBySize && !policy.divideByStaleness) // an integer score: compare exactly
        return scanPool([&](StorageId s) { return costTerm(s); });
    return scanPool([&](StorageId s) {
        Cost lastAccess = m_lastAccess[s];
        Cost numerator = 1;
        if (policy.cost == CostTerm::FreshEStar)
            numerator = freshNeighbourhood(s, lastAccess);
        else if (policy.cost != CostTerm::NoCost)
            numerator = costTerm(s);
        return ratioScore(s, numerator, lastAccess);
    });
}

// Scores that add regions' compute to a storage's own over its size and/or staleness: leaving a
// region's compute out bounds the score from below (compute is never negative, as traces'
// TIMEs are not), so a choice need rebuild only the regions of storages that could win it.
bool Replay::scoresBoundWithoutRegions() const
{
    const Policy &policy = m_config.policy;
    return (policy.cost == CostTerm::EStar || policy.cost == CostTerm::BackwardOnly) &&
           (policy.divideBySize || policy.divideByStaleness);
}

// scanPool's choice, with the regions awaiting rebuilds resolved only for the storages whose
// score without them does not exceed the best score known: the others score above it whatever
// their regions hold, so they neither win, tie nor stop the scan at a zero, as in simrd's scan.
StorageId Replay::scanResolvingContenders()
{
    m_regions->playBack();
    const bool readsForward = m_config.policy.cost == CostTerm::EStar;
    m_scanned.resize(m_pool.size());
    m_scannedScore.resize(m_pool.size());
    m_contenders.clear();
    std::uint32_t scanned = 0;
    double best = kInfinity; // the lowest exact score
    StorageId chosen = kNone; // as the scan would choose from these scores and bounds
    double lowest = 0;
    m_pool.scan([&](StorageId s) {
        const bool bounded = m_regions->pending(s, false) || (readsForward && m_regions->pending(s, true));
        const double value = ratioScore(s, knownCost(s, readsForward), m_lastAccess[s]);
        if (bounded)
            m_contenders.push_back(scanned);
        m_scanned[scanned] = s;
        m_scannedScore[scanned] = value;
        ++scanned;
        if (chosen == kNone || value <= lowest) {
            lowest = value;
            chosen = s;
        }
        if (bounded)
            return true;
        best = std::min(best, value);
        return value != 0;
    });
    if (resolveContenders(best, readsForward)) // the scan again, with those scores
        return choiceAmongScanned(scanned);
    m_result.heuristicEvals += scanned; // every bound was above a score: the choice stands
    if (!m_scoreTally.empty())
        for (std::uint32_t i = 0; i < scanned; ++i)
            ++m_scoreTally[m_scanned[i]];
    return chosen;
}

// scanPool over the first `scanned` storages of m_scanned, with the scores of m_scannedScore.
StorageId Replay::choiceAmongScanned(std::uint32_t scanned)
{
    StorageId chosen = kNone;
    double lowest = 0;
    for (std::uint32_t i = 0; i < scanned; ++i) {
        const double value = m_scannedScore[i];
        ++m_result.heuristicEvals;
        if (!m_scoreTally.empty())
            ++m_scoreTally[m_scanned[i]];
        if (chosen == kNone || value <= lowest) {
            lowest = value;
            chosen = m_scanned[i];
        }
        if (value == 0)
            break;
    }
    return chosen;
}

// A storage's own compute plus those of its regions the score reads that are not pending.
Cost Replay::knownCost(StorageId s, bool readsForward) const
{
    Cost total = m_compute[s];
    if (readsForward && !m_regions->pending(s, true))
        total += m_regions->forward(s).compute;
    if (!m_regions->pending(s, false))
        total += m_regions->backward(s).compute;
    return total;
}

// Resolves the bounded scores (m_contenders) in increasing order of their bounds while a bound
// does not exceed the best exact score (all at once when there is one, a few at a time until
// there is), and replaces each bound by the score. False when none needed it.
bool Replay::resolveContenders(double &best, bool readsForward)
{
    if (best != kInfinity) // those above the best exact score are out already
        std::erase_if(m_contenders, [&](std::uint32_t i) { return m_scannedScore[i] > best; });
    std::sort(m_contenders.begin(), m_contenders.end(), [&](std::uint32_t a, std::uint32_t b) {
        return m_scannedScore[a] < m_scannedScore[b];
    });
    constexpr std::size_t kBlindBatch = 8; // while no score is exact, how many to resolve at once
    std::size_t next = 0;
    while (next < m_contenders.size() && !(m_scannedScore[m_contenders[next]] > best)) {
        std::size_t end = next;
        while (end < m_contenders.size() && !(m_scannedScore[m_contenders[end]] > best) &&
               (best != kInfinity || end - next < kBlindBatch))
            ++end;
        for (std::size_t k = next; k < end; ++k) {
            const StorageId s = m_scanned[m_contenders[k]];
            m_regions->select(s, false);
            if (readsForward)
                m_regions->select(s, true);
        }
        m_regions->resolveSelected(m_graph.created());
        for (std::size_t k = next; k < end; ++k) {
            const std::uint32_t i = m_contenders[k];
            m_scannedScore[i] = ratioScore(m_scanned[i], knownCost(m_scanned[i], readsForward), m_lastAccess[m_scanned[i]]);
            best = std::min(best, m_scannedScore[i]);
        }
        next = end;
    }
    return next > 0;
}

// Two phases: when some evictable storage alone covers the shortfall, only those compete;
// otherwise all do. Either way the lowest own compute / staleness wins, scanned as simrd scans.
StorageId Replay::shortfallFirstVictim(Bytes shortfall)
{
    bool someCover = false;
    m_pool.scan([&](StorageId s) {
        someCover = m_program.storages[s].size >= shortfall;
        return !someCover;
    });
    return scanPool([&](StorageId s) { return ratioScore(s, m_compute[s], m_lastAccess[s]); },
                    [&](StorageId s) { return !someCover || m_program.storages[s].size >= shortfall; });
}

// The variables the expression reads; e* and the equivalence classes only when it reads them.
double Replay::expressionScore(StorageId s)
{
    ScoreVariables &v = m_expression->variables();
    const Cost lastAccess = m_lastAccess[s];
    const bool neverAccessed = lastAccess == kNeverAccessed; // simrd's -inf
    v.compute = static_cast<double>(m_compute[s]);
    v.size = static_cast<double>(m_program.storages[s].size);
    v.lastAccess = neverAccessed ? -kInfinity : static_cast<double>(lastAccess);
    v.staleness = neverAccessed ? kInfinity : static_cast<double>(m_clock - lastAccess);
    if (m_regions && m_expression->readsNeighbourhood()) {
        v.estar = static_cast<double>(m_regions->forward(s).compute + m_regions->backward(s).compute);
        v.neighbours = static_cast<double>(neighbourhoodCount(s));
    }
    if (m_eqClasses && m_expression->readsEqClasses())
        v.eqclass = static_cast<double>(eqClassCompute(s) - m_compute[s]);
    return m_expression->evaluate();
}

// Storages in e*: the interiors of both regions (disjoint, as the graph has no cycles).
std::size_t Replay::neighbourhoodCount(StorageId s) const
{
    return m_regions->forward(s).size() + m_regions->backward(s).size();
}

// numerator / (size and/or staleness) as simrd computes it, +infinity for a zero denominator.
double Replay::ratioScore(StorageId s, Cost numerator, Cost lastAccess) const
{
    const Policy &policy = m_config.policy;
    const auto size = static_cast<std::uint64_t>(m_program.storages[s].size);
    const bool neverAccessed = lastAccess == kNeverAccessed; // staleness is +infinity
    const auto staleness = neverAccessed ? 0 : static_cast<std::uint64_t>(m_clock - lastAccess);
    if (policy.divideBySize && policy.divideByStaleness) {
        if (neverAccessed)
            return size > 0 ? 0.0 : kInfinity; // x / inf, or 0 * inf = nan failing "> 0"
        return signedRatio(numerator, static_cast<uint128>(size) * staleness);
    }
    if (policy.divideBySize)
        return signedRatio(numerator, size);
    if (neverAccessed)
        return 0.0;
    return signedRatio(numerator, staleness);
}

Cost Replay::costTerm(StorageId s)
{
    switch (m_config.policy.cost) {
    case CostTerm::EStar:
    case CostTerm::Penalized: return m_compute[s] + m_regions->forward(s).compute + m_regions->backward(s).compute;
    case CostTerm::BackwardOnly: return m_compute[s] + m_regions->backward(s).compute;
    case CostTerm::EqClass: return eqClassCompute(s);
    default: return m_compute[s];
    }
}

// Classes are told apart by their roots, marked as met, with no list of neighbours built: this
// runs for every storage scored. Finding the roots compresses the same paths in any order.
Cost Replay::eqClassCompute(StorageId s)
{
    Cost total = m_compute[s];
    m_rootMarks.grow(m_eq.size());
    m_rootMarks.clear();
    const auto addClassOf = [&](StorageId n) {
        if (n == s || m_flags.material(n) || m_eqNode[n] == kNone)
            return;
        const EqClassForest::Node root = m_eq.root(m_eqNode[n]);
        if (m_rootMarks.insert(root))
            total += m_eq.value(root);
    };
    m_search.forEachNeighbour(s, false, addClassOf);
    m_search.forEachNeighbour(s, true, addClassOf);
    return total;
}

// DTRUnopt: the neighbourhood searched afresh in both directions; its compute is summed and
// its latest access becomes the staleness reference.
Cost Replay::freshNeighbourhood(StorageId s, Cost &lastAccess)
{
    m_search.search(s, true, m_graph.created(), m_scratchForward);
    m_search.search(s, false, m_graph.created(), m_scratchBackward);
    m_marks.grow(m_program.storages.size()); // sized at the first use: only DTRUnopt uses it
    m_marks.clear();
    Cost total = m_compute[s];
    lastAccess = m_lastAccess[s];
    for (const Region *region : {&m_scratchForward, &m_scratchBackward})
        region->forEachMember([&](StorageId u) {
            if (m_marks.insert(u)) {
                total += m_compute[u];
                lastAccess = std::max(lastAccess, m_lastAccess[u]);
            }
        });
    return total;
}

void Replay::updateEqClassesOnEvict(StorageId s)
{
    m_eqNode[s] = m_eq.make(m_compute[s]);
    for (StorageId n : m_search.evictedNeighbours(s))
        if (m_eqNode[n] != kNone)
            m_eq.merge(m_eqNode[n], m_eqNode[s]);
}

void Replay::updateEqClassesOnCompute()
{
    for (StorageId s : m_rematStorages) {
        const EqClassForest::Node node = m_eqNode[s];
        if (node == kNone)
            continue;
        m_eq.setValue(node, m_eq.value(node) - m_compute[s]);
        m_eqNode[s] = kNone;
    }
}

} // namespace rematlens
