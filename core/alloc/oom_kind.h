#pragma once

#include <optional>
#include <string_view>

namespace rematlens {

// Why an allocator model refused a request for good. Capacity: allocated bytes plus the request
// exceed the limit. Fragmentation: they fit, but no free block or new segment can hold the
// request. Budget (after-op coupling only): allocated bytes stay over the budget after an
// operator and nothing is left to evict.
enum class OomKind { Capacity, Fragmentation, Budget };

inline std::string_view oomKindName(OomKind kind)
{
    switch (kind) {
    case OomKind::Capacity: return "capacity";
    case OomKind::Fragmentation: return "fragmentation";
    case OomKind::Budget: return "budget";
    }
    return "capacity";
}

inline std::optional<OomKind> findOomKind(std::string_view name)
{
    for (OomKind k : {OomKind::Capacity, OomKind::Fragmentation, OomKind::Budget})
        if (oomKindName(k) == name)
            return k;
    return std::nullopt;
}

} // namespace rematlens
