// rematlens sweep: every (policy, budget) of a grid, in parallel, written as runs finish.
#include "commands.h"
#include "interrupt.h"
#include "progress_bar.h"
#include "run_report.h"
#include "sweep_file.h"

#include "core/sweep/sweep_plan.h"
#include "core/sweep/sweep_runner.h"

#include <chrono>
#include <iostream>
#include <map>

namespace rematlens {

// Validates everything that needs no trace; fills settings and grid.
std::string prepareGrid(const GridOptions &options, SweepSettings &settings, std::vector<GridPoint> &grid)
{
    std::string error;
    const std::vector<std::string> names = options.policies.empty() ? std::vector<std::string>{"DTR"} : options.policies;
    std::optional<std::vector<Policy>> policies = resolvePolicies(names, error);
    if (!policies)
        return error;
    std::optional<RuntimeKind> runtime = resolveRuntime(options.runtime, error);
    if (!runtime)
        return error;
    std::optional<double> overhead = resolveOverheadLimit(options.overheadLimit, error);
    if (!overhead)
        return error;
    std::optional<std::vector<GridPoint>> points = DecimalGrid::make(options.from, options.to, options.step, error);
    if (!points)
        return error;
    if (options.wallLimit && !(*options.wallLimit > 0))
        return "--wall-limit expects a positive number of seconds";
    settings.policies = std::move(*policies);
    settings.runtime = *runtime;
    settings.overheadLimit = *overhead;
    settings.seed = options.seed;
    grid = std::move(*points);
    for (const Policy &policy : settings.policies) {
        RunConfig probe;
        probe.policy = policy;
        probe.runtime = settings.runtime;
        if (const std::string problem = configProblem(probe); !problem.empty())
            return problem;
    }
    return {};
}

std::string applyKeep(const std::vector<std::string> &names, const Program &program, SweepSettings &settings)
{
    std::string error;
    std::optional<std::vector<TensorId>> kept = resolveKeep(names, program, error);
    if (!kept)
        return error;
    settings.keepResident = std::move(*kept);
    settings.keep.clear();
    for (TensorId t : settings.keepResident)
        settings.keep.push_back(program.tensors[t].name);
    return {};
}

int runSweepCommand(const SweepOptions &options)
{
    SweepSettings settings;
    std::vector<GridPoint> grid;
    if (const std::string problem = prepareGrid(options.grid, settings, grid); !problem.empty())
        return reportError(ExitBadUsage, problem);
    if (!options.outPath.empty() && !SweepFile::formatFor(options.outPath))
        return reportError(ExitBadUsage, "--out expects a .jsonl or .csv file, got " + options.outPath);
    const std::optional<LoadedTrace> loaded = loadWithBaseline(options.grid.trace);
    if (!loaded)
        return ExitBadInput;
    settings.trace = loaded->name;
    if (const std::string problem = applyKeep(options.grid.keep, *loaded->program, settings); !problem.empty())
        return reportError(ExitBadUsage, problem);
    if (!settings.keep.empty() && SweepFile::formatFor(options.outPath) == SweepFile::Format::Csv)
        return reportError(ExitBadUsage, "--keep with --out needs a .jsonl file (CSV records have no keep column)");

    SweepFile file;
    std::string error;
    if (!options.outPath.empty() && !file.open(options.outPath, error))
        return reportError(ExitBadInput, error);
    std::vector<RunRequest> todo;
    for (RunRequest &request : planSweep(settings, loaded->baseline, grid))
        if (!file.contains(SweepFile::keyFor(request)))
            todo.push_back(std::move(request));
    const std::size_t skipped = settings.policies.size() * grid.size() - todo.size();

    watchInterrupts();
    ProgressBar bar("sweep", todo.size());
    SweepRunner runner(loaded->program, options.grid.threads);
    runner.setWallLimit(options.grid.wallLimit);
    std::size_t written = 0;
    std::map<std::string, std::size_t> outcomes;
    bool writeFailed = false;
    const auto started = std::chrono::steady_clock::now();
    runner.run(todo, &interruptRequested(), [&](std::size_t i, const RunResult &result) {
        if (result.outcome == Outcome::Cancelled || writeFailed)
            return;
        const nlohmann::ordered_json record = runToJson(todo[i], result, loaded->baseline);
        if (options.outPath.empty())
            std::cout << record.dump() << '\n' << std::flush;
        else if (!file.append(record, error))
            writeFailed = true;
        ++outcomes[std::string(outcomeName(result.outcome))];
        bar.advance(++written);
    });
    bar.finish();
    if (writeFailed)
        return reportError(ExitBadInput, error);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::string tally;
    for (const auto &[name, count] : outcomes)
        tally += (tally.empty() ? "" : ", ") + std::to_string(count) + " " + name;
    std::cerr << "sweep: " << written << " runs in " << seconds << " s on " << runner.threads() << " threads"
              << (tally.empty() ? "" : " (" + tally + ")")
              << (skipped ? ", " + std::to_string(skipped) + " already in " + options.outPath : "") << std::endl;
    if (interruptRequested()) {
        std::cerr << "sweep: interrupted; " << todo.size() - written
                  << " runs left. Rerun the same command to resume." << std::endl;
        return ExitInterrupted;
    }
    if (!options.outPath.empty() && !file.finish(error))
        return reportError(ExitBadInput, error);
    return ExitOk;
}

} // namespace rematlens
