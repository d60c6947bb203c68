#pragma once

#include <string>
#include <vector>

namespace rematlens {

struct MergeOptions {
    std::vector<std::string> shardPaths;
    std::string outPath;
};

// merge of map shards (map --shard I/N): checks that the files are the N shards of one map and
// that, per policy, their intervals tile the map's range exactly (no gap, no overlap, no
// interval twice), naming what is wrong and the files concerned (exit 1, nothing written);
// then writes the file the whole map would have written.
int mergeMapShards(const MergeOptions &options);

} // namespace rematlens
