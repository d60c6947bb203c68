#pragma once

#include "core/schedule/budget_schedules.h"

#include <QString>

#include <map>
#include <utility>

namespace rematlens {

// The schedule rows' answers, kept per trace (by its content's SHA-256) in the user's data
// directory beside the sweep and map caches, one JSON line per answer: reopening a trace shows
// its checkpointing and optimal rows without solving again. The optimum is kept per budget and
// time limit, as a longer limit may answer more.
class ScheduleCache {
public:
    struct Answers {
        std::map<Bytes, CheckpointAnswer> checkpoints;
        std::map<std::pair<Bytes, double>, OptimalAnswer> optima; // by budget and time limit
    };

    static QString directory();
    // What is stored for the trace; lines cut short (the window killed mid-write) or not ours
    // are skipped, and those budgets are simply answered again.
    static Answers load(const QString &traceHash);
    // False once a write failed: the cache then stays off, with one message on stderr.
    bool store(const QString &traceHash, Bytes budget, const CheckpointAnswer &answer);
    bool store(const QString &traceHash, Bytes budget, double timeLimitSeconds, const OptimalAnswer &answer);

private:
    bool append(const QString &traceHash, const std::string &line);

    bool m_failed = false;
};

} // namespace rematlens
