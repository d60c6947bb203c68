#pragma once

#include <optional>
#include <string_view>

namespace rematlens {

// Why an allocator model refused a request for good. Capacity: allocated bytes plus the request
// exceed the capacity. Fragmentation: they fit, but no free block or new segment can hold it.
enum class OomKind { Capacity, Fragmentation };

inline std::string_view oomKindName(OomKind kind)
{
    switch (kind) {
    case OomKind::Capacity: return "capacity";
    case OomKind::Fragmentation: return "fragmentation";
    }
    return "capacity";
}

inline std::optional<OomKind> findOomKind(std::string_view name)
{
    for (OomKind k : {OomKind::Capacity, OomKind::Fragmentation})
        if (oomKindName(k) == name)
            return k;
    return std::nullopt;
}

} // namespace rematlens
