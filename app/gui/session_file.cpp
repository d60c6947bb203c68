#include "session_file.h"

#include "trace_hash.h"

#include "app/formats/trace_source.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char *kFormatName = "rematlens-session";

const char *overlayName(TimelinePanel::Overlay overlay)
{
    switch (overlay) {
    case TimelinePanel::Overlay::None: return "none";
    case TimelinePanel::Overlay::BudgetBelow: return "below";
    case TimelinePanel::Overlay::BudgetAbove: return "above";
    case TimelinePanel::Overlay::Pinned: return "pinned";
    }
    return "none";
}

std::string text(const QString &value)
{
    return value.toStdString();
}

Json stringList(const QStringList &values)
{
    Json list = Json::array();
    for (const QString &value : values)
        list.push_back(text(value));
    return list;
}

Json rangeToJson(const std::optional<SessionState::Range> &range)
{
    return range ? Json::array({range->first, range->second}) : Json();
}

Json runToJson(const SessionState::Run &run)
{
    return Json{{"policy", text(run.policy)},     {"runtime", text(run.runtime)},
                {"overhead_limit", run.overheadLimit}, {"budget", run.budget},
                {"ratio", run.ratio},            {"keep", stringList(run.keep)},
                {"allocator", text(run.allocator)}};
}

Json toJson(const SessionState &s)
{
    const SweepParameters &p = s.sweep;
    Json j;
    j["format"] = kFormatName;
    j["format_version"] = SessionState::kFormatVersion;
    j["trace"] = {{"path", text(s.tracePath)}, {"sha256", text(s.traceSha256)}};
    j["sweep"] = {{"policies", stringList(p.policies)}, {"runtime", text(p.runtime)}, {"from", text(p.from)},
                  {"to", text(p.to)}, {"step", text(p.step)}, {"overhead_limit", text(p.overheadLimit)},
                  {"threads", p.threads}, {"allocators", stringList(p.allocators)},
                  {"eviction", text(p.eviction)}, {"checkpointing", p.checkpointing}, {"optimal", p.optimal},
                  {"time_limit", text(p.timeLimit)}};
    j["selection"] = s.selection ? Json{{"policy_row", s.selection->policyRow},
                                        {"policy", text(s.selection->policy)},
                                        {"ratio", s.selection->ratio}}
                                 : Json();
    j["pinned"] = s.pinned ? runToJson(*s.pinned) : Json();
    j["timeline"] = {{"overlay", overlayName(s.overlay)},
                     {"axis", s.timelineAxis == TimelineAxis::Clock ? "clock" : "step"},
                     {"range", rangeToJson(s.timelineRange)}};
    j["strip"] = {{"view", rangeToJson(s.stripView)}};
    j["memory_map"] = {{"step", s.memoryMapStep ? Json(*s.memoryMapStep) : Json()}};
    return j;
}

// Reading: each field is checked for presence and type; the first problem ends the read with
// a message naming the field ("sweep.step: expected a string").
struct FieldError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const Json &field(const Json &object, const std::string &where, const char *key, Json::value_t type, const char *expected)
{
    const std::string name = where.empty() ? key : where + "." + key;
    const auto found = object.find(key);
    if (found == object.end())
        throw FieldError(name + ": missing; expected " + expected);
    const bool numberWanted = type == Json::value_t::number_float;
    const bool integerWanted = type == Json::value_t::number_integer;
    const bool ok = numberWanted    ? found->is_number()
                    : integerWanted ? found->is_number_integer()
                                    : found->type() == type;
    if (!ok)
        throw FieldError(name + ": expected " + expected + ", found " + found->dump());
    return *found;
}

QString stringField(const Json &object, const std::string &where, const char *key)
{
    return QString::fromStdString(field(object, where, key, Json::value_t::string, "a string").get<std::string>());
}

double numberField(const Json &object, const std::string &where, const char *key)
{
    return field(object, where, key, Json::value_t::number_float, "a number").get<double>();
}

std::int64_t integerField(const Json &object, const std::string &where, const char *key)
{
    return field(object, where, key, Json::value_t::number_integer, "an integer").get<std::int64_t>();
}

const Json &objectField(const Json &object, const std::string &where, const char *key)
{
    return field(object, where, key, Json::value_t::object, "an object");
}

QStringList stringListField(const Json &object, const std::string &where, const char *key)
{
    QStringList values;
    for (const Json &value : field(object, where, key, Json::value_t::array, "an array of strings")) {
        if (!value.is_string())
            throw FieldError(where + "." + key + ": expected an array of strings, found " + value.dump());
        values << QString::fromStdString(value.get<std::string>());
    }
    return values;
}

// A [from, to] pair, or nothing for null.
std::optional<SessionState::Range> rangeField(const Json &object, const std::string &where, const char *key)
{
    const auto found = object.find(key);
    if (found == object.end() || found->is_null())
        return std::nullopt;
    const std::string name = where + "." + key;
    if (!found->is_array() || found->size() != 2 || !(*found)[0].is_number() || !(*found)[1].is_number()
        || (*found)[0].get<double>() >= (*found)[1].get<double>())
        throw FieldError(name + ": expected null or [from, to] with from < to, found " + found->dump());
    return SessionState::Range{(*found)[0].get<double>(), (*found)[1].get<double>()};
}

SweepParameters sweepFrom(const Json &sweep)
{
    SweepParameters p;
    p.policies = stringListField(sweep, "sweep", "policies");
    p.runtime = stringField(sweep, "sweep", "runtime");
    p.from = stringField(sweep, "sweep", "from");
    p.to = stringField(sweep, "sweep", "to");
    p.step = stringField(sweep, "sweep", "step");
    p.overheadLimit = stringField(sweep, "sweep", "overhead_limit");
    p.threads = static_cast<int>(integerField(sweep, "sweep", "threads"));
    // Sessions written before allocator rows swept the byte sum alone.
    if (sweep.contains("allocators"))
        p.allocators = stringListField(sweep, "sweep", "allocators");
    if (sweep.contains("eviction"))
        p.eviction = stringField(sweep, "sweep", "eviction");
    if (sweep.contains("checkpointing"))
        p.checkpointing = field(sweep, "sweep", "checkpointing", Json::value_t::boolean, "true or false").get<bool>();
    if (sweep.contains("optimal"))
        p.optimal = field(sweep, "sweep", "optimal", Json::value_t::boolean, "true or false").get<bool>();
    if (sweep.contains("time_limit"))
        p.timeLimit = stringField(sweep, "sweep", "time_limit");
    return p;
}

SessionState::Run runFrom(const Json &run)
{
    SessionState::Run r;
    r.policy = stringField(run, "pinned", "policy");
    r.runtime = stringField(run, "pinned", "runtime");
    r.overheadLimit = numberField(run, "pinned", "overhead_limit");
    r.budget = integerField(run, "pinned", "budget");
    r.ratio = numberField(run, "pinned", "ratio");
    r.keep = stringListField(run, "pinned", "keep");
    if (run.contains("allocator"))
        r.allocator = stringField(run, "pinned", "allocator");
    return r;
}

TimelinePanel::Overlay overlayFrom(const QString &name)
{
    for (auto overlay : {TimelinePanel::Overlay::None, TimelinePanel::Overlay::BudgetBelow,
                         TimelinePanel::Overlay::BudgetAbove, TimelinePanel::Overlay::Pinned})
        if (name == QLatin1String(overlayName(overlay)))
            return overlay;
    throw FieldError("timeline.overlay: expected \"none\", \"below\", \"above\" or \"pinned\", found \"" + text(name) + "\"");
}

TimelineAxis axisFrom(const QString &name)
{
    if (name == QLatin1String("step"))
        return TimelineAxis::Step;
    if (name == QLatin1String("clock"))
        return TimelineAxis::Clock;
    throw FieldError("timeline.axis: expected \"step\" or \"clock\", found \"" + text(name) + "\"");
}

void checkFormat(const Json &j)
{
    if (!j.is_object() || j.value("format", std::string()) != kFormatName)
        throw FieldError(std::string("not a RematLens session (expected a JSON object with \"format\": \"") + kFormatName + "\")");
    const std::int64_t version = integerField(j, "", "format_version");
    if (version > SessionState::kFormatVersion || version < 1)
        throw FieldError("format_version " + std::to_string(version) + ": this RematLens reads sessions of version 1 to "
                         + std::to_string(SessionState::kFormatVersion) + "; a newer RematLens wrote this file");
}

SessionState fromJson(const Json &j)
{
    checkFormat(j);
    SessionState s;
    const Json &trace = objectField(j, "", "trace");
    s.tracePath = stringField(trace, "trace", "path");
    s.traceSha256 = stringField(trace, "trace", "sha256");
    s.sweep = sweepFrom(objectField(j, "", "sweep"));
    if (const auto selection = j.find("selection"); selection != j.end() && !selection->is_null()) {
        const Json &object = objectField(j, "", "selection");
        s.selection = SessionState::Selection{static_cast<int>(integerField(object, "selection", "policy_row")),
                                              stringField(object, "selection", "policy"),
                                              numberField(object, "selection", "ratio")};
    }
    if (const auto pinned = j.find("pinned"); pinned != j.end() && !pinned->is_null())
        s.pinned = runFrom(objectField(j, "", "pinned"));
    const Json &timeline = objectField(j, "", "timeline");
    s.overlay = overlayFrom(stringField(timeline, "timeline", "overlay"));
    s.timelineAxis = axisFrom(stringField(timeline, "timeline", "axis"));
    s.timelineRange = rangeField(timeline, "timeline", "range");
    if (const auto strip = j.find("strip"); strip != j.end())
        s.stripView = rangeField(objectField(j, "", "strip"), "strip", "view");
    if (const auto map = j.find("memory_map"); map != j.end()) { // older sessions have none
        const Json &object = objectField(j, "", "memory_map");
        if (const auto step = object.find("step"); step != object.end() && !step->is_null()) {
            s.memoryMapStep = integerField(object, "memory_map", "step");
            if (*s.memoryMapStep < 0)
                throw FieldError("memory_map.step: expected a step of the schedule (0 or more), found " +
                                 std::to_string(*s.memoryMapStep));
        }
    }
    return s;
}

} // namespace

bool SessionFile::write(const SessionState &state, const QString &path, QString &error)
{
    QSaveFile file(path); // the old session stays whole until the new one is written
    const std::string content = toJson(state).dump(2) + "\n";
    if (!file.open(QIODevice::WriteOnly) || file.write(content.data(), qint64(content.size())) != qint64(content.size())
        || !file.commit()) {
        error = QStringLiteral("%1: cannot write the session: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

std::optional<SessionState> SessionFile::read(const QString &path, QString &error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error = QStringLiteral("%1: cannot read the session: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    const QByteArray content = file.readAll();
    try {
        return fromJson(Json::parse(content.constData(), content.constData() + content.size()));
    } catch (const Json::parse_error &e) {
        error = QStringLiteral("%1: not JSON: %2").arg(path, QString::fromStdString(e.what()));
    } catch (const FieldError &e) {
        error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(e.what()));
    } catch (const Json::exception &e) { // a field of the wrong type that value() met first
        error = QStringLiteral("%1: not a RematLens session: %2").arg(path, QString::fromStdString(e.what()));
    }
    return std::nullopt;
}

QString SessionFile::traceProblem(const SessionState &state, const QString &tracePath)
{
    if (tracePath != QLatin1String(kDemoTraceName) && !QFileInfo(tracePath).isFile())
        return QStringLiteral("The session's trace %1 is not there (moved or deleted).").arg(tracePath);
    const QString hash = traceContentHash(tracePath);
    if (hash.isEmpty())
        return QStringLiteral("The session's trace %1 cannot be read.").arg(tracePath);
    if (hash != state.traceSha256)
        return QStringLiteral("%1 is not the trace this session was saved with: its content changed (SHA-256 %2, "
                              "the session expects %3).")
            .arg(tracePath, hash, state.traceSha256);
    return {};
}

} // namespace rematlens
