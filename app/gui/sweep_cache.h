#pragma once

#include "app/formats/sweep_file.h"
#include "core/sim/baseline.h"
#include "views/tables/sweep_result_model.h"

#include <QString>

#include <memory>
#include <vector>

namespace rematlens {

// Every run the GUI finishes, kept per trace (by its content's SHA-256) in the user's data
// directory, each keyed by policy, runtime, overhead limit and budget: reopening a trace shows
// its strip at once, a sweep closed half-way resumes, and a refined range reuses what is known.
class SweepCache {
public:
    // Opens the cache of the trace with this content hash; false (cache off) when unusable.
    bool open(const QString &traceHash);

    // The requests' results already known, by request index.
    std::vector<IndexedResult> known(const std::vector<RunRequest> &requests) const;
    void store(const RunRequest &request, const RunResult &result, const Baseline &baseline);

    static QString directory();

private:
    std::unique_ptr<SweepFile> m_file;
};

} // namespace rematlens
