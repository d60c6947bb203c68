#include "region.h"

#include <algorithm>
#include <iterator>

namespace rematlens {

void Region::insertSorted(std::vector<StorageId> &set, StorageId s)
{
    auto it = std::lower_bound(set.begin(), set.end(), s);
    if (it == set.end() || *it != s)
        set.insert(it, s);
}

void Region::eraseSorted(std::vector<StorageId> &set, StorageId s)
{
    auto it = std::lower_bound(set.begin(), set.end(), s);
    if (it != set.end() && *it == s)
        set.erase(it);
}

void Region::unite(std::vector<StorageId> &set, const std::vector<StorageId> &other)
{
    if (other.empty())
        return;
    if (other.size() == 1) {
        insertSorted(set, other.front());
        return;
    }
    std::vector<StorageId> merged;
    merged.reserve(set.size() + other.size());
    std::set_union(set.begin(), set.end(), other.begin(), other.end(), std::back_inserter(merged));
    set.swap(merged);
}

} // namespace rematlens
