#include "cascade_figure.h"

#include "figure_output.h"
#include "figure_run_request.h"

#include "core/sim/replay.h"
#include "views/cascade/cascade_diagram.h"
#include "views/cascade/cascade_view.h"

namespace rematlens {

int runCascadeFigure(const FigureOptions &options)
{
    if (options.traces.size() != 1)
        return reportError(ExitBadUsage, "figure cascade draws one trace");
    if (!options.ratio && !options.budget)
        return reportError(ExitBadUsage, "figure cascade needs --ratio or --budget");
    const std::optional<LoadedTrace> loaded = loadWithBaseline(options.traces.front());
    if (!loaded)
        return ExitBadInput;
    RunRequest request;
    if (const std::string problem = figureRunRequest(options, *loaded, options.ratio, request); !problem.empty())
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
