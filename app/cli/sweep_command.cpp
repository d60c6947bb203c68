// rematlens sweep: every (policy, budget) of a grid, in parallel, written as runs finish.
#include "commands.h"
#include "app/requests/loaded_trace.h"
#include "app/requests/grid_options.h"
#include "app/requests/request_reporter.h"
#include "app/requests/progress_bar.h"
#include "app/reports/run_report.h"
#include "app/distribution/shard.h"
#include "app/formats/sweep_file.h"

#include "app/mpi/byte_pack.h"
#include "app/mpi/work_distributor.h"

#include "core/sweep/sweep_plan.h"
#include "core/sweep/sweep_runner.h"

#include <chrono>
#include <iostream>
#include <map>
#include <optional>

namespace rematlens {

namespace {

// What every rank of a sweep knows once it has read the trace.
struct SweepJob {
    const SweepOptions &options;
    SweepSettings settings;
    LoadedTrace loaded;
    std::vector<RunRequest> plan; // the whole grid, policy-major
    std::vector<std::size_t> todo; // into plan: this shard's runs that the file lacks
    std::size_t skipped = 0;       // this shard's runs the file already has
};

// Writes the records of finished runs (to --out, or standard output) and keeps the tally.
class RecordSink {
public:
    RecordSink(const SweepJob &job, SweepFile &file) : m_job(job), m_file(file), m_bar("sweep", job.todo.size()) {}

    void take(const nlohmann::ordered_json &record, Outcome outcome)
    {
        if (outcome == Outcome::Cancelled || m_writeFailed)
            return;
        if (m_job.options.outPath.empty())
            std::cout << record.dump() << '\n' << std::flush;
        else if (!m_file.append(record, m_error))
            m_writeFailed = true;
        ++m_outcomes[std::string(outcomeName(outcome))];
        m_bar.advance(++m_written);
    }

    // Prints the summary; the exit status of the sweep.
    int finish(double seconds, const std::string &workers, bool interrupted, const char *why = "interrupted")
    {
        m_bar.finish();
        if (m_writeFailed)
            return reportError(ExitBadInput, m_error);
        std::string tally;
        for (const auto &[name, count] : m_outcomes)
            tally += (tally.empty() ? "" : ", ") + std::to_string(count) + " " + name;
        std::cerr << "sweep: " << m_written << " runs in " << seconds << " s on " << workers
                  << (tally.empty() ? "" : " (" + tally + ")")
                  << (m_job.skipped ? ", " + std::to_string(m_job.skipped) + " already in " + m_job.options.outPath : "")
                  << std::endl;
        if (interrupted) {
            std::cerr << "sweep: " << why << "; " << m_job.todo.size() - m_written
                      << " runs left. Rerun the same command to resume." << std::endl;
            return ExitInterrupted;
        }
        std::string error;
        if (!m_job.options.outPath.empty() && !m_file.finish(error))
            return reportError(ExitBadInput, error);
        return ExitOk;
    }

private:
    const SweepJob &m_job;
    SweepFile &m_file;
    ProgressBar m_bar;
    std::size_t m_written = 0;
    std::map<std::string, std::size_t> m_outcomes;
    bool m_writeFailed = false;
    std::string m_error;
};

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int sweepHere(SweepJob &job, SweepFile &file)
{
    std::vector<RunRequest> todo;
    for (std::size_t k : job.todo)
        todo.push_back(job.plan[k]);
    RecordSink sink(job, file);
    SweepRunner runner(job.loaded.program, job.options.grid.threads);
    runner.setWallLimit(job.options.grid.wallLimit);
    const auto started = std::chrono::steady_clock::now();
    runner.run(todo, &interruptRequested(), [&](std::size_t i, const RunResult &result) {
        sink.take(runToJson(todo[i], result, job.loaded.baseline), result.outcome);
    });
    return sink.finish(secondsSince(started), std::to_string(runner.threads()) + " threads", interruptRequested());
}

std::string packIndices(const std::vector<std::size_t> &indices)
{
    std::string bytes;
    for (std::size_t i : indices)
        putNumber(bytes, i);
    return bytes;
}

std::vector<std::size_t> unpackIndices(const std::string &bytes)
{
    std::vector<std::size_t> indices;
    for (std::size_t offset = 0; offset < bytes.size();)
        indices.push_back(getNumber(bytes, offset));
    return indices;
}

// Rank 0 hands out the runs the file lacks and writes every record; the other ranks run them.
int sweepAcrossRanks(const MpiWorld &world, SweepJob &job, SweepFile &file)
{
    std::string todo = packIndices(job.todo);
    world.broadcast(todo);
    job.todo = unpackIndices(todo);
    SweepRunner runner(job.loaded.program, 1);
    runner.setWallLimit(job.options.grid.wallLimit);
    WorkDistributor distributor(world, job.options.grid.threads);
    std::optional<RecordSink> sink;
    if (world.isRoot())
        sink.emplace(job, file);
    const auto started = std::chrono::steady_clock::now();
    const WorkDistributor::Ending ending = distributor.run(
        job.todo.size(),
        [&](std::size_t i, const std::atomic<bool> *stop) {
            const RunRequest &request = job.plan[job.todo[i]];
            return runToJson(request, runner.runOne(request.config, stop), job.loaded.baseline).dump();
        },
        [&](std::size_t, std::string &&bytes) {
            const nlohmann::ordered_json record = nlohmann::ordered_json::parse(bytes);
            sink->take(record, findOutcome(record.value("result", std::string())).value_or(Outcome::Cancelled));
        },
        &interruptRequested());
    const bool interrupted = ending == WorkDistributor::Ending::Cancelled;
    if (!world.isRoot())
        return interrupted ? ExitInterrupted : ExitOk;
    return sink->finish(secondsSince(started),
                        std::to_string(world.size()) + " ranks x " + std::to_string(distributor.threads()) + " threads",
                        interrupted, "stopped before every rank was done (a rank died, or the job was cancelled)");
}

} // namespace

int runSweepCommand(const SweepOptions &options)
{
    const MpiWorld world;
    if (!world.problem().empty())
        return reportError(ExitBadInput, world.problem());
    SweepSettings settings;
    std::vector<GridPoint> grid;
    if (const std::string problem = prepareGrid(options.grid, settings, grid); !problem.empty())
        return usageError(world, problem);
    if (!options.outPath.empty() && !SweepFile::formatFor(options.outPath))
        return usageError(world, "--out expects a .jsonl or .csv file, got " + options.outPath);
    std::optional<Shard> shard;
    std::string error;
    if (!options.shard.empty() && !(shard = Shard::parse(options.shard, error)))
        return usageError(world, error);
    if (shard && options.outPath.empty())
        return usageError(world, "--shard needs --out: each shard writes its own file, for merge to join");
    std::optional<LoadedTrace> loaded = loadWithBaseline(options.grid.trace);
    if (!world.allAgree(loaded.has_value()))
        return ExitBadInput;
    settings.trace = loaded->name;
    if (const std::string problem = applyKeep(options.grid.keep, *loaded->program, settings); !problem.empty())
        return usageError(world, problem);
    if (!settings.keep.empty() && SweepFile::formatFor(options.outPath) == SweepFile::Format::Csv)
        return usageError(world, "--keep with --out needs a .jsonl file (CSV records have no keep column)");
    if (!settings.allocator.isSum() && SweepFile::formatFor(options.outPath) == SweepFile::Format::Csv)
        return usageError(world, "--allocator with --out needs a .jsonl file (CSV records have no allocator columns)");
    std::vector<RunRequest> plan = planSweep(settings, loaded->baseline, grid);
    SweepJob job{options, settings, std::move(*loaded), std::move(plan), {}, 0};

    // Only rank 0 touches the file: it alone knows what is left to run.
    SweepFile file;
    bool opened = true;
    if (world.isRoot()) {
        std::optional<Provenance> provenance;
        if (!options.outPath.empty())
            provenance = Provenance::describe(options.grid.trace, settings, gridScope(options.grid), error);
        if (provenance && shard)
            provenance->set("shard", shard->toJson());
        if (provenance)
            file.setHeader(*provenance);
        opened = options.outPath.empty() || (provenance && file.open(options.outPath, error));
        if (!opened)
            reportError(ExitBadInput, error);
        for (std::size_t k = 0; opened && k < job.plan.size(); ++k) {
            if (shard && !shard->owns(k))
                continue;
            if (file.contains(SweepFile::keyFor(job.plan[k])))
                ++job.skipped;
            else
                job.todo.push_back(k);
        }
    }
    if (!world.allAgree(opened))
        return ExitBadInput;

    return world.distributed() ? sweepAcrossRanks(world, job, file) : sweepHere(job, file);
}

} // namespace rematlens
