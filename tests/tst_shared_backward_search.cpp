// SharedBackwardSearch must give every region exactly as one search per base does: on the
// project's own traces and every public trace, under random evicted, material and pinned
// storages, batches larger than one group of 64 included. So must BackwardClosures over a run
// of batches with storages changing state between them (it carries closures from one batch to
// the next). And the compute summed over a region's bitmap must stay the members' total as
// compute changes.
#include "shared_data.h"

#include "core/sim/backward_closures.h"
#include "core/sim/neighbourhood_search.h"
#include "core/sim/replay_graph.h"
#include "core/sim/shared_backward_search.h"
#include "core/sim/subset_sums.h"
#include "core/trace/trace_reader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <random>

using namespace rematlens;

namespace {

std::vector<StorageId> sortedMembers(const Region &region)
{
    std::vector<StorageId> members;
    region.forEachMember([&](StorageId x) { members.push_back(x); });
    std::sort(members.begin(), members.end());
    return members;
}

std::vector<StorageId> sortedFrontier(const Region &region)
{
    std::vector<StorageId> frontier;
    region.forEachFrontier([&](StorageId x) { frontier.push_back(x); });
    std::sort(frontier.begin(), frontier.end());
    return frontier;
}

// Whether some evicted storage has an evicted parent of a higher id: the one case the shared
// walk declines.
bool hasLaterEvictedParent(const Program &program, MaterialFlags &flags)
{
    for (StorageId s = 0; s < program.storages.size(); ++s) {
        if (flags.material(s))
            continue;
        for (const StorageEdge &edge : program.storageNeighbours(s, false))
            if (edge.storage > s && !flags.material(edge.storage))
                return true;
    }
    return false;
}

// The whole program created, as after a replay's last operator.
void createEveryOp(ReplayGraph &graph, const Program &program)
{
    for (OpId op = 0; op < program.ops.size(); ++op)
        graph.create(op);
}

// A compute cost per storage, drawn from random.
std::vector<Cost> randomCompute(std::size_t storageCount, std::mt19937 &random)
{
    std::vector<Cost> compute(storageCount);
    for (Cost &c : compute)
        c = std::uniform_int_distribution<Cost>(0, 1000000)(random);
    return compute;
}

} // namespace

class SharedBackwardSearchTest : public QObject {
    Q_OBJECT

private slots:
    void sameAsOneSearchPerBase_data();
    void sameAsOneSearchPerBase();
    void declinesAnEvictedParentOfAHigherId();
    void closuresFollowStateChangesAcrossBatches_data();
    void closuresFollowStateChangesAcrossBatches();
    void subsetSumsFollowComputeChanges();
};

void SharedBackwardSearchTest::sameAsOneSearchPerBase_data()
{
    QTest::addColumn<QString>("trace");
    for (const char *own : {"chain.log", "demo.log", "lstm.log", "resnet.log", "unet.log"})
        QTest::newRow(own) << ownTracePath(QString::fromLatin1(own));
    const QString shared = sharedDirectory();
    if (shared.isEmpty())
        return;
    addPublicTraceRows(shared);
}

void SharedBackwardSearchTest::closuresFollowStateChangesAcrossBatches_data()
{
    sameAsOneSearchPerBase_data();
}

void SharedBackwardSearchTest::sameAsOneSearchPerBase()
{
    QFETCH(QString, trace);
    const TraceReadResult read = readTraceFile(trace.toStdString());
    QVERIFY2(read.ok(), read.error.toString().c_str());
    const Program &program = *read.program;
    const std::size_t storageCount = program.storages.size();
    ReplayGraph graph(program, false);
    createEveryOp(graph, program);
    std::mt19937 random(20261130);
    const std::vector<Cost> compute = randomCompute(storageCount, random);
    int compared = 0;
    int declined = 0;
    for (double materialShare : {0.2, 0.5, 0.8}) {
        MaterialFlags flags(storageCount);
        std::vector<StorageId> bases;
        for (StorageId s = 0; s < storageCount; ++s) {
            const double draw = std::uniform_real_distribution<double>(0, 1)(random);
            if (draw < materialShare) {
                flags.set(s, true);
                if (draw < materialShare * 0.05)
                    flags.setPinned(s);
                else
                    bases.push_back(s);
            }
        }
        std::shuffle(bases.begin(), bases.end(), random);
        bases.resize(std::min<std::size_t>(bases.size(), 150));
        std::vector<Region> shared(bases.size());
        std::vector<SharedBackwardSearch::Request> requests;
        for (std::size_t i = 0; i < bases.size(); ++i)
            requests.push_back({bases[i], graph.created(), &shared[i]});
        SharedBackwardSearch walk(program, flags, compute);
        if (!walk.searchAll(requests, graph.created())) {
            QVERIFY2(hasLaterEvictedParent(program, flags), "declined without an evicted parent of a higher id");
            ++declined;
            continue;
        }
        NeighbourhoodSearch search(program, graph, flags, compute);
        Region single;
        for (std::size_t i = 0; i < bases.size(); ++i) {
            search.search(bases[i], false, graph.created(), single);
            QCOMPARE(shared[i].compute, single.compute);
            QCOMPARE(shared[i].size(), single.size());
            QCOMPARE(sortedMembers(shared[i]), sortedMembers(single));
            QCOMPARE(sortedFrontier(shared[i]), sortedFrontier(single));
            ++compared;
        }
    }
    QVERIFY2(compared > 0 || declined == 3, "nothing was compared");
    qInfo("%d regions compared, %d states declined", compared, declined);
}

// One BackwardClosures through 60 batches; between batches a few storages become material, are
// evicted or are pinned (told through stateChanged) and a few evicted ones' compute grows (told
// through computeChanged), and every region of every batch must be the one a search from
// scratch finds. Closures kept though a storage they hold has changed would leave stale
// members, frontier or compute behind.
void SharedBackwardSearchTest::closuresFollowStateChangesAcrossBatches()
{
    QFETCH(QString, trace);
    const TraceReadResult read = readTraceFile(trace.toStdString());
    QVERIFY2(read.ok(), read.error.toString().c_str());
    const Program &program = *read.program;
    const std::size_t storageCount = program.storages.size();
    ReplayGraph graph(program, false);
    createEveryOp(graph, program);
    std::mt19937 random(20261204);
    std::vector<Cost> compute = randomCompute(storageCount, random);
    MaterialFlags flags(storageCount);
    for (StorageId s = 0; s < storageCount; ++s)
        flags.set(s, std::uniform_real_distribution<double>(0, 1)(random) < 0.5);
    BackwardClosures closures(program, flags, compute);
    NeighbourhoodSearch search(program, graph, flags, compute);
    auto someStorage = [&] { return std::uniform_int_distribution<StorageId>(0, StorageId(storageCount - 1))(random); };
    int compared = 0;
    int batches = 0;
    for (int round = 0; round < 60; ++round) {
        for (int change = 0; change < 3; ++change) {
            const StorageId s = someStorage();
            if (flags.pinned(s))
                continue;
            if (change == 2 && round % 5 == 0 && flags.material(s))
                flags.setPinned(s);
            else
                flags.set(s, !flags.material(s));
            closures.stateChanged(s);
        }
        for (int change = 0; change < 2; ++change) {
            const StorageId s = someStorage();
            if (!flags.material(s)) {
                compute[s] += 1 + round;
                closures.computeChanged(s);
            }
        }
        std::vector<StorageId> bases;
        for (StorageId s = 0; s < storageCount; ++s)
            if (flags.material(s) && !flags.pinned(s))
                bases.push_back(s);
        std::shuffle(bases.begin(), bases.end(), random);
        bases.resize(std::min<std::size_t>(bases.size(), 40));
        std::vector<Region> batch(bases.size());
        std::vector<BackwardClosures::Request> requests;
        for (std::size_t i = 0; i < bases.size(); ++i)
            requests.push_back({bases[i], graph.created(), &batch[i]});
        if (!closures.searchAll(requests, graph.created()))
            continue; // a cycle of evicted aliases: the caller searches one by one
        ++batches;
        Region single;
        for (std::size_t i = 0; i < bases.size(); ++i) {
            search.search(bases[i], false, graph.created(), single);
            QCOMPARE(batch[i].compute, single.compute);
            QCOMPARE(sortedMembers(batch[i]), sortedMembers(single));
            QCOMPARE(sortedFrontier(batch[i]), sortedFrontier(single));
            ++compared;
        }
    }
    QVERIFY2(batches >= 30, "most batches must be resolved by closures");
    QVERIFY2(compared > 0, "nothing was compared");
    qInfo("%d regions compared over %d batches", compared, batches);
}

// x3 = add_(x1, x2) writes into x1's storage, so storage 1 gains the parent storage 2, created
// after it. With both evicted a walk from x4 meets that edge and must decline; with storage 2
// material it answers as one search does.
void SharedBackwardSearchTest::declinesAnEvictedParentOfAHigherId()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile file(dir.filePath(QStringLiteral("inplace.log")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"INSTRUCTION":"CONSTANT","NAME":"x0"}
{"INSTRUCTION":"MEMORY","NAME":"x0","MEMORY":"64"}
{"INSTRUCTION":"CALL","NAME":"f","ARGS":["x0"],"RESULT":["x1"],"TIME":"10"}
{"INSTRUCTION":"MEMORY","NAME":"x1","MEMORY":"64"}
{"INSTRUCTION":"ALIAS","NAME":"x1","ALIAS":"-1"}
{"INSTRUCTION":"CALL","NAME":"g","ARGS":["x0"],"RESULT":["x2"],"TIME":"20"}
{"INSTRUCTION":"MEMORY","NAME":"x2","MEMORY":"64"}
{"INSTRUCTION":"ALIAS","NAME":"x2","ALIAS":"-1"}
{"INSTRUCTION":"CALL","NAME":"add_","ARGS":["x1","x2"],"RESULT":["x3"],"TIME":"30"}
{"INSTRUCTION":"MEMORY","NAME":"x3","MEMORY":"0"}
{"INSTRUCTION":"ALIAS","NAME":"x3","ALIAS":"0"}
{"INSTRUCTION":"CALL","NAME":"h","ARGS":["x3"],"RESULT":["x4"],"TIME":"40"}
{"INSTRUCTION":"MEMORY","NAME":"x4","MEMORY":"64"}
{"INSTRUCTION":"ALIAS","NAME":"x4","ALIAS":"-1"}
)");
    file.close();
    const TraceReadResult read = readTraceFile(file.fileName().toStdString());
    QVERIFY2(read.ok(), read.error.toString().c_str());
    const Program &program = *read.program;
    QCOMPARE(program.storages.size(), std::size_t{4});
    ReplayGraph graph(program, false);
    for (OpId op = 0; op < program.ops.size(); ++op)
        graph.create(op);
    const std::vector<Cost> compute{1, 10, 20, 40};
    MaterialFlags flags(program.storages.size());
    flags.set(0, true);
    flags.set(3, true);
    Region shared;
    SharedBackwardSearch walk(program, flags, compute);
    const std::vector<SharedBackwardSearch::Request> requests{{3, graph.created(), &shared}};
    QVERIFY(!walk.searchAll(requests, graph.created()));

    flags.set(2, true);
    QVERIFY(walk.searchAll(requests, graph.created()));
    NeighbourhoodSearch search(program, graph, flags, compute);
    Region single;
    search.search(3, false, graph.created(), single);
    QCOMPARE(sortedMembers(shared), std::vector<StorageId>{1});
    QCOMPARE(sortedMembers(shared), sortedMembers(single));
    QCOMPARE(shared.compute, single.compute);
    QCOMPARE(sortedFrontier(shared), std::vector<StorageId>{2});
    QCOMPARE(sortedFrontier(shared), sortedFrontier(single));
}

// Against adding member by member, over random bitmaps (a partial last group and word
// included), with compute changing before the first sum and after it.
void SharedBackwardSearchTest::subsetSumsFollowComputeChanges()
{
    std::mt19937_64 random(41);
    std::vector<Cost> compute(300);
    for (Cost &c : compute)
        c = static_cast<Cost>(random() % 1'000'000);
    SubsetSums sums(compute);
    const std::size_t words = (compute.size() + 63) / 64;
    std::vector<SubsetSums::Word> bits(words);
    for (int round = 0; round < 2000; ++round) {
        const auto s = static_cast<StorageId>(random() % compute.size());
        compute[s] += static_cast<Cost>(random() % 5000);
        sums.changed(s);
        if (round < 10)
            continue; // changes before the tables exist
        for (std::size_t w = 0; w < words; ++w) // sparse, half full, dense
            bits[w] = round % 3 == 0 ? random() & random() : round % 3 == 1 ? random() : random() | random() | random();
        bits[words - 1] &= (SubsetSums::Word{1} << (compute.size() % 64)) - 1;
        const std::size_t low = random() % words;
        const std::size_t high = low + 1 + random() % (words - low);
        Cost expected = 0;
        for (std::size_t id = low * 64; id < high * 64 && id < compute.size(); ++id)
            if (bits[id / 64] >> (id % 64) & 1)
                expected += compute[id];
        QCOMPARE(sums.sum(bits.data(), low, high), expected);
    }
}

QTEST_GUILESS_MAIN(SharedBackwardSearchTest)
#include "tst_shared_backward_search.moc"
