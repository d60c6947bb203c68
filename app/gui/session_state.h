#pragma once

#include "views/sweep/sweep_parameters.h"
#include "views/timeline/timeline_panel.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <utility>

namespace rematlens {

// What a saved session (a .rematlens file) brings back: the trace (path and content hash),
// the sweep settings, the selected and pinned runs, the timeline's overlay, axis and zoom, the
// strip's view and the memory map's step. Plain values; SessionFile reads and writes them.
struct SessionState {
    // A run named by what plans it again on the same trace.
    struct Run {
        QString policy; // as the policy list spells it (names, parametrized names, expr:...)
        QString runtime; // "eager", "lazy", "banishing"
        double overheadLimit = 2.0;
        std::int64_t budget = 0; // bytes
        double ratio = 0;        // of the baseline memory, as the run was labelled
        QStringList keep;        // tensors kept resident, as the trace spells them
        QString allocator = QStringLiteral("sum"); // the model, as allocatorKey writes it
        bool operator==(const Run &) const = default;
    };
    // A cell of the strip: the policy (its row, and its name to find it again) and the budget.
    struct Selection {
        int policyRow = 0;
        QString policy;
        double ratio = 0;
        bool operator==(const Selection &) const = default;
    };
    using Range = std::pair<double, double>; // from, to

    static constexpr int kFormatVersion = 1;

    QString tracePath; // absolute, or ":demo"
    QString traceSha256;
    SweepParameters sweep;
    std::optional<Selection> selection;
    std::optional<Run> pinned;
    TimelinePanel::Overlay overlay = TimelinePanel::Overlay::None;
    TimelineAxis timelineAxis = TimelineAxis::Step;
    std::optional<Range> timelineRange; // in the axis' units; none when showing the whole run
    std::optional<Range> stripView;     // budget ratios shown by the strip; none when showing all
    std::optional<std::int64_t> memoryMapStep; // the step whose layout the memory map showed, if any
    bool operator==(const SessionState &) const = default;
};

} // namespace rematlens
