// The strip's new rows: one per policy and allocator model (labels, cells and hover matching the
// records `rematlens sweep --allocator` writes, selection inspecting that model), the rows of
// static checkpointing and of the optimal schedule (matching `rematlens checkpoint` and
// `rematlens optimal`), both in `figure strip`, and the choice of models kept by sessions.
#include "gui/gui_heartbeat.h"
#include "gui/test_window.h"
#include "shared_data.h"

#include "app/gui/main_window.h"
#include "app/gui/schedule_cache.h"
#include "app/gui/schedule_controller.h"
#include "app/gui/trace_hash.h"
#include "core/trace/trace_reader.h"
#include "app/gui/session_controller.h"
#include "app/gui/session_file.h"
#include "views/common/number_format.h"
#include "views/memory/memory_map_panel.h"
#include "views/memory/memory_map_view.h"
#include "views/strip/feasibility_strip.h"
#include "views/strip/outcome_palette.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/schedule_rows_model.h"
#include "views/tables/sweep_result_model.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace rematlens;

namespace {

QString runRematlens(const QStringList &arguments, int &status)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(QStringLiteral(REMATLENS_BINARY), arguments);
    process.waitForFinished(300000);
    status = process.exitCode();
    return QString::fromUtf8(process.readAllStandardOutput());
}

// The records of a results file, provenance left out.
std::vector<QJsonObject> records(const QString &path)
{
    std::vector<QJsonObject> out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray &line : file.readAll().split('\n')) {
        const QJsonObject record = QJsonDocument::fromJson(line).object();
        if (!record.isEmpty() && !record.contains(QStringLiteral("provenance")))
            out.push_back(record);
    }
    return out;
}

Outcome outcomeOf(const QJsonObject &record)
{
    return findOutcome(record.value(QStringLiteral("result")).toString().toStdString()).value_or(Outcome::Cancelled);
}

// Whether the colour fills a good part of the cell (all of it but hatching and outlines).
bool cellShows(const QImage &image, const QRectF &cell, const QColor &colour)
{
    int matching = 0;
    int total = 0;
    for (int y = int(cell.top()) + 1; y < int(cell.bottom()) - 1; ++y)
        for (int x = int(cell.left()) + 1; x < int(cell.right()) - 1; ++x, ++total)
            matching += image.pixelColor(x, y) == colour ? 1 : 0;
    return total > 0 && matching * 3 >= total;
}

SweepParameters demoGrid()
{
    SweepParameters p = sweepGrid(QStringLiteral("0.5"), QStringLiteral("1.0"), QStringLiteral("0.05"));
    p.allocators = {QStringLiteral("sum"), QStringLiteral("caching"), QStringLiteral("best-fit")};
    return p;
}

// DTR with both schedule rows over the 0.2-1.0 grid at 0.1.
SweepParameters chainGridWithSchedules()
{
    SweepParameters p = sweepGrid(QStringLiteral("0.2"), QStringLiteral("1.0"), QStringLiteral("0.1"));
    p.checkpointing = true;
    p.optimal = true;
    p.timeLimit = QStringLiteral("60");
    return p;
}

// A deadline, not a speed check (the LSTM case measures its stalls itself): a sanitized build on
// a loaded machine needs over 100 s for the LSTM's sweep and schedules.
constexpr int kSweepAndSchedulesMs = 600000;

} // namespace

class StripRowsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void allocatorRowsMatchTheRecords();
    void selectingAModelCellInspectsThatModel();
    void scheduleRowsMatchCheckpointAndOptimal();
    void scheduleAnswersAreKeptOnDisk();
    void figureStripDrawsEveryRow();
    void singleAllocatorKeepsPlainLabels();
    void sessionKeepsTheModelsAndRows();
    void lstmRowsLeaveTheWindowAnswering();

private:
    QString syntheticChain();

    std::unique_ptr<MainWindow> m_window;
    GuiTestUser m_user;
};

void StripRowsTest::initTestCase()
{
    m_user.setUp(QStringLiteral("RematLensStripRowsTest"));
}

void StripRowsTest::init()
{
    m_user.reset();
    m_window = showNewWindow(QSize(1400, 900));
}

void StripRowsTest::cleanup()
{
    m_window.reset();
}

// A six-layer chain: small enough that CBC proves every budget's answer in well under a second.
QString StripRowsTest::syntheticChain()
{
    const QString path = m_user.filePath(QStringLiteral("chain6.log"));
    if (!QFile::exists(path)) {
        int status = -1;
        runRematlens({QStringLiteral("synth"), QStringLiteral("--preset"), QStringLiteral("chain"),
                      QStringLiteral("--layers"), QStringLiteral("6"), QStringLiteral("--out"), path},
                     status);
        if (status != 0)
            qWarning("rematlens synth failed");
    }
    return path;
}

void StripRowsTest::allocatorRowsMatchTheRecords()
{
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), demoGrid()));
    const SweepResultModel &model = *m_window->sweepModel();
    QCOMPARE(model.policyCount(), std::size_t{3});
    QCOMPARE(model.policyName(0), QStringLiteral("DTR \u00b7 sum"));
    QCOMPARE(model.policyName(1), QStringLiteral("DTR \u00b7 caching"));
    QCOMPARE(model.policyName(2), QStringLiteral("DTR \u00b7 best-fit"));
    QCOMPARE(model.gridSize(), std::size_t{11});

    FeasibilityStrip &strip = *m_window->strip();
    const QImage image = strip.grab().toImage();
    const StripGeometry g = strip.cellGeometry();
    QCOMPARE(g.rows, 3);
    const char *models[] = {"sum", "caching", "best-fit"};
    int failuresByKind = 0;
    for (std::size_t row = 0; row < 3; ++row) {
        const QString out = m_user.filePath(QStringLiteral("%1.jsonl").arg(QLatin1String(models[row])));
        int status = -1;
        runRematlens({QStringLiteral("sweep"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.5"),
                      QStringLiteral("--to"), QStringLiteral("1.0"), QStringLiteral("--step"), QStringLiteral("0.05"),
                      QStringLiteral("--allocator"), QLatin1String(models[row]), QStringLiteral("--out"), out},
                     status);
        QCOMPARE(status, 0);
        const std::vector<QJsonObject> cli = records(out);
        QCOMPARE(cli.size(), model.gridSize());
        for (std::size_t column = 0; column < cli.size(); ++column) {
            const std::optional<RunResult> &shown = model.result(row, column);
            QVERIFY(shown);
            QCOMPARE(model.request(row, column).config.allocator.kind, *findAllocatorKind(models[row]));
            QCOMPARE(qint64(model.request(row, column).config.budget), cli[column].value(QStringLiteral("budget")).toInteger());
            QCOMPARE(shown->outcome, outcomeOf(cli[column]));
            QCOMPARE(qint64(shown->maxMemory), cli[column].value(QStringLiteral("max_memory")).toInteger());
            // The cell's colour is the record's outcome (a hole's cells are hatched over it).
            const QRectF cell = g.cell(int(row), int(column));
            QVERIFY2(cellShows(image, cell, OutcomePalette::outcome(outcomeOf(cli[column]))),
                     qPrintable(QStringLiteral("row %1 column %2").arg(row).arg(column)));
            // A failure under a model says why in the hover text, as the record does.
            const QString hover = strip.tooltipAt(cell.center().toPoint());
            QVERIFY2(hover.contains(model.policyName(row)), qPrintable(hover));
            QVERIFY2(hover.contains(QStringLiteral("swept: this grid point's budget alone")), qPrintable(hover));
            const QJsonObject failure = cli[column].value(QStringLiteral("failure")).toObject();
            const QString kind = failure.value(QStringLiteral("oom_kind")).toString();
            if (!kind.isEmpty()) {
                QVERIFY2(hover.contains(QStringLiteral("failed by <b>%1</b>").arg(kind)), qPrintable(hover));
                const qint64 largest = failure.value(QStringLiteral("largest_free_block")).toInteger();
                QVERIFY2(hover.contains(QStringLiteral("largest free block %1 B").arg(numberLocale().toString(largest))),
                         qPrintable(hover));
                ++failuresByKind;
            }
        }
    }
    QVERIFY(failuresByKind >= 1); // the demo's caching row fails at 0.90 by fragmentation
}

void StripRowsTest::selectingAModelCellInspectsThatModel()
{
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), demoGrid()));
    QSignalSpy shown(m_window.get(), &MainWindow::timelineShown);
    m_window->strip()->setSelection(FeasibilityStrip::Cell{2, 8});
    const std::optional<RunRequest> request = m_window->selectedRequest();
    QVERIFY(request);
    QCOMPARE(request->config.allocator.kind, AllocatorKind::BestFit);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 20000);
    const TimelinePlot &plot = m_window->timeline()->view()->plot();
    QVERIFY(!plot.empty());
    QVERIFY(plot.run->request.config.allocator == request->config.allocator);
    QCOMPARE(plot.run->request.config.budget, request->config.budget);
}

void StripRowsTest::scheduleRowsMatchCheckpointAndOptimal()
{
    const QString trace = syntheticChain();
    QVERIFY(openAndSweep(*m_window, trace, chainGridWithSchedules(), kSweepAndSchedulesMs));
    const ScheduleRowsModel &rows = *m_window->scheduleRows();
    QCOMPARE(rows.rowCount(), std::size_t{2});
    QCOMPARE(rows.columnCount(), std::size_t{9});

    int status = -1;
    const QStringList range{QStringLiteral("--from"), QStringLiteral("0.2"), QStringLiteral("--to"), QStringLiteral("1.0"),
                            QStringLiteral("--step"), QStringLiteral("0.1"), QStringLiteral("--json")};
    const QJsonObject checkpoint =
        QJsonDocument::fromJson(runRematlens(QStringList{QStringLiteral("checkpoint"), trace} + range, status).toUtf8()).object();
    QCOMPARE(status, 0);
    const QJsonObject optimal = QJsonDocument::fromJson(
        runRematlens(QStringList{QStringLiteral("optimal"), trace, QStringLiteral("--time-limit"), QStringLiteral("60")} +
                         range,
                     status)
            .toUtf8()).object();
    QCOMPARE(status, 0);
    const QJsonArray plans = checkpoint.value(QStringLiteral("budgets")).toArray();
    const QJsonArray optima = optimal.value(QStringLiteral("budgets")).toArray();
    QCOMPARE(plans.size(), 9);
    QCOMPARE(optima.size(), 9);

    FeasibilityStrip &strip = *m_window->strip();
    const QImage image = strip.grab().toImage();
    const StripGeometry g = strip.cellGeometry();
    QCOMPARE(g.extraRows, 2);
    QSet<QString> statuses;
    int passes = 0;
    for (int column = 0; column < 9; ++column) {
        const QJsonObject plan = plans[column].toObject();
        const bool cliPass = plan[QStringLiteral("sqrt_n")].toObject()[QStringLiteral("result")].toString() == QStringLiteral("pass") ||
                             plan[QStringLiteral("greedy")].toObject()[QStringLiteral("result")].toString() == QStringLiteral("pass");
        const auto shownPlan = rows.checkpoint(std::size_t(column));
        QVERIFY(shownPlan);
        QCOMPARE(shownPlan->pass, cliPass);
        passes += cliPass ? 1 : 0;
        const QString rule = shownPlan->rule == "sqrt-n" ? QStringLiteral("sqrt_n") : QStringLiteral("greedy");
        if (cliPass)
            QCOMPARE(shownPlan->overhead, plan[rule].toObject()[QStringLiteral("overhead")].toDouble());
        const QString solved = optima[column].toObject()[QStringLiteral("status")].toString();
        statuses.insert(solved);
        QCOMPARE(ScheduleRowsModel::stateName(rows.state(1, std::size_t(column))), solved);

        // Cells in the strip: colours of the states, hover naming the rule or the solver's answer.
        const QRectF checkpointCell = g.cell(g.rows, column);
        const QRectF optimalCell = g.cell(g.rows + 1, column);
        QCOMPARE(image.pixelColor(checkpointCell.center().toPoint()),
                 ScheduleRowsModel::stateColour(rows.state(0, std::size_t(column))));
        QCOMPARE(image.pixelColor(optimalCell.center().toPoint()),
                 ScheduleRowsModel::stateColour(rows.state(1, std::size_t(column))));
        const QString hover = strip.tooltipAt(checkpointCell.center().toPoint());
        QVERIFY2(hover.contains(QStringLiteral("checkpointing")) &&
                     hover.contains(QString::fromStdString(shownPlan->rule) + QStringLiteral(" plan")),
                 qPrintable(hover));
        QVERIFY(strip.tooltipAt(optimalCell.center().toPoint()).contains(ScheduleRowsModel::stateLabel(rows.state(1, std::size_t(column)))));
    }
    QVERIFY(passes > 0 && passes < 9);
    QVERIFY(statuses.contains(QStringLiteral("infeasible")) && statuses.contains(QStringLiteral("optimal")));
    // The four answers the optimal row can give are told apart, and unknown is neither colour.
    QSet<QRgb> colours;
    for (auto state : {ScheduleRowsModel::State::Optimal, ScheduleRowsModel::State::Feasible,
                       ScheduleRowsModel::State::Infeasible, ScheduleRowsModel::State::Unknown})
        colours.insert(ScheduleRowsModel::stateColour(state).rgb());
    QCOMPARE(colours.size(), 4);
    QVERIFY(ScheduleRowsModel::stateColour(ScheduleRowsModel::State::Unknown) != OutcomePalette::notRun());
    // A click on a schedule's row selects no run.
    const auto before = strip.selection();
    QTest::mouseClick(&strip, Qt::LeftButton, {}, g.cell(g.rows, 3).center().toPoint());
    QCOMPARE(strip.selection(), before);
}

// The answers the rows just showed are on disk under the trace's hash, and a controller takes
// stored answers instead of solving: a fabricated one comes back as stored, a torn line is skipped.
void StripRowsTest::scheduleAnswersAreKeptOnDisk()
{
    const QString trace = syntheticChain();
    QVERIFY(openAndSweep(*m_window, trace, chainGridWithSchedules(), kSweepAndSchedulesMs));
    const QString hash = traceContentHash(trace);
    const ScheduleCache::Answers stored = ScheduleCache::load(hash);
    const ScheduleRowsModel &rows = *m_window->scheduleRows();
    QCOMPARE(stored.checkpoints.size(), std::size_t{9});
    QCOMPARE(stored.optima.size(), std::size_t{9});
    std::size_t column = 0;
    for (const auto &[budget, answer] : stored.checkpoints) {
        const auto &shown = rows.checkpoint(column++);
        QVERIFY(shown);
        QCOMPARE(answer.pass, shown->pass);
        QCOMPARE(answer.rule, shown->rule);
        QCOMPARE(answer.peak, shown->peak);
        QCOMPARE(answer.overhead, shown->overhead);
        QCOMPARE(answer.checkpoints, shown->checkpoints);
    }
    column = 0;
    for (const auto &[key, answer] : stored.optima) {
        const auto &shown = rows.optimal(column++);
        QVERIFY(shown);
        QCOMPARE(key.second, 60.0);
        QCOMPARE(answer.status, shown->status);
        QCOMPARE(answer.overhead, shown->overhead);
        QCOMPARE(answer.checked, shown->checked);
    }

    const QString fakeHash = QStringLiteral("0123abcd");
    QFile file(ScheduleCache::directory() + QStringLiteral("/") + fakeHash + QStringLiteral(".jsonl"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"budget":1000,"checkpoint":{"pass":true,"rule":"greedy","peak":777,"overhead":1.5,"checkpoints":3}})"
               "\n{\"budget\":2000,\"checkpo\n");
    file.close();
    const TraceReadResult program = readTraceFile(trace.toStdString());
    QVERIFY(program.ok());
    ScheduleController controller;
    QSignalSpy answered(&controller, &ScheduleController::checkpointAnswered);
    QSignalSpy finished(&controller, &ScheduleController::finished);
    controller.start({program.program, fakeHash, {1000, 2000}, true, false, 1});
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QCOMPARE(answered.count(), 2);
    const auto fabricated = answered[0][2].value<CheckpointAnswer>();
    QCOMPARE(fabricated.peak, Bytes{777}); // as stored, not solved
    QCOMPARE(fabricated.checkpoints, std::size_t{3});
    const auto solved = answered[1][2].value<CheckpointAnswer>(); // the torn line's budget, answered again
    QVERIFY(solved.peak > 0 && solved.peak != 777);
    QCOMPARE(ScheduleCache::load(fakeHash).checkpoints.size(), std::size_t{2});
}

void StripRowsTest::figureStripDrawsEveryRow()
{
    const QString trace = syntheticChain();
    QVERIFY(openAndSweep(*m_window, trace, chainGridWithSchedules(), kSweepAndSchedulesMs));
    const QString csv = m_user.filePath(QStringLiteral("strip.csv"));
    const QString png = m_user.filePath(QStringLiteral("strip.png"));
    int status = -1;
    runRematlens({QStringLiteral("figure"), QStringLiteral("strip"), trace, QStringLiteral("--from"), QStringLiteral("0.2"),
                  QStringLiteral("--to"), QStringLiteral("1.0"), QStringLiteral("--step"), QStringLiteral("0.1"),
                  QStringLiteral("--allocator"), QStringLiteral("sum,caching"), QStringLiteral("--allocator"),
                  QStringLiteral("best-fit"), QStringLiteral("--checkpointing"), QStringLiteral("--optimal"),
                  QStringLiteral("--time-limit"), QStringLiteral("60"), QStringLiteral("--out"), png,
                  QStringLiteral("--data"), csv},
                 status);
    QCOMPARE(status, 0);
    QVERIFY(!QImage(png).isNull());
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QMap<QString, QStringList> rows; // label -> outcomes in budget order
    for (const QString &line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'))) {
        const QStringList fields = line.split(QLatin1Char(','));
        if (fields.size() == 7 && fields[0] != QStringLiteral("trace") && !line.startsWith(QLatin1Char('#')))
            rows[fields[1]] << fields[4];
    }
    const QStringList expected{QStringLiteral("DTR \u00b7 best-fit"), QStringLiteral("DTR \u00b7 caching"),
                               QStringLiteral("DTR \u00b7 sum"), QStringLiteral("checkpointing"), QStringLiteral("optimal")};
    QCOMPARE(rows.keys(), expected);
    for (const QString &label : expected)
        QCOMPARE(rows[label].size(), 9);
    // The figure's rows are the window's (same trace, grid and models).
    const ScheduleRowsModel &shown = *m_window->scheduleRows();
    for (int column = 0; column < 9; ++column) {
        QCOMPARE(rows[QStringLiteral("checkpointing")][column], ScheduleRowsModel::stateName(shown.state(0, std::size_t(column))));
        QCOMPARE(rows[QStringLiteral("optimal")][column], ScheduleRowsModel::stateName(shown.state(1, std::size_t(column))));
    }
    const QString caching = m_user.filePath(QStringLiteral("chain-caching.jsonl"));
    runRematlens({QStringLiteral("sweep"), trace, QStringLiteral("--from"), QStringLiteral("0.2"), QStringLiteral("--to"),
                  QStringLiteral("1.0"), QStringLiteral("--step"), QStringLiteral("0.1"), QStringLiteral("--allocator"),
                  QStringLiteral("caching"), QStringLiteral("--out"), caching},
                 status);
    const std::vector<QJsonObject> cli = records(caching);
    QCOMPARE(cli.size(), std::size_t{9});
    for (int column = 0; column < 9; ++column)
        QCOMPARE(rows[QStringLiteral("DTR \u00b7 caching")][column], cli[std::size_t(column)][QStringLiteral("result")].toString());
}

void StripRowsTest::singleAllocatorKeepsPlainLabels()
{
    const QString csv = m_user.filePath(QStringLiteral("single.csv"));
    int status = -1;
    runRematlens({QStringLiteral("figure"), QStringLiteral("strip"), QStringLiteral(":demo"), QStringLiteral("--from"),
                  QStringLiteral("0.8"), QStringLiteral("--to"), QStringLiteral("0.9"), QStringLiteral("--step"),
                  QStringLiteral("0.05"), QStringLiteral("--allocator"), QStringLiteral("caching"), QStringLiteral("--out"),
                  m_user.filePath(QStringLiteral("single.svg")), QStringLiteral("--data"), csv},
                 status);
    QCOMPARE(status, 0);
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY(text.contains(QStringLiteral("demo,DTR,0.90,")));
    QVERIFY(!text.contains(QStringLiteral("\u00b7")));
    // A model named twice is refused, naming the option.
    QProcess twice;
    twice.start(QStringLiteral(REMATLENS_BINARY),
                {QStringLiteral("figure"), QStringLiteral("strip"), QStringLiteral(":demo"), QStringLiteral("--allocator"),
                 QStringLiteral("caching,caching"), QStringLiteral("--out"), m_user.filePath(QStringLiteral("x.svg"))});
    QVERIFY(twice.waitForFinished(60000));
    QVERIFY(twice.exitCode() != 0);
    QVERIFY(QString::fromUtf8(twice.readAllStandardError()).contains(QStringLiteral("--allocator")));
}

void StripRowsTest::sessionKeepsTheModelsAndRows()
{
    SweepParameters p = demoGrid();
    p.allocators = {QStringLiteral("sum"), QStringLiteral("best-fit")};
    p.eviction = QStringLiteral("after-op");
    p.checkpointing = true;
    p.timeLimit = QStringLiteral("3.5");
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), p, kSweepAndSchedulesMs));
    QCOMPARE(m_window->sweepModel()->policyName(1), QStringLiteral("DTR \u00b7 best-fit"));
    QCOMPARE(m_window->sweepModel()->request(1, 0).config.allocator.eviction, EvictionCoupling::AfterOp);
    QSignalSpy mapShown(m_window.get(), &MainWindow::memoryMapShown);
    m_window->strip()->setSelection(FeasibilityStrip::Cell{1, 4});
    QTRY_VERIFY_WITH_TIMEOUT(mapShown.count() >= 1 && !m_window->memoryMapBusy(), 30000);
    const std::size_t chosenStep = 7; // not the default step: the session must carry it
    m_window->showMemoryMap(chosenStep);
    QTRY_VERIFY_WITH_TIMEOUT(mapShown.count() >= 2 && !m_window->memoryMapBusy(), 30000);
    QCOMPARE(m_window->memoryMap()->view()->figure().plot()->snapshot->step, chosenStep);
    m_window->setPinnedRun(m_window->sweepModel()->request(1, 6));
    const SessionState saved = m_window->sessions().capture();
    QCOMPARE(saved.memoryMapStep, std::optional<std::int64_t>(std::int64_t(chosenStep)));
    QVERIFY(saved.sweep == p);
    QCOMPARE(saved.pinned->allocator, QStringLiteral("best-fit,after-op"));
    const QString path = m_user.filePath(QStringLiteral("models.rematlens"));
    QString error;
    QVERIFY2(m_window->sessions().save(path, error), qPrintable(error));

    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), demoGrid(), kSweepAndSchedulesMs));
    QSignalSpy restored(&m_window->sessions(), &SessionController::restored);
    QVERIFY2(m_window->sessions().open(path, error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(restored.count(), 1, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->sweepRunning() && !m_window->schedulesRunning(), 60000);
    QVERIFY(m_window->sweepParameters() == p);
    QCOMPARE(m_window->sweepModel()->policyCount(), std::size_t{2});
    QCOMPARE(m_window->strip()->selection()->policy, std::size_t{1});
    QVERIFY(m_window->pinnedRun()->config.allocator == m_window->sweepModel()->request(1, 6).config.allocator);
    QCOMPARE(m_window->scheduleRows()->rowCount(), std::size_t{1});
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->memoryMapBusy() && m_window->memoryMap()->view()->figure().plot() &&
                                 m_window->memoryMap()->view()->figure().plot()->snapshot &&
                                 m_window->memoryMap()->view()->figure().plot()->snapshot->step == chosenStep,
                             30000);

    // A session written before these fields existed sweeps the byte sum alone.
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    QJsonObject sweep = json[QStringLiteral("sweep")].toObject();
    for (const char *key : {"allocators", "eviction", "checkpointing", "optimal", "time_limit"})
        sweep.remove(QLatin1String(key));
    json[QStringLiteral("sweep")] = sweep;
    QJsonObject pinned = json[QStringLiteral("pinned")].toObject();
    pinned.remove(QStringLiteral("allocator"));
    json[QStringLiteral("pinned")] = pinned;
    json.remove(QStringLiteral("memory_map"));
    const QString old = m_user.filePath(QStringLiteral("old.rematlens"));
    QFile out(old);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(json).toJson());
    out.close();
    const std::optional<SessionState> read = SessionFile::read(old, error);
    QVERIFY2(read, qPrintable(error));
    QCOMPARE(read->sweep.allocators, QStringList{QStringLiteral("sum")});
    QVERIFY(!read->sweep.checkpointing && !read->sweep.optimal);
    QCOMPARE(read->pinned->allocator, QStringLiteral("sum"));
    QVERIFY(!read->memoryMapStep);

    // A step that no schedule has is refused, naming the field.
    json[QStringLiteral("memory_map")] = QJsonObject{{QStringLiteral("step"), -3}};
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write(QJsonDocument(json).toJson());
    out.close();
    QVERIFY(!SessionFile::read(old, error));
    QVERIFY2(error.contains(QStringLiteral("memory_map.step")), qPrintable(error));
}

// The public LSTM (the largest trace) with every model and both schedule rows: the runs and
// the answers come off the GUI thread, and the optimal row is declined with the model's size.
void StripRowsTest::lstmRowsLeaveTheWindowAnswering()
{
    const QString shared = sharedDirectory();
    const QStringList lstm = shared.isEmpty() ? QStringList()
                                              : QDir(shared + QStringLiteral("/traces/dtr-2020"))
                                                    .entryList({QStringLiteral("lstm-*.log")});
    if (lstm.isEmpty())
        QSKIP("the public LSTM trace is not at hand");
    SweepParameters p = demoGrid();
    p.from = QStringLiteral("0.2");
    p.step = QStringLiteral("0.1");
    p.checkpointing = true;
    p.optimal = true;
    GuiHeartbeat heartbeat;
    heartbeat.start();
    heartbeat.setStep(QStringLiteral("sweep and schedules"));
    const bool swept = openAndSweep(*m_window, publicTracePath(shared, lstm.front()), p, kSweepAndSchedulesMs);
    heartbeat.stop();
    QVERIFY(swept);
    qInfo("LSTM, three models and two schedule rows: longest stall %.0f ms, GUI thread busy at most %.0f ms",
          heartbeat.longestStallMs(), heartbeat.longestBusyMs());
    const SweepResultModel &model = *m_window->sweepModel();
    QCOMPARE(model.policyCount(), std::size_t{3});
    QCOMPARE(model.finishedCount(), std::size_t{27});
    const ScheduleRowsModel &rows = *m_window->scheduleRows();
    for (std::size_t column = 0; column < rows.columnCount(); ++column) {
        QVERIFY(rows.checkpoint(column));
        QCOMPARE(rows.state(1, column), ScheduleRowsModel::State::Declined);
        QVERIFY(rows.optimal(column)->declined.find(" variables") != std::string::npos);
    }
    const StripGeometry g = m_window->strip()->cellGeometry();
    const QString hover = m_window->strip()->tooltipAt(g.cell(g.rows + 1, 4).center().toPoint());
    QVERIFY2(hover.contains(QStringLiteral("out of reach")) && hover.contains(QStringLiteral("variables")),
             qPrintable(hover));
    QVERIFY2(heartbeat.longestStallMs() < 2000,
             qPrintable(QStringLiteral("the window hung %1 ms").arg(heartbeat.longestStallMs())));
}

QTEST_MAIN(StripRowsTest)
#include "tst_strip_rows.moc"
