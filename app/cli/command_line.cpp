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

void addGridOptions(CLI::App *command, GridOptions &options)
{
    command->add_option("trace", options.trace, "Trace file (simrd JSON lines), or :demo")->required();
    command->add_option("--from", options.from, "Lowest budget ratio")->capture_default_str();
    command->add_option("--to", options.to, "Highest budget ratio")->capture_default_str();
    command->add_option("--step", options.step, "Grid step (ratios are exact decimals: from + k x step)")
        ->capture_default_str();
    command->add_option("--policy", options.policies, "Eviction policy (default DTR)");
    command->add_option("--runtime", options.runtime, "eager, lazy or banishing")->capture_default_str();
    command->add_option("--overhead-limit", options.overheadLimit, "Compute limit, as in run")->capture_default_str();
    command->add_option("--threads", options.threads, "Worker threads (default: every core)");
    command->add_option("--wall-limit", options.wallLimit,
                        "Seconds one replay may take; slower runs end as 'timeout' (unresolved)");
    command->add_option("--seed", options.seed, "Seed of random policies and of --samples")->capture_default_str();
}

void addSweep(CLI::App &app, SweepOptions &options)
{
    CLI::App *sweep = app.add_subcommand("sweep", "Replay every budget of a grid for one or more policies, in parallel");
    addGridOptions(sweep, options.grid);
    sweep->add_option("--out", options.outPath,
                      "Write records to FILE.jsonl or FILE.csv as they finish; rerunning resumes where it stopped");
    sweep->add_option("--shard", options.shard,
                      "Run only shard I of N (I from 0 to N-1; every Nth run, interleaved) into its own --out "
                      "file; join the shards with merge");
}

void addMerge(CLI::App &app, MergeOptions &options)
{
    CLI::App *merge = app.add_subcommand("merge", "Join the --out files of every shard of a sweep (sweep --shard I/N) "
                                                  "into the file the whole sweep writes, checking nothing is "
                                                  "missing or twice");
    merge->add_option("shards", options.shardPaths, "The shard files, one per shard, in any order")->required();
    merge->add_option("--out", options.outPath, "The joined file, FILE.jsonl or FILE.csv")->required();
}

void addHoles(CLI::App &app, HolesOptions &options)
{
    CLI::App *holes = app.add_subcommand("holes", "Find feasibility holes: failing budgets between passing ones");
    addGridOptions(holes, options.grid);
    holes->add_option("--repeats", options.repeats, "Replay every budget inside a hole K more times");
    holes->add_flag("--edges", options.edges, "Bisect every pass/fail boundary down to adjacent bytes");
    holes->add_option("--samples", options.samples, "K seeded random budgets inside each grid interval");
    holes->add_flag("--json", options.json, "Print JSON");
}

void addSynth(CLI::App &app, SynthCommandOptions &options)
{
    CLI::App *synth = app.add_subcommand("synth", "Generate a training-step trace of a model from a preset");
    synth->add_flag("--list", options.list, "List the presets");
    synth->add_option("--preset", options.preset, "chain, resnet, unet, transformer or lstm");
    synth->add_option("--layers", options.layers, "Layers (blocks, levels or time steps; preset default)");
    synth->add_option("--batch", options.batch, "Batch size (preset default)");
    synth->add_option("--seed", options.seed, "Seed: widths vary slightly with it")->capture_default_str();
    synth->add_option("--out", options.outPath, "Write the trace here (default: standard output)");
}

} // namespace

CommandLineOutcome runCommandLine(int argc, char **argv)
{
    CLI::App app{"RematLens: replay, sweep and explain memory-budgeted DTR training traces.\n"
                 "With no command it opens the GUI (on the embedded demo trace if no trace is given).",
                 "rematlens"};
    app.set_version_flag("--version", "rematlens 0.1.0");
    app.require_subcommand(0, 1);
    GuiOptions guiOptions;
    app.add_option("trace", guiOptions.trace, "Trace to open in the GUI");
    CLI::App *gui = app.add_subcommand("gui", "Open the GUI");
    std::string guiSubTrace;
    gui->add_option("trace", guiSubTrace, "Trace to open (default: the embedded demo)");
    gui->add_option("--sweep", guiOptions.sweep, "Sweep FROM:TO:STEP once the trace is read");
    gui->add_option("--policy", guiOptions.policies, "Policies of that sweep (default: the last ones used)");
    gui->add_option("--select", guiOptions.select, "Select the budget nearest this ratio after the sweep");
    gui->add_option("--screenshot", guiOptions.screenshot, "Render the whole window to this PNG and exit");
    gui->add_option("--size", guiOptions.size, "Window size for --screenshot, WIDTHxHEIGHT")->capture_default_str();
    InfoOptions info;
    RunOptions run;
    SweepOptions sweep;
    HolesOptions holes;
    addInfo(app, info);
    addRun(app, run);
    addSweep(app, sweep);
    addHoles(app, holes);
    MergeOptions merge;
    addMerge(app, merge);
    SynthCommandOptions synth;
    addSynth(app, synth);
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
    if (app.got_subcommand("sweep"))
        return {false, {}, runSweepCommand(sweep)};
    if (app.got_subcommand("holes"))
        return {false, {}, runHolesCommand(holes)};
    if (app.got_subcommand("merge"))
        return {false, {}, runMergeCommand(merge)};
    if (app.got_subcommand("synth"))
        return {false, {}, runSynthCommand(synth)};
    if (*policies)
        return {false, {}, runPoliciesCommand()};
    if (*gui)
        guiOptions.trace = guiSubTrace;
    return {true, guiOptions, ExitOk};
}

} // namespace rematlens
