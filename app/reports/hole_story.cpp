#include "app/reports/hole_story.h"

#include "app/reports/divergence_report.h"
#include "app/reports/run_report.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace rematlens {

namespace {

using Part = HoleStoryWriter::Part;
using Edge = HoleStoryWriter::Edge;

const char *plural(std::int64_t n)
{
    return n == 1 ? "" : "s";
}

// How the story names its two runs: by ratio, or by role when their ratios look the same.
std::string label(const EdgeStory &s, bool smaller, const HoleReportContext &c)
{
    char a[32];
    char b[32];
    std::snprintf(a, sizeof a, "%.6g", ratioOfBaseline(c.baseline, s.smallerBudget));
    std::snprintf(b, sizeof b, "%.6g", ratioOfBaseline(c.baseline, s.largerBudget));
    const bool failing = smaller == s.failingIsSmaller;
    if (std::string(a) == b)
        return failing ? "the failing run" : "the passing run";
    return std::string(smaller ? a : b) + " (" + std::string(outcomeName((smaller ? s.smaller : s.larger).outcome)) + ")";
}

// The two runs of a story, by budget and label.
struct Runs {
    Bytes smallBudget;
    std::string small;
    Bytes largeBudget;
    std::string large;

    void writeSmall(HoleStoryWriter &w) const { w.budgetLabel(smallBudget, small); }
    void writeLarge(HoleStoryWriter &w) const { w.budgetLabel(largeBudget, large); }
    void writeFailing(HoleStoryWriter &w, const EdgeStory &s) const { s.failingIsSmaller ? writeSmall(w) : writeLarge(w); }
};

void tellAvoided(HoleStoryWriter &w, const EdgeStory &s, const Runs &runs, const HoleReportContext &c)
{
    w.begin(Part::Item, 1);
    if (s.avoided) {
        const AvoidedEviction &a = *s.avoided;
        w.emphasis("avoided eviction");
        w.text(": step ");
        w.step(a.step);
        w.text(" (line ");
        w.count(c.lineOf(a.step));
        w.text("), " + c.operatorOf(a.tensor) + " -> ");
        w.tensor(a.tensor, a.step, c.tensorName(a.tensor));
        w.text(",");
        w.wrap();
        const bool allocator = s.smaller.allocation.has_value();
        if (allocator) {
            // The model placed the outputs or not; the byte sum's arithmetic says nothing here.
            w.text("placing its outputs (");
            w.bytes(a.needed);
            w.text(" B) with ");
            w.bytes(a.memoryInUse);
            w.text(" B in use.");
            w.wrap();
            runs.writeSmall(w);
            w.text(" could not place them: it evicted ");
        } else {
            w.bytes(a.memoryInUse);
            w.text(" in use + ");
            w.bytes(a.needed);
            w.text(" needed = ");
            w.bytes(a.demand);
            w.text(" B.");
            w.wrap();
            runs.writeSmall(w);
            w.text(" was ");
            w.bytes(a.shortBySmaller);
            w.text(" B short: it evicted ");
        }
        w.tensor(a.victim, a.step, c.tensorName(a.victim));
        w.text(" (");
        w.bytes(a.victimBytes);
        w.text(" B");
        if (a.evictionsBefore) {
            w.text(", its eviction ");
            w.count(a.evictionsBefore + 1);
            w.text(" there");
        }
        w.text(").");
        w.wrap();
        runs.writeLarge(w);
        if (allocator) {
            w.text(" placed them and kept ");
        } else {
            w.text(" had ");
            w.bytes(a.slackOfLarger);
            w.text(" B to spare and kept ");
        }
        w.tensor(a.victim, a.step, c.tensorName(a.victim));
        w.text(".");
    } else if (!s.diff.firstDivergence) {
        w.text("their evictions and rematerializations are the same throughout");
    } else {
        w.text("they part at event ");
        w.count(static_cast<std::int64_t>(*s.diff.firstDivergence));
        w.text(" (no avoided eviction there):");
        w.wrap();
        runs.writeSmall(w);
        w.text(": " + describeDivergenceEvent(s.diff.a, c.program));
        w.wrap();
        runs.writeLarge(w);
        w.text(": " + describeDivergenceEvent(s.diff.b, c.program));
    }
    w.end();
}

void tellLater(HoleStoryWriter &w, const EdgeStory &s, const Runs &runs, const HoleReportContext &c)
{
    if (!s.later) {
        if (s.avoided) {
            w.begin(Part::Item, 2);
            w.emphasis("later");
            w.text(": ");
            runs.writeLarge(w);
            w.text(" evicts nothing the program reads again that ");
            runs.writeSmall(w);
            w.text(" keeps");
            w.end();
        }
        return;
    }
    const LaterEviction &l = *s.later;
    w.begin(Part::Item, 2);
    w.emphasis("later");
    w.text(": ");
    runs.writeLarge(w);
    w.text(" evicted ");
    w.tensor(l.tensor, l.step, c.tensorName(l.tensor));
    w.text(" (");
    w.bytes(l.bytes);
    w.text(" B) at step ");
    w.step(l.step);
    w.text(",");
    w.wrap();
    w.text("which ");
    runs.writeSmall(w);
    w.text(" did not evict then (");
    w.count(l.differingEvictions);
    w.text(std::string(" such eviction") + plural(l.differingEvictions) + ");");
    w.wrap();
    if (l.reuseStep) {
        w.text("rematerialized at step ");
        w.step(*l.reuseStep);
        w.text(", ");
        w.count(l.operatorsUntilReuse);
        w.text(std::string(" operator") + plural(l.operatorsUntilReuse) + " later");
    } else if (l.releasedBeforeReuse) {
        w.text("released before it was rematerialized");
    } else {
        w.text("never rematerialized");
    }
    w.text(s.laterNeededInFailingStep ? " (the failing step needs it too);" : ";");
    w.wrap();
    w.text("the program reads it next at step ");
    w.step(l.neededAtStep.value_or(0));
    w.text(", ");
    w.count(l.operatorsUntilNeeded);
    w.text(std::string(" operator") + plural(l.operatorsUntilNeeded) + " later.");
    w.end();
}

// The allocator's memory at a request it could not place though the bytes were free: its
// segments, the free blocks that may serve the request (the largest first), and why none of
// them, nor a new segment, holds it.
void tellLayout(HoleStoryWriter &w, const MemorySnapshot &m)
{
    std::vector<SnapshotBlock> usable;
    Bytes usableBytes = 0;
    Bytes otherBytes = 0;
    for (const SnapshotSegment &segment : m.segments)
        for (const SnapshotBlock &b : segment.blocks)
            if (b.state == BlockView::State::Free && segment.pool == m.requestPool) {
                usable.push_back(b);
                usableBytes += b.size;
            } else if (b.state == BlockView::State::Free) {
                otherBytes += b.size;
            }
    std::sort(usable.begin(), usable.end(), [](const SnapshotBlock &a, const SnapshotBlock &b) {
        return a.size != b.size ? a.size > b.size : a.address < b.address;
    });
    w.wrap();
    w.text("Its memory then: ");
    w.count(static_cast<std::int64_t>(m.segments.size()));
    w.text(m.newSegment ? " segments, " : " arena, ");
    w.bytes(m.reserved);
    w.text(m.newSegment ? " B reserved of " : " B used of ");
    w.bytes(m.capacity);
    w.text(" B;");
    w.wrap();
    const std::string pool(segmentPoolName(m.requestPool));
    w.text("the " + (m.requestPool == SegmentPool::Arena ? pool : pool + " pool") + "'s free blocks: ");
    w.count(static_cast<std::int64_t>(usable.size()));
    w.text(", ");
    w.bytes(usableBytes);
    w.text(" B in all");
    constexpr std::size_t kNamed = 3;
    for (std::size_t i = 0; i < std::min(usable.size(), kNamed); ++i) {
        w.text(i == 0 ? "; the largest:" : ",");
        w.wrap();
        w.bytes(usable[i].size);
        w.text(" B at address ");
        w.bytes(usable[i].address);
    }
    w.text(usable.size() > kNamed ? ", and smaller ones." : ".");
    if (otherBytes > 0) {
        w.wrap();
        w.text("The other pool's free blocks (");
        w.bytes(otherBytes);
        w.text(" B) never serve a request of this size.");
    }
    w.wrap();
    w.text("None holds the request of ");
    w.bytes(m.roundedRequest);
    w.text(" B");
    if (m.newSegment) {
        w.text(", and a new segment of ");
        w.bytes(*m.newSegment);
        w.text(" B");
        w.wrap();
        w.text("would make ");
        w.bytes(m.reserved + *m.newSegment);
        w.text(" B reserved, over the capacity");
    } else {
        w.text(", and the arena cannot grow");
    }
    w.text(".");
}

void tellFailure(HoleStoryWriter &w, const EdgeStory &s, const Runs &runs, const HoleReportContext &c)
{
    const RunResult &r = s.failing();
    const FailureCascade &f = s.cascade;
    w.begin(Part::Item, 3);
    w.emphasis("failure");
    w.text(": ");
    runs.writeFailing(w, s);
    if (r.failure) {
        const Failure &x = *r.failure;
        const auto failingStep = static_cast<std::uint32_t>(x.step);
        w.text(" ran out of memory at step ");
        w.step(failingStep);
        w.text(" (line ");
        w.count(x.line);
        w.text("),");
        w.wrap();
        w.text(x.operatorName + " -> ");
        w.tensor(f.tensor, failingStep, x.tensor);
        w.text(": ");
        w.bytes(x.memoryInUse);
        w.text(" in use + ");
        w.bytes(x.bytesNeeded);
        w.text(" needed,");
        w.wrap();
        w.bytes(x.bytesShort);
        w.text(" B short, at depth ");
        w.count(x.depth);
        if (x.oomKind)
            w.text(" (" + std::string(oomKindName(*x.oomKind)) + ")");
        w.text(".");
        if (s.failingLayout && x.oomKind == OomKind::Fragmentation)
            tellLayout(w, *s.failingLayout);
    } else {
        w.text(" went over the compute limit at step ");
        w.step(f.step);
        w.text(", materializing ");
        w.tensor(f.tensor, f.step, c.tensorName(f.tensor));
        w.text(":");
        w.wrap();
        w.text("remat compute ");
        w.grouped(r.rematCompute);
        w.text(", overhead " + fixedDigits(overheadOf(r, c.baseline), 2) + "x.");
    }
    w.wrap();
    w.text("That step's cascade: ");
    w.count(f.remats);
    w.text(" remats of ");
    w.count(f.distinctTensors);
    w.text(" tensors (");
    w.bytes(f.rematBytes);
    w.text(" B, compute ");
    w.grouped(f.rematCompute);
    w.text("),");
    w.wrap();
    w.text("depth ");
    w.count(f.depth);
    w.text(", ");
    w.count(f.evictions);
    w.text(" evictions (");
    w.bytes(f.evictedBytes);
    w.text(" B).");
    w.end();
}

void tellRescue(HoleStoryWriter &w, const EdgeStory &s, const Runs &runs, const HoleReportContext &c)
{
    if (!s.rescued)
        return;
    const auto &rescues = s.rescue.rescues;
    w.begin(Part::Item, 4);
    w.emphasis("rescue");
    w.text(": ");
    w.count(static_cast<std::int64_t>(rescues.size()));
    w.text(" of the ");
    w.count(static_cast<std::int64_t>(s.rescue.tried));
    w.text(" storages its policy evicted make ");
    runs.writeFailing(w, s);
    w.text(" pass, kept resident");
    if (rescues.empty()) {
        w.text(".");
    } else {
        w.text(";");
        w.wrap();
        w.text("best:");
        const std::size_t listed = w.rescuesListed();
        for (std::size_t i = 0; i < rescues.size() && i < listed; ++i) {
            w.text(" ");
            w.tensor(rescues[i].tensor, std::nullopt, c.tensorName(rescues[i].tensor));
            w.text(" (");
            w.bytes(c.program.storages[c.program.storageOf(rescues[i].tensor)].size);
            w.text(" B, " + fixedDigits(rescues[i].overhead, 4) + "x)");
            if (i + 1 < rescues.size() && i + 1 < listed)
                w.text(",");
        }
        if (rescues.size() > listed)
            w.text(" ...");
    }
    w.end();
    if (!s.later && !s.avoided)
        return;
    w.begin(Part::Continuation);
    if (s.later) {
        w.text("the later eviction ");
        w.tensor(s.later->tensor, s.later->step, c.tensorName(s.later->tensor));
        w.text(s.laterIsRescue ? " is one of them" : " is not one of them");
    }
    if (s.avoided) {
        w.text(s.later ? "; the avoided victim " : "the avoided victim ");
        w.tensor(s.avoided->victim, s.avoided->step, c.tensorName(s.avoided->victim));
        w.text(s.victimIsRescue ? " is" : " is not");
    }
    w.text(".");
    w.end();
}

} // namespace

void tellEdgeStory(const EdgeStory &s, const HoleReportContext &c, HoleStoryWriter &w)
{
    const Runs runs{s.smallerBudget, label(s, true, c), s.largerBudget, label(s, false, c)};
    tellAvoided(w, s, runs, c);
    tellLater(w, s, runs, c);
    if (isFailure(s.failing().outcome)) {
        tellFailure(w, s, runs, c);
        tellRescue(w, s, runs, c);
    }
}

void tellHoleSummary(const HoleAnatomy &h, const HoleReportContext &, HoleStoryWriter &w)
{
    w.begin(Part::Heading);
    w.text("hole ");
    w.budgetWithRatio(h.firstFail);
    w.text(" .. ");
    w.budgetWithRatio(h.lastFail);
    w.text(", ");
    w.bytes(h.lastFail - h.firstFail + 1);
    w.text(" B wide");
    w.end();
    w.begin(Part::Note);
    w.text("mechanism: ");
    w.emphasis(holeMechanismSentence(h.mechanism));
    w.end();
}

void tellEdge(Edge edge, const EdgeStory &story, const HoleReportContext &c, HoleStoryWriter &w)
{
    w.beginStory(edge, story);
    w.begin(Part::Heading);
    if (edge == Edge::Given) {
        w.text("the budgets asked, ");
        w.budgetWithRatio(story.smallerBudget);
        w.text(" and ");
        w.budgetWithRatio(story.largerBudget);
        w.text(":");
    } else {
        w.text(edge == Edge::Lower ? "lower edge, " : "upper edge, ");
        w.budgetBytes(story.smallerBudget);
        w.text(" | ");
        w.budgetBytes(story.largerBudget);
        w.text(edge == Edge::Lower ? " B (where it begins):" : " B (where it ends):");
    }
    w.end();
    tellEdgeStory(story, c, w);
}

void tellHoleAnatomy(const HoleAnatomy &h, const HoleReportContext &c, HoleStoryWriter &w)
{
    tellHoleSummary(h, c, w);
    if (h.given)
        tellEdge(Edge::Given, *h.given, c, w);
    tellEdge(Edge::Lower, h.lower, c, w);
    tellEdge(Edge::Upper, h.upper, c, w);
    w.begin(Part::Line);
    w.text("replays: ");
    w.count(static_cast<std::int64_t>(h.walkReplays));
    w.text(" to find the edges, ");
    w.count(static_cast<std::int64_t>(h.storyReplays));
    w.text(" to tell the stories, ");
    w.count(static_cast<std::int64_t>(h.rescueReplays));
    w.text(" in the rescue searches; ");
    w.count(static_cast<std::int64_t>(h.replays()));
    w.text(" in all");
    w.end();
}

} // namespace rematlens
