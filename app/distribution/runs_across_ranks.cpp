#include "app/distribution/runs_across_ranks.h"

#include "app/reports/run_report.h"

namespace rematlens {

RunsAcrossRanks::RunsAcrossRanks(const MpiWorld &world, const SweepRunner &runner, const Baseline &baseline,
                                 int threads)
    : m_runner(runner), m_baseline(baseline), m_distributor(world, threads)
{
}

std::vector<RunResult> RunsAcrossRanks::run(const std::vector<RunRequest> &requests, const std::atomic<bool> *cancel,
                                            const std::function<void(std::size_t)> &done)
{
    std::vector<RunResult> results(requests.size());
    for (RunResult &result : results)
        result.outcome = Outcome::Cancelled;
    std::size_t finished = 0;
    m_distributor.run(
        requests.size(),
        [&](std::size_t i, const std::atomic<bool> *stop) {
            return runToJson(requests[i], m_runner.runOne(requests[i].config, stop), m_baseline).dump();
        },
        [&](std::size_t i, std::string &&bytes) {
            results[i] = runFromJson(nlohmann::ordered_json::parse(bytes));
            if (done)
                done(++finished);
        },
        cancel);
    return results;
}

} // namespace rematlens
