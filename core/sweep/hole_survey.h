#pragma once

#include "edge_bisector.h"
#include "hole_finder.h"
#include "sweep_plan.h"
#include "sweep_runner.h"

#include <atomic>
#include <functional>

namespace rematlens {

struct SurveyOptions {
    int repeats = 0;      // rerun every budget inside a hole this many times more
    bool edges = false;   // bisect every pass/fail boundary of the grid down to adjacent bytes
    int samples = 0;      // seeded random budgets inside each grid interval
    std::uint64_t seed = 0;
};

struct SurveyRun {
    RunRequest request;
    RunResult result;
};

// A budget inside a hole replayed again: does it always give the same result?
struct RepeatCheck {
    std::size_t gridIndex = 0;
    std::vector<RunResult> results;
    bool agrees = true;
};

// A result that differs from both of its neighbours inside one grid interval: a hole (or a
// passing island) narrower than the step, with both of its edges.
struct NarrowFeature {
    bool isHole = true;
    std::size_t interval = 0; // between grid points interval and interval + 1
    Bytes sample = 0;
    Outcome sampleOutcome = Outcome::Pass;
    BudgetEdge lower;
    BudgetEdge upper;
};

struct HoleSurvey {
    std::vector<SurveyRun> grid;
    HoleReport report;
    std::vector<RepeatCheck> repeats;
    std::vector<BudgetEdge> edges;
    std::vector<NarrowFeature> narrow;
    std::size_t runs = 0;
    bool interrupted = false;
};

// Runs the grid for one policy, finds its holes, and as asked checks repeatability, sharpens
// the boundaries to the byte and samples inside intervals for narrower holes.
class HoleSurveyor {
public:
    using Progress = std::function<void(const char *stage, std::size_t done, std::size_t total)>;

    // Runs the grid's requests and returns their results in the same order; calls done(k) as
    // the k-th finishes. The runner's threads do it unless a caller spreads it wider.
    using GridRunner = std::function<std::vector<RunResult>(const std::vector<RunRequest> &requests,
                                                            const std::atomic<bool> *cancel,
                                                            const std::function<void(std::size_t done)> &done)>;

    HoleSurveyor(const SweepRunner &runner, SweepSettings settings, const Baseline &baseline);
    void setGridRunner(GridRunner gridRunner) { m_gridRunner = std::move(gridRunner); }
    HoleSurvey survey(const std::vector<GridPoint> &grid, const SurveyOptions &options,
                      const std::atomic<bool> *cancel, const Progress &progress) const;

private:
    std::vector<RunResult> runAll(const std::vector<RunRequest> &requests, const char *stage,
                                  const std::atomic<bool> *cancel, const Progress &progress) const;
    Outcome runBudget(Bytes budget, const std::atomic<bool> *cancel) const;
    void checkRepeats(HoleSurvey &survey, int repeats, const std::atomic<bool> *cancel, const Progress &progress) const;
    void findEdges(HoleSurvey &survey, const std::atomic<bool> *cancel, const Progress &progress) const;
    void sampleIntervals(HoleSurvey &survey, const SurveyOptions &options, const std::atomic<bool> *cancel,
                         const Progress &progress) const;

    const SweepRunner &m_runner;
    SweepSettings m_settings;
    const Baseline &m_baseline;
    GridRunner m_gridRunner;
};

} // namespace rematlens
