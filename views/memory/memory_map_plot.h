#pragma once

#include "core/analysis/inspected_run.h"
#include "core/sim/memory_snapshot.h"

#include <QString>

#include <memory>
#include <optional>

namespace rematlens {

// What one memory map shows: the allocator's layout of one run at one step, with the names it
// needs for labels. Built off the GUI thread (the snapshot is a replay); painted by
// MemoryMapFigure. Under the byte sum there is no snapshot, only the reason.
struct MemoryMapPlot {
    std::shared_ptr<const Program> program;
    RunRequest request;
    std::optional<MemorySnapshot> snapshot;

    bool byteSum() const { return request.config.allocator.isSum(); }
    bool empty() const { return !snapshot; }
    QString allocatorName() const;
    QString runLabel() const;
    // "caching allocator, DTR at 0.42, after step 812 (call conv → x12)", and the totals.
    QString heading() const;
    QString totals() const;
    // The failing request and why, for a snapshot taken at the failure; empty otherwise.
    QString failureText() const;
    QString tensorName(TensorId tensor) const;
    // Tensor (or free), size and address range of a block, for hover text.
    QString describeBlock(const SnapshotSegment &segment, const SnapshotBlock &block) const;
    // The free block a request would try first: the largest (the lowest address among equals).
    std::optional<std::pair<std::size_t, std::size_t>> largestFreeBlock() const;

    // Why there is nothing to draw under the byte sum, and how to choose a model.
    static QString byteSumExplanation();
    // Its gist, for a dock too short for the whole (which its hover then shows).
    static QString byteSumSummary();
};

} // namespace rematlens
