// What a public trace's bundled map costs the window: building the row off the GUI thread
// (sort and summary), then on the GUI thread rebuilding the Holes table and painting the strip
// once at 1000 x 220 pixels, unzoomed over 0.10-1.00 (where the LSTM's 207 holes and the
// InceptionV4 map's 124,779 intervals share a few hundred pixels).
#include "app/formats/bundled_map_reader.h"
#include "core/sweep/sweep_plan.h"
#include "views/figure/figure_style.h"
#include "views/strip/strip_figure.h"
#include "views/tables/exact_map_model.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/sweep_result_model.h"

#include "public_traces.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <benchmark/benchmark.h>

using namespace rematlens;

namespace {

struct MappedStrip {
    SweepResultModel sweep;
    HoleListModel holes;
    ExactMapModel maps;
    BundledMap map;
};

// The trace's DTR row over 0.10-1.00 at 0.01, with its bundled map; null without either.
std::unique_ptr<MappedStrip> mappedStrip(const char *name)
{
    const LoadedPublicTrace *trace = loadPublicTrace(name);
    const std::string path = std::string(REMATLENS_SOURCE_DIR "/atlas/maps/") + shortTraceName(name) + ".jsonl.gz";
    std::string error;
    std::optional<BundledMap> map = BundledMapReader::read(path, error);
    if (!trace || !map || map->rows.empty())
        return nullptr;
    auto strip = std::make_unique<MappedStrip>();
    strip->map = std::move(*map);
    std::vector<GridPoint> grid = *DecimalGrid::make("0.10", "1.00", "0.01", error);
    SweepSettings settings;
    settings.policies = {*findPolicy("DTR")};
    std::vector<RunRequest> requests = planSweep(settings, trace->baseline, grid);
    strip->sweep.reset(trace->baseline, grid, std::move(requests), 1, 2.0);
    return strip;
}

void buildRow(benchmark::State &state, const char *name)
{
    const std::unique_ptr<MappedStrip> strip = mappedStrip(name);
    if (!strip) {
        state.SkipWithError("public trace or bundled map not found (set REMATLENS_SHARED_DIR)");
        return;
    }
    for (auto _ : state) {
        const MappedRow row = MappedRow::merged(nullptr, strip->map.range, strip->map.rows.front().intervals);
        benchmark::DoNotOptimize(row.summary.holes.size());
    }
    state.counters["intervals"] = double(strip->map.rows.front().intervals.size());
}

void paintStrip(benchmark::State &state, const char *name)
{
    const std::unique_ptr<MappedStrip> strip = mappedStrip(name);
    if (!strip) {
        state.SkipWithError("public trace or bundled map not found (set REMATLENS_SHARED_DIR)");
        return;
    }
    const QString key = ExactMapModel::keyOf(strip->sweep.request(0, 0));
    strip->maps.add(key, strip->map.range, strip->map.rows.front().intervals);
    const StripFigure figure({StripFigure::Panel{QString(), &strip->sweep, &strip->holes, 0, 0, &strip->maps, nullptr}});
    QImage image(1000, 220, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        strip->holes.rebuild(strip->sweep, &strip->maps);
        QPainter painter(&image);
        painter.fillRect(image.rect(), Qt::white);
        figure.paintFigure(painter, QRectF(image.rect()), FigureStyle{});
    }
    state.counters["holes"] = double(strip->holes.rowCount());
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    for (const char *trace : kPublicTraces) {
        benchmark::RegisterBenchmark(("build_row/" + shortTraceName(trace)).c_str(), buildRow, trace)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("paint_strip/" + shortTraceName(trace)).c_str(), paintStrip, trace)
            ->Unit(benchmark::kMillisecond);
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
