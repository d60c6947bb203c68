// The allocator views: the timeline's reserved and allocated series against the run's record,
// the memory map's snapshot against the allocator's own layout, its drawing (blocks tile their
// segments, the failing request beside the largest free block), the byte sum left as it was,
// and both as figures, from the library and from the command line.
#include "shared_data.h"

#include "core/analysis/inspected_run.h"
#include "core/analysis/memory_snapshot_at.h"
#include "core/analysis/timeline_track.h"
#include "core/sim/baseline.h"
#include "core/sim/replay.h"
#include "core/trace/trace_reader.h"
#include "views/figure/figure_writer.h"
#include "views/memory/memory_map_figure.h"
#include "views/memory/memory_map_panel.h"
#include "views/memory/memory_map_view.h"
#include "views/timeline/chart_legend_rows.h"
#include "views/timeline/timeline_chart.h"
#include "views/timeline/timeline_figure.h"
#include "views/timeline/timeline_view.h"

#include <QAreaSeries>
#include <QChart>
#include <QFile>
#include <QImage>
#include <QLineSeries>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QHelpEvent>
#include <QToolTip>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace rematlens;

namespace {

std::shared_ptr<const Program> readOwn(const char *name)
{
    const TraceReadResult read = readTraceFile(ownTracePath(QString::fromLatin1(name)).toStdString());
    if (!read.ok())
        qFatal("%s", read.error.toString().c_str());
    return read.program;
}

RunRequest request(const Program &program, double ratio, AllocatorKind kind)
{
    const Baseline baseline = computeBaseline(program);
    RunRequest r;
    r.trace = "test";
    r.ratio = ratio;
    r.config.policy = *findPolicy("DTR");
    r.config.budget = budgetForRatio(baseline, ratio);
    r.config.rematLimit = rematLimitFor(baseline, 60.0);
    r.config.allocator.kind = kind;
    return r;
}

// Blocks in address order, without gaps or overlaps, from the segment's base to its end.
QString tilingProblem(const SnapshotSegment &segment)
{
    Bytes at = segment.base;
    for (const SnapshotBlock &b : segment.blocks) {
        if (b.address != at)
            return QStringLiteral("block at %1 where %2 was expected").arg(b.address).arg(at);
        if (b.size <= 0)
            return QStringLiteral("empty block at %1").arg(b.address);
        at += b.size;
    }
    return at == segment.base + segment.size ? QString() : QStringLiteral("blocks end at %1").arg(at);
}

int count(const QString &text, const QString &what)
{
    return int(text.count(what));
}

} // namespace

class MemoryMapTest : public QObject {
    Q_OBJECT
private slots:
    void stepBoxKeepsNoStepOfAnEarlierRun();
    void initTestCase();
    void seriesMaximaAreTheRecordsPeaks_data();
    void seriesMaximaAreTheRecordsPeaks();
    void byteSumLeavesTheTimelineAsItWas();
    void snapshotIsTheAllocatorsLayout_data();
    void snapshotIsTheAllocatorsLayout();
    void drawnBlocksTileTheirSegments();
    void failingRequestBesideTheLargestFreeBlock();
    void byteSumMapExplainsItself();
    void byteSumFitsAShortDock();
    void smallTimelineKeepsLegendWhole();
    void failureLabelStaysInThePlot_data();
    void failureLabelStaysInThePlot();
    void figuresReflectTheData();
    void commandLineFigures();

private:
    QString rematlens() const { return QStringLiteral(REMATLENS_BINARY); }
    int runCli(const QStringList &arguments, QString *errors = nullptr) const;

    std::shared_ptr<const Program> m_unet;
    RunRequest m_failing; // caching, out of memory by fragmentation
    QTemporaryDir m_dir;
};

void MemoryMapTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_unet = readOwn("unet.log");
    // The first budget from the top of 0.30..0.60 where the caching model fails by
    // fragmentation: the byte sum's failures are all about capacity.
    bool found = false;
    for (int permille = 600; permille >= 300 && !found; permille -= 5) {
        const RunRequest r = request(*m_unet, permille / 1000.0, AllocatorKind::Caching);
        const RunResult result = Replay(*m_unet, r.config).run();
        if (result.failure && result.failure->oomKind == OomKind::Fragmentation) {
            m_failing = r;
            found = true;
        }
    }
    QVERIFY2(found, "no fragmentation failure of the own U-Net trace under caching in 0.30..0.60");
}

void MemoryMapTest::seriesMaximaAreTheRecordsPeaks_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<double>("ratio");
    QTest::addColumn<int>("kind");
    for (const char *trace : {"unet.log", "resnet.log", "lstm.log", "demo.log"})
        for (double ratio : {0.3, 0.5, 0.8})
            for (AllocatorKind kind : {AllocatorKind::Caching, AllocatorKind::BestFit})
                QTest::addRow("%s %.1f %s", trace, ratio, allocatorKindName(kind).data())
                    << QString::fromLatin1(trace) << ratio << int(kind);
}

// The series are window maxima between samples: their maxima are the record's peaks exactly,
// and at every sample reserved >= allocated.
void MemoryMapTest::seriesMaximaAreTheRecordsPeaks()
{
    QFETCH(QString, trace);
    QFETCH(double, ratio);
    QFETCH(int, kind);
    const auto program = readOwn(trace.toLatin1().constData());
    const auto run = inspectRun(*program, request(*program, ratio, AllocatorKind(kind)));
    QVERIFY(run->result.allocation);
    QCOMPARE(run->recording.allocation.size(), run->recording.samples.size());
    // A budget below one 2 MiB segment fails at the first allocation, before any sample.
    if (run->recording.samples.empty()) {
        QVERIFY(run->result.failure);
        QCOMPARE(run->result.failure->depth, 1);
        QVERIFY(run->result.allocation->peakReserved < 2 * (Bytes{1} << 20) || run->result.failure->step < 8);
        return;
    }
    const TimelineTrack track(*program, run->recording, run->result, run->request.config.budget, TimelineAxis::Step);
    QVERIFY(track.hasAllocation());
    for (std::size_t i = 0; i < track.reserved().size(); ++i)
        QVERIFY2(track.reserved()[i] >= track.allocated()[i], qPrintable(QStringLiteral("sample %1").arg(i)));
    QCOMPARE(Bytes(track.peakReserved()), run->result.allocation->peakReserved);
    QCOMPARE(Bytes(track.peakAllocated()), run->result.allocation->peakAllocated);
    // Clock axis: the same numbers against another x.
    const TimelineTrack clock(*program, run->recording, run->result, run->request.config.budget, TimelineAxis::Clock);
    QCOMPARE(Bytes(clock.peakReserved()), run->result.allocation->peakReserved);
}

// Under the byte sum the recording has no allocator series and the chart shows the series it
// always showed: none of reserved, allocated or fragmentation, in the chart or its legend.
void MemoryMapTest::byteSumLeavesTheTimelineAsItWas()
{
    const auto names = [](const InspectedRun &run, const Program &program) {
        auto plot = std::make_shared<const TimelinePlot>(TimelinePlot::build(
            std::shared_ptr<const Program>(&program, [](const Program *) {}),
            std::shared_ptr<const InspectedRun>(&run, [](const InspectedRun *) {}), nullptr, TimelineAxis::Step));
        QChart chart;
        TimelineChart timeline(&chart, FigureStyle{});
        timeline.setPlot(plot.get());
        timeline.showRange(0, plot->extent(), 300);
        QStringList list;
        for (QAbstractSeries *s : chart.series())
            list << s->name();
        return list;
    };
    const auto sum = inspectRun(*m_unet, request(*m_unet, 0.5, AllocatorKind::Sum));
    QVERIFY(sum->recording.allocation.empty());
    QVERIFY(!sum->result.allocation);
    const QStringList sumSeries = names(*sum, *m_unet);
    QCOMPARE(sumSeries, (QStringList{QStringLiteral("remat"), QStringLiteral("locked"), QStringLiteral("nesting (right)"),
                                     QStringLiteral("in use 0.5"), QStringLiteral("budget 0.5"),
                                     QStringLiteral("eviction")}));
    const auto caching = inspectRun(*m_unet, request(*m_unet, 0.5, AllocatorKind::Caching));
    const QStringList cachingSeries = names(*caching, *m_unet);
    QCOMPARE(cachingSeries.size(), sumSeries.size() + 3);
    for (const char *name : {"reserved", "allocated", "fragmentation"})
        QVERIFY2(cachingSeries.contains(QString::fromLatin1(name)), name);
    // The byte sum's own samples are the same whatever else was recorded.
    const auto again = inspectRun(*m_unet, request(*m_unet, 0.5, AllocatorKind::Sum));
    QCOMPARE(again->recording.samples.size(), sum->recording.samples.size());
}

void MemoryMapTest::snapshotIsTheAllocatorsLayout_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<double>("ratio");
    QTest::addColumn<int>("kind");
    for (const char *trace : {"unet.log", "resnet.log", "lstm.log"})
        for (double ratio : {0.4, 0.7})
            for (AllocatorKind kind : {AllocatorKind::Caching, AllocatorKind::BestFit})
                QTest::addRow("%s %.1f %s", trace, ratio, allocatorKindName(kind).data())
                    << QString::fromLatin1(trace) << ratio << int(kind);
}

// After step N the snapshot holds what the allocator itself lays out before step N + 1 (read
// at a checkpoint of an independent replay), and every allocated block holds a storage at
// least as large as that storage.
void MemoryMapTest::snapshotIsTheAllocatorsLayout()
{
    QFETCH(QString, trace);
    QFETCH(double, ratio);
    QFETCH(int, kind);
    const auto program = readOwn(trace.toLatin1().constData());
    const RunRequest r = request(*program, ratio, AllocatorKind(kind));
    const std::size_t steps = program->schedule.size();
    for (const std::size_t step : {steps / 5, steps / 2, steps * 4 / 5}) {
        std::vector<SegmentView> expected;
        Replay replay(*program, r.config);
        replay.setCheckpoints(1, [&](const Replay &at) {
            if (at.step() == step + 1)
                expected = at.allocator()->layout();
        });
        const RunResult result = replay.run();
        const std::optional<MemorySnapshot> snapshot = snapshotAtStep(*program, r, step);
        QVERIFY(snapshot);
        if (snapshot->atFailure) {
            QVERIFY(result.failure);
            QCOMPARE(snapshot->step, result.failure->step);
            continue;
        }
        QCOMPARE(snapshot->step, step);
        QCOMPARE(snapshot->segments.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const SnapshotSegment &got = snapshot->segments[i];
            QCOMPARE(got.base, expected[i].base);
            QCOMPARE(got.size, expected[i].size);
            QVERIFY2(tilingProblem(got).isEmpty(), qPrintable(tilingProblem(got)));
            QCOMPARE(got.blocks.size(), expected[i].blocks.size());
            for (std::size_t j = 0; j < got.blocks.size(); ++j) {
                QCOMPARE(got.blocks[j].address, expected[i].blocks[j].address);
                QCOMPARE(got.blocks[j].size, expected[i].blocks[j].size);
                QCOMPARE(int(got.blocks[j].state), int(expected[i].blocks[j].state));
                if (got.blocks[j].state != BlockView::State::Allocated)
                    continue;
                QVERIFY(got.blocks[j].tensor < program->tensors.size());
                const TensorInfo &tensor = program->tensors[got.blocks[j].tensor];
                QVERIFY(got.blocks[j].size >= program->storages[tensor.storage].size);
            }
        }
    }
}

// The drawing covers each segment with its blocks: pieces of one segment never overlap, and
// their bytes add up to the segment's, at several sizes (rows wrap differently).
void MemoryMapTest::drawnBlocksTileTheirSegments()
{
    const auto program = m_unet;
    RunRequest r = request(*program, 0.5, AllocatorKind::Caching);
    const auto snapshot = snapshotAtStep(*program, r, program->schedule.size() / 2);
    QVERIFY(snapshot && !snapshot->segments.empty());
    for (const QRectF area : {QRectF(0, 0, 300, 120), QRectF(0, 0, 900, 400), QRectF(10, 30, 1500, 900)}) {
        const MemoryMapLayout layout(*snapshot, area, 14, 5);
        QCOMPARE(layout.hiddenSegments(), std::size_t(0));
        std::map<std::size_t, Bytes> bytes;
        std::map<std::pair<std::size_t, std::size_t>, Bytes> perBlock;
        for (std::size_t i = 0; i < layout.pieces().size(); ++i) {
            const auto &p = layout.pieces()[i];
            QVERIFY(area.adjusted(-0.01, -0.01, 0.01, 0.01).contains(p.rect));
            bytes[p.segment] += p.to - p.from;
            perBlock[{p.segment, p.block}] += p.to - p.from;
            for (std::size_t j = i + 1; j < layout.pieces().size(); ++j) {
                const QRectF overlap = p.rect.intersected(layout.pieces()[j].rect);
                QVERIFY2(overlap.width() < 1e-6 || overlap.height() < 1e-6,
                         qPrintable(QStringLiteral("pieces %1 and %2 overlap").arg(i).arg(j)));
            }
        }
        for (std::size_t s = 0; s < snapshot->segments.size(); ++s) {
            QCOMPARE(bytes[s], snapshot->segments[s].size);
            for (std::size_t b = 0; b < snapshot->segments[s].blocks.size(); ++b)
                QCOMPARE(perBlock[std::pair(s, b)], snapshot->segments[s].blocks[b].size);
        }
    }
}

// At the failing budget, the map's default step is the failing one; the request is drawn from
// the largest free block on and is longer than it; hovering it says why it failed.
void MemoryMapTest::failingRequestBesideTheLargestFreeBlock()
{
    const auto run = inspectRun(*m_unet, m_failing);
    QVERIFY(run->result.failure);
    const std::optional<std::size_t> step = defaultSnapshotStep(run->recording, run->result);
    QVERIFY(step);
    QCOMPARE(*step, run->result.failure->step);
    auto plot = std::make_shared<MemoryMapPlot>();
    plot->program = m_unet;
    plot->request = m_failing;
    plot->snapshot = snapshotAtStep(*m_unet, m_failing, *step);
    QVERIFY(plot->snapshot && plot->snapshot->atFailure);
    QVERIFY(plot->snapshot->failure->oomKind == OomKind::Fragmentation);
    const Bytes request = plot->snapshot->failure->request;
    QVERIFY(request > plot->snapshot->largestFreeBlock);
    // It would fit in the capacity: that is what makes it fragmentation.
    QVERIFY(plot->snapshot->allocated + request <= plot->snapshot->capacity);
    const auto largest = plot->largestFreeBlock();
    QVERIFY(largest);
    const Bytes inSegments = plot->snapshot->segments[largest->first].blocks[largest->second].size;
    QVERIFY(inSegments <= plot->snapshot->largestFreeBlock);
    QVERIFY(request > inSegments);
    const Bytes unreserved = plot->snapshot->capacity - plot->snapshot->reserved;

    MemoryMapView view;
    view.resize(1000, 400);
    view.setPlot(plot);
    const std::optional<MemoryMapLayout> layout = view.layout();
    QVERIFY(layout);
    const std::optional<QRectF> marker = view.figure().requestRect(*layout);
    QVERIFY(marker);
    // From the largest free space on: a free block, or the capacity no segment holds yet.
    QRectF anchor;
    if (unreserved >= inSegments) {
        QVERIFY(!layout->unreservedRects().empty());
        anchor = layout->unreservedRects().front();
    } else {
        const auto piece = std::find_if(layout->pieces().begin(), layout->pieces().end(), [&](const auto &p) {
            return p.segment == largest->first && p.block == largest->second;
        });
        QVERIFY(piece != layout->pieces().end());
        anchor = piece->rect;
    }
    QCOMPARE(marker->left(), anchor.left());
    QVERIFY(marker->top() >= anchor.top() && marker->bottom() <= anchor.bottom());
    QVERIFY(marker->width() > anchor.width() || marker->right() >= layout->area().right() - 0.5);
    const QString hover = view.hoverText(marker->center());
    QVERIFY2(hover.contains(QStringLiteral("fragmentation")), qPrintable(hover));
    QVERIFY2(hover.contains(QString::fromStdString(plot->snapshot->failure->tensor)), qPrintable(hover));
    QVERIFY(plot->failureText().contains(QStringLiteral("out of memory (fragmentation)")));
    // Hovering an allocated block names its tensor.
    const auto allocated = std::find_if(layout->pieces().begin(), layout->pieces().end(), [&](const auto &p) {
        const SnapshotBlock &b = plot->snapshot->segments[p.segment].blocks[p.block];
        return b.state == BlockView::State::Allocated && b.tensor != kNone && p.rect.width() > 4 &&
               !p.rect.intersects(*marker);
    });
    QVERIFY(allocated != layout->pieces().end());
    const SnapshotBlock &block = plot->snapshot->segments[allocated->segment].blocks[allocated->block];
    const QString blockHover = view.hoverText(allocated->rect.center());
    QVERIFY2(blockHover.startsWith(QString::fromStdString(m_unet->tensors[block.tensor].name)), qPrintable(blockHover));
    QVERIFY2(blockHover.contains(QStringLiteral("0x") + QString::number(qulonglong(block.address), 16)),
             qPrintable(blockHover));
    // A rest of the mouse asks for a tooltip: the block's hover text stays, not a parent's tooltip.
    QWidget dock;
    dock.setToolTip(QStringLiteral("the dock's general tooltip"));
    view.setParent(&dock);
    const auto unparent = qScopeGuard([&view] { view.setParent(nullptr); }); // the view is not the dock's to delete
    dock.resize(1000, 400);
    dock.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dock));
    const QPoint at = allocated->rect.center().toPoint();
    QHelpEvent rest(QEvent::ToolTip, at, view.mapToGlobal(at));
    QApplication::sendEvent(&view, &rest);
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), blockHover);
    QToolTip::hideText();
}

void MemoryMapTest::byteSumMapExplainsItself()
{
    auto plot = std::make_shared<MemoryMapPlot>();
    plot->program = m_unet;
    plot->request = request(*m_unet, 0.5, AllocatorKind::Sum);
    QVERIFY(!snapshotAtStep(*m_unet, plot->request, 10));
    MemoryMapView view;
    view.resize(600, 300);
    view.setPlot(plot);
    QVERIFY(!view.layout());
    QImage image(600, 300, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    view.paintFigure(painter, QRectF(0, 0, 600, 300), FigureStyle{});
    painter.end();
    QVERIFY(MemoryMapPlot::byteSumExplanation().contains(QStringLiteral("--allocator caching")));
    // Text was drawn: some pixels are dark.
    int dark = 0;
    for (int y = 0; y < 300; ++y)
        for (int x = 0; x < 600; ++x)
            dark += qGray(image.pixel(x, y)) < 128;
    QVERIFY(dark > 200);
}

// At 1024x700 the dock shows about 480 by 110 pixels of map: too little for the whole explanation,
// so it shows the gist, ending above the bottom edge (nothing to scroll), and hovering anywhere
// gives the whole.
void MemoryMapTest::byteSumFitsAShortDock()
{
    auto plot = std::make_shared<MemoryMapPlot>();
    plot->program = m_unet;
    plot->request = request(*m_unet, 0.5, AllocatorKind::Sum);
    MemoryMapView view;
    view.resize(480, 110);
    view.setPlot(plot);
    const FigureStyle style = FigureStyle::screen(view.font());
    const QRectF box = QRectF(view.rect()).adjusted(8, 8, -8, -8);
    const auto height = [&](const QString &text) {
        return QFontMetricsF(style.font())
            .boundingRect(QRectF(box.topLeft(), QSizeF(box.width(), 1e6)), Qt::AlignLeft | Qt::TextWordWrap, text)
            .height();
    };
    QVERIFY(height(MemoryMapPlot::byteSumExplanation()) > box.height());
    QVERIFY(height(MemoryMapPlot::byteSumSummary()) <= box.height());
    QImage image(view.size(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    view.paintFigure(painter, QRectF(view.rect()), style);
    painter.end();
    int lastInkedRow = -1;
    int dark = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (qGray(image.pixel(x, y)) < 128) {
                lastInkedRow = y;
                ++dark;
            }
    QVERIFY(dark > 100);
    QVERIFY2(lastInkedRow < image.height() - 8, qPrintable(QStringLiteral("text reaches row %1").arg(lastInkedRow)));
    QCOMPARE(view.hoverText(QPointF(240, 50)), MemoryMapPlot::byteSumExplanation());
}

namespace {

// A timeline of the failing caching run over a passing one, shown at a window's size.
void showTimeline(TimelineView &view, const std::shared_ptr<const Program> &program, const RunRequest &failing,
                  QSize size)
{
    RunRequest above = failing;
    above.ratio += 0.1;
    above.config.budget = budgetForRatio(computeBaseline(*program), above.ratio);
    view.setRuns(program, inspectRun(*program, failing), inspectRun(*program, above));
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(view.chart()->plotArea().width() > size.width() / 2);
}

} // namespace

// The timeline of a 1024x700 window is about 640 by 300 pixels: there the legend's ten names
// (under a model, with a comparison) wrap onto rows, each whole, inside the chart and above
// the plot. A large window has them in one row.
void MemoryMapTest::smallTimelineKeepsLegendWhole()
{
    for (const QSize size : {QSize(640, 300), QSize(1400, 500)}) {
        TimelineView view;
        showTimeline(view, m_unet, m_failing, size);
        QChart *chart = view.chart();
        const QList<ChartLegendRows::Entry> &entries = view.chartContent().legend().entries();
        QCOMPARE(entries.size(), 10);
        QCOMPARE(entries.size(), chart->series().size());
        QSet<qreal> rows;
        for (qsizetype i = 0; i < entries.size(); ++i) {
            const ChartLegendRows::Entry &e = entries[i];
            QCOMPARE(e.name, chart->series()[i]->name());
            QVERIFY2(e.rect.left() >= 0 && e.rect.right() <= chart->size().width(), qPrintable(e.name));
            QVERIFY2(e.rect.bottom() <= chart->plotArea().top(), qPrintable(e.name));
            for (qsizetype j = 0; j < i; ++j)
                QVERIFY2(!e.rect.intersects(entries[j].rect),
                         qPrintable(e.name + QStringLiteral(" overlaps ") + entries[j].name));
            rows.insert(e.rect.top());
        }
        QVERIFY2(size.width() < 1000 ? rows.size() >= 2 : rows.size() == 1,
                 qPrintable(QStringLiteral("%1 rows at width %2").arg(rows.size()).arg(size.width())));
    }
}

void MemoryMapTest::failureLabelStaysInThePlot_data()
{
    QTest::addColumn<double>("at"); // where the failure is, as a share of the range shown
    QTest::newRow("left") << 0.05;
    QTest::newRow("middle") << 0.5;
    QTest::newRow("right") << 0.95;
}

// The failure's label ("out of memory (fragmentation): x… asks …, largest free block …") is
// wider than half the plot of a small window; wherever the failure is, the label stays inside.
void MemoryMapTest::failureLabelStaysInThePlot()
{
    QFETCH(double, at);
    TimelineView view;
    showTimeline(view, m_unet, m_failing, QSize(640, 300));
    const double x = view.plot().track->failure()->x;
    const double width = view.plot().extent() / 4;
    view.showRange(x - width * at, x + width * (1 - at));
    QTRY_VERIFY(view.chartContent().failureLabelRect().has_value());
    const QRectF label = *view.chartContent().failureLabelRect();
    const QRectF area = view.chart()->plotArea();
    QVERIFY2(label.width() > area.width() / 2, "the label should be long enough to need the room");
    QVERIFY2(label.left() >= area.left() - 0.5 && label.right() <= area.right() + 0.5 &&
                 label.top() >= area.top() - 0.5 && label.bottom() <= area.bottom() + 0.5,
             qPrintable(QStringLiteral("label [%1, %2] outside the plot [%3, %4]")
                            .arg(label.left())
                            .arg(label.right())
                            .arg(area.left())
                            .arg(area.right())));
}

// An SVG of the map has one plain rectangle per drawn piece of a block (and the background);
// the free pieces are the ones filled with the free colour. A PNG shows each large block in its
// tensor's colour. The timeline's CSV carries the reserved and allocated series.
void MemoryMapTest::figuresReflectTheData()
{
    auto plot = std::make_shared<MemoryMapPlot>();
    plot->program = m_unet;
    plot->request = m_failing;
    plot->snapshot = snapshotAtStep(*m_unet, m_failing, m_unet->schedule.size() / 3);
    QVERIFY(plot->snapshot);
    const MemoryMapFigure figure(plot);
    FigureWriter::Options options;
    options.sizeInches = QSizeF(6.75, 3.0);
    const QString svgPath = m_dir.filePath(QStringLiteral("map.svg"));
    QVERIFY(FigureWriter::write(figure, svgPath, options).isEmpty());
    QFile svg(svgPath);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(svg.readAll());
    const MemoryMapLayout layout = *figure.layoutFor(QRectF(0, 0, 6.75 * 72, 3.0 * 72), options.style);
    std::size_t freePieces = 0;
    for (const auto &p : layout.pieces())
        freePieces += plot->snapshot->segments[p.segment].blocks[p.block].state == BlockView::State::Free;
    QVERIFY(!layout.pieces().empty());
    QCOMPARE(count(text, QStringLiteral("<rect")), int(layout.pieces().size()) + 1);
    const QString freeFill = MemoryMapFigure::freeColour().name();
    const QRegularExpression freeRect(QStringLiteral("fill=\"%1\"[^>]*>\\s*<rect").arg(freeFill));
    QCOMPARE(int(text.count(freeRect)), int(freePieces));

    options.dpi = 100;
    const QString pngPath = m_dir.filePath(QStringLiteral("map.png"));
    QVERIFY(FigureWriter::write(figure, pngPath, options).isEmpty());
    const QImage png(pngPath);
    QVERIFY(!png.isNull());
    const double scale = 100.0 / 72.0;
    int checked = 0;
    for (const auto &p : layout.pieces()) {
        const SnapshotBlock &b = plot->snapshot->segments[p.segment].blocks[p.block];
        if (b.state != BlockView::State::Allocated || p.rect.width() < 6)
            continue;
        const QPoint at = (p.rect.center() * scale).toPoint();
        QCOMPARE(png.pixelColor(at).rgb(), MemoryMapFigure::tensorColour(b.tensor, options.style).rgb());
        ++checked;
    }
    QVERIFY(checked > 0);

    const auto run = inspectRun(*m_unet, m_failing);
    const TimelineFigure timeline(TimelinePlot::build(m_unet, run, nullptr, TimelineAxis::Step));
    const QStringList lines = timeline.figureCsv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(lines.front().endsWith(QStringLiteral(",reserved,allocated")));
    Bytes peak = 0;
    for (qsizetype i = 1; i < lines.size(); ++i)
        peak = std::max(peak, Bytes(lines[i].section(QLatin1Char(','), 9, 9).toLongLong()));
    QCOMPARE(peak, run->result.allocation->peakReserved);
}

int MemoryMapTest::runCli(const QStringList &arguments, QString *errors) const
{
    QProcess process;
    process.start(rematlens(), arguments);
    if (!process.waitForFinished(120000))
        return -1;
    if (errors)
        *errors = QString::fromUtf8(process.readAllStandardError());
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

// figure memory-map at the default (failing) step draws the failure; --step draws another step;
// the byte sum is refused with the reason; figure timeline --allocator writes the series.
void MemoryMapTest::commandLineFigures()
{
    const QString trace = ownTracePath(QStringLiteral("unet.log"));
    const QString ratio = QString::number(m_failing.ratio, 'g', 6);
    const QString svg = m_dir.filePath(QStringLiteral("cli-map.svg"));
    const QString csv = m_dir.filePath(QStringLiteral("cli-map.csv"));
    QString errors;
    QCOMPARE(runCli({QStringLiteral("figure"), QStringLiteral("memory-map"), trace, QStringLiteral("--ratio"), ratio,
                     QStringLiteral("--overhead-limit"), QStringLiteral("60"), QStringLiteral("--allocator"),
                     QStringLiteral("caching"), QStringLiteral("--out"), svg, QStringLiteral("--data"), csv},
                    &errors),
             0);
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QString svgText = QString::fromUtf8(svgFile.readAll());
    QVERIFY2(svgText.contains(QStringLiteral("out of memory (fragmentation)")), qPrintable(errors));
    QFile csvFile(csv);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    QStringList rows = QString::fromUtf8(csvFile.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    rows.removeIf([](const QString &row) { return row.startsWith(QLatin1Char('#')); }); // provenance
    const auto run = inspectRun(*m_unet, m_failing);
    const auto snapshot = snapshotAtStep(*m_unet, m_failing, run->result.failure->step);
    std::size_t blocks = 0;
    for (const SnapshotSegment &s : snapshot->segments)
        blocks += s.blocks.size();
    QCOMPARE(std::size_t(rows.size()), blocks + 1);

    const QString atStep = m_dir.filePath(QStringLiteral("cli-map-step.png"));
    QCOMPARE(runCli({QStringLiteral("figure"), QStringLiteral("memory-map"), trace, QStringLiteral("--ratio"), ratio,
                     QStringLiteral("--overhead-limit"), QStringLiteral("60"), QStringLiteral("--allocator"),
                     QStringLiteral("best-fit"), QStringLiteral("--step"), QStringLiteral("20"), QStringLiteral("--out"),
                     atStep}),
             0);
    QVERIFY(!QImage(atStep).isNull());

    QCOMPARE(runCli({QStringLiteral("figure"), QStringLiteral("memory-map"), trace, QStringLiteral("--ratio"), ratio,
                     QStringLiteral("--out"), m_dir.filePath(QStringLiteral("sum.png"))},
                    &errors),
             2);
    QVERIFY2(errors.contains(QStringLiteral("no addresses")), qPrintable(errors));
    QCOMPARE(runCli({QStringLiteral("figure"), QStringLiteral("memory-map"), trace, QStringLiteral("--ratio"), ratio,
                     QStringLiteral("--allocator"), QStringLiteral("caching"), QStringLiteral("--step"),
                     QStringLiteral("99999999"), QStringLiteral("--out"), m_dir.filePath(QStringLiteral("far.png"))},
                    &errors),
             2);
    QVERIFY2(errors.contains(QStringLiteral("past the schedule")), qPrintable(errors));

    const QString timelineCsv = m_dir.filePath(QStringLiteral("timeline.csv"));
    QCOMPARE(runCli({QStringLiteral("figure"), QStringLiteral("timeline"), trace, QStringLiteral("--ratio"), ratio,
                     QStringLiteral("--overhead-limit"), QStringLiteral("60"), QStringLiteral("--allocator"),
                     QStringLiteral("caching"), QStringLiteral("--out"), m_dir.filePath(QStringLiteral("t.svg")),
                     QStringLiteral("--data"), timelineCsv}),
             0);
    QFile timelineFile(timelineCsv);
    QVERIFY(timelineFile.open(QIODevice::ReadOnly));
    QStringList samples = QString::fromUtf8(timelineFile.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    samples.removeIf([](const QString &row) { return row.startsWith(QLatin1Char('#')); });
    QVERIFY(samples.front().endsWith(QStringLiteral(",reserved,allocated")));
    Bytes peak = 0;
    for (qsizetype i = 1; i < samples.size(); ++i)
        peak = std::max(peak, Bytes(samples[i].section(QLatin1Char(','), 9, 9).toLongLong()));
    QCOMPARE(peak, run->result.allocation->peakReserved);
}

// A run without steps to show (the byte sum, or none selected) after one that had them: the
// step box shows none, not the earlier run's; the next run's step shows again.
void MemoryMapTest::stepBoxKeepsNoStepOfAnEarlierRun()
{
    MemoryMapPanel panel;
    auto *box = panel.findChild<QSpinBox *>(QStringLiteral("memoryMapStep"));
    QVERIFY(box);
    panel.setStepsEnabled(true);
    panel.setSteps(2000, 1504);
    QCOMPARE(box->text(), QStringLiteral("1504"));
    panel.setStepsEnabled(false);
    QCOMPARE(box->text(), QStringLiteral("—"));
    QVERIFY(!box->isEnabled());
    panel.setStepsEnabled(true);
    panel.setSteps(2000, 0);
    QCOMPARE(box->text(), QStringLiteral("0"));
}

QTEST_MAIN(MemoryMapTest)
#include "tst_memory_map.moc"
