// rematlens confirm: writes a standalone Python script that replays a results file's records
// with unmodified simrd and compares every field; runs it when simrd is found.
#include "commands.h"
#include "app/requests/request_reporter.h"
#include "app/formats/results_file.h"
#include "app/formats/trace_source.h"

#include <QFile>
#include <QProcess>

#include <filesystem>
#include <fstream>
#include <iostream>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

// What the script compares of a record, and what it needs to replay it.
Json checkedRecord(const Json &record)
{
    Json kept;
    for (const char *field : {"heuristic", "runtime", "ratio", "budget", "overhead_limit", "keep", "result", "clock",
                              "remat_compute", "max_memory", "memory_at_end", "evictions", "released_evictions",
                              "remats", "heuristic_evals", "failure"})
        if (record.contains(field) && !record[field].is_null())
            kept[field] = record[field];
    return kept;
}

std::string defaultScriptPath(const std::string &resultsPath)
{
    std::filesystem::path path(resultsPath);
    return (path.parent_path() / (path.stem().string() + ".confirm.py")).string();
}

// The trace as a file simrd can read: the embedded demo is written beside the script.
std::optional<std::string> traceFileFor(const std::string &trace, const std::string &scriptPath, std::string &error)
{
    if (trace != kDemoTraceName)
        return std::filesystem::absolute(trace).string();
    const std::string path = (std::filesystem::path(scriptPath).parent_path() / "demo.log").string();
    loadTrace(trace); // registers the resources
    QFile demo(QStringLiteral(":/traces/demo.log"));
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    const QByteArray bytes = demo.open(QIODevice::ReadOnly) ? demo.readAll() : QByteArray();
    out.write(bytes.constData(), bytes.size());
    if (bytes.isEmpty() || !out.flush()) {
        error = path + ": cannot write the demo trace for simrd";
        return std::nullopt;
    }
    return std::filesystem::absolute(path).string();
}

bool writeScript(const std::string &path, const Json &check, std::string &error)
{
    QFile resource(QStringLiteral(":/scripts/confirm_with_simrd.py"));
    if (!resource.open(QIODevice::ReadOnly)) {
        error = "the confirm script is missing from this build";
        return false;
    }
    std::string script = resource.readAll().toStdString();
    const std::string data = check.dump();
    const std::size_t marker = script.find("@CHECK@");
    if (marker == std::string::npos || data.find("\"\"\"") != std::string::npos) {
        error = "cannot embed these records in the script";
        return false;
    }
    script.replace(marker, 7, data);
    std::ofstream out(path, std::ios::trunc);
    out << script;
    if (!out.flush()) {
        error = path + ": cannot write the script";
        return false;
    }
    std::filesystem::permissions(path, std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec,
                                 std::filesystem::perm_options::add);
    return true;
}

std::string python()
{
    return std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
}

// Runs the script with its output on ours; its exit status (2 when Python cannot start).
int runScript(const std::string &script, const std::string &simrd)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedChannels);
    process.start(QString::fromStdString(python()), {QString::fromStdString(script), QString::fromStdString(simrd)});
    if (!process.waitForStarted() || !process.waitForFinished(-1) || process.exitStatus() != QProcess::NormalExit)
        return reportError(ExitBadUsage, "cannot run " + python() + " " + script);
    return process.exitCode();
}

} // namespace

int runConfirmCommand(const ConfirmOptions &options)
{
    if (options.only != "all" && options.only != "holes")
        return reportError(ExitBadUsage, "--only expects holes or all, got \"" + options.only + "\"");
    if (options.repeats < 1)
        return reportError(ExitBadUsage, "--repeats expects a count of at least 1");
    std::string error;
    const std::optional<ResultsFile> results = ResultsFile::read(options.resultsPath, options.tracePath, error);
    if (!results)
        return reportError(ExitBadInput, error);
    const std::string &trace = results->tracePath();
    const std::string script = options.scriptPath.empty() ? defaultScriptPath(options.resultsPath) : options.scriptPath;
    const std::optional<std::string> traceFile = traceFileFor(trace, script, error);
    if (!traceFile)
        return reportError(ExitBadInput, error);

    Json records = Json::array();
    for (const Json &record : options.only == "holes" ? results->holeRecords() : results->records()) {
        if (record.contains("allocator"))
            return reportError(ExitBadInput, options.resultsPath + ": its runs were made under --allocator "
                                                 + record["allocator"].get<std::string>()
                                                 + "; simrd counts live bytes and cannot replay them (use verify)");
        records.push_back(checkedRecord(record));
    }
    if (records.empty())
        return reportError(ExitBadInput, options.resultsPath + ": no records to confirm"
                                             + (options.only == "holes" ? " (no holes in it)" : ""));
    const Json check{{"trace_path", *traceFile},
                     {"trace_sha256", results->provenance().traceSha256()},
                     {"repeats", options.repeats},
                     {"records", records}};
    if (!writeScript(script, check, error))
        return reportError(ExitBadInput, error);

    const char *fromEnvironment = std::getenv("SIMRD");
    const std::string simrd = !options.simrdDir.empty() ? options.simrdDir : fromEnvironment ? fromEnvironment : "";
    std::cerr << "confirm: wrote " << script << " (" << records.size() << " records, each replayed "
              << options.repeats << " times)" << std::endl;
    if (simrd.empty()) {
        std::cerr << "confirm: simrd was not given (--simrd DIR or SIMRD=DIR); run the script with\n    SIMRD=DIR "
                  << python() << " " << script
                  << "\nwhere DIR holds simrd's Python package (the folder simrd/ of uwsampl/dtr-prototype)" << std::endl;
        return ExitOk;
    }
    return runScript(script, simrd);
}

} // namespace rematlens
