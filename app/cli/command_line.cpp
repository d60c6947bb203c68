#include "command_line.h"
#include "app/requests/request_reporter.h"
#include "app/requests/loaded_trace.h"
#include "app/requests/run_options.h"
#include "app/requests/grid_options.h"

#include "app/requests/terminal_reporter.h"

#include "commands.h"
#include "app/formats/provenance.h"

#include <CLI/CLI.hpp>

namespace rematlens {

namespace {

// Figure options given as words, turned into FigureOptions once parsed.
struct FigureTexts {
    std::string size = "double";
    std::string palette = "default";
    std::string units = "binary";
    std::string xAxis = "step";
    std::vector<std::string> moreTraces;
};

// How the budget meets memory: the byte sum or an allocator model, and how eviction couples to it.
// With severalModels, --allocator may be given more than once (or as a comma list): one strip
// row per policy and model.
void addAllocatorOptions(CLI::App *command, AllocatorOptions &options, bool severalModels = false)
{
    const std::string help = "sum (live bytes, as simrd counts), caching (PyTorch's CUDA caching allocator) or "
                             "best-fit (one arena of the budget)";
    if (severalModels)
        command
            ->add_option_function<std::vector<std::string>>(
                "--allocator",
                [&options](const std::vector<std::string> &models) {
                    options.models = models;
                    options.allocator = models.front();
                },
                help + "; repeat it (or give a comma list) for one row per policy and model")
            ->delimiter(',');
    else
        command->add_option("--allocator", options.allocator, help)->capture_default_str();
    command->add_option("--eviction", options.eviction,
                        "With caching or best-fit: on-failure (default; the budget is the device, a failed "
                        "allocation releases the cache, then evicts and retries) or after-op (DTR's prototype: "
                        "evict after each operator while allocated bytes exceed the budget)");
    command->add_option("--capacity", options.capacity,
                        "With --eviction after-op: the device's bytes; an allocation that cannot be placed in "
                        "them fails the run (default: unlimited)");
    command->add_option("--alloc-option", options.options,
                        "With caching, KEY=VALUE (repeatable): max_split_size_mb=N, roundup_power2_divisions=N, "
                        "expandable_segments=true|false")
        ->allow_extra_args(false);
}

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
    run->add_option("--policy", options.policy,
                    "Eviction policy: a name or alias, DTRPenalty:b=NUMBER or expr:FORMULA (see 'policies')")
        ->capture_default_str();
    run->add_option("--runtime", options.runtime, "eager, lazy or banishing")->capture_default_str();
    run->add_option("--overhead-limit", options.overheadLimit,
                    "Stop as over the compute limit past this overhead (rematerialization compute above "
                    "baseline compute x (limit - 1))")
        ->capture_default_str();
    run->add_option("--seed", options.seed, "Seed of the random policies")->capture_default_str();
    run->add_option("--keep", options.keep,
                    "Keep this tensor's storage resident: never offered to the policy "
                    "(repeatable; names as in the trace)")
        ->allow_extra_args(false);
    addAllocatorOptions(run, options.allocator);
    run->add_option("--events", options.eventsPath, "Write evictions and rematerializations to this JSON-lines file");
    run->add_flag("--json", options.json, "Print the run's record as JSON");
    run->callback([run, ratio, budget] {
        if (ratio->count() == 0 && budget->count() == 0)
            throw CLI::RequiredError("--ratio or --budget");
        (void)run;
    });
}

// The options that configure one run, shared by run, diff and rescue.
void addRunConfigOptions(CLI::App *command, RunOptions &options)
{
    command->add_option("trace", options.trace, "Trace file (simrd JSON lines), or :demo")->required();
    command->add_option("--policy", options.policy, "Eviction policy (simrd name or alias; see 'policies')")
        ->capture_default_str();
    command->add_option("--runtime", options.runtime, "eager, lazy or banishing")->capture_default_str();
    command->add_option("--overhead-limit", options.overheadLimit, "Compute limit, as in run")->capture_default_str();
    command->add_option("--seed", options.seed, "Seed of the random policies")->capture_default_str();
    command->add_option("--keep", options.keep, "Keep this tensor's storage resident (repeatable), as in run")
        ->allow_extra_args(false);
    addAllocatorOptions(command, options.allocator);
}

void addDiff(CLI::App &app, DiffOptions &options)
{
    CLI::App *diff = app.add_subcommand("diff", "Where the evictions and rematerializations of two budgets separate");
    addRunConfigOptions(diff, options.run);
    diff->add_option("--ratio", options.ratios, "Budget ratio; give it twice (A, then B)")
        ->required()
        ->allow_extra_args(false);
    diff->add_option("--threshold", options.lockedThreshold,
                     "Report the first step where locked bytes differ by more than this many bytes")
        ->capture_default_str();
    diff->add_flag("--json", options.json, "Print JSON");
}

void addRescue(CLI::App &app, RescueOptions &options)
{
    CLI::App *rescue = app.add_subcommand(
        "rescue", "Try keeping each storage a failing run evicted resident; list those that make it pass");
    addRunConfigOptions(rescue, options.run);
    rescue->add_option("--ratio", options.run.ratio, "Budget as a fraction of the baseline memory")->required();
    rescue->add_option("--threads", options.threads, "Worker threads (default: every core)");
    rescue->add_flag("--json", options.json, "Print JSON");
}

void addExplain(CLI::App &app, ExplainOptions &options)
{
    CLI::App *explain = app.add_subcommand(
        "explain", "Why a hole exists: both its edges told (the avoided eviction, what it changed, the failure, the "
                   "rescue); given a map file, every hole of it classified by mechanism");
    addRunConfigOptions(explain, options.run);
    explain->add_option("--ratio", options.ratios, "A budget inside the hole; twice: a passing and a failing budget")
        ->allow_extra_args(false);
    explain->add_option("--budget", options.budgets, "The same in bytes")->allow_extra_args(false);
    explain->add_option("--hole", options.hole, "The K-th hole of the map (from 1)");
    explain->add_option("--map", options.mapPath, "A map written by map --out (FILE.jsonl) holding the hole");
    explain->add_option("--trace", options.tracePath, "A map file's trace (default: the provenance's, beside it)");
    explain->add_flag("--rescue", options.rescueOn, "Run the rescue search at each failing budget (the default for "
                                                    "one hole; for every hole of a map it is off)");
    explain->add_flag("--no-rescue", options.rescueOff, "Skip the rescue searches");
    explain->add_flag("--pair-only", options.pairOnly,
                      "With two budgets: tell their story only, without walking the hole to its exact edges");
    explain->add_option("--threads", options.threads, "Worker threads (default: every core)");
    explain->add_flag("--json", options.json, "Print JSON with every number");
}

void addGridOptions(CLI::App *command, GridOptions &options)
{
    command->add_option("trace", options.trace, "Trace file (simrd JSON lines), or :demo")->required();
    command->add_option("--from", options.from, "Lowest budget ratio")->capture_default_str();
    command->add_option("--to", options.to, "Highest budget ratio")->capture_default_str();
    command->add_option("--step", options.step, "Grid step (ratios are exact decimals: from + k x step)")
        ->capture_default_str();
    command->add_option("--policy", options.policies,
                        "Eviction policy (default DTR): a name, DTRPenalty:b=NUMBER or expr:FORMULA; see 'policies'");
    command->add_option("--runtime", options.runtime, "eager, lazy or banishing")->capture_default_str();
    command->add_option("--overhead-limit", options.overheadLimit, "Compute limit, as in run")->capture_default_str();
    command->add_option("--threads", options.threads, "Worker threads (default: every core)");
    command->add_option("--wall-limit", options.wallLimit,
                        "Seconds one replay may take; slower runs end as 'timeout' (unresolved)");
    command->add_option("--seed", options.seed, "Seed of random policies and of --samples")->capture_default_str();
    command->add_option("--keep", options.keep, "Keep this tensor's storage resident (repeatable), as in run")
        ->allow_extra_args(false);
    addAllocatorOptions(command, options.allocator);
}

void addSweep(CLI::App &app, SweepOptions &options)
{
    CLI::App *sweep =
        app.add_subcommand("sweep", "Replay every budget of a grid for one or more policies, in parallel");
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

void addConfirm(CLI::App &app, ConfirmOptions &options)
{
    CLI::App *confirm = app.add_subcommand("confirm", "Write (and, given simrd, run) a Python script that replays a "
                                                      "results file's records with unmodified simrd and compares "
                                                      "every field");
    confirm->add_option("file", options.resultsPath, "A results file: sweep, compare, merge or holes --out")->required();
    confirm->add_option("--simrd", options.simrdDir, "The folder holding simrd's Python package (default: $SIMRD)");
    confirm->add_option("--only", options.only, "holes: only the runs that make holes and their passing neighbours; "
                                                "all: every record")
        ->capture_default_str();
    confirm->add_option("--repeats", options.repeats, "Replay each record K times with simrd")->capture_default_str();
    confirm->add_option("--script", options.scriptPath, "Where to write the script (default: FILE.confirm.py)");
    confirm->add_option("--trace", options.tracePath, "The trace (default: the provenance's, beside FILE)");
}

void addVerify(CLI::App &app, VerifyOptions &options)
{
    CLI::App *verify = app.add_subcommand("verify", "Replay a seeded sample of a results file's records with "
                                                    "RematLens again and report any difference");
    verify->add_option("file", options.resultsPath, "A results file: sweep, compare, merge or holes --out")->required();
    verify->add_option("--samples", options.samples, "How many records to replay")->capture_default_str();
    verify->add_option("--seed", options.seed, "Seed of the sample")->capture_default_str();
    verify->add_option("--trace", options.tracePath, "The trace (default: the provenance's, beside FILE)");
}

void addMap(CLI::App &app, MapOptions &options)
{
    CLI::App *map = app.add_subcommand("map", "Classify every budget byte of a range exactly: the intervals of budgets "
                                              "that replay identically, holes to the byte, every edge explained");
    map->add_option("trace", options.trace, "Trace file (simrd JSON lines), or :demo")->required();
    auto *from = map->add_option("--from", options.from, "Lowest budget ratio");
    auto *to = map->add_option("--to", options.to, "Highest budget ratio (mapped inclusive)");
    auto *fromBytes = map->add_option("--from-bytes", options.fromBytes, "Lowest budget in bytes");
    auto *toBytes = map->add_option("--to-bytes", options.toBytes, "Highest budget in bytes (mapped inclusive)");
    from->excludes(fromBytes)->excludes(toBytes);
    to->excludes(fromBytes)->excludes(toBytes);
    map->add_option("--policy", options.policies,
                    "Eviction policy (default DTR; repeatable): a name, DTRPenalty:b=NUMBER or expr:FORMULA");
    map->add_option("--runtime", options.runtime, "eager, lazy or banishing")->capture_default_str();
    map->add_option("--overhead-limit", options.overheadLimit, "Compute limit, as in run")->capture_default_str();
    map->add_option("--seed", options.seed, "Seed of the random policies")->capture_default_str();
    map->add_option("--keep", options.keep, "Keep this tensor's storage resident (repeatable), as in run")
        ->allow_extra_args(false);
    addAllocatorOptions(map, options.allocator);
    map->add_option("--threads", options.threads, "Worker threads (default: every core)");
    map->add_option("--wall-limit", options.wallLimit,
                    "Seconds one replay may take; the rest of its chunk is left unmapped (never guessed)");
    map->add_option("--out", options.outPath,
                    "Append one record per interval to FILE.jsonl as they finish; rerunning resumes where it stopped");
    map->add_option("--shard", options.shard,
                    "Map only shard I of N (I from 0 to N-1; the range cut in 64N pieces, piece k is shard k mod N's) "
                    "into its own --out file; join the shards with merge");
    map->add_flag("--summary-only", options.summaryOnly,
                  "Replay nothing: summarise what --out holds over the range, the rest listed as unmapped "
                  "(for reports on a map still being extended)");
    map->add_flag("--json", options.json, "Print JSON (with every interval's record when there is no --out)");
}

void addHoles(CLI::App &app, HolesOptions &options)
{
    CLI::App *holes = app.add_subcommand("holes", "Find feasibility holes: failing budgets between passing ones");
    addGridOptions(holes, options.grid);
    holes->add_option("--repeats", options.repeats, "Replay every budget inside a hole K more times");
    holes->add_option("--out", options.outPath,
                      "Also write the report to FILE.jsonl: its provenance, then the report as with --json");
    holes->add_flag("--edges", options.edges, "Bisect every pass/fail boundary down to adjacent bytes");
    holes->add_option("--samples", options.samples, "K seeded random budgets inside each grid interval");
    holes->add_flag("--exact", options.exact,
                    "Map every byte of --from..--to exactly (as map does; --step is not used) and report its holes");
    holes->add_flag("--json", options.json, "Print JSON");
}

void addCompare(CLI::App &app, CompareOptions &options)
{
    CLI::App *compare = app.add_subcommand(
        "compare", "Compare policies over one budget grid: feasibility, and overhead against the first --policy");
    addGridOptions(compare, options.grid);
    compare->add_option("--out", options.outPath,
                        "Also write every run's record to FILE.jsonl or FILE.csv as it finishes; rerunning resumes");
    compare->add_flag("--json", options.json, "Print JSON");
}

// optimal and checkpoint share their shape: one ratio or a grid of them.
CLI::App *addScheduleCommand(CLI::App &app, const std::string &name, const std::string &description,
                             ScheduleOptions &options)
{
    CLI::App *command = app.add_subcommand(name, description);
    command->add_option("trace", options.trace, "Trace file (simrd JSON lines), or :demo")->required();
    auto *ratio = command->add_option("--ratio", options.ratio, "Budget as a fraction of the baseline memory");
    auto *from = command->add_option("--from", options.from, "Lowest budget ratio of a grid");
    auto *to = command->add_option("--to", options.to, "Highest budget ratio of a grid");
    auto *step = command->add_option("--step", options.step, "Grid step (ratios are exact decimals)");
    for (CLI::Option *o : {from, to, step})
        ratio->excludes(o);
    from->needs(to)->needs(step);
    to->needs(from);
    step->needs(from);
    command->add_flag("--json", options.json, "Print JSON");
    command->callback([ratio, from] {
        if (ratio->count() == 0 && from->count() == 0)
            throw CLI::RequiredError("--ratio or --from/--to/--step");
    });
    return command;
}

void addSchedules(CLI::App &app, ScheduleOptions &optimal, ScheduleOptions &checkpoint)
{
    CLI::App *solver = addScheduleCommand(
        app, "optimal", "The optimal rematerialization schedule per budget (Checkmate's MILP, solved with CBC)",
        optimal);
    solver->add_option("--time-limit", optimal.timeLimit, "Seconds the solver may take per budget")
        ->capture_default_str()
        ->check(CLI::Range(0.01, 1e6));
    solver->add_flag("--threshold", optimal.threshold,
                     "Also search the smallest budget at which any schedule fits (binary search over proven "
                     "results, --time-limit per probe)");
    addScheduleCommand(app, "checkpoint",
                       "Static checkpointing per budget (Chen et al. 2016: the sqrt(N) rule and the greedy rule)",
                       checkpoint);
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

void addTraces(CLI::App &app, TracesDownloadOptions &download, TracesStatusOptions &status)
{
    CLI::App *traces = app.add_subcommand("traces", "The eight public DTR traces: download and check them");
    traces->require_subcommand(1);
    CLI::App *downloadCommand = traces->add_subcommand(
        "download", "Download the public traces' archive, check every trace's SHA-256 and install them (all or none)");
    downloadCommand->add_option("--to", download.directory,
                                "Install here (default: where the GUI looks, ~/.local/share/RematLens/traces/dtr-2020)");
    downloadCommand->add_option("--url", download.url,
                                "Fetch the archive from this address or local path instead (a mirror, a copy); "
                                "REMATLENS_TRACES_URL does the same");
    CLI::App *statusCommand = traces->add_subcommand("status", "Say which public traces are installed and verified "
                                                               "(exit status 1 unless all are)");
    statusCommand->alias("list");
    statusCommand->add_option("--dir", status.directory, "Look here (default: where download installs them)");
}

// Options every figure kind shares; a few only make sense for some kinds and say so. A strip
// takes several allocator models (a row each).
void addCommonFigureOptions(CLI::App *command, FigureOptions &options, FigureTexts &texts, bool severalModels = false)
{
    command->add_option("--out", options.outPath, "Write the figure to FILE.svg, FILE.pdf or FILE.png")->required();
    command
        ->add_option("--size", texts.size,
                     "single (3.25 in wide), double (6.75 in), slide (10 x 5.625 in) or WxH in inches, "
                     "e.g. 6.75x2.5")
        ->capture_default_str();
    command->add_option("--dpi", options.dpi, "Resolution of a PNG")->capture_default_str();
    command->add_option("--font-size", options.fontSize, "Text size in points (default 8, 14 on a slide)");
    command->add_option("--palette", texts.palette, "default, colour-blind or greyscale")->capture_default_str();
    command->add_option("--units", texts.units, "Byte units: binary (KiB, MiB, GiB) or decimal (kB, MB, GB)")
        ->check(CLI::IsMember({"binary", "decimal"}))
        ->capture_default_str();
    command->add_option("--data", options.dataPath, "Also write the numbers behind the figure to FILE.csv");
    command->add_option("--policy", options.policies, "Eviction policy (default DTR)");
    command->add_option("--runtime", options.runtime, "eager, lazy or banishing")->capture_default_str();
    command->add_option("--overhead-limit", options.overheadLimit, "Compute limit, as in run")->capture_default_str();
    command->add_option("--seed", options.seed, "Seed of the random policies")->capture_default_str();
    addAllocatorOptions(command, options.allocator, severalModels);
}

void addOneRunFigureOptions(CLI::App *command, FigureOptions &options, FigureTexts &texts)
{
    command->add_option("trace", options.traces, "Trace file (simrd JSON lines), or :demo")->required()->expected(1);
    auto *ratio = command->add_option("--ratio", options.ratio, "Budget as a fraction of the baseline memory");
    auto *budget = command->add_option("--budget", options.budget, "Budget in bytes");
    ratio->excludes(budget);
    budget->excludes(ratio);
    command->add_option("--compare-ratio", options.compareRatio, "A second budget to show beside the first");
    command->add_option("--x", texts.xAxis, "Horizontal axis: step (operator index) or clock (compute time)")
        ->capture_default_str();
}

void addFigure(CLI::App &app, FigureOptions &options, FigureTexts &texts)
{
    CLI::App *figure = app.add_subcommand("figure", "Draw a figure for a paper or a slide (SVG, PDF or PNG), headless");
    figure->require_subcommand(1);
    CLI::App *strip = figure->add_subcommand("strip", "Feasibility strip: outcome and overhead versus budget, holes "
                                                      "marked; several traces make small multiples");
    strip->add_option("traces", options.traces, "Trace files (simrd JSON lines), or :demo");
    strip->add_option("--trace", texts.moreTraces, "Another trace: one panel each");
    strip->add_option("--from", options.from, "Lowest budget ratio")->capture_default_str();
    strip->add_option("--to", options.to, "Highest budget ratio")->capture_default_str();
    strip->add_option("--step", options.step, "Grid step (exact decimals)")->capture_default_str();
    strip->add_option("--sweep-file", options.sweepFiles,
                      "Draw the runs of FILE.jsonl or FILE.csv (rematlens sweep --out) instead of sweeping; one "
                      "panel each");
    strip->add_option("--threads", options.threads, "Worker threads (default: every core)");
    strip->add_option("--wall-limit", options.wallLimit, "Seconds one replay may take, as in sweep");
    strip->add_flag("--exact", options.exact,
                    "Also map every budget byte of the range, as map does: rows draw the intervals to scale");
    strip->add_flag("--checkpointing", options.checkpointing,
                    "Add a row: whether static checkpointing (Chen et al., the better of sqrt(N) and greedy) fits");
    strip->add_flag("--optimal", options.optimal,
                    "Add a row: Checkmate's optimal schedule per budget (CBC): optimal, feasible, infeasible or unknown");
    strip->add_option("--time-limit", options.timeLimit, "Seconds the solver may spend per budget of that row")
        ->capture_default_str();
    strip->add_option("--zoom-from-bytes", options.zoomFromBytes, "Show the budgets from this many bytes");
    strip->add_option("--zoom-to-bytes", options.zoomToBytes, "... up to this many bytes");
    addCommonFigureOptions(strip, options, texts, true);
    CLI::App *timeline = figure->add_subcommand("timeline", "Memory timeline of one run");
    addOneRunFigureOptions(timeline, options, texts);
    addCommonFigureOptions(timeline, options, texts);
    CLI::App *cascade = figure->add_subcommand("cascade", "Eviction and rematerialization cascade of one run");
    addOneRunFigureOptions(cascade, options, texts);
    addCommonFigureOptions(cascade, options, texts);
    CLI::App *memoryMap = figure->add_subcommand(
        "memory-map", "Allocator segments and blocks of one run at one step (needs --allocator caching or best-fit)");
    memoryMap->add_option("trace", options.traces, "Trace file (simrd JSON lines), or :demo")->required()->expected(1);
    auto *ratio = memoryMap->add_option("--ratio", options.ratio, "Budget as a fraction of the baseline memory");
    auto *budget = memoryMap->add_option("--budget", options.budget, "Budget in bytes");
    ratio->excludes(budget);
    budget->excludes(ratio);
    memoryMap->add_option("--step", options.mapStep,
                          "Model step to show (default: the failing step of a failed run, else the step where "
                          "reserved memory peaks)");
    addCommonFigureOptions(memoryMap, options, texts);
    CLI::App *anatomy = figure->add_subcommand(
        "hole-anatomy", "The lower edge of the hole holding a failing budget: its passing and failing runs' "
                        "timelines with the avoided eviction, the later eviction, its reuse and the failure marked");
    anatomy->add_option("trace", options.traces, "Trace file (simrd JSON lines), or :demo")->required()->expected(1);
    auto *inside = anatomy->add_option("--ratio", options.ratio, "A failing budget inside the hole, as a fraction");
    auto *insideBytes = anatomy->add_option("--budget", options.budget, "... or in bytes");
    inside->excludes(insideBytes);
    insideBytes->excludes(inside);
    anatomy->add_option("--threads", options.threads, "Worker threads for finding the hole (default: every core)");
    addCommonFigureOptions(anatomy, options, texts);
}

// The figure's kind and the options given as words, checked; an error message or nothing.
std::string finishFigureOptions(const CLI::App &figure, FigureOptions &options, const FigureTexts &texts)
{
    if (figure.got_subcommand("timeline"))
        options.kind = FigureOptions::Kind::Timeline;
    else if (figure.got_subcommand("cascade"))
        options.kind = FigureOptions::Kind::Cascade;
    else if (figure.got_subcommand("memory-map"))
        options.kind = FigureOptions::Kind::MemoryMap;
    else if (figure.got_subcommand("hole-anatomy"))
        options.kind = FigureOptions::Kind::HoleAnatomy;
    else
        options.kind = FigureOptions::Kind::Strip;
    options.traces.insert(options.traces.end(), texts.moreTraces.begin(), texts.moreTraces.end());
    options.decimalUnits = texts.units == "decimal";
    for (const std::string &problem : {parseFigureSize(texts.size, options), parseFigurePalette(texts.palette, options),
                                       parseFigureXAxis(texts.xAxis, options)})
        if (!problem.empty())
            return problem;
    return checkFigureOptions(options);
}

} // namespace

CommandLineOutcome runCommandLine(int argc, char **argv)
{
    Provenance::recordCommandLine(argc, argv);
    CLI::App app{"RematLens: replay, sweep and explain memory-budgeted DTR training traces.\n"
                 "With no command it opens the GUI (on the embedded demo trace if no trace is given).",
                 "rematlens"};
    app.set_version_flag("--version", "rematlens " + Provenance::version() + " (commit " + Provenance::commit() + ")");
    app.require_subcommand(0, 1);
    GuiOptions guiOptions;
    app.add_option("trace", guiOptions.trace, "Trace to open in the GUI");
    CLI::App *gui = app.add_subcommand("gui", "Open the GUI");
    std::string guiSubTrace;
    gui->add_option("trace", guiSubTrace, "Trace to open (default: the embedded demo)");
    gui->add_option("--sweep", guiOptions.sweep, "Sweep FROM:TO:STEP once the trace is read (default: the last range used)");
    gui->add_option("--policy", guiOptions.policies,
                    "Policies of the sweep, a strip row each (default: the last ones used); RandomStorage:seed=N is "
                    "the random policy under seed N");
    gui->add_option("--select", guiOptions.select, "Select the budget nearest this ratio after the sweep");
    addAllocatorOptions(gui, guiOptions.allocator, true);
    gui->add_option("--overlay", guiOptions.overlay,
                    "Overlay the budget below or above the selected one on the timeline")
        ->check(CLI::IsMember({"none", "below", "above"}));
    gui->add_flag("--map", guiOptions.map, "Map the sweep's range exactly once the sweep is done (Ctrl+M)");
    gui->add_option("--select-bytes", guiOptions.selectBytes,
                    "After --map, select the interval holding this budget in bytes");
    gui->add_option("--zoom-bytes", guiOptions.zoomBytes, "Show the budgets X:Y (bytes) in the strip");
    gui->add_flag("--checkpointing", guiOptions.checkpointing,
                  "Add the strip's row of static checkpointing (Chen et al.) to the sweep");
    gui->add_flag("--optimal", guiOptions.optimal, "Add the strip's row of the optimal schedule (Checkmate, CBC)");
    gui->add_option("--time-limit", guiOptions.timeLimit, "Seconds the solver may spend per budget of that row");
    gui->add_option("--screenshot", guiOptions.screenshot,
                    "Once all the above is shown (and the trace's known maps), render the whole window to this PNG "
                    "and exit; without it the window stays open");
    gui->add_option("--size", guiOptions.size, "Window size, WIDTHxHEIGHT (default: as last left; 1400x850 for --screenshot)");
    InfoOptions info;
    RunOptions run;
    SweepOptions sweep;
    HolesOptions holes;
    MapOptions mapOptions;
    addInfo(app, info);
    addMap(app, mapOptions);
    addRun(app, run);
    addSweep(app, sweep);
    addHoles(app, holes);
    CompareOptions compare;
    addCompare(app, compare);
    ConfirmOptions confirm;
    addConfirm(app, confirm);
    VerifyOptions verify;
    addVerify(app, verify);
    MergeOptions merge;
    addMerge(app, merge);
    SynthCommandOptions synth;
    addSynth(app, synth);
    DiffOptions diff;
    addDiff(app, diff);
    RescueOptions rescue;
    addRescue(app, rescue);
    ExplainOptions explain;
    addExplain(app, explain);
    ScheduleOptions optimal;
    ScheduleOptions checkpoint;
    addSchedules(app, optimal, checkpoint);
    CLI::App *policies = app.add_subcommand("policies", "List the eviction policies");
    TracesDownloadOptions tracesDownload;
    TracesStatusOptions tracesStatus;
    addTraces(app, tracesDownload, tracesStatus);
    FigureOptions figureOptions;
    FigureTexts figureTexts;
    addFigure(app, figureOptions, figureTexts);
    bool strictTraces = false;
    for (const char *name : {"info", "run", "sweep", "map", "holes", "compare", "diff", "rescue", "optimal",
                             "checkpoint", "verify"})
        app.get_subcommand(name)->add_flag("--strict", strictTraces,
                                           "A trace that ends early (a truncated capture) is an error, not a warning");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return CommandLineOutcome::finished(app.exit(e));
    } catch (const CLI::CallForAllHelp &e) {
        return CommandLineOutcome::finished(app.exit(e));
    } catch (const CLI::CallForVersion &e) {
        return CommandLineOutcome::finished(app.exit(e));
    } catch (const CLI::ParseError &e) {
        app.exit(e);
        return CommandLineOutcome::finished(ExitBadUsage);
    }
    setStrictTraces(strictTraces);
    if (!app.get_subcommands().empty() && !*gui) // the window keeps Ctrl+C as it is
        TerminalReporter::watchInterrupts();
    if (app.got_subcommand("info"))
        return CommandLineOutcome::finished(runInfoCommand(info));
    if (app.got_subcommand("run"))
        return CommandLineOutcome::finished(runRunCommand(run));
    if (app.got_subcommand("sweep"))
        return CommandLineOutcome::finished(runSweepCommand(sweep));
    if (app.got_subcommand("map"))
        return CommandLineOutcome::finished(runMapCommand(mapOptions));
    if (app.got_subcommand("holes"))
        return CommandLineOutcome::finished(runHolesCommand(holes));
    if (app.got_subcommand("confirm"))
        return CommandLineOutcome::finished(runConfirmCommand(confirm));
    if (app.got_subcommand("verify"))
        return CommandLineOutcome::finished(runVerifyCommand(verify));
    if (app.got_subcommand("compare"))
        return CommandLineOutcome::finished(runCompareCommand(compare));
    if (app.got_subcommand("merge"))
        return CommandLineOutcome::finished(runMergeCommand(merge));
    if (app.got_subcommand("synth"))
        return CommandLineOutcome::finished(runSynthCommand(synth));
    if (app.got_subcommand("diff"))
        return CommandLineOutcome::finished(runDiffCommand(diff));
    if (app.got_subcommand("rescue"))
        return CommandLineOutcome::finished(runRescueCommand(rescue));
    if (app.got_subcommand("explain"))
        return CommandLineOutcome::finished(runExplainCommand(explain));
    if (app.got_subcommand("optimal"))
        return CommandLineOutcome::finished(runOptimalCommand(optimal));
    if (app.got_subcommand("checkpoint"))
        return CommandLineOutcome::finished(runCheckpointCommand(checkpoint));
    if (*policies)
        return CommandLineOutcome::finished(runPoliciesCommand());
    if (const CLI::App *traces = app.get_subcommand("traces"); *traces)
        return CommandLineOutcome::finished(traces->got_subcommand("download") ? runTracesDownloadCommand(tracesDownload)
                                                                               : runTracesStatusCommand(tracesStatus));
    if (const CLI::App *figure = app.get_subcommand("figure"); *figure) {
        if (const std::string problem = finishFigureOptions(*figure, figureOptions, figureTexts); !problem.empty())
            return CommandLineOutcome::finished(reportError(ExitBadUsage, problem));
        CommandLineOutcome outcome;
        outcome.makeFigure = true;
        outcome.figure = figureOptions;
        return outcome;
    }
    if (*gui)
        guiOptions.trace = guiSubTrace;
    CommandLineOutcome outcome;
    outcome.openGui = true;
    outcome.gui = guiOptions;
    return outcome;
}

} // namespace rematlens
