#include "timeline_figure.h"

#include "figure_output.h"
#include "figure_run_request.h"

#include "views/timeline/timeline_figure.h"

#include <thread>

namespace rematlens {

// The run and, with --compare-ratio, the budget drawn beside it, both replayed with a recorder
// at once, then drawn by the same TimelineChart as the window's timeline.
int runTimelineFigure(const FigureOptions &options)
{
    if (options.traces.size() != 1)
        return reportError(ExitBadUsage, "figure timeline takes one trace");
    const std::optional<LoadedTrace> trace = loadWithBaseline(options.traces.front());
    if (!trace)
        return ExitBadInput;
    RunRequest run;
    if (const std::string problem = figureRunRequest(options, *trace, options.ratio, run); !problem.empty())
        return reportError(ExitBadUsage, problem);
    std::optional<RunRequest> comparison;
    if (options.compareRatio) {
        comparison.emplace();
        if (const std::string problem = figureRunRequest(options, *trace, options.compareRatio, *comparison);
            !problem.empty())
            return reportError(ExitBadUsage, "--compare-ratio: " + problem);
    }
    std::shared_ptr<const InspectedRun> other;
    std::thread beside;
    if (comparison)
        beside = std::thread([&] { other = inspectRun(*trace->program, *comparison); });
    const std::shared_ptr<const InspectedRun> shown = inspectRun(*trace->program, run);
    if (beside.joinable())
        beside.join();
    const TimelineAxis axis = options.xAxis == FigureOptions::XAxis::Clock ? TimelineAxis::Clock : TimelineAxis::Step;
    const TimelineFigure figure(TimelinePlot::build(trace->program, shown, other, axis));
    return FigureOutput::write(figure, options, FigureOutput::sizeInches(options, FigureHeights{2.4, 2.6}));
}

} // namespace rematlens
