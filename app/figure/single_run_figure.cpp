#include "single_run_figure.h"
#include "app/requests/request_reporter.h"
#include "app/requests/loaded_trace.h"

#include "figure_run_request.h"

namespace rematlens {

std::optional<SingleRunFigure> SingleRunFigure::prepare(const FigureOptions &options, std::string_view kind,
                                                        int &exitCode)
{
    const std::string name = "figure " + std::string(kind);
    auto fail = [&](int code, const std::string &message) -> std::optional<SingleRunFigure> {
        exitCode = reportError(code, message);
        return std::nullopt;
    };
    if (options.traces.size() != 1)
        return fail(ExitBadUsage, name + " draws one trace");
    if (!options.ratio && !options.budget)
        return fail(ExitBadUsage, name + " needs --ratio or --budget");
    std::optional<LoadedTrace> loaded = loadWithBaseline(options.traces.front());
    if (!loaded) {
        exitCode = ExitBadInput; // loadWithBaseline has reported the file, line and problem
        return std::nullopt;
    }
    SingleRunFigure figure{std::move(*loaded), {}};
    if (const std::string problem = figureRunRequest(options, figure.trace, options.ratio, figure.request);
        !problem.empty())
        return fail(ExitBadUsage, problem);
    return figure;
}

} // namespace rematlens
