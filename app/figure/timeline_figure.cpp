#include "timeline_figure.h"
#include "app/requests/request_reporter.h"
#include "app/requests/loaded_trace.h"

#include "figure_output.h"
#include "figure_run_request.h"
#include "single_run_figure.h"

#include "views/timeline/timeline_figure.h"

#include <thread>

namespace rematlens {

// The run and, with --compare-ratio, the budget drawn beside it, both replayed with a recorder
// at once, then drawn by the same TimelineChart as the window's timeline.
int runTimelineFigure(const FigureOptions &options)
{
    int exitCode = 0;
    const std::optional<SingleRunFigure> prepared = SingleRunFigure::prepare(options, "timeline", exitCode);
    if (!prepared)
        return exitCode;
    const LoadedTrace &trace = prepared->trace;
    const RunRequest &run = prepared->request;
    std::optional<RunRequest> comparison;
    if (options.compareRatio) {
        comparison.emplace();
        if (const std::string problem = figureRunRequest(options, trace, options.compareRatio, *comparison);
            !problem.empty())
            return reportError(ExitBadUsage, "--compare-ratio: " + problem);
    }
    std::shared_ptr<const InspectedRun> other;
    std::thread beside;
    if (comparison)
        beside = std::thread([&] { other = inspectRun(*trace.program, *comparison); });
    const std::shared_ptr<const InspectedRun> shown = inspectRun(*trace.program, run);
    if (beside.joinable())
        beside.join();
    const TimelineAxis axis = options.xAxis == FigureOptions::XAxis::Clock ? TimelineAxis::Clock : TimelineAxis::Step;
    const TimelineFigure figure(TimelinePlot::build(trace.program, shown, other, axis));
    return FigureOutput::write(figure, options, FigureOutput::sizeInches(options, FigureHeights{2.4, 2.6}));
}

} // namespace rematlens
