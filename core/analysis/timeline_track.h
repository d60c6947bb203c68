#pragma once

#include "../sim/run_recording.h"
#include "../sim/run_result.h"
#include "timeline_axis.h"

#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// One recorded run laid out for plotting against steps or the clock: columns of numbers a
// chart can decimate, the evictions as markers, rematerialization as spans, and the failure.
class TimelineTrack {
public:
    struct Marker {
        double x;
        double memory;
        std::size_t event; // index into the recording's events
    };
    struct Span {
        double from;
        double to;
    };
    struct FailurePoint {
        double x;
        double memory;
        Failure failure;
    };

    TimelineTrack(const Program &program, const RunRecording &recording, const RunResult &result, Bytes budget,
                  TimelineAxis axis);

    TimelineAxis axis() const { return m_axis; }
    Bytes budget() const { return m_budget; }
    const std::vector<double> &xs() const { return m_xs; }
    const std::vector<double> &memory() const { return m_memory; }
    const std::vector<double> &locked() const { return m_locked; }
    const std::vector<double> &depth() const { return m_depth; }
    // Under an allocator model, per sample (empty under the byte sum).
    const std::vector<double> &reserved() const { return m_reserved; }
    const std::vector<double> &allocated() const { return m_allocated; }
    bool hasAllocation() const { return !m_reserved.empty(); }
    double peakReserved() const;
    double peakAllocated() const;
    const std::vector<Marker> &evictions() const { return m_evictions; }
    const std::vector<Span> &rematSpans() const { return m_rematSpans; }
    const std::optional<FailurePoint> &failure() const { return m_failure; }
    double endX() const;
    double peakMemory() const;
    int peakDepth() const;

    // The sample nearest to x (by x, the later one on ties); npos when there are none.
    std::size_t sampleAt(double x) const;
    // The eviction marker nearest to x within `tolerance`, if any.
    std::optional<std::size_t> evictionNear(double x, double tolerance) const;
    // x of a schedule step: the step itself, or the clock of its first sample.
    double xOfStep(std::uint32_t step) const;

private:
    void addSamples(const RunRecording &recording);
    void addEvents(const Program &program, const RunRecording &recording);
    void addFailure(const RunResult &result);

    TimelineAxis m_axis;
    Bytes m_budget;
    std::vector<double> m_xs;
    std::vector<double> m_memory;
    std::vector<double> m_locked;
    std::vector<double> m_depth;
    std::vector<double> m_reserved;
    std::vector<double> m_allocated;
    std::vector<std::uint32_t> m_steps;
    std::vector<Marker> m_evictions;
    std::vector<Span> m_rematSpans;
    std::optional<FailurePoint> m_failure;
};

} // namespace rematlens
