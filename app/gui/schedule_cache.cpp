#include "schedule_cache.h"

#include <QDir>
#include <QStandardPaths>

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <optional>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

QString pathOf(const QString &traceHash)
{
    return ScheduleCache::directory() + QLatin1Char('/') + traceHash + QStringLiteral(".jsonl");
}

std::optional<SolveStatus> statusNamed(const std::string &name)
{
    for (SolveStatus s : {SolveStatus::Optimal, SolveStatus::Feasible, SolveStatus::Infeasible, SolveStatus::Unknown})
        if (name == solveStatusName(s))
            return s;
    return std::nullopt;
}

std::optional<CheckpointAnswer> checkpointFrom(const Json &j)
{
    if (!j.is_object() || !j.contains("pass") || !j["pass"].is_boolean() || !j.contains("peak"))
        return std::nullopt;
    CheckpointAnswer a;
    a.pass = j["pass"].get<bool>();
    a.rule = j.value("rule", std::string{});
    a.peak = j.value("peak", Bytes{0});
    a.overhead = j.value("overhead", 0.0);
    a.checkpoints = j.value("checkpoints", std::size_t{0});
    return a;
}

std::optional<OptimalAnswer> optimalFrom(const Json &j)
{
    if (!j.is_object() || !j.contains("status") || !j["status"].is_string())
        return std::nullopt;
    const std::optional<SolveStatus> status = statusNamed(j["status"].get<std::string>());
    if (!status)
        return std::nullopt;
    OptimalAnswer a;
    a.status = *status;
    a.overhead = j.value("overhead", 0.0);
    a.gap = j.value("gap", 0.0);
    a.seconds = j.value("seconds", 0.0);
    a.checked = j.value("checked", false);
    return a;
}

void readLine(const std::string &line, ScheduleCache::Answers &answers)
{
    const Json record = Json::parse(line, nullptr, false);
    if (!record.is_object() || !record.contains("budget") || !record["budget"].is_number_integer())
        return;
    const Bytes budget = record["budget"].get<Bytes>();
    if (const auto c = record.find("checkpoint"); c != record.end()) {
        if (const std::optional<CheckpointAnswer> answer = checkpointFrom(*c))
            answers.checkpoints[budget] = *answer;
    } else if (const auto o = record.find("optimal"); o != record.end() && record.contains("time_limit") &&
                                                     record["time_limit"].is_number()) {
        if (const std::optional<OptimalAnswer> answer = optimalFrom(*o))
            answers.optima[{budget, record["time_limit"].get<double>()}] = *answer;
    }
}

} // namespace

QString ScheduleCache::directory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/schedules");
}

ScheduleCache::Answers ScheduleCache::load(const QString &traceHash)
{
    Answers answers;
    if (traceHash.isEmpty())
        return answers;
    std::ifstream in(pathOf(traceHash).toStdString());
    std::string line;
    while (std::getline(in, line))
        readLine(line, answers);
    return answers;
}

bool ScheduleCache::store(const QString &traceHash, Bytes budget, const CheckpointAnswer &answer)
{
    Json record;
    record["budget"] = budget;
    record["checkpoint"] = {{"pass", answer.pass},
                            {"rule", answer.rule},
                            {"peak", answer.peak},
                            {"overhead", answer.overhead},
                            {"checkpoints", answer.checkpoints}};
    return append(traceHash, record.dump());
}

// A declined answer is not kept: it costs nothing to find again and depends on the size limit.
bool ScheduleCache::store(const QString &traceHash, Bytes budget, double timeLimitSeconds, const OptimalAnswer &answer)
{
    if (!answer.declined.empty())
        return true;
    Json record;
    record["budget"] = budget;
    record["time_limit"] = timeLimitSeconds;
    record["optimal"] = {{"status", solveStatusName(answer.status)},
                         {"overhead", answer.overhead},
                         {"gap", answer.gap},
                         {"seconds", answer.seconds},
                         {"checked", answer.checked}};
    return append(traceHash, record.dump());
}

bool ScheduleCache::append(const QString &traceHash, const std::string &line)
{
    if (traceHash.isEmpty() || m_failed)
        return false;
    const QString path = pathOf(traceHash);
    std::ofstream out;
    if (QDir().mkpath(directory()))
        out.open(path.toStdString(), std::ios::app);
    if (out)
        out << line << '\n' << std::flush;
    if (!out) {
        std::cerr << "rematlens: the schedule cache is unusable and stays off: cannot write " << path.toStdString()
                  << std::endl;
        m_failed = true;
        return false;
    }
    return true;
}

} // namespace rematlens
