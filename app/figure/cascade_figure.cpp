#include "cascade_figure.h"
#include "app/requests/loaded_trace.h"

#include "figure_output.h"
#include "single_run_figure.h"

#include "core/sim/replay.h"
#include "views/cascade/cascade_diagram.h"
#include "views/cascade/cascade_view.h"

namespace rematlens {

int runCascadeFigure(const FigureOptions &options)
{
    int exitCode = 0;
    std::optional<SingleRunFigure> prepared = SingleRunFigure::prepare(options, "cascade", exitCode);
    if (!prepared)
        return exitCode;
    const LoadedTrace &loaded = prepared->trace;
    RunRequest &request = prepared->request;
    RunRecording recording;
    request.config.recording = &recording;
    const RunResult result = Replay(*loaded.program, request.config).run();
    request.config.recording = nullptr;

    const FigureStyle style = FigureOutput::style(options);
    CascadeView view;
    view.setDiagram(CascadeDiagram::forRun(loaded.program, request, result, recording, {},
                                           CascadeDiagram::figureOptions(style.fontSize)));
    // The page's width; the height the drawing needs at that width, unless one was given.
    QSizeF inches = FigureOutput::sizeInches(options, FigureHeights{});
    if (options.sizePreset != FigureOptions::SizePreset::Custom &&
        options.sizePreset != FigureOptions::SizePreset::Slide)
        inches.setHeight(view.diagram().preferredSize(inches.width() * 72).height() / 72);
    return FigureOutput::write(view, options, inches);
}

} // namespace rematlens
