#include "memory_map_figure_command.h"
#include "app/requests/request_reporter.h"
#include "app/requests/loaded_trace.h"

#include "figure_output.h"
#include "single_run_figure.h"

#include "core/analysis/inspected_run.h"
#include "core/analysis/memory_snapshot_at.h"
#include "views/memory/memory_map_figure.h"

namespace rematlens {

namespace {

// The step asked for, or the default one, which needs the run recorded once.
std::optional<std::size_t> stepToShow(const FigureOptions &options, const Program &program, const RunRequest &request,
                                      std::string &error)
{
    if (options.mapStep) {
        if (std::size_t(*options.mapStep) >= program.schedule.size()) {
            error = "--step " + std::to_string(*options.mapStep) + " is past the schedule's last step " +
                    std::to_string(program.schedule.size() - 1);
            return std::nullopt;
        }
        return std::size_t(*options.mapStep);
    }
    const std::shared_ptr<const InspectedRun> run = inspectRun(program, request);
    const std::optional<std::size_t> step = defaultSnapshotStep(run->recording, run->result);
    if (!step)
        error = "the run made no allocation to show";
    return step;
}

} // namespace

int runMemoryMapFigure(const FigureOptions &options)
{
    int exitCode = 0;
    const std::optional<SingleRunFigure> prepared = SingleRunFigure::prepare(options, "memory-map", exitCode);
    if (!prepared)
        return exitCode;
    const LoadedTrace &loaded = prepared->trace;
    const RunRequest &request = prepared->request;
    if (request.config.allocator.isSum())
        return reportError(ExitBadUsage, "figure memory-map needs an allocator model (--allocator caching or "
                                         "best-fit): the byte sum counts bytes and has no addresses");
    std::string error;
    const std::optional<std::size_t> step = stepToShow(options, *loaded.program, request, error);
    if (!step)
        return reportError(ExitBadUsage, error);
    auto plot = std::make_shared<MemoryMapPlot>();
    plot->program = loaded.program;
    plot->request = request;
    plot->snapshot = snapshotAtStep(*loaded.program, request, *step);
    if (!plot->snapshot)
        return reportError(ExitBadInput, "the run ended before step " + std::to_string(*step));
    const MemoryMapFigure figure(std::move(plot));
    return FigureOutput::write(figure, options, FigureOutput::sizeInches(options, FigureHeights{2.6, 3.0}));
}

} // namespace rematlens
