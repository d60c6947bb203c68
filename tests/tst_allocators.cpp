// The allocator models on hand-derived sequences: the specification's worked examples, rounding,
// split thresholds, pools, coalescing, release-and-retry, the options and the best-fit arena.
// Every step is followed by the layout check, which must hold after any call.
#include "core/alloc/allocator_config.h"
#include "core/alloc/best_fit_allocator.h"
#include "core/alloc/caching_allocator.h"
#include "core/alloc/free_block_set.h"
#include "core/alloc/layout_check.h"
#include "core/alloc/sum_allocator.h"

#include <QtTest>

#include <algorithm>
#include <limits>
#include <random>
#include <set>

using namespace rematlens;

namespace {

constexpr Bytes MiB = Bytes{1} << 20;
constexpr Bytes KiB = Bytes{1} << 10;

// Allocates and checks the layout afterwards; the handle (the test fails when there is none).
BlockHandle take(Allocator &allocator, Bytes n)
{
    const std::optional<BlockHandle> block = allocator.allocate(n);
    const std::string problem = allocatorProblem(allocator);
    if (!problem.empty())
        qFatal("layout broken after allocating %lld bytes: %s", static_cast<long long>(n), problem.c_str());
    if (!block)
        qFatal("allocating %lld bytes failed", static_cast<long long>(n));
    return *block;
}

void give(Allocator &allocator, BlockHandle block)
{
    allocator.free(block);
    const std::string problem = allocatorProblem(allocator);
    if (!problem.empty())
        qFatal("layout broken after a free: %s", problem.c_str());
}

// The blocks of the allocator as (address, size, state) triples in address order, in MiB where
// they are whole MiB.
std::vector<BlockView> blocks(const Allocator &allocator)
{
    std::vector<BlockView> all;
    for (const SegmentView &segment : allocator.layout())
        for (const BlockView &block : segment.blocks)
            if (block.state != BlockView::State::Unmapped)
                all.push_back(block);
    std::sort(all.begin(), all.end(), [](const BlockView &a, const BlockView &b) { return a.address < b.address; });
    return all;
}

bool sameBlocks(const std::vector<BlockView> &actual, const std::vector<BlockView> &expected)
{
    if (actual.size() != expected.size())
        return false;
    for (std::size_t i = 0; i < actual.size(); ++i)
        if (actual[i].address != expected[i].address || actual[i].size != expected[i].size
            || actual[i].state != expected[i].state)
            return false;
    return true;
}

constexpr auto Allocated = BlockView::State::Allocated;
constexpr auto Free = BlockView::State::Free;

// An allocator whose layout is whatever the test says, to show that the check catches it.
class FakeAllocator final : public Allocator {
public:
    std::vector<SegmentView> segments;
    Bytes cap = 100 * MiB;
    std::optional<BlockHandle> allocate(Bytes) override { return std::nullopt; }
    void free(BlockHandle) override {}
    std::unique_ptr<Allocator> clone() const override { return std::make_unique<FakeAllocator>(*this); }
    Bytes roundedSize(Bytes n) const override { return n; }
    Bytes capacity() const override { return cap; }
    Bytes largestFixedFreeBlock() const override { return 0; }
    std::optional<Bytes> freeTailFrom() const override { return std::nullopt; }
    void setCapacity(Bytes capacity) override { cap = capacity; }
    bool sameState(const Allocator &) const override { return false; }
    BlockPlace placeOf(BlockHandle) const override { return {}; }
    std::vector<SegmentView> layout() const override { return segments; }
    std::string bookkeepingProblem() const override { return {}; }
    void setCounts(Bytes allocated, Bytes reserved)
    {
        addReserved(reserved);
        addAllocated(allocated);
    }
};

} // namespace

class AllocatorsTest : public QObject {
    Q_OBJECT

private slots:
    void workedExampleFailsBelowCapacity();
    void workedExamplePassesWithExpandableSegments();
    void twentyMiBSegmentsStrandSpace();
    void rounding();
    void roundupPowerOfTwoDivisions();
    void segmentSizes();
    void smallPoolSplitsAtHalfAKiB();
    void largePoolSplitsOnlyAboveOneMiB();
    void poolsDoNotShare();
    void freeCoalescesBothNeighbours();
    void releaseAndRetry();
    void emptyCacheKeepsSplitSegments();
    void maxSplitSizeRefusesOversizeBlocks();
    void addressesAreNeverReused();
    void cloneIsIndependent();
    void bestFitPicksSmallestThenLowest();
    void bestFitFailsOnFragmentation();
    void bestFitHighWaterMark();
    void sumCountsLiveBytes();
    void layoutCheckCatchesBrokenLayouts();
    void options();
    void freeBlockSetKeepsBestFitOrder();
};

// Specification 1.17, first example: 45 MiB cannot be placed in a 100 MiB device although only
// 30 MiB are allocated.
void AllocatorsTest::workedExampleFailsBelowCapacity()
{
    CachingAllocator a(100 * MiB, {});
    const BlockHandle x = take(a, 60 * MiB);
    QCOMPARE(a.reserved(), 60 * MiB);
    give(a, x);
    const BlockHandle y = take(a, 20 * MiB);
    const BlockHandle z = take(a, 30 * MiB);
    QVERIFY(sameBlocks(blocks(a), {{0, 20 * MiB, Allocated}, {20 * MiB, 30 * MiB, Allocated}, {50 * MiB, 10 * MiB, Free}}));
    give(a, y);
    QVERIFY(sameBlocks(blocks(a), {{0, 20 * MiB, Free}, {20 * MiB, 30 * MiB, Allocated}, {50 * MiB, 10 * MiB, Free}}));
    QCOMPARE(a.allocate(45 * MiB), std::nullopt);
    QVERIFY(allocatorProblem(a).empty());
    QCOMPARE(a.allocated(), 30 * MiB);
    QCOMPARE(a.reserved(), 60 * MiB); // nothing was a whole free segment
    QCOMPARE(a.cacheFlushes(), 1);
    QVERIFY(a.allocated() + a.roundedSize(45 * MiB) <= a.capacity()); // a byte sum says it fits
    QCOMPARE(a.largestFreeBlock(), 40 * MiB);                       // the device's unreserved rest
    (void)z;
}

void AllocatorsTest::workedExamplePassesWithExpandableSegments()
{
    CachingOptions options;
    options.expandableSegments = true;
    CachingAllocator a(100 * MiB, options);
    const BlockHandle x = take(a, 60 * MiB);
    QCOMPARE(a.reserved(), 60 * MiB);
    give(a, x);
    const BlockHandle y = take(a, 20 * MiB);
    take(a, 30 * MiB);
    give(a, y);
    const Bytes base = blocks(a).front().address;
    const BlockHandle w = take(a, 45 * MiB);
    QCOMPARE(a.cacheFlushes(), 1); // the segment pre-check refused the first try
    QCOMPARE(a.reserved(), 80 * MiB);
    QCOMPARE(a.allocated(), 75 * MiB);
    QVERIFY(sameBlocks(blocks(a), {{base + 20 * MiB, 30 * MiB, Allocated},
                                   {base + 50 * MiB, 45 * MiB, Allocated},
                                   {base + 95 * MiB, 5 * MiB, Free}}));
    give(a, w);
    a.releaseCachedBlocks();
    QVERIFY(allocatorProblem(a).empty());
    // Pages [40, 60) and [80, 100) are free and whole: unmapped. The rest of [60, 80) is a free
    // partial page beside the allocated 30 MiB.
    QCOMPARE(a.reserved(), 40 * MiB);
}

// Specification 1.17, second example: 3 MiB more does not fit in 24 MiB with 19 MiB requested.
void AllocatorsTest::twentyMiBSegmentsStrandSpace()
{
    CachingAllocator a(24 * MiB, {});
    take(a, 5 * MiB);
    QCOMPARE(a.reserved(), 20 * MiB);
    take(a, 6 * MiB);
    take(a, 8 * MiB);
    QCOMPARE(a.allocated(), 20 * MiB); // the 9 MiB remainder was handed out whole
    QCOMPARE(a.allocate(3 * MiB), std::nullopt);
    QCOMPARE(a.reserved(), 20 * MiB);
}

void AllocatorsTest::rounding()
{
    CachingAllocator a(100 * MiB, {});
    QCOMPARE(a.roundedSize(1), Bytes{512});
    QCOMPARE(a.roundedSize(512), Bytes{512});
    QCOMPARE(a.roundedSize(513), Bytes{1024});
    QCOMPARE(a.roundedSize(9000), Bytes{9216});
    QCOMPARE(a.roundedSize(MiB + 1), MiB + 512);
}

void AllocatorsTest::roundupPowerOfTwoDivisions()
{
    CachingOptions options;
    options.roundupPower2Divisions = 4;
    CachingAllocator a(100 * MiB, options);
    QCOMPARE(a.roundedSize(9000), Bytes{10240}); // 8192 + a quarter of it
    QCOMPARE(a.roundedSize(8192), Bytes{8192});  // powers of two stay
    QCOMPARE(a.roundedSize(1200), Bytes{1536});  // not above 512 x 4: plain rounding
    QCOMPARE(a.roundedSize(5 * MiB + 1), 6 * MiB);
    options.roundupPower2Divisions = 1; // ignored, as PyTorch does
    CachingAllocator b(100 * MiB, options);
    QCOMPARE(b.roundedSize(9000), Bytes{9216});
}

void AllocatorsTest::segmentSizes()
{
    QCOMPARE(CachingAllocator::segmentSize(512), 2 * MiB);
    QCOMPARE(CachingAllocator::segmentSize(MiB), 2 * MiB);
    QCOMPARE(CachingAllocator::segmentSize(MiB + 512), 20 * MiB);
    QCOMPARE(CachingAllocator::segmentSize(10 * MiB - 512), 20 * MiB);
    QCOMPARE(CachingAllocator::segmentSize(10 * MiB), 10 * MiB);
    QCOMPARE(CachingAllocator::segmentSize(10 * MiB + 512), 12 * MiB);
}

void AllocatorsTest::smallPoolSplitsAtHalfAKiB()
{
    CachingAllocator b(100 * MiB, {});
    take(b, MiB); // a 2 MiB small segment; remainder 1 MiB is split off
    QVERIFY(sameBlocks(blocks(b), {{0, MiB, Allocated}, {MiB, MiB, Free}}));
    take(b, MiB - 512); // remainder exactly 512: still split
    QVERIFY(sameBlocks(blocks(b), {{0, MiB, Allocated}, {MiB, MiB - 512, Allocated}, {2 * MiB - 512, 512, Free}}));
    take(b, 512);
    QCOMPARE(b.reserved(), 2 * MiB);
    QCOMPARE(b.allocated(), 2 * MiB);
}

void AllocatorsTest::largePoolSplitsOnlyAboveOneMiB()
{
    CachingAllocator a(100 * MiB, {});
    take(a, 11 * MiB + MiB / 2); // segment 12 MiB, remainder 0.5 MiB: handed out whole
    QCOMPARE(a.allocated(), 12 * MiB);
    CachingAllocator b(100 * MiB, {});
    take(b, 11 * MiB); // remainder exactly 1 MiB: not split (strictly greater needed)
    QCOMPARE(b.allocated(), 12 * MiB);
    CachingAllocator c(100 * MiB, {});
    take(c, 10 * MiB + 512); // remainder 2 MiB - 512 > 1 MiB: split
    QCOMPARE(c.allocated(), 10 * MiB + 512);
    QVERIFY(sameBlocks(blocks(c), {{0, 10 * MiB + 512, Allocated}, {10 * MiB + 512, 2 * MiB - 512, Free}}));
}

void AllocatorsTest::poolsDoNotShare()
{
    CachingAllocator a(100 * MiB, {});
    const BlockHandle big = take(a, 2 * MiB); // large pool, 20 MiB segment
    give(a, big);
    take(a, 4 * KiB); // small: a new 2 MiB segment although 20 MiB are free
    QCOMPARE(a.reserved(), 22 * MiB);
    QVERIFY(sameBlocks(blocks(a), {{0, 20 * MiB, Free}, {20 * MiB, 4 * KiB, Allocated},
                                   {20 * MiB + 4 * KiB, 2 * MiB - 4 * KiB, Free}}));
}

void AllocatorsTest::freeCoalescesBothNeighbours()
{
    CachingAllocator a(100 * MiB, {});
    const BlockHandle p = take(a, 4 * MiB);
    const BlockHandle q = take(a, 4 * MiB);
    const BlockHandle r = take(a, 4 * MiB);
    QVERIFY(sameBlocks(blocks(a), {{0, 4 * MiB, Allocated}, {4 * MiB, 4 * MiB, Allocated},
                                   {8 * MiB, 4 * MiB, Allocated}, {12 * MiB, 8 * MiB, Free}}));
    give(a, p);
    give(a, r); // merges with the free tail
    QVERIFY(sameBlocks(blocks(a), {{0, 4 * MiB, Free}, {4 * MiB, 4 * MiB, Allocated}, {8 * MiB, 12 * MiB, Free}}));
    give(a, q); // merges with both
    QVERIFY(sameBlocks(blocks(a), {{0, 20 * MiB, Free}}));
    QCOMPARE(a.allocated(), Bytes{0});
    a.releaseCachedBlocks();
    QCOMPARE(a.reserved(), Bytes{0});
    QVERIFY(blocks(a).empty());
}

// A miss that does not fit beside the cache flushes it and retries once (PyTorch's
// num_alloc_retries); a second miss that cannot fit even then fails.
void AllocatorsTest::releaseAndRetry()
{
    CachingAllocator a(40 * MiB, {});
    give(a, take(a, 30 * MiB));
    QCOMPARE(a.reserved(), 30 * MiB);
    take(a, 35 * MiB); // 30 + 36 > 40: release the cached 30, then 36 fits
    QCOMPARE(a.cacheFlushes(), 1);
    QCOMPARE(a.reserved(), 36 * MiB);
    QCOMPARE(a.allocate(6 * MiB), std::nullopt); // needs a 20 MiB segment
    QCOMPARE(a.cacheFlushes(), 2);
    QCOMPARE(a.reserved(), 36 * MiB);
}

void AllocatorsTest::emptyCacheKeepsSplitSegments()
{
    CachingAllocator a(100 * MiB, {});
    const BlockHandle x = take(a, 3 * MiB);
    take(a, 3 * MiB);
    give(a, x);
    give(a, take(a, 30 * MiB));
    a.releaseCachedBlocks();
    QCOMPARE(a.reserved(), 20 * MiB); // the 30 MiB segment went, the split 20 MiB one stays
}

void AllocatorsTest::maxSplitSizeRefusesOversizeBlocks()
{
    CachingOptions options;
    options.maxSplitSize = 20 * MiB;
    CachingAllocator a(200 * MiB, options);
    give(a, take(a, 40 * MiB));
    take(a, 8 * MiB); // the 40 MiB block is oversize: not split for a small request
    QCOMPARE(a.reserved(), 60 * MiB);
    QCOMPARE(a.allocated(), 8 * MiB);
    const BlockHandle big = take(a, 30 * MiB); // oversize request: 40 wastes less than 20, used whole
    QCOMPARE(a.reserved(), 60 * MiB);
    QCOMPARE(a.allocated(), 8 * MiB + 40 * MiB);
    give(a, big);
    take(a, 20 * MiB); // 40 >= 20 + 20 wastes too much: a new 20 MiB segment
    QCOMPARE(a.reserved(), 80 * MiB);
    // Without room for a new segment, release_available frees the cached oversize block, with
    // no flush of the whole cache.
    CachingAllocator b(80 * MiB, options);
    give(b, take(b, 60 * MiB));
    take(b, 30 * MiB); // 60 >= 30 + 20: not used; 60 + 30 > 80
    QCOMPARE(b.reserved(), 30 * MiB);
    QCOMPARE(b.cacheFlushes(), 0);
    // When the oversize blocks released do not add up to the request, the whole cache is flushed.
    CachingAllocator c(60 * MiB, options);
    give(c, take(c, 40 * MiB));
    take(c, 50 * MiB);
    QCOMPARE(c.reserved(), 50 * MiB);
    QCOMPARE(c.cacheFlushes(), 1);
}

void AllocatorsTest::addressesAreNeverReused()
{
    CachingAllocator a(100 * MiB, {});
    give(a, take(a, 30 * MiB));
    a.releaseCachedBlocks();
    take(a, 30 * MiB);
    QCOMPARE(blocks(a).front().address, 30 * MiB);
}

void AllocatorsTest::cloneIsIndependent()
{
    CachingAllocator a(100 * MiB, {});
    const BlockHandle x = take(a, 30 * MiB);
    std::unique_ptr<Allocator> copy = a.clone();
    give(a, x);
    QCOMPARE(copy->allocated(), 30 * MiB);
    QCOMPARE(a.allocated(), Bytes{0});
    QVERIFY(allocatorProblem(*copy).empty());
}

void AllocatorsTest::bestFitPicksSmallestThenLowest()
{
    BestFitAllocator a(16 * KiB);
    const BlockHandle p = take(a, 1000);  // [0, 1024)
    take(a, 2000);                         // [1024, 3072)
    const BlockHandle r = take(a, 1024);  // [3072, 4096)
    take(a, 1024);                         // [4096, 5120)
    give(a, p);
    give(a, r);
    // Free: [0, 1024), [3072, 4096) and the tail [5120, 16 KiB). Two equal best fits: lowest wins.
    take(a, 600);
    QVERIFY(sameBlocks(blocks(a), {{0, 1024, Allocated}, {1024, 2048, Allocated}, {3072, 1024, Free},
                                   {4096, 1024, Allocated}, {5120, 16 * KiB - 5120, Free}}));
    take(a, 1536); // the tail is the only fit
    QCOMPARE(blocks(a)[4].address, Bytes{5120});
}

void AllocatorsTest::bestFitFailsOnFragmentation()
{
    BestFitAllocator a(4 * KiB);
    const BlockHandle w = take(a, 1024);
    const BlockHandle x = take(a, 1024);
    const BlockHandle y = take(a, 1024);
    take(a, 1024);
    give(a, w);
    give(a, y);
    QCOMPARE(a.allocate(2048), std::nullopt);
    QVERIFY(a.allocated() + 2048 <= a.capacity());
    QCOMPARE(a.largestFreeBlock(), Bytes{1024});
    give(a, x); // [0, 3072) coalesces
    QCOMPARE(a.largestFreeBlock(), Bytes{3072});
    take(a, 2048);
    QCOMPARE(blocks(a).front().address, Bytes{0});
}

void AllocatorsTest::bestFitHighWaterMark()
{
    BestFitAllocator a(MiB);
    const BlockHandle x = take(a, 4096);
    take(a, 4096);
    give(a, x);
    QCOMPARE(a.reserved(), Bytes{8192});
    QCOMPARE(a.allocated(), Bytes{4096});
    QCOMPARE(a.peakAllocated(), Bytes{8192});
}

void AllocatorsTest::sumCountsLiveBytes()
{
    SumAllocator a(1000);
    const BlockHandle x = take(a, 600);
    QCOMPARE(a.allocate(401), std::nullopt);
    take(a, 400);
    give(a, x);
    QCOMPARE(a.allocated(), Bytes{400});
    QCOMPARE(a.peakAllocated(), Bytes{1000});
}

void AllocatorsTest::layoutCheckCatchesBrokenLayouts()
{
    FakeAllocator overlap;
    overlap.segments = {{0, 4 * MiB, {{0, 4 * MiB, Free}}}, {2 * MiB, 2 * MiB, {{2 * MiB, 2 * MiB, Free}}}};
    QVERIFY(allocatorProblem(overlap).find("overlap") != std::string::npos);
    FakeAllocator gap;
    gap.segments = {{0, 4 * MiB, {{0, MiB, Free}, {2 * MiB, 2 * MiB, Allocated}}}};
    gap.setCounts(2 * MiB, 4 * MiB);
    QVERIFY(allocatorProblem(gap).find("gap") != std::string::npos);
    FakeAllocator uncoalesced;
    uncoalesced.segments = {{0, 4 * MiB, {{0, MiB, Free}, {MiB, 3 * MiB, Free}}}};
    QVERIFY(allocatorProblem(uncoalesced).find("coalesced") != std::string::npos);
    FakeAllocator overCapacity;
    overCapacity.cap = MiB;
    overCapacity.segments = {{0, 4 * MiB, {{0, 4 * MiB, Free}}}};
    overCapacity.setCounts(0, 4 * MiB);
    QVERIFY(allocatorProblem(overCapacity).find("capacity") != std::string::npos);
    FakeAllocator miscounted;
    miscounted.segments = {{0, 4 * MiB, {{0, 4 * MiB, Allocated}}}};
    miscounted.setCounts(MiB, 4 * MiB);
    QVERIFY(allocatorProblem(miscounted).find("add up") != std::string::npos);
    FakeAllocator fine;
    fine.segments = {{0, 4 * MiB, {{0, MiB, Allocated}, {MiB, 3 * MiB, Free}}}};
    fine.setCounts(MiB, 4 * MiB);
    QCOMPARE(allocatorProblem(fine), std::string());
}

void AllocatorsTest::options()
{
    CachingOptions options;
    QCOMPARE(applyCachingOption("max_split_size_mb=64", options), std::string());
    QCOMPARE(options.maxSplitSize, std::optional<Bytes>(64 * MiB));
    QVERIFY(applyCachingOption("max_split_size_mb=10", options).find("at least 20") != std::string::npos);
    QCOMPARE(applyCachingOption("roundup_power2_divisions=8", options), std::string());
    QCOMPARE(options.roundupPower2Divisions, 8);
    QVERIFY(applyCachingOption("roundup_power2_divisions=3", options).find("power of two") != std::string::npos);
    QCOMPARE(applyCachingOption("expandable_segments=True", options), std::string());
    QVERIFY(options.expandableSegments);
    QVERIFY(applyCachingOption("expandable_segments=maybe", options).find("true or false") != std::string::npos);
    QVERIFY(applyCachingOption("garbage=1", options).find("unknown key") != std::string::npos);
    QVERIFY(applyCachingOption("expandable_segments", options).find("KEY=VALUE") != std::string::npos);
    AllocatorConfig config;
    QCOMPARE(allocatorKey(config), std::string("sum"));
    config.kind = AllocatorKind::Caching;
    config.caching = options;
    QCOMPARE(allocatorKey(config),
             std::string("caching,max_split_size_mb=64,roundup_power2_divisions=8,expandable_segments=true"));
    config.kind = AllocatorKind::BestFit;
    config.eviction = EvictionCoupling::AfterOp;
    config.capacity = 1000;
    QCOMPARE(allocatorKey(config), std::string("best-fit,after-op,capacity=1000"));
    for (const char *key : {"sum", "caching", "best-fit,after-op,capacity=1000", "caching,after-op",
                            "caching,max_split_size_mb=64,roundup_power2_divisions=8,expandable_segments=true"}) {
        const std::optional<AllocatorConfig> parsed = parseAllocatorKey(key);
        QVERIFY2(parsed.has_value(), key);
        QCOMPARE(allocatorKey(*parsed), std::string(key));
    }
    QVERIFY(!parseAllocatorKey("caching,bogus"));
    QVERIFY(!parseAllocatorKey("arena"));
    QVERIFY(!parseAllocatorKey("best-fit,max_split_size_mb=64")); // options of caching only
}

// The size-class set against std::set under random inserts and erases, with sizes
// from a few bytes to a terabyte: the same keys in the same order both ways, the same answer to
// every best-fit lookup, after every step.
void AllocatorsTest::freeBlockSetKeepsBestFitOrder()
{
    FreeBlockSet keys;
    std::set<FreeBlockKey> expected;
    std::mt19937 random(7);
    auto randomKey = [&] {
        const int shift = static_cast<int>(random() % 41);
        const Bytes size = random() % 4 == 0 ? Bytes(random() % 8) * 512 : Bytes(random() % 64 + 1) << shift;
        return FreeBlockKey{size, Bytes(random() % 64) * 4096, BlockHandle(random() % 1000)};
    };
    auto sameKey = [](const FreeBlockKey &a, const FreeBlockKey &b) {
        return a.size == b.size && a.address == b.address && a.block == b.block;
    };
    auto present = [&] { return *std::next(expected.begin(), static_cast<long>(random() % expected.size())); };
    for (int step = 0; step < 4000; ++step) {
        if (expected.empty() || random() % 5 < 3) {
            const FreeBlockKey key = randomKey();
            if (expected.insert(key).second)
                keys.insert(key);
        } else {
            const FreeBlockKey old = present();
            expected.erase(old);
            keys.erase(old);
        }
        QCOMPARE(keys.size(), expected.size());
        QVERIFY(std::equal(keys.begin(), keys.end(), expected.begin(), expected.end(), sameKey));
        QVERIFY(std::equal(keys.rbegin(), keys.rend(), expected.rbegin(), expected.rend(), sameKey));
        const FreeBlockKey probe{randomKey().size, std::numeric_limits<Bytes>::min(), 0};
        const auto found = keys.lower_bound(probe);
        const auto wanted = expected.lower_bound(probe);
        QCOMPARE(found == keys.end(), wanted == expected.end());
        if (wanted != expected.end())
            QVERIFY(sameKey(*found, *wanted));
    }
}

QTEST_GUILESS_MAIN(AllocatorsTest)
#include "tst_allocators.moc"
