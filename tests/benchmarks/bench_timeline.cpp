// What selecting a budget costs before its timeline is on screen: the replay with a recorder,
// laying out the tracks, decimating into the chart for a 1600-pixel plot and drawing it once.
#include "core/analysis/inspected_run.h"
#include "views/cascade/cascade_diagram.h"
#include "views/timeline/timeline_chart.h"

#include "public_traces.h"

#include <QApplication>
#include <QChart>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>

#include <benchmark/benchmark.h>

#include <filesystem>

using namespace rematlens;

namespace {

RunRequest requestFor(const LoadedPublicTrace &trace, double ratio)
{
    RunRequest request;
    request.ratio = ratio;
    request.config.budget = budgetForRatio(trace.baseline, ratio);
    request.config.rematLimit = rematLimitFor(trace.baseline, 2.0);
    return request;
}

void recordRun(benchmark::State &state, const char *name, double ratio)
{
    const LoadedPublicTrace *trace = loadPublicTrace(name);
    if (!trace) {
        state.SkipWithError("public trace not found (set REMATLENS_SHARED_DIR)");
        return;
    }
    std::size_t samples = 0;
    for (auto _ : state)
        samples = inspectRun(*trace->program, requestFor(*trace, ratio))->recording.samples.size();
    state.counters["samples"] = double(samples);
}

void showTimeline(benchmark::State &state, const char *name, double ratio)
{
    const LoadedPublicTrace *trace = loadPublicTrace(name);
    if (!trace) {
        state.SkipWithError("public trace not found (set REMATLENS_SHARED_DIR)");
        return;
    }
    // One chart for all iterations, as the window keeps one.
    QImage image(1600, 420, QImage::Format_ARGB32_Premultiplied);
    QGraphicsScene scene;
    auto *chart = new QChart;
    scene.addItem(chart);
    chart->setGeometry(QRectF(0, 0, image.width(), image.height()));
    TimelineChart timeline(chart, FigureStyle{});
    TimelinePlot plot;
    for (auto _ : state) {
        const auto run = inspectRun(*trace->program, requestFor(*trace, ratio));
        plot = TimelinePlot::build(trace->program, run, nullptr, TimelineAxis::Step);
        timeline.setPlot(&plot);
        timeline.showRange(0, plot.extent(), int(chart->plotArea().width()));
        QPainter painter(&image);
        scene.render(&painter);
    }
    timeline.setPlot(nullptr);
}

// What the cascade dock adds on the GUI thread once the recorded run arrives: building the
// cascade and laying it out with graphviz.
void layoutCascade(benchmark::State &state, const char *name, double ratio)
{
    const LoadedPublicTrace *trace = loadPublicTrace(name);
    if (!trace) {
        state.SkipWithError("public trace not found (set REMATLENS_SHARED_DIR)");
        return;
    }
    const RunRequest request = requestFor(*trace, ratio);
    const auto run = inspectRun(*trace->program, request);
    for (auto _ : state) {
        const CascadeDiagram diagram =
            CascadeDiagram::forRun(trace->program, request, run->result, run->recording, CascadeOptions{}, CascadeLook{});
        benchmark::DoNotOptimize(&diagram);
    }
}

void registerAll()
{
    for (const char *name : kPublicTraces) {
        if (!std::filesystem::exists(publicTracePath(name)))
            continue;
        const std::string shortName = shortTraceName(name);
        for (double ratio : {0.3, 0.5}) {
            const std::string suffix = shortName + "/" + std::to_string(ratio).substr(0, 3);
            benchmark::RegisterBenchmark(("record/" + suffix).c_str(), recordRun, name, ratio)
                ->Unit(benchmark::kMillisecond);
            benchmark::RegisterBenchmark(("select_to_timeline/" + suffix).c_str(), showTimeline, name, ratio)
                ->Unit(benchmark::kMillisecond);
            benchmark::RegisterBenchmark(("cascade_layout/" + suffix).c_str(), layoutCascade, name, ratio)
                ->Unit(benchmark::kMillisecond);
        }
    }
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv); // Qt Charts needs one
    registerAll();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
