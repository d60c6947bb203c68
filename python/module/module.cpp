// _rematlens: the library's requests for Python. Each function builds the request the command
// line builds from its options, runs it with runRequest (GIL released, progress, Ctrl+C) and
// gives back plain Python values and columns; the rematlens package makes DataFrames of them.
#include "map_file_reader.h"
#include "python_request.h"
#include "python_values.h"

#include "app/figure/figure_command.h"
#include "app/formats/map_record.h"
#include "app/mpi/mpi_world.h"
#include "app/reports/map_report.h"
#include "app/reports/run_report.h"
#include "app/requests/exact_map.h"
#include "app/requests/explain_request.h"
#include "app/requests/holes_request.h"
#include "app/requests/rescue_request.h"
#include "app/requests/single_run.h"
#include "app/requests/sweep_request.h"

#include "core/synth/synth_presets.h"

#include <QApplication>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdlib>

namespace py = pybind11;
using namespace rematlens;

namespace {

using Json = nlohmann::ordered_json;

// What a run's options take from Python, as the command line's --allocator, --eviction,
// --capacity and --alloc-option take them (models: one strip row per model, for a sweep).
AllocatorOptions allocatorOptions(const std::vector<std::string> &models, const std::string &eviction,
                                  std::optional<std::int64_t> capacity, const std::vector<std::string> &options)
{
    AllocatorOptions allocator;
    allocator.models = models;
    allocator.allocator = models.empty() ? "sum" : models.front();
    allocator.eviction = eviction;
    allocator.capacity = capacity;
    allocator.options = options;
    return allocator;
}

// The settings of one run, as the command line's run, explain and rescue take them.
RunOptions runOptions(const std::string &trace, const std::string &policy, const std::string &runtime,
                      const std::string &overheadLimit, std::uint64_t seed, const std::vector<std::string> &keep)
{
    RunOptions options;
    options.trace = trace;
    options.policy = policy;
    options.runtime = runtime;
    options.overheadLimit = overheadLimit;
    options.seed = seed;
    options.keep = keep;
    return options;
}

void checkOneBudget(const std::optional<std::string> &ratio, const std::optional<std::int64_t> &budget)
{
    if (ratio.has_value() == budget.has_value()) {
        PyErr_SetString(PythonErrors::usage, "give the budget as ratio= or as budget= (bytes), one of them");
        throw py::error_already_set();
    }
}

void checkThreads(int threads)
{
    if (threads < 0) {
        PyErr_SetString(PythonErrors::usage, "threads expects a positive count (0 or None: every core)");
        throw py::error_already_set();
    }
}

py::dict info(const std::string &trace, bool strict)
{
    RequestOutcome outcome;
    runRequest([&] { return (outcome = executeInfo(InfoOptions{trace, true})).status; }, py::none(), strict);
    return pythonValue(outcome.json);
}

std::string synth(const std::string &preset, std::optional<int> layers, std::optional<int> batch, std::uint64_t seed)
{
    std::string error;
    const std::optional<std::string> text = synthesizeTrace(SynthOptions{preset, layers, batch, seed}, error);
    if (!text) {
        PyErr_SetString(PythonErrors::usage, error.c_str());
        throw py::error_already_set();
    }
    return *text;
}

py::list synthPresetList()
{
    py::list presets;
    for (const SynthPreset &preset : synthPresets())
        presets.append(py::dict(py::arg("name") = preset.name, py::arg("description") = preset.description,
                                py::arg("layers") = preset.defaultLayers, py::arg("batch") = preset.defaultBatch));
    return presets;
}

py::dict eventColumns(const RunRecording &recording, const Program &program)
{
    std::vector<Json> rows;
    rows.reserve(recording.events.size());
    for (const ReplayEvent &e : recording.events) {
        const char *kind = e.kind == ReplayEvent::Kind::Evict   ? "evict"
                           : e.kind == ReplayEvent::Kind::Free  ? "free"
                           : e.kind == ReplayEvent::Kind::Remat ? "remat"
                                                                : "compute";
        rows.push_back(Json{{"kind", kind}, {"step", e.step}, {"clock", e.clock}, {"tensor", program.tensors[e.tensor].name},
                            {"bytes", e.bytes}, {"memory", e.memory}, {"depth", e.depth}});
    }
    return recordColumns(rows);
}

py::dict timelineColumns(const RunRecording &recording)
{
    std::vector<Json> rows;
    rows.reserve(recording.samples.size());
    for (std::size_t i = 0; i < recording.samples.size(); ++i) {
        const TimelineSample &s = recording.samples[i];
        Json row{{"step", s.step},       {"clock", s.clock}, {"memory", s.memory},
                 {"locked", s.lockedBytes}, {"depth", s.depth}, {"pool", s.poolSize}};
        if (i < recording.allocation.size()) {
            row["reserved"] = recording.allocation[i].reserved;
            row["allocated"] = recording.allocation[i].allocated;
        }
        rows.push_back(std::move(row));
    }
    return recordColumns(rows);
}

py::dict run(const std::string &trace, std::optional<std::string> ratio, std::optional<std::int64_t> budget,
             const std::string &policy, const std::string &runtime, const std::string &overheadLimit, std::uint64_t seed,
             const std::vector<std::string> &keep, const std::string &allocator, const std::string &eviction,
             std::optional<std::int64_t> capacity, const std::vector<std::string> &allocOptions, bool record, bool strict)
{
    checkOneBudget(ratio, budget);
    RunOptions options = runOptions(trace, policy, runtime, overheadLimit, seed, keep);
    options.ratio = ratio;
    options.budget = budget;
    options.allocator = allocatorOptions({allocator}, eviction, capacity, allocOptions);
    RunRecording recording;
    RunExecution execution;
    runRequest([&] { return (execution = executeRun(options, record ? &recording : nullptr)).outcome.status; },
               py::none(), strict);
    py::dict out;
    out["record"] = pythonValue(execution.outcome.json);
    out["text"] = execution.outcome.text;
    if (record) {
        out["events"] = eventColumns(recording, *execution.trace->program);
        out["timeline"] = timelineColumns(recording);
    }
    return out;
}

GridOptions gridOptions(const std::string &trace, const std::string &from, const std::string &to,
                        const std::string &step, const std::vector<std::string> &policies, const std::string &runtime,
                        const std::string &overheadLimit, std::uint64_t seed, const std::vector<std::string> &keep,
                        const AllocatorOptions &allocator, int threads, std::optional<double> wallLimit)
{
    checkThreads(threads);
    GridOptions grid;
    grid.trace = trace;
    grid.from = from;
    grid.to = to;
    grid.step = step;
    grid.policies = policies;
    grid.runtime = runtime;
    grid.overheadLimit = overheadLimit;
    grid.seed = seed;
    grid.keep = keep;
    grid.allocator = allocator;
    grid.threads = threads;
    grid.wallLimit = wallLimit;
    return grid;
}

py::dict sweep(const GridOptions &grid, const py::object &progress, bool strict)
{
    SweepExecution execution;
    runRequest([&] { return (execution = executeSweep(grid)).outcome.status; }, progress, strict);
    py::dict out;
    out["records"] = recordColumns(execution.records);
    out["trace"] = execution.trace ? execution.trace->name : std::string();
    out["planned"] = execution.planned;
    return out;
}

py::dict holes(const GridOptions &grid, const py::object &progress, bool strict)
{
    HolesOptions options;
    options.grid = grid;
    RequestOutcome outcome;
    runRequest([&] { return (outcome = executeHoles(options, MpiWorld())).status; }, progress, strict);
    return pythonValue(outcome.json);
}

// The map's records as `map --out` writes them (every policy's, in turn), and per policy the
// summary and its holes as `map --json` gives them.
py::dict mapResult(const ExactMap &map)
{
    Json report = exactMapJson(map, false);
    std::vector<Json> records;
    py::list policies;
    for (std::size_t i = 0; i < map.maps.size(); ++i) {
        const PolicyMap &p = map.maps[i];
        for (const RunResult &r : p.intervals)
            records.push_back(mapRecordToJson(p.identity, r, map.trace.baseline));
        Json &summary = report["maps"][i];
        py::dict policy;
        policy["holes"] = recordColumns(std::vector<Json>(summary["holes"].begin(), summary["holes"].end()));
        summary.erase("holes");
        policy["summary"] = pythonValue(summary);
        policies.append(policy);
    }
    py::dict out;
    out["trace"] = map.trace.name;
    out["range"] = py::make_tuple(map.range.from, map.range.end);
    out["baseline"] = map.trace.baseline.memory;
    out["interrupted"] = map.interrupted;
    out["intervals"] = recordColumns(records);
    out["maps"] = policies;
    return out;
}

// A stop keeps what --out holds; the interrupt goes on up.
py::dict exactMap(const MapOptions &options, const py::object &progress, bool strict)
{
    checkThreads(options.threads);
    ExactMap map;
    runRequest(
        [&] {
            const int status = makeExactMap(options, map);
            return status == ExitOk && map.interrupted ? int(ExitInterrupted) : status;
        },
        progress, strict);
    return mapResult(map);
}

py::dict explain(const ExplainOptions &options, bool strict)
{
    checkThreads(options.threads);
    RequestOutcome outcome;
    runRequest([&] { return (outcome = executeExplain(options)).status; }, py::none(), strict);
    return pythonValue(outcome.json);
}

py::dict rescue(const RescueOptions &options, const py::object &progress, bool strict)
{
    checkThreads(options.threads);
    RequestOutcome outcome;
    runRequest([&] { return (outcome = executeRescue(options, MpiWorld())).status; }, progress, strict);
    return pythonValue(outcome.json);
}

// Figures paint with Qt Gui: a QApplication on the offscreen platform, made once, as
// `rematlens figure` does (a display is not needed, and text renders alike everywhere).
void ensureApplication()
{
    if (QCoreApplication::instance())
        return;
    if (!std::getenv("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "rematlens";
    static char *argv[] = {name, nullptr};
    new QApplication(argc, argv); // lives as long as the interpreter
}

// The figure on the calling thread (Qt Gui's painting belongs to the application's thread).
void figure(FigureOptions options, const std::string &kind, const std::string &size, const std::string &palette,
            const std::string &xAxis, bool strict)
{
    static const std::map<std::string, FigureOptions::Kind> kinds{
        {"strip", FigureOptions::Kind::Strip},         {"timeline", FigureOptions::Kind::Timeline},
        {"cascade", FigureOptions::Kind::Cascade},     {"memory-map", FigureOptions::Kind::MemoryMap},
        {"hole-anatomy", FigureOptions::Kind::HoleAnatomy}};
    const auto found = kinds.find(kind);
    std::string problem = found == kinds.end()
                              ? "unknown figure \"" + kind + "\" (strip, timeline, cascade, memory-map or hole-anatomy)"
                              : std::string();
    if (found != kinds.end())
        options.kind = found->second;
    for (const std::string &p : {parseFigureSize(size, options), parseFigurePalette(palette, options),
                                 parseFigureXAxis(xAxis, options), checkFigureOptions(options)})
        if (problem.empty())
            problem = p;
    if (!problem.empty()) {
        PyErr_SetString(PythonErrors::usage, problem.c_str());
        throw py::error_already_set();
    }
    ensureApplication();
    PythonReporter reporter;
    const RequestReporter::Scope scope(reporter);
    setStrictTraces(strict);
    const int status = runFigureCommand(options);
    setStrictTraces(false);
    raiseForStatus(status, reporter);
}

PyObject *newError(py::module_ &m, const char *name, PyObject *bases, const char *doc)
{
    PyObject *type = PyErr_NewExceptionWithDoc((std::string("rematlens.") + name).c_str(), doc, bases, nullptr);
    if (!type)
        throw py::error_already_set();
    m.add_object(name, py::handle(type));
    return type;
}

} // namespace

PYBIND11_MODULE(_rematlens, m)
{
    m.doc() = "RematLens's library for Python: the requests of the command line, giving back plain values.";
    PythonErrors::base = newError(m, "RematLensError", PyExc_Exception,
                                  "A request failed; the message is the command line's one-line error.");
    PythonErrors::usage = newError(m, "UsageError", py::make_tuple(py::handle(PythonErrors::base), py::handle(PyExc_ValueError)).release().ptr(),
                                   "Bad arguments: an unknown policy, a ratio out of range, ... (the command line's exit 2).");
    PythonErrors::input = newError(m, "InputError", PythonErrors::base,
                                   "A file that cannot be read or written: a missing or truncated trace, a map file of "
                                   "another trace, ... (the command line's exit 1).");

    m.def("info", &info, py::arg("trace"), py::arg("strict") = false);
    m.def("read_map", &readMapFile, py::arg("path"));
    m.def("synth", &synth, py::arg("preset"), py::arg("layers") = py::none(), py::arg("batch") = py::none(),
          py::arg("seed") = 0);
    m.def("synth_presets", &synthPresetList);
    m.def("run", &run, py::arg("trace"), py::arg("ratio"), py::arg("budget"), py::arg("policy"), py::arg("runtime"),
          py::arg("overhead_limit"), py::arg("seed"), py::arg("keep"), py::arg("allocator"), py::arg("eviction"),
          py::arg("capacity"), py::arg("alloc_options"), py::arg("record"), py::arg("strict"));
    m.def(
        "sweep",
        [](const std::string &trace, const std::string &from, const std::string &to, const std::string &step,
           const std::vector<std::string> &policies, const std::string &runtime, const std::string &overheadLimit,
           std::uint64_t seed, const std::vector<std::string> &keep, const std::vector<std::string> &allocators,
           const std::string &eviction, std::optional<std::int64_t> capacity, const std::vector<std::string> &allocOptions,
           int threads, std::optional<double> wallLimit, const py::object &progress, bool strict) {
            return sweep(gridOptions(trace, from, to, step, policies, runtime, overheadLimit, seed, keep,
                                     allocatorOptions(allocators, eviction, capacity, allocOptions), threads, wallLimit),
                         progress, strict);
        },
        py::arg("trace"), py::arg("start"), py::arg("stop"), py::arg("step"), py::arg("policies"), py::arg("runtime"),
        py::arg("overhead_limit"), py::arg("seed"), py::arg("keep"), py::arg("allocators"), py::arg("eviction"),
        py::arg("capacity"), py::arg("alloc_options"), py::arg("threads"), py::arg("wall_limit"), py::arg("progress"),
        py::arg("strict"));
    m.def(
        "holes",
        [](const std::string &trace, const std::string &from, const std::string &to, const std::string &step,
           const std::string &policy, const std::string &runtime, const std::string &overheadLimit, std::uint64_t seed,
           const std::vector<std::string> &keep, const std::string &allocator, const std::string &eviction,
           std::optional<std::int64_t> capacity, const std::vector<std::string> &allocOptions, int threads,
           std::optional<double> wallLimit, const py::object &progress, bool strict) {
            return holes(gridOptions(trace, from, to, step, {policy}, runtime, overheadLimit, seed, keep,
                                     allocatorOptions({allocator}, eviction, capacity, allocOptions), threads, wallLimit),
                         progress, strict);
        },
        py::arg("trace"), py::arg("start"), py::arg("stop"), py::arg("step"), py::arg("policy"), py::arg("runtime"),
        py::arg("overhead_limit"), py::arg("seed"), py::arg("keep"), py::arg("allocator"), py::arg("eviction"),
        py::arg("capacity"), py::arg("alloc_options"), py::arg("threads"), py::arg("wall_limit"), py::arg("progress"),
        py::arg("strict"));
    m.def(
        "map",
        [](const std::string &trace, std::optional<std::string> from, std::optional<std::string> to,
           std::optional<std::int64_t> fromBytes, std::optional<std::int64_t> toBytes,
           const std::vector<std::string> &policies, const std::string &runtime, const std::string &overheadLimit,
           std::uint64_t seed, const std::vector<std::string> &keep, int threads, std::optional<double> wallLimit,
           const std::string &out, bool summaryOnly, const py::object &progress, bool strict,
           const std::string &allocator, const std::string &eviction, std::optional<std::int64_t> capacity,
           const std::vector<std::string> &allocOptions) {
            MapOptions options;
            options.trace = trace;
            options.from = from;
            options.to = to;
            options.fromBytes = fromBytes;
            options.toBytes = toBytes;
            options.policies = policies;
            options.runtime = runtime;
            options.overheadLimit = overheadLimit;
            options.seed = seed;
            options.keep = keep;
            options.threads = threads;
            options.wallLimit = wallLimit;
            options.outPath = out;
            options.summaryOnly = summaryOnly;
            options.allocator = allocatorOptions({allocator}, eviction, capacity, allocOptions);
            return exactMap(options, progress, strict);
        },
        py::arg("trace"), py::arg("start"), py::arg("stop"), py::arg("from_bytes"), py::arg("to_bytes"),
        py::arg("policies"), py::arg("runtime"), py::arg("overhead_limit"), py::arg("seed"), py::arg("keep"),
        py::arg("threads"), py::arg("wall_limit"), py::arg("out"), py::arg("summary_only"), py::arg("progress"),
        py::arg("strict"), py::arg("allocator"), py::arg("eviction"), py::arg("capacity"), py::arg("alloc_options"));
    m.def(
        "explain",
        [](const std::string &trace, const std::vector<std::string> &ratios, const std::vector<std::int64_t> &budgets,
           std::optional<int> hole, const std::string &mapPath, const std::string &policy, const std::string &runtime,
           const std::string &overheadLimit, std::uint64_t seed, const std::vector<std::string> &keep,
           std::optional<bool> rescueSearch, bool pairOnly, int threads, bool strict) {
            ExplainOptions options;
            options.run = runOptions(trace, policy, runtime, overheadLimit, seed, keep);
            options.ratios = ratios;
            options.budgets = budgets;
            options.hole = hole;
            options.mapPath = mapPath;
            options.rescueOn = rescueSearch.value_or(false);
            options.rescueOff = rescueSearch.has_value() && !*rescueSearch;
            options.pairOnly = pairOnly;
            options.threads = threads;
            options.json = true;
            return explain(options, strict);
        },
        py::arg("trace"), py::arg("ratios"), py::arg("budgets"), py::arg("hole"), py::arg("map"), py::arg("policy"),
        py::arg("runtime"), py::arg("overhead_limit"), py::arg("seed"), py::arg("keep"), py::arg("rescue"),
        py::arg("pair_only"), py::arg("threads"), py::arg("strict"));
    m.def(
        "rescue",
        [](const std::string &trace, std::optional<std::string> ratio, std::optional<std::int64_t> budget,
           const std::string &policy, const std::string &runtime, const std::string &overheadLimit, std::uint64_t seed,
           const std::vector<std::string> &keep, int threads, const py::object &progress, bool strict) {
            checkOneBudget(ratio, budget);
            RescueOptions options;
            options.run = runOptions(trace, policy, runtime, overheadLimit, seed, keep);
            options.run.ratio = ratio;
            options.run.budget = budget;
            options.threads = threads;
            return rescue(options, progress, strict);
        },
        py::arg("trace"), py::arg("ratio"), py::arg("budget"), py::arg("policy"), py::arg("runtime"),
        py::arg("overhead_limit"), py::arg("seed"), py::arg("keep"), py::arg("threads"), py::arg("progress"),
        py::arg("strict"));
    m.def(
        "figure",
        [](const std::string &kind, const std::vector<std::string> &traces, const std::string &out,
           const std::string &data, const std::string &size, std::optional<double> fontSize, int dpi,
           const std::string &palette, bool decimalUnits, const std::vector<std::string> &policies,
           const std::string &runtime, const std::string &overheadLimit, std::optional<std::string> ratio,
           std::optional<std::int64_t> budget, std::optional<std::string> compareRatio, const std::string &xAxis,
           std::uint64_t seed, const std::string &allocator, const std::string &start, const std::string &stop,
           const std::string &step, bool exact, int threads, bool strict) {
            FigureOptions options;
            options.traces = traces;
            options.outPath = out;
            options.dataPath = data;
            options.fontSize = fontSize;
            options.dpi = dpi;
            options.decimalUnits = decimalUnits;
            options.policies = policies;
            options.runtime = runtime;
            options.overheadLimit = overheadLimit;
            options.ratio = ratio;
            options.budget = budget;
            options.compareRatio = compareRatio;
            options.seed = seed;
            options.allocator = allocatorOptions({allocator}, "", std::nullopt, {});
            options.from = start;
            options.to = stop;
            options.step = step;
            options.exact = exact;
            options.threads = threads;
            figure(options, kind, size, palette, xAxis, strict);
        },
        py::arg("kind"), py::arg("traces"), py::arg("out"), py::arg("data"), py::arg("size"), py::arg("font_size"),
        py::arg("dpi"), py::arg("palette"), py::arg("decimal_units"), py::arg("policies"), py::arg("runtime"),
        py::arg("overhead_limit"), py::arg("ratio"), py::arg("budget"), py::arg("compare_ratio"), py::arg("x_axis"),
        py::arg("seed"), py::arg("allocator"), py::arg("start"), py::arg("stop"), py::arg("step"), py::arg("exact"),
        py::arg("threads"), py::arg("strict"));
}
