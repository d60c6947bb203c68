#include "shard.h"

#include <charconv>

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
