#include "strip_figure_command.h"

#include "figure_output.h"
#include "strip_panel_set.h"

#include "app/requests/loaded_trace.h"
#include "app/requests/request_reporter.h"
#include "app/requests/request_settings.h"

namespace rematlens {

namespace {

// One strip is as tall as a line of text in a paper; small multiples add a row of panels each.
FigureHeights stripHeights(const StripFigure &figure, const FigureOptions &options)
{
    if (figure.panelCount() <= 1)
        return {};
    const FigureStyle style = FigureOutput::style(options);
    const auto rows = [&](double widthInches) { return figure.gridRows(widthInches * 72, style); };
    return {rows(FigureOutput::kSingleColumnWidth) * 1.45 + 0.55, rows(FigureOutput::kDoubleColumnWidth) * 1.5 + 0.5};
}

} // namespace

int runStripFigure(const FigureOptions &options)
{
    StripPanelSet panels;
    for (const std::string &trace : options.traces)
        if (const int status = panels.addSweep(trace, options); status != ExitOk)
            return status;
    for (const std::string &file : options.sweepFiles)
        if (const int status = panels.addSweepFile(file, options); status != ExitOk)
            return status;
    const StripFigure figure(panels.panels(options));
    return FigureOutput::write(figure, options, FigureOutput::sizeInches(options, stripHeights(figure, options)));
}

} // namespace rematlens
