#include "hole_anatomy_figure_command.h"
#include "app/requests/request_reporter.h"
#include "app/requests/loaded_trace.h"

#include "figure_output.h"
#include "single_run_figure.h"

#include "app/reports/hole_report.h"
#include "core/analysis/hole_anatomy.h"
#include "core/analysis/inspected_run.h"
#include "core/map/budget_walker.h"
#include "core/sweep/sweep_runner.h"
#include "views/timeline/hole_anatomy_figure.h"

namespace rematlens {

int runHoleAnatomyFigure(const FigureOptions &options)
{
    int exitCode = 0;
    const std::optional<SingleRunFigure> prepared = SingleRunFigure::prepare(options, "hole-anatomy", exitCode);
    if (!prepared)
        return exitCode;
    const LoadedTrace &trace = prepared->trace;
    const RunRequest &request = prepared->request;
    if (const std::string problem = mapProblem(request.config); !problem.empty())
        return reportError(ExitBadUsage, "figure hole-anatomy: " + problem);
    const SweepRunner runner(trace.program, options.threads);
    const HoleAnatomist anatomist(runner, trace.baseline, request);
    const HoleAnatomist::Located located = anatomist.locate(request.config.budget);
    if (!located.hole)
        return reportError(ExitBadUsage, "figure hole-anatomy: " + located.problem);
    AnatomyOptions quick;
    quick.rescue = false; // the figure draws no rescue
    const Bytes firstFail = located.hole->first;
    const EdgeStory lower = anatomist.tell(firstFail - 1, firstFail, quick);
    const auto plotAt = [&](Bytes budget) {
        return std::make_shared<const TimelinePlot>(TimelinePlot::build(
            trace.program, inspectRun(*trace.program, anatomist.at(budget)), nullptr, TimelineAxis::Step));
    };
    HoleAnatomyFigure figure;
    figure.setContent(plotAt(firstFail - 1), plotAt(firstFail), HoleAnatomyFigure::momentsOf(lower, *trace.program),
                      QStringLiteral("Hole anatomy of %1 at %2")
                          .arg(QString::fromStdString(request.config.policy.name),
                               QString::fromStdString(budgetText(firstFail, trace.baseline))));
    return FigureOutput::write(figure, options, FigureOutput::sizeInches(options, FigureHeights{4.0, 4.2}));
}

} // namespace rematlens
