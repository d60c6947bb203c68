#include "command_line.h"

#include "commands.h"

#include <CLI/CLI.hpp>

namespace rematlens {

namespace {

void addInfo(CLI::App &app, InfoOptions &options)
{
    CLI::App *info = app.add_subcommand("info", "Baseline memory, compute, constant memory, bottleneck and sizes");
    info->add_option("trace", options.trace, "Trace file (simrd JSON lines), or :demo")->required();
    info->add_flag("--json", options.json, "Print JSON");
}

void addRun(CLI::App &app, RunOptions &options)
{
    CLI::App *run = app.add_subcommand("run", "Replay the trace under one budget");
    run->add_option("trace", options.trace, "Trace file (simrd JSON lines), or :demo")->required();
    auto *ratio = run->add_option("--ratio", options.ratio, "Budget as a fraction of the baseline memory");
    auto *budget = run->add_option("--budget", options.budget, "Budget in bytes");
    ratio->excludes(budget);
    budget->excludes(ratio);
    run->add_option("--policy", options.policy, "Eviction policy (simrd name or alias; see 'policies')")
        ->capture_default_str();
    run->add_option("--runtime", options.runtime, "eager, lazy or banishing")->capture_default_str();
    run->add_option("--overhead-limit", options.overheadLimit,
                    "Stop as over the compute limit past this overhead (rematerialization compute above "
                    "baseline compute x (limit - 1))")
        ->capture_default_str();
    run->add_option("--seed", options.seed, "Seed of the random policies")->capture_default_str();
    run->add_option("--events", options.eventsPath, "Write evictions and rematerializations to this JSON-lines file");
    run->add_flag("--json", options.json, "Print the run's record as JSON");
    run->callback([run, ratio, budget] {
        if (ratio->count() == 0 && budget->count() == 0)
            throw CLI::RequiredError("--ratio or --budget");
        (void)run;
    });
}

} // namespace

CommandLineOutcome runCommandLine(int argc, char **argv)
{
    CLI::App app{"RematLens: replay, sweep and explain memory-budgeted DTR training traces.\n"
                 "With no command it opens the GUI (on the embedded demo trace if no trace is given).",
                 "rematlens"};
    app.set_version_flag("--version", "rematlens 0.1.0");
    app.require_subcommand(0, 1);
    std::string guiTrace;
    app.add_option("trace", guiTrace, "Trace to open in the GUI");
    CLI::App *gui = app.add_subcommand("gui", "Open the GUI");
    std::string guiSubTrace;
    gui->add_option("trace", guiSubTrace, "Trace to open (default: the embedded demo)");
    InfoOptions info;
    RunOptions run;
    addInfo(app, info);
    addRun(app, run);
    CLI::App *policies = app.add_subcommand("policies", "List the eviction policies");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return {false, {}, app.exit(e)};
    } catch (const CLI::CallForAllHelp &e) {
        return {false, {}, app.exit(e)};
    } catch (const CLI::CallForVersion &e) {
        return {false, {}, app.exit(e)};
    } catch (const CLI::ParseError &e) {
        app.exit(e);
        return {false, {}, ExitBadUsage};
    }
    if (app.got_subcommand("info"))
        return {false, {}, runInfoCommand(info)};
    if (app.got_subcommand("run"))
        return {false, {}, runRunCommand(run)};
    if (*policies)
        return {false, {}, runPoliciesCommand()};
    return {true, *gui ? guiSubTrace : guiTrace, ExitOk};
}

} // namespace rematlens
