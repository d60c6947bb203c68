// The cascade of a failure: the builder (on a made-up run and on real ones), the graphviz
// layout wrapper, and the view with its figure, offscreen.
#include "shared_data.h"

#include "core/analysis/cascade.h"
#include "core/sim/baseline.h"
#include "core/sim/replay.h"
#include "core/trace/trace_reader.h"
#include "views/cascade/cascade_view.h"
#include "views/figure/figure_writer.h"
#include "views/cascade/graph_layout.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace rematlens;
using NodeKind = CascadeNode::Kind;
using EdgeKind = CascadeEdge::Kind;

namespace {

// "t3": appended, not added (operator+ on a literal trips GCC 12's spurious -Wrestrict).
std::string tensorName(char prefix, TensorId t)
{
    std::string name(1, prefix);
    name += std::to_string(t);
    return name;
}

// Six tensors, one storage each. Step 4 computes t3, which needs t0 (evicted at step 2 to make
// room for t2) and t1 (freed on release); rematerializing t0 evicts t2; then t3 does not fit.
struct MadeUpRun {
    std::shared_ptr<Program> program = std::make_shared<Program>();
    RunRecording recording;
    RunResult result;

    MadeUpRun()
    {
        program->ops.push_back(OpInfo{"op", 1, 100, 0, 0, 0, 1, false, false, 1});
        for (TensorId t = 0; t < 6; ++t) {
            program->tensors.push_back(TensorInfo{tensorName('t', t), 0, 0, t, 100, false, 1});
            program->storages.push_back(StorageInfo{100, t, false});
        }
        using K = ReplayEvent::Kind;
        const auto add = [&](K kind, TensorId t, std::uint16_t depth, std::uint32_t step) {
            recording.events.push_back(ReplayEvent{kind, depth, step, Cost(recording.events.size()), t, 100, 0});
        };
        add(K::Compute, 0, 1, 0);
        add(K::Compute, 1, 1, 1);
        add(K::Evict, 0, 1, 2);
        add(K::Compute, 2, 1, 2);
        add(K::Free, 1, 0, 3);
        add(K::Evict, 2, 2, 4);
        add(K::Remat, 0, 2, 4);
        add(K::Remat, 1, 2, 4);
        result.outcome = Outcome::OutOfMemory;
        result.failure = Failure{4, 9, "op", "t3", 100, 250, 50, 1, 200};
    }
};

bool hasEdge(const Cascade &c, NodeKind fromKind, TensorId fromTensor, NodeKind toKind, TensorId toTensor,
             EdgeKind kind)
{
    return std::any_of(c.edges.begin(), c.edges.end(), [&](const CascadeEdge &e) {
        const CascadeNode &from = c.nodes[e.from];
        const CascadeNode &to = c.nodes[e.to];
        return e.kind == kind && from.kind == fromKind && from.tensor == fromTensor && to.kind == toKind &&
               to.tensor == toTensor;
    });
}

struct RecordedRun {
    std::shared_ptr<const Program> program;
    RunRequest request;
    RunRecording recording;
    RunResult result;
};

RecordedRun recordRun(const QString &path, double ratio)
{
    RecordedRun run;
    const TraceReadResult read = readTraceFile(path.toStdString());
    if (!read.ok())
        return run;
    run.program = read.program;
    const Baseline baseline = computeBaseline(*run.program);
    run.request.trace = QFileInfo(path).fileName().toStdString();
    run.request.ratio = ratio;
    run.request.config.budget = budgetForRatio(baseline, ratio);
    run.request.config.rematLimit = rematLimitFor(baseline, 2.0);
    run.request.config.recording = &run.recording;
    run.result = Replay(*run.program, run.request.config).run();
    run.request.config.recording = nullptr;
    return run;
}

} // namespace

class CascadeTest : public QObject {
    Q_OBJECT

private slots:
    void madeUpRunLinksCauses();
    void limitLeavesEarlierCausesOut();
    void passingRunCentresOnTheLastRemat();
    void realFailureEdgesRunForwardInTime();
    void sharedUnetFailure();
    void demoHoleFailure();
    void layoutPlacesRanksTopToBottom();
    void layoutOfNothingAndOfBadEdges();
    void viewEmitsTheMomentOfAClickedBox();
    void viewUnfoldsACrowdOfEvictions();
    void figureWritesPngSvgAndPdf();
    void diagramAroundAnEvent();
};

void CascadeTest::madeUpRunLinksCauses()
{
    const MadeUpRun run;
    const Cascade c = buildCascade(*run.program, run.recording, run.result);
    QVERIFY(c.focus.has_value());
    QCOMPARE(c.nodes[*c.focus].kind, NodeKind::Failure);
    QCOMPARE(c.nodes[*c.focus].bytesShort, Bytes{50});
    QCOMPARE(c.nodes.size(), std::size_t{7}); // the first two computes caused nothing shown
    QVERIFY(hasEdge(c, NodeKind::Evict, 0, NodeKind::Compute, 2, EdgeKind::MadeRoomFor));
    QVERIFY(hasEdge(c, NodeKind::Evict, 0, NodeKind::Remat, 0, EdgeKind::RematerializedAs));
    QVERIFY(hasEdge(c, NodeKind::Release, 1, NodeKind::Remat, 1, EdgeKind::RematerializedAs));
    QVERIFY(hasEdge(c, NodeKind::Evict, 2, NodeKind::Remat, 0, EdgeKind::MadeRoomFor));
    QVERIFY(hasEdge(c, NodeKind::Remat, 0, NodeKind::Failure, 3, EdgeKind::NeededBy));
    QVERIFY(hasEdge(c, NodeKind::Remat, 1, NodeKind::Failure, 3, EdgeKind::NeededBy));
    QCOMPARE(c.edges.size(), std::size_t{6});
    QCOMPARE(c.materializationsLeftOut, std::size_t{0});
}

void CascadeTest::limitLeavesEarlierCausesOut()
{
    const MadeUpRun run;
    CascadeOptions options;
    options.materializations = 1;
    const Cascade c = buildCascade(*run.program, run.recording, run.result, options);
    const auto materializations = std::count_if(c.nodes.begin(), c.nodes.end(), [](const CascadeNode &n) {
        return n.kind == NodeKind::Remat || n.kind == NodeKind::Compute;
    });
    QCOMPARE(materializations, 1);
    QVERIFY(c.materializationsLeftOut > 0);
    // Around a chosen event instead: the eviction at step 2 and what it made room for.
    options.materializations = 12;
    options.focusEvent = 3;
    const Cascade around = buildCascade(*run.program, run.recording, run.result, options);
    QCOMPARE(around.nodes[*around.focus].kind, NodeKind::Compute);
    QCOMPARE(around.nodes.size(), std::size_t{2});
}

void CascadeTest::passingRunCentresOnTheLastRemat()
{
    MadeUpRun run;
    run.result = RunResult();
    const Cascade c = buildCascade(*run.program, run.recording, run.result);
    QVERIFY(c.focus.has_value());
    QCOMPARE(c.nodes[*c.focus].kind, NodeKind::Remat);
    QCOMPARE(c.nodes[*c.focus].tensor, TensorId{1});
    QVERIFY(buildCascade(*run.program, RunRecording(), run.result).nodes.empty());
}

void CascadeTest::realFailureEdgesRunForwardInTime()
{
    const RecordedRun run = recordRun(QStringLiteral(REMATLENS_SOURCE_DIR "/traces/unet.log"), 0.1);
    QVERIFY(run.program);
    QCOMPARE(run.result.outcome, Outcome::OutOfMemory);
    CascadeOptions options;
    options.materializations = 5;
    const Cascade c = buildCascade(*run.program, run.recording, run.result, options);
    QVERIFY(!c.nodes.empty());
    QCOMPARE(c.nodes[*c.focus].kind, NodeKind::Failure);
    QCOMPARE(c.nodes[*c.focus].bytesShort, run.result.failure->bytesShort);
    std::size_t materializations = 0;
    for (const CascadeNode &n : c.nodes)
        materializations += n.kind == NodeKind::Remat || n.kind == NodeKind::Compute;
    QVERIFY(materializations <= 5);
    for (const CascadeEdge &e : c.edges) {
        const CascadeNode &from = c.nodes[e.from];
        const CascadeNode &to = c.nodes[e.to];
        QVERIFY(from.event < to.event);
        switch (e.kind) {
        case EdgeKind::MadeRoomFor:
            QCOMPARE(from.kind, NodeKind::Evict);
            QCOMPARE(from.depth, to.depth);
            break;
        case EdgeKind::RematerializedAs:
            QVERIFY(from.kind == NodeKind::Evict || from.kind == NodeKind::Release);
            QCOMPARE(to.kind, NodeKind::Remat);
            QCOMPARE(run.program->storageOf(from.tensor), run.program->storageOf(to.tensor));
            break;
        case EdgeKind::NeededBy:
            QCOMPARE(from.kind, NodeKind::Remat);
            QCOMPARE(from.depth, to.depth + 1);
            break;
        }
    }
}

// U-Net DTR eager fails at 0.419: x5865 (threshold_backward) is 63,657,564 B short at depth 8,
// after rematerializing x5861, which needed x5831$ and x5854 (all freed on release earlier).
void CascadeTest::sharedUnetFailure()
{
    const QString unet = findPublicTrace(QStringLiteral("unet-6-8000000000.0-2020-10-1-10-57-18-default.log"));
    if (unet.isEmpty())
        QSKIP("the public U-Net trace is not installed (../shared, or traces/download-dtr-traces.sh)");
    const RecordedRun run = recordRun(unet, 0.419);
    QVERIFY(run.program);
    const Cascade c = buildCascade(*run.program, run.recording, run.result);
    const CascadeNode &failure = c.nodes[*c.focus];
    QCOMPARE(failure.kind, NodeKind::Failure);
    QCOMPARE(failure.bytesShort, Bytes{63657564});
    QCOMPARE(run.program->tensors[failure.tensor].name, std::string("x5865"));
    const auto named = [&](const char *name) {
        for (std::size_t i = 0; i < c.nodes.size(); ++i)
            if (c.nodes[i].kind == NodeKind::Remat && run.program->tensors[c.nodes[i].tensor].name == name)
                return i;
        return c.nodes.size();
    };
    const std::size_t x5861 = named("x5861");
    QVERIFY(x5861 < c.nodes.size());
    QVERIFY(std::any_of(c.edges.begin(), c.edges.end(), [&](const CascadeEdge &e) {
        return e.from == x5861 && e.to == *c.focus && e.kind == EdgeKind::NeededBy;
    }));
    QVERIFY(named("x5831$") < c.nodes.size());
    QVERIFY(named("x5854") < c.nodes.size());
}

// The demo fails in its hole at 0.347 the way U-Net does at 0.419: x121 (bmm_backward) is
// 2,510,399 B short seven calls deep (simrd's record), inside a rematerialization.
void CascadeTest::demoHoleFailure()
{
    const RecordedRun run = recordRun(QStringLiteral(REMATLENS_SOURCE_DIR "/traces/demo.log"), 0.347);
    QVERIFY(run.program);
    const Cascade c = buildCascade(*run.program, run.recording, run.result);
    const CascadeNode &failure = c.nodes[*c.focus];
    QCOMPARE(failure.kind, NodeKind::Failure);
    QCOMPARE(failure.bytesShort, Bytes{2510399});
    QCOMPARE(run.program->tensors[failure.tensor].name, std::string("x121"));
    QCOMPARE(failure.depth, std::uint32_t{7});
    // The rematerialization it happened in is in the cascade, and needed the failing tensor.
    QVERIFY(std::any_of(c.edges.begin(), c.edges.end(), [&](const CascadeEdge &e) {
        return e.to == *c.focus && e.kind == EdgeKind::NeededBy && c.nodes[e.from].kind == NodeKind::Remat;
    }));
}

void CascadeTest::layoutPlacesRanksTopToBottom()
{
    const GraphLayout::Result r =
        GraphLayout::layout({QSizeF(40, 20), QSizeF(60, 20), QSizeF(40, 30)}, {{0, 1}, {1, 2}, {0, 2}});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.centres.size(), std::size_t{3});
    QCOMPARE(r.paths.size(), std::size_t{3});
    QVERIFY(r.centres[0].y() < r.centres[1].y());
    QVERIFY(r.centres[1].y() < r.centres[2].y());
    for (const QPointF &c : r.centres)
        QVERIFY(r.bounds.adjusted(-1, -1, 1, 1).contains(c));
    for (std::size_t i = 0; i < r.paths.size(); ++i) {
        QVERIFY(!r.paths[i].isEmpty());
        QVERIFY(r.arrowheads[i].first != r.arrowheads[i].second); // dot draws heads on digraphs
    }
    // The arrow into node 1 ends at its top edge.
    QVERIFY(qAbs(r.arrowheads[0].second.y() - (r.centres[1].y() - 10)) < 1.5);
}

void CascadeTest::layoutOfNothingAndOfBadEdges()
{
    const GraphLayout::Result empty = GraphLayout::layout({}, {});
    QVERIFY(empty.ok);
    QVERIFY(empty.centres.empty());
    const GraphLayout::Result bad = GraphLayout::layout({QSizeF(10, 10)}, {{0, 3}});
    QVERIFY(!bad.ok);
    QVERIFY(bad.error.contains(QStringLiteral("does not exist")));
    // Many layouts in a row (graphviz state is global): each one is whole.
    for (int i = 0; i < 20; ++i)
        QVERIFY(GraphLayout::layout({QSizeF(10, 10), QSizeF(10, 10)}, {{0, 1}}).ok);
}

void CascadeTest::viewEmitsTheMomentOfAClickedBox()
{
    const MadeUpRun run;
    RunRequest request;
    request.trace = "made-up";
    CascadeView view;
    view.setDiagram(CascadeDiagram::forRun(run.program, request, run.result, run.recording));
    QVERIFY(!view.diagram().isEmpty());
    QCOMPARE(view.diagram().boxes().size(), std::size_t{7});
    view.resize(view.sizeHint());
    QSignalSpy moments(&view, &CascadeView::momentActivated);
    // Find where the failure's box landed by probing the widget.
    bool clicked = false;
    for (int y = 0; y < view.height() && !clicked; y += 3)
        for (int x = 0; x < view.width() && !clicked; x += 3) {
            const QPointF p(x, y);
            view.activateAt(p);
            if (!moments.isEmpty()) {
                const auto step = moments.first().at(0).value<std::uint32_t>();
                QVERIFY(step <= 4);
                clicked = true;
            }
        }
    QVERIFY(clicked);
    QVERIFY(!view.figureCsv().isEmpty());
    QVERIFY(view.figureCsv().startsWith(QStringLiteral("node,kind,tensor")));
}

void CascadeTest::viewUnfoldsACrowdOfEvictions()
{
    MadeUpRun run;
    // Twelve more small evictions that made room for t2.
    for (TensorId t = 6; t < 18; ++t) {
        run.program->tensors.push_back(TensorInfo{tensorName('s', t), 0, 0, t, 10, false, 1});
        run.program->storages.push_back(StorageInfo{10, t, false});
    }
    std::vector<ReplayEvent> events(run.recording.events.begin(), run.recording.events.begin() + 3);
    for (TensorId t = 6; t < 18; ++t)
        events.push_back(ReplayEvent{ReplayEvent::Kind::Evict, 1, 2, 2, t, 10, 0});
    events.insert(events.end(), run.recording.events.begin() + 3, run.recording.events.end());
    run.recording.events = events;
    CascadeDiagram diagram = CascadeDiagram::forRun(run.program, RunRequest(), run.result, run.recording);
    const auto folded = std::find_if(diagram.boxes().begin(), diagram.boxes().end(),
                                     [](const CascadeDiagram::Box &b) { return !b.node.has_value(); });
    QVERIFY(folded != diagram.boxes().end());
    // t0 also came back later, so it stays: the crowd is the twelve that did nothing else.
    QCOMPARE(folded->foldedCount, std::size_t{12} - diagram.options().shownWhenFolded);
    const std::size_t before = diagram.boxes().size();
    const std::size_t count = folded->foldedCount;
    diagram.unfold(folded->foldedInto); // rebuilds the boxes
    QCOMPARE(diagram.boxes().size(), before - 1 + count);
}

void CascadeTest::figureWritesPngSvgAndPdf()
{
    const RecordedRun run = recordRun(QStringLiteral(REMATLENS_SOURCE_DIR "/traces/unet.log"), 0.1);
    CascadeView view;
    view.setDiagram(CascadeDiagram::forRun(run.program, run.request, run.result, run.recording));
    QTemporaryDir dir;
    for (const char *suffix : {"png", "svg", "pdf"}) {
        const QString path = dir.filePath(QStringLiteral("cascade.") + QLatin1String(suffix));
        FigureWriter::Options options;
        options.sizeInches = view.diagram().preferredSize(6.75 * 72) / 72.0;
        options.dpi = 100;
        QCOMPARE(FigureWriter::write(view, path, options), QString());
        QVERIFY(QFileInfo(path).size() > 1000);
    }
}

// "Show what led to this": the cascade rebuilt around one event of the run.
void CascadeTest::diagramAroundAnEvent()
{
    const MadeUpRun run;
    CascadeOptions options;
    options.focusEvent = 6; // the remat of t0
    const CascadeDiagram diagram =
        CascadeDiagram::forRun(run.program, RunRequest(), run.result, run.recording, options);
    const Cascade &c = diagram.cascade();
    QCOMPARE(c.nodes[*c.focus].kind, NodeKind::Remat);
    QCOMPARE(c.nodes[*c.focus].tensor, TensorId{0});
    QVERIFY(
        std::none_of(c.nodes.begin(), c.nodes.end(), [](const CascadeNode &n) { return n.kind == NodeKind::Failure; }));
    QVERIFY(hasEdge(c, NodeKind::Evict, 0, NodeKind::Remat, 0, EdgeKind::RematerializedAs));
    QVERIFY(diagram.csv().contains(QStringLiteral(",remat,t0,")));
}

QTEST_MAIN(CascadeTest)
#include "tst_cascade.moc"
