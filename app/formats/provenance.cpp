#include "app/formats/provenance.h"

#include "app/formats/trace_source.h"

#include "core/sim/runtime_kind.h"
#include "core/sweep/sweep_plan.h"

#include <QCryptographicHash>
#include <QFile>

#include <algorithm>
#include <fstream>

#ifndef REMATLENS_VERSION
#define REMATLENS_VERSION "unknown"
#endif
#ifndef REMATLENS_GIT_COMMIT
#define REMATLENS_GIT_COMMIT "unknown"
#endif

namespace rematlens {

namespace {

std::vector<std::string> &recordedCommandLine()
{
    static std::vector<std::string> arguments;
    return arguments;
}

const std::string kCsvPrefix = std::string("# ") + Provenance::kKey + " ";

} // namespace

void Provenance::recordCommandLine(int argc, const char *const *argv)
{
    recordedCommandLine().assign(argv, argv + argc);
}

const std::vector<std::string> &Provenance::commandLine()
{
    return recordedCommandLine();
}

std::string Provenance::version()
{
    return REMATLENS_VERSION;
}

std::string Provenance::commit()
{
    return REMATLENS_GIT_COMMIT;
}

std::optional<std::string> Provenance::sha256OfTrace(const std::string &pathOrDemo, std::string &error)
{
    const bool demo = pathOrDemo == kDemoTraceName;
    QFile file(demo ? QStringLiteral(":/traces/demo.log") : QString::fromStdString(pathOrDemo));
    if (demo)
        loadTrace(pathOrDemo); // registers the resources that hold the demo
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!file.open(QIODevice::ReadOnly) || !hash.addData(&file)) {
        error = pathOrDemo + ": cannot read the trace to compute its SHA-256";
        return std::nullopt;
    }
    return hash.result().toHex().toStdString();
}

std::optional<Provenance> Provenance::forTrace(const std::string &pathOrDemo, std::string &error)
{
    const std::optional<std::string> sha = sha256OfTrace(pathOrDemo, error);
    if (!sha)
        return std::nullopt;
    Provenance p;
    p.set("trace", traceDisplayName(pathOrDemo));
    p.set("trace_sha256", *sha);
    p.setBuild();
    return p;
}

void Provenance::setBuild()
{
    set("rematlens_version", version());
    set("rematlens_commit", commit());
    set("command", commandLine());
}

std::optional<Provenance> Provenance::forTraces(const std::vector<std::string> &pathsOrDemo, std::string &error)
{
    if (pathsOrDemo.size() == 1)
        return forTrace(pathsOrDemo.front(), error);
    Json names = Json::array();
    Json hashes = Json::array();
    for (const std::string &path : pathsOrDemo) {
        const std::optional<std::string> sha = sha256OfTrace(path, error);
        if (!sha)
            return std::nullopt;
        names.push_back(traceDisplayName(path));
        hashes.push_back(*sha);
    }
    Provenance p;
    p.set("trace", names);
    p.set("trace_sha256", hashes);
    p.setBuild();
    return p;
}

std::optional<Provenance> Provenance::describe(const std::string &pathOrDemo, const SweepSettings &settings,
                                               const Json &scope, std::string &error)
{
    std::optional<Provenance> p = forTrace(pathOrDemo, error);
    if (!p)
        return std::nullopt;
    p->setSettings(settings);
    for (const auto &[field, value] : scope.items())
        p->set(field, value);
    return p;
}

void Provenance::setSettings(const SweepSettings &settings)
{
    Json policies = Json::array();
    for (const Policy &policy : settings.policies)
        policies.push_back(policy.name);
    set("policies", policies);
    set("runtime", std::string(simrdRuntimeName(settings.runtime)));
    set("overhead_limit", settings.overheadLimit);
    set("keep", settings.keep);
    set("seed", settings.seed);
    if (!settings.allocator.isSum())
        set("allocator", allocatorKey(settings.allocator));
}

std::string Provenance::jsonLine() const
{
    return Json{{kKey, m_fields}}.dump() + "\n";
}

std::string Provenance::csvLine() const
{
    return kCsvPrefix + m_fields.dump() + "\n";
}

std::optional<Provenance> Provenance::parse(const std::string &line)
{
    Json fields;
    if (line.rfind(kCsvPrefix, 0) == 0) {
        fields = Json::parse(line.substr(kCsvPrefix.size()), nullptr, false);
    } else {
        const Json record = Json::parse(line, nullptr, false);
        if (record.is_object() && record.size() == 1 && record.contains(kKey))
            fields = record[kKey];
    }
    if (!fields.is_object())
        return std::nullopt;
    Provenance p;
    p.m_fields = std::move(fields);
    return p;
}

std::optional<Provenance> Provenance::readFrom(const std::string &path)
{
    std::ifstream in(path);
    std::string line;
    return std::getline(in, line) ? parse(line) : std::nullopt;
}

bool Provenance::isHeaderLine(const std::string &line)
{
    return (!line.empty() && line.front() == '#') || parse(line).has_value();
}

std::string Provenance::firstDifference(const Provenance &other, const std::vector<std::string> &ignored) const
{
    const auto skipped = [&](const std::string &field) {
        return field == "command" || field == "trace" || std::find(ignored.begin(), ignored.end(), field) != ignored.end();
    };
    for (const auto &[field, value] : m_fields.items())
        if (!skipped(field) && (!other.m_fields.contains(field) || other.m_fields[field] != value))
            return field;
    for (const auto &[field, value] : other.m_fields.items())
        if (!skipped(field) && !m_fields.contains(field))
            return field;
    return {};
}

std::string Provenance::describeDifference(const Provenance &theirs, const std::string &field,
                                           const std::string &theirName, const std::string &ourName) const
{
    const auto shown = [&](const Json &fields) {
        return fields.contains(field) ? fields[field].dump() : std::string("absent");
    };
    return field + " is " + shown(theirs.m_fields) + " in " + theirName + " but " + shown(m_fields) + " in " + ourName;
}

std::uint64_t Provenance::seed() const
{
    const Json value = m_fields.value("seed", Json(0));
    return value.is_number_unsigned() || value.is_number_integer() ? value.get<std::uint64_t>() : 0;
}

} // namespace rematlens
