// The window's Hole anatomy panel: selecting a hole opens it and tells the hole's story with the
// numbers HoleAnatomist::explain finds (every number shown is one of them, and each of them is
// shown); its links select the edge's failing run through the one RunSelection, overlay the
// passing run and mark the step; explaining runs off the GUI thread, can be cancelled and drops a
// stale answer; the anatomy figure writes SVG, PDF and PNG; the panel fits a 1024x700 window.
// The demo trace always, U-Net's hole at 0.419 where the public traces are installed.
#include "gui/test_window.h"
#include "svg_texts.h"
#include "shared_data.h"

#include "app/reports/run_report.h"
#include "app/gui/hole_anatomy_controller.h"
#include "app/gui/hole_anatomy_coordinator.h"
#include "app/gui/hole_anatomy_panel.h"
#include "app/gui/hole_story_html_writer.h"
#include "app/gui/export_figure_dialog.h"
#include "app/gui/main_window.h"
#include "app/gui/run_views_controller.h"
#include "app/gui/shortcut_table.h"
#include "core/sweep/sweep_runner.h"
#include "views/common/byte_units.h"
#include "views/common/run_selection.h"
#include "views/figure/figure_writer.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/sweep_result_model.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include "core/sim/policy_spec.h"

#include <QtTest>

#include <set>

using namespace rematlens;

namespace {

QString digits(std::int64_t value)
{
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    return c.toString(qlonglong(value));
}

QString printed(const char *format, double value)
{
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return QString::fromLatin1(text);
}

// What the story must show, from the core's struct alone, and what it may show besides.
struct Numbers {
    QStringList shown;
    QStringList allowed;

    void need(const QString &n) { shown << n; }
    void need(std::int64_t n) { shown << QString::number(n); }
    void needBytes(std::int64_t n) { shown << digits(n); }
};

void edgeNumbers(const EdgeStory &s, const Program &program, const Baseline &baseline, Numbers &n)
{
    const auto line = [&](std::size_t step) { return program.schedule[step].line; };
    const double memory = double(baseline.memory);
    n.needBytes(s.smallerBudget);
    n.needBytes(s.largerBudget);
    n.allowed << printed("%.6g", double(s.smallerBudget) / memory) << printed("%.6g", double(s.largerBudget) / memory);
    if (s.avoided) {
        const AvoidedEviction &a = *s.avoided;
        n.need(a.step);
        n.need(line(a.step));
        for (Bytes b : {a.memoryInUse, a.needed, a.demand, a.shortBySmaller, a.victimBytes, a.slackOfLarger})
            n.needBytes(b);
        if (a.evictionsBefore)
            n.need(a.evictionsBefore + 1);
    }
    if (s.later) {
        const LaterEviction &l = *s.later;
        n.needBytes(l.bytes);
        n.need(l.step);
        n.need(l.differingEvictions);
        if (l.reuseStep) {
            n.need(*l.reuseStep);
            n.need(l.operatorsUntilReuse);
        }
        n.need(l.neededAtStep.value_or(0));
        n.need(l.operatorsUntilNeeded);
    }
    const RunResult &r = s.failing();
    if (!isFailure(r.outcome))
        return;
    const FailureCascade &f = s.cascade;
    if (r.failure) {
        n.need(std::int64_t(r.failure->step));
        n.need(r.failure->line);
        n.needBytes(r.failure->memoryInUse);
        n.needBytes(r.failure->bytesNeeded);
        n.needBytes(r.failure->bytesShort);
        n.need(r.failure->depth);
    } else {
        n.need(f.step);
        n.needBytes(r.rematCompute);
        n.need(QString::fromStdString(fixedDigits(overheadOf(r, baseline), 2)));
    }
    n.need(f.remats);
    n.need(f.distinctTensors);
    n.needBytes(f.rematBytes);
    n.needBytes(f.rematCompute);
    n.need(f.depth);
    n.need(f.evictions);
    n.needBytes(f.evictedBytes);
    if (!s.rescued)
        return;
    n.need(std::int64_t(s.rescue.rescues.size()));
    n.need(std::int64_t(s.rescue.tried));
    for (std::size_t i = 0; i < s.rescue.rescues.size() && i < 6; ++i) {
        const Rescue &rescue = s.rescue.rescues[i];
        n.needBytes(program.storages[program.storageOf(rescue.tensor)].size);
        n.need(QString::fromStdString(fixedDigits(rescue.overhead, 4)));
    }
}

Numbers anatomyNumbers(const HoleAnatomy &h, const Program &program, const Baseline &baseline)
{
    Numbers n;
    const double memory = double(baseline.memory);
    n.need(printed("%.9g", double(h.firstFail) / memory));
    n.need(printed("%.9g", double(h.lastFail) / memory));
    n.needBytes(h.firstFail);
    n.needBytes(h.lastFail);
    n.needBytes(h.lastFail - h.firstFail + 1);
    edgeNumbers(h.lower, program, baseline, n);
    edgeNumbers(h.upper, program, baseline, n);
    for (std::size_t count : {h.walkReplays, h.storyReplays, h.rescueReplays, h.replays()})
        n.need(std::int64_t(count));
    n.allowed << QStringLiteral("1") << QStringLiteral("2") << QStringLiteral("3") << QStringLiteral("4"); // item numbers
    return n;
}

// Every number of a text, tensor names' digits ("x5583$") aside.
QStringList numbersIn(const QString &text)
{
    static const QRegularExpression number(QStringLiteral(R"((?<![\w$.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)"));
    QStringList found;
    for (auto it = number.globalMatch(text); it.hasNext();)
        found << it.next().captured(0);
    return found;
}

// The links of a rich text, in order.
QStringList linksIn(const QTextDocument &document)
{
    QStringList links;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (const QString href = it.fragment().charFormat().anchorHref(); !href.isEmpty())
                links << href;
    return links;
}

} // namespace

class HoleAnatomyPanelTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void demoHoleOpensThePanelWithTheCoreNumbers();
    void unetHoleCarriesTheCoreNumbers();
    void stepLinkSelectsTheFailingRunAndMarksTheStep();
    void budgetLinkSelectsThatBudget();
    void reselectingIsInstant();
    void jobIsCancellableAndStaleAnswersAreDropped();
    void rowsTheMapCannotHandleSaySo();
    void figureExportsSvgPdfAndPng();
    void figureCommandDrawsTheSameMoments();
    void everyWindowFigureExportsWhole();
    void panelFitsAt1024x700();
    void shortcutIsListed();
    void rescuesShowAsTheyCome();
    void rescueSearchCanBeTurnedOff();
    void lstmStaysResponsiveAndCancels();

private:
    bool openAndSweepHoles(const QString &trace, const QString &from, const QString &to, const QString &step);
    bool openDemoHoles();
    bool tellFirstDemoHole(HoleLink &avoidedStep);
    HoleAnatomy coreAnatomy(int holeRow) const;
    void explainHole(int holeRow);
    void compareWithCore(int holeRow);

    std::unique_ptr<MainWindow> m_window;
    GuiTestUser m_user;
    QString m_unet;
    QString m_lstm;
};

void HoleAnatomyPanelTest::initTestCase()
{
    m_user.setUp();
    m_unet = findPublicTrace(QStringLiteral("unet-6-8000000000.0-2020-10-1-10-57-18-default.log"));
    m_lstm = findPublicTrace(QStringLiteral("lstm-128-11000000000.0-2020-10-1-16-38-52-default.log"));
}

void HoleAnatomyPanelTest::init()
{
    m_user.reset();
    m_window = showNewWindow(QSize(1024, 700));
}

void HoleAnatomyPanelTest::cleanup()
{
    m_window.reset();
}

// Opens and sweeps DTR over the grid; true once the Holes table lists a hole.
bool HoleAnatomyPanelTest::openAndSweepHoles(const QString &trace, const QString &from, const QString &to,
                                             const QString &step)
{
    return openAndSweep(*m_window, trace, sweepGrid(from, to, step)) &&
           QTest::qWaitFor([this] { return m_window->holeModel()->rowCount() > 0; }, 5000);
}

// The demo between 0.30 and 0.40 at 0.001: three holes, each with an avoided eviction at both edges.
bool HoleAnatomyPanelTest::openDemoHoles()
{
    return openAndSweepHoles(QStringLiteral(":demo"), QStringLiteral("0.30"), QStringLiteral("0.40"), QStringLiteral("0.001"));
}

// The demo's first hole told; `avoidedStep` links to its lower edge's avoided eviction.
bool HoleAnatomyPanelTest::tellFirstDemoHole(HoleLink &avoidedStep)
{
    if (!openDemoHoles())
        return false;
    explainHole(0);
    const std::shared_ptr<const HoleAnatomyAnswer> answer = m_window->holeStories().answer();
    if (!answer || !answer->anatomy || !answer->anatomy->lower.avoided)
        return false;
    avoidedStep.kind = HoleLink::Kind::Step;
    avoidedStep.edge = HoleStoryWriter::Edge::Lower;
    avoidedStep.step = answer->anatomy->lower.avoided->step;
    return true;
}

// What `rematlens explain` finds for the hole the window lists in this row of the Holes table.
HoleAnatomy HoleAnatomyPanelTest::coreAnatomy(int holeRow) const
{
    const HoleListModel::Entry &entry = m_window->holeModel()->entry(holeRow);
    const SweepResultModel &sweep = *m_window->sweepModel();
    const SweepRunner runner(m_window->program(), 0);
    const HoleAnatomist anatomist(runner, sweep.baseline(), sweep.request(entry.policy, 0));
    const HoleAnatomist::Located located =
        anatomist.locate(sweep.request(entry.policy, entry.hole.firstFail).config.budget);
    if (!located.hole)
        return {};
    HoleAnatomy anatomy = anatomist.explain(located.hole->first, located.hole->second, std::nullopt, AnatomyOptions{});
    anatomy.walkReplays = located.replays;
    return anatomy;
}

// As a user does: a click on the hole's row of the Holes table.
void HoleAnatomyPanelTest::explainHole(int holeRow)
{
    QSignalSpy explained(m_window.get(), &MainWindow::holeExplained);
    QTableView *table = m_window->holeView();
    const QRect cell = table->visualRect(m_window->holeModel()->index(holeRow, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    QTRY_VERIFY_WITH_TIMEOUT(explained.count() >= 1 || m_window->holeStories().answer(), 120000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->holeAnatomyBusy(), 120000);
}

void HoleAnatomyPanelTest::compareWithCore(int holeRow)
{
    const HoleAnatomy core = coreAnatomy(holeRow);
    QVERIFY(core.firstFail > 0);
    const std::shared_ptr<const HoleAnatomyAnswer> answer = m_window->holeStories().answer();
    QVERIFY(answer && answer->anatomy);
    QCOMPARE(answer->anatomy->firstFail, core.firstFail);
    QCOMPARE(answer->anatomy->lastFail, core.lastFail);

    const QString text = m_window->holeAnatomy()->storyText();
    const Numbers numbers = anatomyNumbers(core, *m_window->program(), m_window->sweepModel()->baseline());
    const QStringList inText = numbersIn(text);
    for (const QString &n : numbers.shown)
        QVERIFY2(inText.contains(n), qPrintable(QStringLiteral("%1 is not shown in:\n%2").arg(n, text)));
    for (const QString &n : inText)
        QVERIFY2(numbers.shown.contains(n) || numbers.allowed.contains(n),
                 qPrintable(QStringLiteral("%1 is shown but is no number of the anatomy:\n%2").arg(n, text)));

    // Byte counts carry their exact bytes and size as a tooltip.
    const QString victimBytes = digits(core.lower.avoided ? core.lower.avoided->victimBytes : core.lower.cascade.rematBytes);
    bool tipped = false;
    const QTextDocument &document = *m_window->holeAnatomy()->browser()->document();
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            tipped = tipped || (it.fragment().text() == victimBytes &&
                                it.fragment().charFormat().toolTip().startsWith(victimBytes + QStringLiteral(" bytes (")));
    QVERIFY2(tipped, qPrintable(victimBytes));
}

void HoleAnatomyPanelTest::demoHoleOpensThePanelWithTheCoreNumbers()
{
    QVERIFY(openDemoHoles());
    QVERIFY(m_window->holeAnatomyDock()->isHidden()); // closed until a hole is selected
    explainHole(0);
    QVERIFY(!m_window->holeAnatomyDock()->isHidden()); // opened by the first hole selected
    QVERIFY(m_window->holeAnatomy()->storyText().contains(QStringLiteral("lower edge")));
    compareWithCore(0);
    // A hole of the grid: its failing grid points, and the hole told, to the byte.
    const HoleAnatomy &told = *m_window->holeStories().answer()->anatomy;
    const QString hole = m_window->holeAnatomy()->holeText();
    const QString bytes = QStringLiteral("%1 to %2 B").arg(HoleStoryHtmlWriter::digits(told.firstFail),
                                                            HoleStoryHtmlWriter::digits(told.lastFail));
    QVERIFY2(hole.contains(QStringLiteral("on the grid")) && hole.contains(bytes), qPrintable(hole));
    const int last = m_window->holeModel()->rowCount() - 1;
    explainHole(last);
    compareWithCore(last);
}

void HoleAnatomyPanelTest::unetHoleCarriesTheCoreNumbers()
{
    if (m_unet.isEmpty())
        QSKIP("the public U-Net trace is not installed (../shared, or traces/download-dtr-traces.sh)");
    QVERIFY(openAndSweepHoles(m_unet, QStringLiteral("0.40"), QStringLiteral("0.45"), QStringLiteral("0.001")));
    QCOMPARE(m_window->holeModel()->rowCount(), 3);
    explainHole(0);
    compareWithCore(0);
    const QString text = m_window->holeAnatomy()->storyText();
    QVERIFY(text.contains(QStringLiteral("3,525,043,904"))); // docs/holes.md's hole 1
    QVERIFY(text.contains(QStringLiteral("x5551")));
}

// The demo's first hole's lower edge, at the avoided eviction.
void HoleAnatomyPanelTest::stepLinkSelectsTheFailingRunAndMarksTheStep()
{
    HoleLink link;
    QVERIFY(tellFirstDemoHole(link));
    const std::shared_ptr<const HoleAnatomyAnswer> answer = m_window->holeStories().answer();
    const EdgeStory &lower = answer->anatomy->lower;
    const QStringList links = linksIn(*m_window->holeAnatomy()->browser()->document());
    QVERIFY2(links.contains(link.url().toString(QUrl::FullyEncoded)), qPrintable(links.join(QLatin1Char('\n'))));

    QSignalSpy shown(m_window.get(), &MainWindow::timelineShown);
    emit m_window->holeAnatomy()->browser()->anchorClicked(link.url());
    const SweepResultModel &sweep = *m_window->sweepModel();
    const RowIdentity row = sweep.rowIdentity(m_window->holeModel()->entry(0).policy);
    QVERIFY(m_window->selection().current());
    QCOMPARE(m_window->selection().current()->identity, (RunIdentity{row, lower.failingBudget()}));
    QVERIFY(m_window->pinnedRun());
    QCOMPARE(m_window->pinnedRun()->config.budget, lower.smallerBudget); // the passing budget, overlaid
    QCOMPARE(m_window->timeline()->overlay(), TimelinePanel::Overlay::Pinned);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->timeline()->view()->markedStep(), std::optional(lower.avoided->step), 10000);
    QVERIFY(m_window->runViews().timelineRun() && *m_window->runViews().timelineRun() == m_window->selection().current()->identity);
    if (const QString keep = qEnvironmentVariable("HOLE_FIGURE_DIR"); !keep.isEmpty()) {
        QTest::qWait(300);
        m_window->grab().save(keep + QStringLiteral("/window-after-step-link.png"));
    }

    // The upper edge's failure step: the same hole's other failing run.
    HoleLink upper;
    upper.kind = HoleLink::Kind::Step;
    upper.edge = HoleStoryWriter::Edge::Upper;
    upper.step = answer->anatomy->upper.cascade.step;
    emit m_window->holeAnatomy()->browser()->anchorClicked(upper.url());
    QCOMPARE(m_window->selection().current()->identity.budget, answer->anatomy->upper.failingBudget());
    QCOMPARE(m_window->pinnedRun()->config.budget, answer->anatomy->upper.largerBudget);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->timeline()->view()->markedStep(), std::optional(*upper.step), 30000);
    QCOMPARE(m_window->findChild<QTabWidget *>(QStringLiteral("viewTabs"))->currentIndex(), 0); // the timeline

    // A tensor's link: the cascade is built around it, and its tab comes to the front.
    HoleLink tensor;
    tensor.kind = HoleLink::Kind::Tensor;
    tensor.edge = HoleStoryWriter::Edge::Lower;
    tensor.tensor = lower.avoided->victim;
    tensor.step = lower.avoided->step;
    emit m_window->holeAnatomy()->browser()->anchorClicked(tensor.url());
    QCOMPARE(m_window->findChild<QTabWidget *>(QStringLiteral("viewTabs"))->currentIndex(), 1);
}

void HoleAnatomyPanelTest::budgetLinkSelectsThatBudget()
{
    QVERIFY(openDemoHoles());
    explainHole(0);
    const std::shared_ptr<const HoleAnatomyAnswer> answer = m_window->holeStories().answer();
    QVERIFY(answer && answer->anatomy);
    const Bytes passing = answer->anatomy->lower.smallerBudget;
    HoleLink link;
    link.kind = HoleLink::Kind::Budget;
    link.budget = passing;
    QVERIFY(linksIn(*m_window->holeAnatomy()->browser()->document()).contains(link.url().toString(QUrl::FullyEncoded)));
    emit m_window->holeAnatomy()->browser()->anchorClicked(link.url());
    QCOMPARE(m_window->selection().current()->identity.budget, passing);
    QCOMPARE(m_window->holeStories().shownHole()->firstFail, m_window->sweepModel()->request(0, m_window->holeModel()->entry(0).hole.firstFail).config.budget);
}

void HoleAnatomyPanelTest::reselectingIsInstant()
{
    QVERIFY(openDemoHoles());
    const int rows = m_window->holeModel()->rowCount();
    QVERIFY(rows >= 2);
    explainHole(1);
    explainHole(0); // known: shown without a job
    QSignalSpy explained(m_window.get(), &MainWindow::holeExplained);
    QTableView *table = m_window->holeView();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(m_window->holeModel()->index(1, 0)).center());
    QCOMPARE(explained.count(), 1); // at once, from the cache
    QVERIFY(!m_window->holeAnatomyBusy());
}

void HoleAnatomyPanelTest::jobIsCancellableAndStaleAnswersAreDropped()
{
    QVERIFY(openDemoHoles());
    QVERIFY(m_window->holeModel()->rowCount() >= 2);
    const SweepResultModel &sweep = *m_window->sweepModel();
    const auto requestFor = [&](int holeRow) {
        const HoleListModel::Entry &entry = m_window->holeModel()->entry(holeRow);
        HoleAnatomyRequest r;
        r.key = HoleKey{sweep.rowIdentity(entry.policy), sweep.request(entry.policy, entry.hole.firstFail).config.budget,
                        sweep.request(entry.policy, entry.hole.lastFail).config.budget};
        r.program = m_window->program();
        r.baseline = sweep.baseline();
        r.request = sweep.request(entry.policy, 0);
        return r;
    };
    HoleAnatomyController controller;
    QSignalSpy answered(&controller, &HoleAnatomyController::answered);
    QSignalSpy finished(&controller, &HoleAnatomyController::finished);

    // Cancelled: it ends without an answer, and nothing is remembered.
    const int cancelled = controller.explain(requestFor(0));
    QVERIFY(controller.running());
    controller.cancel();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QCOMPARE(finished.first().at(0).toInt(), cancelled);
    QCOMPARE(finished.first().at(1).toBool(), true);
    QCOMPARE(answered.count(), 0);
    QVERIFY(!controller.known(requestFor(0).key));

    // The newest request wins: the first one's answer never arrives.
    finished.clear();
    controller.explain(requestFor(0));
    const int newest = controller.explain(requestFor(1));
    QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, 120000);
    QTest::qWait(200);
    QCOMPARE(answered.count(), 1);
    QCOMPARE(answered.first().at(0).toInt(), newest);
    const auto answer = answered.first().at(1).value<std::shared_ptr<const HoleAnatomyAnswer>>();
    QVERIFY(answer && answer->anatomy);
    QCOMPARE(answer->key, requestFor(1).key);
    QVERIFY(!controller.known(requestFor(0).key));
    QVERIFY(controller.known(requestFor(1).key));
}

void HoleAnatomyPanelTest::rowsTheMapCannotHandleSaySo()
{
    QVERIFY(openDemoHoles());
    RunRequest request = m_window->sweepModel()->request(0, 0);
    QVERIFY(HoleAnatomyController::problemOf(request).isEmpty());
    request.config.allocator.kind = AllocatorKind::Caching;
    QVERIFY(HoleAnatomyController::problemOf(request).isEmpty()); // allocator rows map, and explain
    PolicySpecError error;
    request.config.policy = *parsePolicySpec("expr:shortfall", error);
    const QString problem = HoleAnatomyController::problemOf(request);
    QVERIFY2(problem.contains(QStringLiteral("reads the bytes an allocation still lacks")), qPrintable(problem));
    QVERIFY(problem.endsWith(QLatin1Char('.')));
}

// The lower edge's two timelines with the story's moments, through the export machinery; the
// files are what their suffix says. HOLE_FIGURE_DIR keeps a copy to look at.
void HoleAnatomyPanelTest::figureExportsSvgPdfAndPng()
{
    QVERIFY(openDemoHoles());
    explainHole(0);
    const HoleAnatomyFigure &figure = m_window->holeStories().figure();
    QVERIFY(!figure.empty());
    const std::shared_ptr<const HoleAnatomyAnswer> answer = m_window->holeStories().answer();
    const EdgeStory &lower = answer->anatomy->lower;
    std::set<double> steps;
    for (const AnatomyMoment &m : figure.moments())
        steps.insert(m.step);
    QVERIFY(steps.count(double(lower.avoided->step)));
    QVERIFY(steps.count(double(lower.cascade.step)));
    if (lower.later)
        QVERIFY(steps.count(double(lower.later->step)));
    bool listed = false;
    for (const FigureView &view : m_window->figureViews())
        listed = listed || (view.name == QStringLiteral("Hole anatomy") && view.source == &figure);
    QVERIFY(listed); // File > Export Figure offers it

    FigureWriter::Options options;
    options.sizeInches = QSizeF(6.75, 4.0);
    options.dpi = 150;
    const QString keep = qEnvironmentVariable("HOLE_FIGURE_DIR");
    for (const auto &[suffix, magic] : {std::pair{"svg", QByteArray("<svg")}, std::pair{"pdf", QByteArray("%PDF")},
                                        std::pair{"png", QByteArray("\x89PNG")}}) {
        const QString path = m_user.filePath(QStringLiteral("anatomy.") + QLatin1String(suffix));
        QCOMPARE(FigureWriter::write(figure, path, options), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY2(bytes.size() > 1000, qPrintable(QString::number(bytes.size())));
        QVERIFY2(QLatin1String(suffix) == QLatin1String("svg") ? bytes.contains(magic) : bytes.startsWith(magic), suffix);
        if (!keep.isEmpty())
            QFile::copy(path, keep + QStringLiteral("/hole-anatomy.") + QLatin1String(suffix));
    }
    const QString csv = figure.figureCsv();
    QVERIFY(csv.startsWith(QStringLiteral("moment,run,step")));
    QVERIFY(csv.contains(QStringLiteral("out of memory")) || csv.contains(QStringLiteral("over the compute limit")));
}

// `rematlens figure hole-anatomy` draws the demo's thrash hole headless, and its --data lists the
// moments the window draws for that hole.
void HoleAnatomyPanelTest::figureCommandDrawsTheSameMoments()
{
    const QString out = m_user.filePath(QStringLiteral("cli-anatomy.svg"));
    const QString data = m_user.filePath(QStringLiteral("cli-anatomy.csv"));
    QProcess cli;
    cli.start(QStringLiteral(REMATLENS_BINARY),
              {QStringLiteral("figure"), QStringLiteral("hole-anatomy"), QStringLiteral(":demo"), QStringLiteral("--ratio"),
               QStringLiteral("0.335"), QStringLiteral("--out"), out, QStringLiteral("--data"), data});
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    QFile svg(out);
    QVERIFY(svg.open(QIODevice::ReadOnly) && svg.readAll().contains("<svg"));
    QFile csv(data);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QString moments = QString::fromUtf8(csv.readAll()).section(QStringLiteral("\n\n"), 0, 0);
    QVERIFY2(moments.contains(QStringLiteral("keeps ")) && moments.contains(QStringLiteral("over the compute limit")),
             qPrintable(moments));

    QProcess passing;
    passing.start(QStringLiteral(REMATLENS_BINARY), {QStringLiteral("figure"), QStringLiteral("hole-anatomy"),
                                                    QStringLiteral(":demo"), QStringLiteral("--ratio"),
                                                    QStringLiteral("0.5"), QStringLiteral("--out"), out});
    QVERIFY(passing.waitForFinished(60000));
    QVERIFY(passing.exitCode() != 0); // a passing budget is in no hole
    QVERIFY(passing.readAllStandardError().contains("no hole"));
}

// Every widget of the panel inside the window, and the story readable (not squeezed).
// File > Export Figure, at each of the dialog's sizes, of every view the window offers with a
// hole's lower edge shown (the failing run selected, the passing one a byte below overlaid):
// no text of any SVG elided or empty, and the timeline names both runs' budgets.
void HoleAnatomyPanelTest::everyWindowFigureExportsWhole()
{
    HoleLink link;
    QVERIFY(tellFirstDemoHole(link));
    const std::shared_ptr<const HoleAnatomyAnswer> answer = m_window->holeStories().answer();
    const EdgeStory &lower = answer->anatomy->lower;
    emit m_window->holeAnatomy()->browser()->anchorClicked(link.url());
    const TimelineView &timeline = *m_window->timeline()->view();
    QTRY_VERIFY_WITH_TIMEOUT(timeline.plot().comparison && timeline.plot().run &&
                                 timeline.plot().run->request.config.budget == lower.failingBudget(),
                             60000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->cascadeBusy() && !m_window->memoryMapBusy(), 60000);
    const QString budgets[] = {ByteUnits::exact(lower.failingBudget()), ByteUnits::exact(lower.smallerBudget)};
    for (const QString &size : {QStringLiteral("single"), QStringLiteral("double"), QStringLiteral("slide")}) {
        for (const FigureView &view : m_window->figureViews()) {
            FigureExportChoices choices;
            choices.view = view.name;
            choices.size = size;
            choices.fontSize = size == u"slide" ? 14 : 8;
            ExportFigureDialog dialog(m_window->figureViews(), choices);
            const QString svg = m_user.filePath(QStringLiteral("window-figure.svg"));
            QCOMPARE(dialog.exportTo(svg), QString());
            const QStringList texts = svgTexts(svg);
            const QStringList cut = cutTexts(texts);
            const QString where = view.name + QStringLiteral(", ") + size + QStringLiteral(": ");
            QVERIFY2(cut.isEmpty(), qPrintable(where + QStringLiteral("cut ") + cut.join(QStringLiteral(", "))));
            if (view.source != &timeline)
                continue;
            const QString all = texts.join(QLatin1Char(' ')).simplified();
            for (const QString &budget : budgets)
                QVERIFY2(all.contains(budget), qPrintable(where + all + QStringLiteral(" names no ") + budget));
        }
    }
}

void HoleAnatomyPanelTest::panelFitsAt1024x700()
{
    QVERIFY(openDemoHoles());
    m_window->arrangeDocks();
    explainHole(0);
    QTest::qWait(100);
    const QRect window = m_window->rect();
    QDockWidget *dock = m_window->holeAnatomyDock();
    QVERIFY(dock->isVisible());
    QVERIFY(window.contains(QRect(dock->mapTo(m_window.get(), QPoint(0, 0)), dock->size())));
    for (QWidget *w : dock->findChildren<QWidget *>()) {
        if (!w->isVisible())
            continue;
        const QRect r(w->mapTo(m_window.get(), QPoint(0, 0)), w->size());
        QVERIFY2(window.contains(r), qPrintable(w->objectName() + QStringLiteral(" %1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height())));
    }
    QTextBrowser *text = m_window->holeAnatomy()->browser();
    const int line = text->width() / text->fontMetrics().averageCharWidth(); // characters a line holds
    QVERIFY2(line >= 32, qPrintable(QStringLiteral("%1 px, %2 characters").arg(text->width()).arg(line)));
    QVERIFY2(text->height() >= 200, qPrintable(QString::number(text->height())));
    QVERIFY(m_window->timeline()->isVisible() && m_window->timeline()->height() >= m_window->fontMetrics().height() * 12);
}

void HoleAnatomyPanelTest::shortcutIsListed()
{
    const QString table = ShortcutTable(*m_window).toMarkdown();
    QVERIFY2(table.contains(QStringLiteral("Hole anatomy")), qPrintable(table));
    QVERIFY(table.contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A).toString(QKeySequence::NativeText)));
}

// Without the rescue searches a story ends at the failure; turning them on again tells the hole
// again, with them. The choice is remembered.
// The rescue search's progress names the rescues found so far and the cheapest as they come;
// its last report of the lower edge counts them all and names the best.
void HoleAnatomyPanelTest::rescuesShowAsTheyCome()
{
    QVERIFY(openDemoHoles());
    QStringList texts;
    const QMetaObject::Connection connection =
        connect(&m_window->holeStories().controller(), &HoleAnatomyController::progress, this,
                [&texts](int, const QString &text, qint64, qint64) { texts << text; });
    explainHole(0);
    disconnect(connection);
    const std::shared_ptr<const HoleAnatomyAnswer> answer = m_window->holeStories().answer();
    QVERIFY(answer && answer->anatomy);
    const std::vector<Rescue> &rescues = answer->anatomy->lower.rescue.rescues;
    QVERIFY(!rescues.empty());
    const QStringList lower = texts.filter(QStringLiteral("Rescue search of the lower edge: "));
    QVERIFY2(lower.size() >= 2, qPrintable(texts.join(QLatin1Char('\n'))));
    const QString best = QString::fromStdString(m_window->program()->tensors[rescues.front().tensor].name);
    QVERIFY2(lower.last().contains(QStringLiteral("%1 rescue").arg(rescues.size())), qPrintable(lower.last()));
    QVERIFY2(lower.last().contains(QStringLiteral("the cheapest keeps ") + best), qPrintable(lower.last()));
}

void HoleAnatomyPanelTest::rescueSearchCanBeTurnedOff()
{
    QVERIFY(openDemoHoles());
    auto *rescue = m_window->holeAnatomy()->findChild<QCheckBox *>(QStringLiteral("holeAnatomyRescue"));
    QVERIFY(rescue && rescue->isChecked());
    rescue->setChecked(false);
    QVERIFY(!m_window->settings().holeAnatomyRescue());
    explainHole(0);
    QVERIFY(m_window->holeStories().answer());
    QVERIFY(!m_window->holeAnatomy()->storyText().contains(QStringLiteral("rescue:")));
    QVERIFY(m_window->holeAnatomy()->storyText().contains(QStringLiteral("failure:")));
    rescue->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->holeAnatomyBusy(), 60000);
    QVERIFY(m_window->holeAnatomy()->storyText().contains(QStringLiteral("rescue:")));
    QVERIFY(m_window->settings().holeAnatomyRescue());
}

// The largest public trace's hole takes minutes to explain (its rescue searches): meanwhile the
// window answers at once, and Cancel (the status bar's, Ctrl+.) stops the job within seconds.
void HoleAnatomyPanelTest::lstmStaysResponsiveAndCancels()
{
    if (m_lstm.isEmpty())
        QSKIP("the public LSTM trace is not installed (../shared, or traces/download-dtr-traces.sh)");
    QVERIFY(openAndSweepHoles(m_lstm, QStringLiteral("0.28"), QStringLiteral("0.30"), QStringLiteral("0.01")));
    QTableView *table = m_window->holeView();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(m_window->holeModel()->index(0, 0)).center());
    QVERIFY(m_window->holeAnatomyBusy());
#ifdef REMATLENS_SANITIZED
    constexpr int untilRescueMs = 300000; // the edges' replays before the rescue search run several times slower
#else
    constexpr int untilRescueMs = 60000;
#endif
    QTRY_VERIFY_WITH_TIMEOUT(m_window->holeAnatomy()->statusText().contains(QStringLiteral("Rescue search")), untilRescueMs);
    QElapsedTimer clock;
    qint64 worst = 0;
    for (int i = 0; i < 20; ++i) { // 50 ms timers, each measured against when it should fire
        clock.start();
        QTest::qWait(50);
        worst = std::max(worst, clock.elapsed() - 50);
    }
    QVERIFY2(worst < 250, qPrintable(QStringLiteral("the event loop was %1 ms late").arg(worst)));
    QVERIFY(m_window->findChild<QAction *>(QStringLiteral("cancelAction"))->isEnabled());
    clock.start();
    m_window->findChild<QAction *>(QStringLiteral("cancelAction"))->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->holeAnatomyBusy(), 30000);
    qInfo("cancelled in %lld ms", clock.elapsed());
    QVERIFY(m_window->holeAnatomy()->statusText().startsWith(QStringLiteral("Cancelled")));
    QVERIFY(!m_window->holeStories().answer());
}

QTEST_MAIN(HoleAnatomyPanelTest)
#include "tst_hole_anatomy_panel.moc"
