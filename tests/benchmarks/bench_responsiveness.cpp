// The longest time the window could not answer, per trace, over the scripted session of
// tst_responsiveness (open, sweep, select with the arrow keys, overlay, cascade, zoom, export,
// resize). The target is 50 ms on every public trace. Release build, offscreen:
//   QT_QPA_PLATFORM=offscreen build/release/bin/bench_responsiveness
#include "public_traces.h"

#include "../gui/responsiveness_script.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QTemporaryDir>

namespace {

rematlens::MainWindow *g_window = nullptr;

void longestStall(benchmark::State &state, std::string trace)
{
    double worst = 0;
    double busy = 0;
    double interactiveBusy = 0; // every step but writing figure files
    QString where;
    QString busiest;
    for (auto _ : state) {
        ResponsivenessScript script(*g_window);
        const ResponsivenessScript::Result result = script.run(QString::fromStdString(trace));
        if (!result.failure.isEmpty()) {
            state.SkipWithError(result.failure.toStdString().c_str());
            return;
        }
        if (result.longestStallMs > worst) {
            worst = result.longestStallMs;
            where = result.worstStep;
        }
        for (auto it = result.busyByStep.begin(); it != result.busyByStep.end(); ++it)
            if (!it.key().startsWith(QStringLiteral("export")))
                interactiveBusy = std::max(interactiveBusy, it.value());
        if (result.longestBusyMs > busy) {
            busy = result.longestBusyMs;
            busiest = result.busiestStep;
        }
    }
    state.counters["longest_stall_ms"] = worst;
    state.counters["longest_busy_ms"] = busy;
    state.counters["busy_but_export_ms"] = interactiveBusy;
    state.SetLabel(QString(QStringLiteral("stall: ") + where + QStringLiteral("; busy: ") + busiest).toStdString());
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QTemporaryDir scratch;
    const std::unique_ptr<rematlens::MainWindow> window = ResponsivenessScript::makeWindow(scratch);
    g_window = window.get();
    for (const char *name : kPublicTraces)
        benchmark::RegisterBenchmark(shortTraceName(name).c_str(), longestStall, publicTracePath(name))
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
