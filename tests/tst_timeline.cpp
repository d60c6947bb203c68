// The memory timeline: decimation, zoom, axis arithmetic, the track of a recorded run, the
// view's hover and zoom, and the figure.
#include "core/analysis/min_max_decimator.h"
#include "core/analysis/timeline_track.h"
#include "core/sim/baseline.h"
#include "core/sim/policy.h"
#include "core/trace/trace_reader.h"
#include "views/common/byte_scale.h"
#include "views/common/byte_units.h"
#include "views/common/nice_ticks.h"
#include "views/common/zoom_window.h"
#include "views/figure/figure_writer.h"
#include "views/timeline/chart_legend_rows.h"
#include "views/timeline/timeline_chart.h"
#include "views/timeline/timeline_figure.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"

#include <QGraphicsTextItem>
#include <QHelpEvent>
#include <QImage>
#include <QPainter>
#include <QToolTip>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <algorithm>
#include <random>

using namespace rematlens;

class TimelineTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void decimationKeepsExtremes();
    void decimationIsBounded();
    void decimationKeepsNeighboursOfTheRange();
    void zoomKeepsTheAnchor();
    void zoomStaysInsideTheData();
    void byteScaleChoosesTheUnit();
    void tickIntervalsAreRound();
    void trackFollowsTheRecording();
    void trackOfAFailedRun();
    void areaBoundaryFillsTheSameShape();
    void divergenceOfTwoBudgets();
    void viewHoverAndZoom();
    void axisLabelsAreNeverElided_data();
    void axisLabelsAreNeverElided();
    void hoverTextStaysAtRest();
    void panelSaysWhatReplays();
    void figureWritesEveryFormat();
    void overlayLegendTellsTheRunsApart_data();
    void overlayLegendTellsTheRunsApart();

private:
    std::shared_ptr<const InspectedRun> inspect(double ratio) const;

    std::shared_ptr<const Program> m_program;
    Baseline m_baseline;
    QTemporaryDir m_dir;
};

void TimelineTest::initTestCase()
{
    const TraceReadResult read = readTraceFile(REMATLENS_SOURCE_DIR "/traces/unet.log");
    QVERIFY2(read.ok(), read.error.toString().c_str());
    m_program = read.program;
    m_baseline = computeBaseline(*m_program);
}

std::shared_ptr<const InspectedRun> TimelineTest::inspect(double ratio) const
{
    RunRequest request;
    request.ratio = ratio;
    request.config.budget = budgetForRatio(m_baseline, ratio);
    request.config.rematLimit = rematLimitFor(m_baseline, 2.0);
    return inspectRun(*m_program, request);
}

void TimelineTest::decimationKeepsExtremes()
{
    std::vector<double> xs;
    std::vector<double> ys;
    for (int i = 0; i < 1000; ++i) {
        xs.push_back(i);
        ys.push_back(i == 437 ? 99.0 : i == 612 ? -5.0 : double(i % 7));
    }
    const auto points = MinMaxDecimator(0, 999, 10).decimate(xs, ys);
    const auto has = [&](double x, double y) {
        return std::any_of(points.begin(), points.end(), [&](const PlotPoint &p) { return p.x == x && p.y == y; });
    };
    QVERIFY(has(437, 99.0));
    QVERIFY(has(612, -5.0));
    QVERIFY(has(0, 0.0));
    QVERIFY(has(999, double(999 % 7)));
    QVERIFY(
        std::is_sorted(points.begin(), points.end(), [](const PlotPoint &a, const PlotPoint &b) { return a.x < b.x; }));
}

void TimelineTest::decimationIsBounded()
{
    std::vector<double> xs(200000);
    std::vector<double> ys(200000);
    for (std::size_t i = 0; i < xs.size(); ++i) {
        xs[i] = double(i / 3); // several samples per x, as ticks within one step
        ys[i] = double((i * 7919) % 1000);
    }
    const auto points = MinMaxDecimator(0, xs.back(), 800).decimate(xs, ys);
    QVERIFY(points.size() <= 800 * 4);
    QVERIFY(points.size() >= 800);
}

void TimelineTest::decimationKeepsNeighboursOfTheRange()
{
    const std::vector<double> xs{0, 10, 20, 30, 40};
    const std::vector<double> ys{1, 2, 3, 4, 5};
    const auto points = MinMaxDecimator(15, 25, 4).decimate(xs, ys);
    QCOMPARE(points.size(), std::size_t{3});
    QCOMPARE(points.front().x, 10.0);
    QCOMPARE(points.back().x, 30.0);
    QVERIFY(MinMaxDecimator(0, 1, 4).decimate({}, {}).empty());
}

void TimelineTest::zoomKeepsTheAnchor()
{
    ZoomWindow w = ZoomWindow::whole(1000, 1);
    w.zoom(0.5, 250);
    QCOMPARE(w.width(), 500.0);
    QCOMPARE(w.from, 125.0); // 250 stays a quarter of the way across
    w.zoom(2.0, 250);
    QCOMPARE(w.from, 0.0);
    QCOMPARE(w.to, 1000.0);
    QVERIFY(!w.zoomed());
}

void TimelineTest::zoomStaysInsideTheData()
{
    ZoomWindow w = ZoomWindow::whole(100, 4);
    w.zoom(0.01, 99);
    QCOMPARE(w.width(), 4.0);
    QCOMPARE(w.from, 95.04);
    w.pan(10);
    QCOMPARE(w.to, 100.0);
    w.pan(-100);
    QCOMPARE(w.from, 0.0);
    QCOMPARE(w.width(), 4.0);
    w.show(80, 20);
    QCOMPARE(w.from, 20.0);
    QCOMPARE(w.to, 80.0);
    w.zoom(50, 50);
    QCOMPARE(w.width(), 100.0);
}

void TimelineTest::byteScaleChoosesTheUnit()
{
    QCOMPARE(ByteScale::forPeak(1023).unit, std::string_view("B"));
    QCOMPARE(ByteScale::forPeak(1024).unit, std::string_view("KiB"));
    const ByteScale gib = ByteScale::forPeak(3.5 * 1024 * 1024 * 1024);
    QCOMPARE(gib.unit, std::string_view("GiB"));
    QCOMPARE(gib.toUnits(3.5 * 1024 * 1024 * 1024), 3.5);
    QCOMPARE(gib.toBytes(1), 1024.0 * 1024 * 1024);
}

void TimelineTest::tickIntervalsAreRound()
{
    QCOMPARE(niceTickInterval(2530, 6), 500.0);
    QCOMPARE(niceTickInterval(3.61, 5), 0.5);
    QCOMPARE(niceTickInterval(100, 5), 20.0);
    QCOMPARE(niceTickInterval(0, 5), 1.0);
    QCOMPARE(niceTickIntervalWithin(1.7, 5, 9), 0.2); // room enough: as before
    QCOMPARE(niceTickIntervalWithin(1.7, 5, 4), 0.5);
    QCOMPARE(niceTickIntervalWithin(1.7, 5, 1), 2.0);
    QCOMPARE(niceTickIntervalWithin(100, 5, 2), 50.0);
    QCOMPARE(tickDecimals(0.2), 1);
    QCOMPARE(tickDecimals(0.25), 2);
    QCOMPARE(tickDecimals(20), 0);
}

void TimelineTest::trackFollowsTheRecording()
{
    const auto run = inspect(0.6);
    QCOMPARE(run->result.outcome, Outcome::Pass);
    const TimelineTrack byStep(*m_program, run->recording, run->result, run->request.config.budget, TimelineAxis::Step);
    const TimelineTrack byClock(*m_program, run->recording, run->result, run->request.config.budget,
                                TimelineAxis::Clock);
    QCOMPARE(byStep.xs().size(), run->recording.samples.size());
    QVERIFY(std::is_sorted(byStep.xs().begin(), byStep.xs().end()));
    QVERIFY(std::is_sorted(byClock.xs().begin(), byClock.xs().end()));
    QCOMPARE(byClock.endX(), double(run->result.clock));
    QCOMPARE(byStep.peakMemory(), double(run->result.maxMemory));
    QCOMPARE(std::int64_t(byStep.evictions().size()), run->result.evictions);
    for (const auto *track : {&byStep, &byClock}) {
        const auto &spans = track->rematSpans();
        for (std::size_t i = 0; i < spans.size(); ++i) {
            QVERIFY(spans[i].from < spans[i].to);
            if (i > 0)
                QVERIFY(spans[i - 1].to < spans[i].from);
        }
        QVERIFY(!spans.empty());
    }
    const std::size_t middle = byStep.xs().size() / 2;
    QCOMPARE(byStep.sampleAt(byStep.xs()[middle]) == middle ||
                 byStep.xs()[byStep.sampleAt(byStep.xs()[middle])] == byStep.xs()[middle],
             true);
    QCOMPARE(byStep.xOfStep(run->recording.samples[middle].step), double(run->recording.samples[middle].step));
    const auto marker = byStep.evictionNear(byStep.evictions().front().x, 0.5);
    QVERIFY(marker.has_value());
    QCOMPARE(byStep.evictions()[*marker].x, byStep.evictions().front().x);
}

// A jagged stepped boundary, as TimelineChart::stepped makes it (each column drops to the last
// hold, then visits its values), against the same without the strokes inside columns: the
// area under each, filled antialiased, is the same picture to the pixel.
void TimelineTest::areaBoundaryFillsTheSameShape()
{
    QList<QPointF> stepped;
    std::mt19937 random(7);
    for (int column = 0; column < 300; ++column) {
        const double x = column * 0.5 + 3;
        if (!stepped.isEmpty())
            stepped.append(QPointF(x, stepped.back().y()));
        for (int k = 0; k <= column % 4; ++k)
            stepped.append(QPointF(x, 5 + double(random() % 1000) / 10));
    }
    const QList<QPointF> boundary = TimelineChart::areaBoundary(stepped);
    QVERIFY(boundary.size() < stepped.size() * 2 / 3);
    QCOMPARE(boundary.front(), stepped.front());
    QCOMPARE(boundary.back(), stepped.back());
    const auto fill = [](const QList<QPointF> &upper) {
        QImage image(160, 110, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        painter.setBrush(Qt::black);
        QPolygonF area(upper);
        area << QPointF(upper.back().x(), 108) << QPointF(upper.front().x(), 108);
        painter.drawPolygon(area);
        return image;
    };
    const QImage whole = fill(stepped);
    QCOMPARE(fill(boundary), whole);
    QVERIFY(whole.pixel(80, 107) != whole.pixel(0, 0)); // something was filled
}

void TimelineTest::trackOfAFailedRun()
{
    const auto run = inspect(0.1);
    QCOMPARE(run->result.outcome, Outcome::OutOfMemory);
    const TimelineTrack track(*m_program, run->recording, run->result, run->request.config.budget, TimelineAxis::Step);
    QVERIFY(track.failure().has_value());
    QCOMPARE(track.failure()->x, double(run->result.failure->step));
    QCOMPARE(track.failure()->memory, double(run->result.failure->memoryInUse));
    QVERIFY(track.failure()->memory + double(track.failure()->failure.bytesNeeded) > double(track.budget()));
}

void TimelineTest::divergenceOfTwoBudgets()
{
    const auto low = inspect(0.3);
    const auto high = inspect(0.31);
    const TimelinePlot plot = TimelinePlot::build(m_program, low, high, TimelineAxis::Step);
    QVERIFY(plot.comparisonTrack.has_value());
    QVERIFY(plot.divergence.has_value());
    // Before the divergence the two streams agree event by event.
    std::vector<const ReplayEvent *> a;
    std::vector<const ReplayEvent *> b;
    for (const ReplayEvent &e : low->recording.events)
        if (isReferenceKind(e.kind))
            a.push_back(&e);
    for (const ReplayEvent &e : high->recording.events)
        if (isReferenceKind(e.kind))
            b.push_back(&e);
    const std::size_t index = plot.divergence->index;
    for (std::size_t i = 0; i < index; ++i)
        QVERIFY(a[i]->tensor == b[i]->tensor && a[i]->kind == b[i]->kind);
    QVERIFY(index == a.size() || index == b.size() || a[index]->tensor != b[index]->tensor ||
            a[index]->kind != b[index]->kind || a[index]->bytes != b[index]->bytes);
    QVERIFY(plot.divergenceX.has_value());
    const TimelinePlot same = TimelinePlot::build(m_program, low, low, TimelineAxis::Step);
    QVERIFY(!same.divergence.has_value());
}

void TimelineTest::viewHoverAndZoom()
{
    TimelineView view;
    view.resize(900, 400);
    view.setRuns(m_program, inspect(0.3), inspect(0.31));
    QVERIFY(!view.plot().empty());
    QVERIFY(!view.window().zoomed());
    const QString text = view.hoverText(view.plot().track->xs()[10], 1);
    QVERIFY2(text.contains(QStringLiteral("step")) && text.contains(QStringLiteral("memory")), qPrintable(text));
    view.setFocus();
    QTest::keyClick(&view, Qt::Key_Plus);
    QVERIFY(view.window().zoomed());
    QCOMPARE(view.window().width(), view.window().extent / 2);
    QTest::keyClick(&view, Qt::Key_0);
    QVERIFY(!view.window().zoomed());
    const std::uint32_t step = view.plot().run->recording.samples[view.plot().track->xs().size() / 2].step;
    view.showStep(step);
    QVERIFY(view.window().zoomed());
    QVERIFY(view.window().from <= step && view.window().to >= step);
    view.setAxis(TimelineAxis::Clock);
    QCOMPARE(view.plot().axis, TimelineAxis::Clock);
    QVERIFY(!view.figureCsv().isEmpty());
}

// Qt Charts draws a value label it has no room for as "…": at any size the chart's labels stay whole.
void TimelineTest::axisLabelsAreNeverElided_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("dock at 1024x700") << QSize(480, 190);
    QTest::newRow("short") << QSize(420, 150);
    QTest::newRow("very short") << QSize(420, 120);
    QTest::newRow("narrow") << QSize(300, 260);
    QTest::newRow("large") << QSize(1200, 600);
}

void TimelineTest::axisLabelsAreNeverElided()
{
    QFETCH(QSize, size);
    TimelineView view;
    view.resize(size);
    view.setRuns(m_program, inspect(0.3), inspect(0.31));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCoreApplication::processEvents();
    int labels = 0;
    QStringList elided;
    for (QGraphicsItem *item : view.scene()->items()) {
        const auto *text = dynamic_cast<const QGraphicsTextItem *>(item);
        if (!text || !text->isVisible() || text->toPlainText().isEmpty())
            continue;
        if (text->toPlainText().contains(QChar(0x2026)) || text->toPlainText().contains(QStringLiteral("...")))
            elided << text->toPlainText();
        ++labels;
    }
    QVERIFY2(elided.isEmpty(), qPrintable(elided.join(QStringLiteral(" | "))));
    QVERIFY2(labels >= 6, qPrintable(QString::number(labels))); // two ticks at least on each of three axes
}

// After a second of rest the widget is asked for its tooltip: the hover text stays, not the
// chart's general tooltip.
void TimelineTest::hoverTextStaysAtRest()
{
    TimelineView view;
    view.resize(900, 400);
    view.setRuns(m_program, inspect(0.3), nullptr);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCoreApplication::processEvents();
    const QPoint inPlot = view.mapFromScene(view.chart()->mapToScene(view.chart()->plotArea().center()));
    const QString hover = view.hoverTextAt(inPlot);
    QVERIFY2(hover.contains(QStringLiteral("step")), qPrintable(hover));
    QHelpEvent rest(QEvent::ToolTip, inPlot, view.viewport()->mapToGlobal(inPlot));
    QApplication::sendEvent(view.viewport(), &rest);
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), hover);
    QToolTip::hideText();
    QTRY_VERIFY(!QToolTip::isVisible());
    const QPoint offPlot(2, 2); // off the plot the chart explains itself
    QHelpEvent restOff(QEvent::ToolTip, offPlot, view.viewport()->mapToGlobal(offPlot));
    QApplication::sendEvent(view.viewport(), &restOff);
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), view.toolTip());
    QToolTip::hideText();
}

// While a run replays the chart says which; it says so until its plot arrives.
void TimelineTest::panelSaysWhatReplays()
{
    TimelinePanel panel;
    panel.resize(600, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY2(panel.messageText().contains(QStringLiteral("Select a run")), qPrintable(panel.messageText()));
    const std::shared_ptr<const InspectedRun> run = inspect(0.3);
    panel.showReplaying(run->request);
    const QString replaying = panel.messageText();
    QVERIFY2(replaying.startsWith(QStringLiteral("Replaying ")) && replaying.contains(QStringLiteral(" at 0.3")),
             qPrintable(replaying));
    QCOMPARE(panel.statusText(), replaying);
    auto *message = panel.findChild<QWidget *>(QStringLiteral("timelineMessage"));
    QVERIFY(message && message->isVisible());
    QVERIFY(panel.view()->rect().contains(message->geometry())); // over the chart, whole

    panel.showPlot(std::make_shared<const TimelinePlot>(TimelinePlot::build(m_program, run, nullptr, TimelineAxis::Step)));
    QVERIFY(panel.messageText().isEmpty());
    QVERIFY(!message->isVisible());
    // The next run: over the last plot the message waits a moment, then says it replays.
    panel.showReplaying(inspect(0.31)->request);
    QVERIFY(panel.statusText().contains(QStringLiteral("0.31")));
    QTRY_VERIFY(message->isVisible());
    QVERIFY(panel.messageText().contains(QStringLiteral("Replaying ")));
    panel.clear();
    QVERIFY(panel.messageText().contains(QStringLiteral("Select a run")));
}

void TimelineTest::figureWritesEveryFormat()
{
    TimelineFigure figure(TimelinePlot::build(m_program, inspect(0.3), inspect(0.31), TimelineAxis::Step));
    FigureWriter::Options options;
    options.sizeInches = QSizeF(6.75, 2.5);
    options.dpi = 200;
    const QString png = m_dir.filePath(QStringLiteral("timeline.png"));
    QCOMPARE(FigureWriter::write(figure, png, options), QString());
    const QImage image(png);
    QCOMPARE(image.size(), QSize(1350, 500));
    // Something was drawn: plenty of pixels are not white.
    int inked = 0;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4)
            inked += image.pixelColor(x, y) != QColor(Qt::white);
    QVERIFY(inked > 500);
    for (const char *suffix : {"svg", "pdf"}) {
        const QString path = m_dir.filePath(QStringLiteral("timeline.") + QLatin1String(suffix));
        QCOMPARE(FigureWriter::write(figure, path, options), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray head = file.read(200);
        QVERIFY(head.contains(QByteArray(suffix) == "pdf" ? "%PDF" : "<svg") || head.contains("<?xml"));
    }
}

void TimelineTest::overlayLegendTellsTheRunsApart_data()
{
    QTest::addColumn<qint64>("below"); // the overlaid budget, this many bytes under the selected one
    QTest::addColumn<QString>("policy"); // the overlaid run's
    QTest::newRow("the budget a byte below (a hole's edge)") << qint64(1) << QStringLiteral("DTR");
    QTest::newRow("a pinned run of another policy") << qint64(0) << QStringLiteral("LRU");
    QTest::newRow("a budget of the grid below") << qint64(1 << 20) << QStringLiteral("DTR");
}

// Over a second run the legend tells the two apart in words: which one is selected and which
// overlaid, each with its budget as a ratio and in bytes (exact where the rounded sizes read
// alike), and the policy where the two differ. A narrow figure's key says the same.
void TimelineTest::overlayLegendTellsTheRunsApart()
{
    QFETCH(qint64, below);
    QFETCH(QString, policy);
    const TraceReadResult read = readTraceFile(REMATLENS_SOURCE_DIR "/traces/unet.log");
    QVERIFY2(read.ok(), read.error.toString().c_str());
    const Baseline baseline = computeBaseline(*read.program);
    const auto runAt = [&](Bytes budget, const QString &name) {
        RunRequest request;
        request.ratio = double(budget) / double(baseline.memory);
        request.config.budget = budget;
        request.config.policy = *findPolicy(name.toStdString());
        request.config.rematLimit = rematLimitFor(baseline, 2.0);
        return inspectRun(*read.program, request);
    };
    const Bytes budget = budgetForRatio(baseline, 0.3);
    const std::shared_ptr<const InspectedRun> runs[] = {runAt(budget, QStringLiteral("DTR")),
                                                        runAt(budget - Bytes(below), policy)};
    TimelineView view;
    view.resize(900, 320);
    view.setRuns(read.program, runs[0], runs[1]);
    QStringList names;
    for (const ChartLegendRows::Entry &entry : view.chartContent().legend().entries())
        if (entry.name.startsWith(QStringLiteral("in use")))
            names << entry.name;
    QCOMPARE(names.size(), 2);
    QVERIFY2(names[0] != names[1], qPrintable(names[0]));
    QVERIFY2(names[0].contains(QStringLiteral("selected run")), qPrintable(names[0]));
    QVERIFY2(names[1].contains(QStringLiteral("overlaid run")), qPrintable(names[1]));
    const QString sizes[] = {ByteUnits::format(double(budget)), ByteUnits::format(double(budget - Bytes(below)))};
    for (int i = 0; i < 2; ++i) {
        const RunRequest &r = runs[i]->request;
        // Its own size where the two read apart rounded, else the exact bytes.
        const QString size = sizes[0] == sizes[1] ? ByteUnits::exact(r.config.budget) : sizes[i];
        QVERIFY2(names[i].contains(QString::number(r.ratio, 'g', 6)) && names[i].contains(size),
                 qPrintable(names[i] + QStringLiteral(" names no budget ") + size));
        if (policy != u"DTR")
            QVERIFY2(names[i].contains(QString::fromStdString(r.config.policy.name)), qPrintable(names[i]));
    }
    // Exported at a single column's width, the key above the plot names both budgets.
    const QString svg = m_dir.filePath(QStringLiteral("overlaid.svg"));
    FigureWriter::Options options;
    options.sizeInches = QSizeF(3.25, 2.4);
    QCOMPARE(FigureWriter::write(view, svg, options), QString());
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    QStringList texts;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"text")
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
    const QString key = texts.join(QLatin1Char(' ')).simplified();
    for (const QString &words : {QStringLiteral("solid: selected run"), QStringLiteral("dashed: overlaid run")})
        QVERIFY2(key.contains(words), qPrintable(key));
    for (int i = 0; i < 2; ++i) {
        const QString size = sizes[0] == sizes[1] ? ByteUnits::exact(runs[i]->request.config.budget) : sizes[i];
        QVERIFY2(key.contains(size), qPrintable(key + QStringLiteral(" names no budget ") + size));
    }
}

QTEST_MAIN(TimelineTest)
#include "tst_timeline.moc"
