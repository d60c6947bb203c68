#include "app/requests/sweep_request.h"

#include "app/reports/run_report.h"
#include "app/requests/progress_bar.h"
#include "app/requests/request_settings.h"

#include "core/sweep/sweep_plan.h"
#include "core/sweep/sweep_runner.h"

namespace rematlens {

namespace {

// The grid's runs, one row per allocator model; an error message on bad usage.
std::string planRows(const GridOptions &options, const LoadedTrace &trace, std::vector<RunRequest> &plan)
{
    SweepSettings settings;
    std::vector<GridPoint> grid;
    if (std::string problem = prepareGrid(options, settings, grid); !problem.empty())
        return problem;
    std::vector<AllocatorConfig> models;
    if (std::string problem = resolveAllocatorRows(options.allocator, models); !problem.empty())
        return problem;
    settings.trace = trace.name;
    if (std::string problem = applyKeep(options.keep, *trace.program, settings); !problem.empty())
        return problem;
    plan = planSweepRows(settings, trace.baseline, grid, models);
    return {};
}

} // namespace

SweepExecution executeSweep(const GridOptions &options)
{
    SweepExecution sweep;
    {   // Usage problems that need no trace are reported before reading it.
        SweepSettings settings;
        std::vector<GridPoint> grid;
        if (std::string problem = prepareGrid(options, settings, grid); !problem.empty()) {
            sweep.outcome = RequestOutcome::failed(reportError(ExitBadUsage, problem));
            return sweep;
        }
    }
    sweep.trace = loadWithBaseline(options.trace);
    if (!sweep.trace) {
        sweep.outcome = RequestOutcome::failed(ExitBadInput);
        return sweep;
    }
    std::vector<RunRequest> plan;
    if (std::string problem = planRows(options, *sweep.trace, plan); !problem.empty()) {
        sweep.outcome = RequestOutcome::failed(reportError(ExitBadUsage, problem));
        return sweep;
    }
    sweep.planned = plan.size();
    SweepRunner runner(sweep.trace->program, options.threads);
    runner.setWallLimit(options.wallLimit);
    std::vector<std::optional<nlohmann::ordered_json>> records(plan.size());
    ProgressBar bar("sweep", plan.size());
    std::size_t done = 0;
    runner.run(plan, &interruptRequested(), [&](std::size_t i, const RunResult &result) {
        if (result.outcome != Outcome::Cancelled)
            records[i] = runToJson(plan[i], result, sweep.trace->baseline);
        bar.advance(++done);
    });
    bar.finish();
    for (std::optional<nlohmann::ordered_json> &record : records)
        if (record)
            sweep.records.push_back(std::move(*record));
    sweep.interrupted = interruptRequested() && sweep.records.size() < plan.size();
    if (sweep.interrupted)
        sweep.outcome.status = ExitInterrupted;
    return sweep;
}

} // namespace rematlens
