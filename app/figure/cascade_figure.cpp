#include "cascade_figure.h"

#include "figure_output.h"

#include "app/cli/commands.h"
#include "core/sim/replay.h"
#include "views/cascade_diagram.h"
#include "views/cascade_view.h"

#include <QApplication>

namespace rematlens {

namespace {

// The one run the figure shows, as `rematlens run` would configure it.
RunOptions runOptionsFor(const FigureOptions &options)
{
    RunOptions run;
    run.trace = options.traces.front();
    run.ratio = options.ratio;
    run.budget = options.budget;
    run.policy = options.policies.empty() ? std::string("DTR") : options.policies.front();
    run.runtime = options.runtime;
    run.overheadLimit = options.overheadLimit;
    run.seed = options.seed;
    return run;
}

} // namespace

int runCascadeFigure(const FigureOptions &options)
{
    if (options.traces.size() != 1)
        return reportError(ExitBadUsage, "figure cascade draws one trace");
    if (!options.ratio && !options.budget)
        return reportError(ExitBadUsage, "figure cascade needs --ratio or --budget");
    if (options.policies.size() > 1)
        return reportError(ExitBadUsage, "figure cascade draws one run: give one --policy");
    const RunOptions run = runOptionsFor(options);
    if (!findPolicy(run.policy))
        return reportError(ExitBadUsage, "unknown policy \"" + run.policy + "\" (rematlens policies lists them)");
    const std::optional<LoadedTrace> loaded = loadWithBaseline(run.trace);
    if (!loaded)
        return ExitBadInput;
    RunRequest request;
    request.trace = loaded->name;
    if (const std::string problem = configureRun(run, *loaded, request); !problem.empty())
        return reportError(ExitBadUsage, problem);
    RunRecording recording;
    request.config.recording = &recording;
    const RunResult result = Replay(*loaded->program, request.config).run();
    request.config.recording = nullptr;

    const FigureStyle style = FigureOutput::style(options);
    CascadeView view;
    view.setDiagram(CascadeDiagram::forRun(loaded->program, request, result, recording, {},
                                           CascadeDiagram::figureOptions(style.fontSize)));
    // The page's width; the height the drawing needs at that width, unless one was given.
    QSizeF inches = FigureOutput::sizeInches(options, FigureHeights{});
    if (options.sizePreset != FigureOptions::SizePreset::Custom &&
        options.sizePreset != FigureOptions::SizePreset::Slide)
        inches.setHeight(view.diagram().preferredSize(inches.width() * 72).height() / 72);
    return FigureOutput::write(view, options, inches);
}

} // namespace rematlens
