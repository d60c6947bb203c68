#pragma once

// Which fields of two run records differ (every field but the wall time), for the suites that
// check one way of getting a record against a replay from scratch.
#include "core/sim/run_result.h"

#include <QString>
#include <QStringList>

inline QString recordDifferences(const rematlens::RunResult &a, const rematlens::RunResult &b)
{
    QStringList out;
    const auto check = [&](bool same, const char *field) {
        if (!same)
            out << QLatin1String(field);
    };
    check(a.outcome == b.outcome, "outcome");
    check(a.clock == b.clock, "clock");
    check(a.rematCompute == b.rematCompute, "remat_compute");
    check(a.modelCompute == b.modelCompute, "model_compute");
    check(a.maxMemory == b.maxMemory, "max_memory");
    check(a.memoryAtEnd == b.memoryAtEnd, "memory_at_end");
    check(a.evictions == b.evictions, "evictions");
    check(a.releasedEvictions == b.releasedEvictions, "released_evictions");
    check(a.remats == b.remats, "remats");
    check(a.heuristicEvals == b.heuristicEvals, "heuristic_evals");
    check(a.constMemory == b.constMemory, "const_memory");
    check(a.interval == b.interval, "interval");
    check(a.allocation == b.allocation, "allocation");
    check(a.failure.has_value() == b.failure.has_value(), "failure");
    if (a.failure && b.failure) {
        const rematlens::Failure &x = *a.failure;
        const rematlens::Failure &y = *b.failure;
        check(x.step == y.step && x.line == y.line && x.operatorName == y.operatorName && x.tensor == y.tensor,
              "failure.where");
        check(x.memoryInUse == y.memoryInUse && x.bytesNeeded == y.bytesNeeded, "failure.memory");
        check(x.bytesShort == y.bytesShort, "failure.bytes_short");
        check(x.depth == y.depth && x.lockedBytes == y.lockedBytes, "failure.depth");
        check(x.oomKind == y.oomKind && x.request == y.request, "failure.kind");
        check(x.largestFreeBlock == y.largestFreeBlock, "failure.largest_free_block");
        check(x.capacityFigures == y.capacityFigures, "failure.capacity_figures");
    }
    return out.join(QStringLiteral(", "));
}
