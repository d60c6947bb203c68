// The trace generator: every preset writes a trace that reads back, replays and sweeps; the
// chain behaves as the DTR paper proves for linear networks; output is deterministic.
#include "core/sim/baseline.h"
#include "core/sim/replay.h"
#include "core/sweep/hole_finder.h"
#include "core/sweep/sweep_plan.h"
#include "core/sweep/sweep_runner.h"
#include "core/synth/synth_presets.h"
#include "core/trace/program_stats.h"
#include "core/trace/trace_reader.h"

#include <QtTest>

using namespace rematlens;

class SynthTest : public QObject {
    Q_OBJECT

private slots:
    void presetsReadBackReplayAndSweep_data();
    void presetsReadBackReplayAndSweep();
    void chainRunsFarBelowItsBaseline();
    void deterministicAndSeeded();
    void rejectsBadOptions();
};

void SynthTest::presetsReadBackReplayAndSweep_data()
{
    QTest::addColumn<QString>("preset");
    for (const SynthPreset &preset : synthPresets())
        QTest::newRow(preset.name.c_str()) << QString::fromStdString(preset.name);
}

void SynthTest::presetsReadBackReplayAndSweep()
{
    QFETCH(QString, preset);
    std::string error;
    const std::optional<std::string> text = synthesizeTrace(SynthOptions{preset.toStdString(), {}, {}, 1}, error);
    QVERIFY2(text.has_value(), error.c_str());
    const TraceReadResult read = parseTraceText(*text, preset.toStdString());
    QVERIFY2(read.ok(), read.error.toString().c_str());
    const ProgramStats stats = computeStats(*read.program);
    QVERIFY(stats.backwardOperators > 0); // a backward pass follows the BACKWARD annotation
    QVERIFY(stats.constants > 0);
    const Baseline baseline = computeBaseline(*read.program);
    QVERIFY(baseline.memory > baseline.constMemory);
    QVERIFY(baseline.compute > 0);

    SweepSettings settings;
    settings.policies = {*findPolicy("DTR")};
    const std::vector<GridPoint> grid = *DecimalGrid::make("0.1", "1.0", "0.1", error);
    const std::vector<RunRequest> requests = planSweep(settings, baseline, grid);
    std::vector<BudgetOutcome> outcomes(requests.size());
    SweepRunner(read.program, 2).run(requests, nullptr, [&](std::size_t i, const RunResult &r) {
        outcomes[i] = {requests[i].ratio, requests[i].config.budget, r.outcome};
    });
    // The whole baseline always suffices; the smallest budgets fail below constants + bottleneck.
    QCOMPARE(outcomes.back().outcome, Outcome::Pass);
    const HoleReport report = findHoles(outcomes);
    QVERIFY(report.firstSuccess.has_value());
}

void SynthTest::chainRunsFarBelowItsBaseline()
{
    // The DTR paper proves that on a linear network of n equal layers DTR needs only O(sqrt n)
    // memory for O(n) extra compute. With n = 200, a tenth of the baseline (which holds all
    // 200 activations) is about 1.4 sqrt(n) activations: DTR must complete there within the
    // default 2x compute limit.
    std::string error;
    const std::optional<std::string> text = synthesizeTrace(SynthOptions{"chain", 200, {}, 0}, error);
    QVERIFY(text.has_value());
    const TraceReadResult read = parseTraceText(*text, "chain");
    QVERIFY(read.ok());
    const Baseline baseline = computeBaseline(*read.program);
    RunConfig config;
    config.budget = budgetForRatio(baseline, 0.1);
    config.rematLimit = rematLimitFor(baseline, 2.0);
    const RunResult result = Replay(*read.program, config).run();
    QCOMPARE(result.outcome, Outcome::Pass);
    QVERIFY(result.remats > 0);
    const double overhead = static_cast<double>(result.clock) / static_cast<double>(baseline.compute);
    QVERIFY2(overhead < 2.0, qPrintable(QString::number(overhead)));
}

void SynthTest::deterministicAndSeeded()
{
    std::string error;
    const auto a = synthesizeTrace(SynthOptions{"transformer", {}, {}, 4}, error);
    const auto b = synthesizeTrace(SynthOptions{"transformer", {}, {}, 4}, error);
    const auto c = synthesizeTrace(SynthOptions{"transformer", {}, {}, 5}, error);
    QVERIFY(a && b && c);
    QCOMPARE(*a, *b);
    QVERIFY(*a != *c);
    const auto deeper = synthesizeTrace(SynthOptions{"resnet", 12, 4, 0}, error);
    const auto shallow = synthesizeTrace(SynthOptions{"resnet", 3, 4, 0}, error);
    QVERIFY(deeper && shallow && deeper->size() > shallow->size());
}

void SynthTest::rejectsBadOptions()
{
    std::string error;
    QVERIFY(!synthesizeTrace(SynthOptions{"vgg", {}, {}, 0}, error));
    QVERIFY(error.find("unknown preset") != std::string::npos);
    QVERIFY(!synthesizeTrace(SynthOptions{"chain", 0, {}, 0}, error));
    QVERIFY(!synthesizeTrace(SynthOptions{"unet", 20, {}, 0}, error));
}

QTEST_GUILESS_MAIN(SynthTest)
#include "tst_synth.moc"
