#pragma once

#include "core/analysis/event_divergence.h"
#include "core/analysis/inspected_run.h"
#include "core/analysis/timeline_track.h"

#include <QString>

#include <memory>
#include <optional>

namespace rematlens {

// What one timeline shows: the selected run and, overlaid, a second budget of the same trace,
// with the moment their histories separate. Built off the GUI thread; drawn by TimelineChart.
struct TimelinePlot {
    std::shared_ptr<const Program> program;
    std::shared_ptr<const InspectedRun> run;
    std::shared_ptr<const InspectedRun> comparison; // may be null
    TimelineAxis axis = TimelineAxis::Step;
    std::optional<TimelineTrack> track;
    std::optional<TimelineTrack> comparisonTrack;
    std::optional<EventDivergence> divergence;
    std::optional<double> divergenceX;

    static TimelinePlot build(std::shared_ptr<const Program> program, std::shared_ptr<const InspectedRun> run,
                              std::shared_ptr<const InspectedRun> comparison, TimelineAxis axis);
    bool empty() const { return !track; }
    double extent() const;
    double peakBytes() const;
    QString runLabel(const InspectedRun &r) const;
    // "DTR at 0.31", and the allocator model's key when asked and it is not the byte sum.
    static QString requestLabel(const RunRequest &request, bool withAllocator = true);
    // Step, operator and tensor of a schedule step, for hover text.
    QString describeStep(std::uint32_t step) const;
    // The tensor a schedule step computes, gets, releases or pins (none past the schedule).
    std::optional<TensorId> tensorOfStep(std::uint32_t step) const;
    QString describeEvent(const ReplayEvent &e) const;
};

} // namespace rematlens
