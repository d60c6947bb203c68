#include "hole_survey.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <mutex>
#include <random>

namespace rematlens {

namespace {

bool passes(Outcome o)
{
    return o == Outcome::Pass;
}

} // namespace

HoleSurveyor::HoleSurveyor(const SweepRunner &runner, SweepSettings settings, const Baseline &baseline)
    : m_runner(runner), m_settings(std::move(settings)), m_baseline(baseline)
{
}

std::vector<RunResult> HoleSurveyor::runAll(const std::vector<RunRequest> &requests, const char *stage,
                                            const std::atomic<bool> *cancel, const Progress &progress) const
{
    return m_runner.runAll(requests, cancel, [&](std::size_t done) {
        if (progress)
            progress(stage, done, requests.size());
    });
}

Outcome HoleSurveyor::runBudget(Bytes budget, const std::atomic<bool> *cancel) const
{
    const RunRequest request = planBudget(m_settings, m_settings.policies.front(), m_baseline, budget);
    return m_runner.runOne(request.config, cancel).outcome;
}

HoleSurvey HoleSurveyor::survey(const std::vector<GridPoint> &grid, const SurveyOptions &options,
                                const std::atomic<bool> *cancel, const Progress &progress) const
{
    HoleSurvey survey;
    SweepSettings one = m_settings;
    one.policies.resize(1);
    const std::vector<RunRequest> requests = planSweep(one, m_baseline, grid);
    const std::vector<RunResult> results =
        m_gridRunner ? m_gridRunner(requests, cancel,
                                    [&](std::size_t done) {
                                        if (progress)
                                            progress("grid", done, requests.size());
                                    })
                     : runAll(requests, "grid", cancel, progress);
    std::vector<BudgetOutcome> outcomes;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        survey.grid.push_back({requests[i], results[i]});
        outcomes.push_back({requests[i].ratio, requests[i].config.budget, results[i].outcome});
    }
    survey.runs = requests.size();
    survey.report = findHoles(outcomes);
    if (options.repeats > 0)
        checkRepeats(survey, options.repeats, cancel, progress);
    if (options.edges)
        findEdges(survey, cancel, progress);
    if (options.samples > 0)
        sampleIntervals(survey, options, cancel, progress);
    survey.interrupted = cancel && cancel->load();
    return survey;
}

void HoleSurveyor::checkRepeats(HoleSurvey &survey, int repeats, const std::atomic<bool> *cancel,
                                const Progress &progress) const
{
    std::vector<RunRequest> requests;
    std::vector<std::size_t> owners;
    for (const Hole &hole : survey.report.holes)
        for (std::size_t i = hole.firstFail; i <= hole.lastFail; ++i) {
            survey.repeats.push_back({i, {}, true});
            for (int k = 0; k < repeats; ++k) {
                requests.push_back(survey.grid[i].request);
                owners.push_back(survey.repeats.size() - 1);
            }
        }
    const std::vector<RunResult> results = runAll(requests, "repeats", cancel, progress);
    survey.runs += requests.size();
    for (std::size_t r = 0; r < results.size(); ++r) {
        RepeatCheck &check = survey.repeats[owners[r]];
        const RunResult &first = survey.grid[check.gridIndex].result;
        check.results.push_back(results[r]);
        check.agrees = check.agrees && results[r].outcome == first.outcome && results[r].clock == first.clock
                       && results[r].maxMemory == first.maxMemory;
    }
}

void HoleSurveyor::findEdges(HoleSurvey &survey, const std::atomic<bool> *cancel, const Progress &progress) const
{
    std::vector<std::size_t> boundaries; // i such that grid i and i + 1 differ in class
    for (std::size_t i = 0; i + 1 < survey.grid.size(); ++i) {
        const Outcome a = survey.grid[i].result.outcome;
        const Outcome b = survey.grid[i + 1].result.outcome;
        if (isResolved(a) && isResolved(b) && passes(a) != passes(b))
            boundaries.push_back(i);
    }
    survey.edges.resize(boundaries.size());
    std::mutex mutex;
    std::size_t done = 0;
    tbb::task_arena arena(m_runner.threads());
    arena.execute([&] {
        tbb::parallel_for(std::size_t{0}, boundaries.size(), [&](std::size_t k) {
            const SurveyRun &low = survey.grid[boundaries[k]];
            const SurveyRun &high = survey.grid[boundaries[k] + 1];
            survey.edges[k] = bisectEdge(low.request.config.budget, low.result.outcome, high.request.config.budget,
                                         high.result.outcome, [&](Bytes b) { return runBudget(b, cancel); });
            const std::lock_guard<std::mutex> lock(mutex);
            survey.runs += static_cast<std::size_t>(survey.edges[k].runs);
            if (progress)
                progress("edges", ++done, boundaries.size());
        });
    });
}

void HoleSurveyor::sampleIntervals(HoleSurvey &survey, const SurveyOptions &options, const std::atomic<bool> *cancel,
                                   const Progress &progress) const
{
    struct Sample {
        std::size_t interval;
        Bytes budget;
    };
    std::vector<Sample> samples;
    for (std::size_t i = 0; i + 1 < survey.grid.size(); ++i) {
        const Bytes low = survey.grid[i].request.config.budget;
        const Bytes high = survey.grid[i + 1].request.config.budget;
        if (high - low < 2)
            continue;
        std::mt19937_64 random(options.seed * 0x9E3779B97F4A7C15ull + i); // one stream per interval
        std::uniform_int_distribution<Bytes> pick(low + 1, high - 1);
        std::vector<Bytes> budgets;
        for (int k = 0; k < options.samples; ++k)
            budgets.push_back(pick(random));
        std::sort(budgets.begin(), budgets.end());
        budgets.erase(std::unique(budgets.begin(), budgets.end()), budgets.end());
        for (Bytes b : budgets)
            samples.push_back({i, b});
    }
    std::vector<RunRequest> requests;
    for (const Sample &s : samples)
        requests.push_back(planBudget(m_settings, m_settings.policies.front(), m_baseline, s.budget));
    const std::vector<RunResult> results = runAll(requests, "samples", cancel, progress);
    survey.runs += requests.size();

    // Within each interval the points in budget order: grid endpoint, samples, grid endpoint.
    std::vector<NarrowFeature> candidates;
    for (std::size_t k = 0; k < samples.size(); ++k) {
        const Outcome outcome = results[k].outcome;
        if (!isResolved(outcome))
            continue;
        const std::size_t interval = samples[k].interval;
        const bool firstInInterval = k == 0 || samples[k - 1].interval != interval;
        const bool lastInInterval = k + 1 == samples.size() || samples[k + 1].interval != interval;
        const Bytes lowBudget = firstInInterval ? survey.grid[interval].request.config.budget : samples[k - 1].budget;
        const Outcome lowOutcome = firstInInterval ? survey.grid[interval].result.outcome : results[k - 1].outcome;
        const Bytes highBudget = lastInInterval ? survey.grid[interval + 1].request.config.budget : samples[k + 1].budget;
        const Outcome highOutcome = lastInInterval ? survey.grid[interval + 1].result.outcome : results[k + 1].outcome;
        if (!isResolved(lowOutcome) || !isResolved(highOutcome) || passes(lowOutcome) == passes(outcome)
            || passes(highOutcome) == passes(outcome))
            continue;
        NarrowFeature feature;
        feature.isHole = !passes(outcome);
        feature.interval = interval;
        feature.sample = samples[k].budget;
        feature.sampleOutcome = outcome;
        feature.lower = BudgetEdge{lowBudget, lowOutcome, samples[k].budget, outcome, false, 0};
        feature.upper = BudgetEdge{samples[k].budget, outcome, highBudget, highOutcome, false, 0};
        candidates.push_back(feature);
    }
    std::size_t done = 0;
    std::mutex mutex;
    tbb::task_arena arena(m_runner.threads());
    arena.execute([&] {
        tbb::parallel_for(std::size_t{0}, candidates.size(), [&](std::size_t k) {
            NarrowFeature &f = candidates[k];
            auto run = [&](Bytes b) { return runBudget(b, cancel); };
            f.lower = bisectEdge(f.lower.below, f.lower.belowOutcome, f.lower.above, f.lower.aboveOutcome, run);
            f.upper = bisectEdge(f.upper.below, f.upper.belowOutcome, f.upper.above, f.upper.aboveOutcome, run);
            const std::lock_guard<std::mutex> lock(mutex);
            survey.runs += static_cast<std::size_t>(f.lower.runs + f.upper.runs);
            if (progress)
                progress("refine", ++done, candidates.size());
        });
    });
    survey.narrow = std::move(candidates);
}

} // namespace rematlens
