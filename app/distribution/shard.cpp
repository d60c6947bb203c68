#include "app/distribution/shard.h"

#include <charconv>
#include <map>

namespace rematlens {

namespace {

std::optional<std::size_t> parseCount(const std::string &text)
{
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return value;
}

} // namespace

std::string listFiles(const std::vector<std::string> &paths)
{
    std::string list;
    for (std::size_t i = 0; i < paths.size(); ++i)
        list += (i == 0 ? "" : i + 1 == paths.size() ? " and " : ", ") + paths[i];
    return list;
}

std::size_t shardField(const Provenance &header, const char *field)
{
    return header.fields().value("shard", nlohmann::ordered_json::object()).value(field, std::size_t{0});
}

std::string checkShardHeaders(const std::vector<std::string> &paths, const std::vector<std::optional<Provenance>> &headers,
                              const std::string &what)
{
    for (std::size_t i = 0; i < headers.size(); ++i)
        if (!headers[i] || !headers[i]->fields().contains("shard"))
            return paths[i] + ":1: no provenance line naming a shard: not the file of a " + what + " --shard";
    const Provenance &first = *headers[0];
    for (std::size_t i = 1; i < headers.size(); ++i) {
        const Provenance &other = *headers[i];
        std::string field = first.firstDifference(other, {"shard"});
        if (field.empty() && shardField(first, "count") != shardField(other, "count"))
            field = "shard";
        if (!field.empty())
            return paths[0] + " and " + paths[i] + " are shards of different " + what + "s: "
                   + first.describeDifference(other, field, paths[i], paths[0]);
    }
    const std::size_t count = shardField(first, "count");
    std::map<std::size_t, std::vector<std::string>> byIndex;
    for (std::size_t i = 0; i < headers.size(); ++i)
        byIndex[shardField(*headers[i], "index")].push_back(paths[i]);
    std::string problems;
    for (std::size_t index = 0; index < count; ++index) {
        const std::string shard = "shard " + std::to_string(index) + "/" + std::to_string(count);
        if (byIndex[index].empty())
            problems += "\n  " + shard + " is missing: none of the files given is its file";
        else if (byIndex[index].size() > 1)
            problems += "\n  " + shard + " is given twice: " + listFiles(byIndex[index]);
    }
    return problems.empty() ? std::string() : "the shards do not make a whole " + what + ":" + problems;
}

std::optional<Shard> Shard::parse(const std::string &text, std::string &error)
{
    const std::size_t slash = text.find('/');
    const std::optional<std::size_t> index = slash == std::string::npos ? std::nullopt : parseCount(text.substr(0, slash));
    const std::optional<std::size_t> count = slash == std::string::npos ? std::nullopt : parseCount(text.substr(slash + 1));
    if (!index || !count || *count == 0) {
        error = "--shard expects I/N, shard I of N counted from 0 (0/4, 1/4, 2/4, 3/4), got \"" + text + "\"";
        return std::nullopt;
    }
    if (*index >= *count) {
        error = "--shard " + text + ": shards are counted from 0, so I must be below N (0 to "
                + std::to_string(*count - 1) + ")";
        return std::nullopt;
    }
    return Shard{*index, *count};
}

} // namespace rematlens
