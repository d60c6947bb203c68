#include "runs_export.h"

#include "app/reports/run_report.h"
#include "views/tables/sweep_result_model.h"

namespace rematlens {

std::vector<SweepFile::Record> RunsExport::records(const SweepResultModel &model, const std::string &trace)
{
    std::vector<SweepFile::Record> records;
    for (std::size_t policy = 0; policy < model.policyCount(); ++policy)
        for (std::size_t column = 0; column < model.gridSize(); ++column)
            if (const std::optional<RunResult> &result = model.result(policy, column);
                result && result->outcome != Outcome::Cancelled) { // as sweep --out, which keeps no cancelled run
                RunRequest request = model.request(policy, column);
                request.trace = trace;
                records.push_back(runToJson(request, *result, model.baseline()));
            }
    return records;
}

bool RunsExport::write(std::vector<SweepFile::Record> records, const QString &path, QString &error)
{
    const std::string file = path.toStdString();
    const std::optional<SweepFile::Format> format = SweepFile::formatFor(file);
    if (!format) {
        error = QStringLiteral("%1: expected a file name ending in .jsonl or .csv").arg(path);
        return false;
    }
    std::string problem;
    if (!SweepFile::writeSorted(file, *format, std::nullopt, std::move(records), problem)) {
        error = QString::fromStdString(problem);
        return false;
    }
    return true;
}

} // namespace rematlens
