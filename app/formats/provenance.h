#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rematlens {

struct SweepSettings;

// What made a results file: the trace (file name and SHA-256 of its content), this build of
// RematLens (version and commit), the command line, and the settings that decide the results
// (policy, runtime, overhead limit, keep list, seed, grid or range, shard). Written as the first
// line of a JSON-lines file, {"provenance": {...}}, and as a "# provenance {...}" comment line
// atop a CSV file; read back from either; two headers compare field by field.
//
// A command that writes a file makes one with describe() and writes jsonLine() or csvLine()
// first, e.g. for a budget map over a byte range:
//     Provenance::describe(trace, settings, {{"range", {{"from_bytes", a}, {"to_bytes", b}}}}, error)
class Provenance {
public:
    using Json = nlohmann::ordered_json;
    static constexpr const char *kKey = "provenance";

    // Remembers the command line (once, in main) for every header the process writes.
    static void recordCommandLine(int argc, const char *const *argv);
    static const std::vector<std::string> &commandLine();
    static std::string version();
    static std::string commit(); // "unknown" when built outside a git checkout

    // The trace's name and hash, this build and the command line; nothing (and error naming
    // the file) when the trace cannot be read. ":demo" hashes the embedded demo's bytes.
    static std::optional<Provenance> forTrace(const std::string &pathOrDemo, std::string &error);
    // Several traces (small multiples): "trace" and "trace_sha256" become lists.
    static std::optional<Provenance> forTraces(const std::vector<std::string> &pathsOrDemo, std::string &error);
    // forTrace plus the settings of a sweep-like command (policies, runtime, overhead limit,
    // keep, seed) and whatever else defines its results (scope: {"grid": ...}, {"ratio": ...}).
    static std::optional<Provenance> describe(const std::string &pathOrDemo, const SweepSettings &settings,
                                              const Json &scope, std::string &error);
    static std::optional<std::string> sha256OfTrace(const std::string &pathOrDemo, std::string &error);

    void set(const std::string &field, Json value) { m_fields[field] = std::move(value); }
    void erase(const std::string &field) { m_fields.erase(field); }
    void setSettings(const SweepSettings &settings);
    const Json &fields() const { return m_fields; }
    std::string traceSha256() const { return m_fields.value("trace_sha256", std::string()); }
    // The random policies' seed the results were made with (0 when the header names none).
    std::uint64_t seed() const;

    std::string jsonLine() const; // {"provenance": {...}} and a newline
    std::string csvLine() const;  // "# provenance {...}" and a newline
    // The header a file's first line holds (either form), if it is one.
    static std::optional<Provenance> parse(const std::string &line);
    // The header at the top of the file at path, if it has one.
    static std::optional<Provenance> readFrom(const std::string &path);
    // Whether a line is a header or a comment above the records, for readers to skip.
    static bool isHeaderLine(const std::string &line);

    // The first field (in this header's order, then the other's) whose values differ, leaving
    // out those that do not change results: the command line, the trace's file name (its hash
    // says which trace it is) and the fields in ignored. Empty when none differs.
    std::string firstDifference(const Provenance &other, const std::vector<std::string> &ignored = {}) const;
    // "FIELD is A in THEIRNAME but B in OURNAME", to build one-line refusals.
    std::string describeDifference(const Provenance &theirs, const std::string &field, const std::string &theirName,
                                   const std::string &ourName) const;

private:
    void setBuild(); // version, commit and command line

    Json m_fields = Json::object();
};

} // namespace rematlens
