#pragma once

#include "core/sim/baseline.h"
#include "core/trace/trace_reader.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <string>

// The eight public DTR traces, found in REMATLENS_SHARED_DIR or ../shared beside the sources.
inline constexpr const char *kPublicTraces[] = {
    "unet-6-8000000000.0-2020-10-1-10-57-18-default.log",
    "resnet32-56-9000000000.0-2020-10-1-13-3-30-default.log",
    "inceptionv4-64-10000000000.0-2020-10-1-10-55-0-default.log",
    "tv_densenet121-84-10000000000.0-2020-10-1-13-41-18-default.log",
    "transformer-10-8000000000.0-2020-10-1-10-56-5-default.log",
    "unroll_gan-512-10000000000.0-2020-10-1-18-43-42-default.log",
    "treelstm-6-8000000000.0-2020-10-1-12-54-1-default.log",
    "lstm-128-11000000000.0-2020-10-1-16-38-52-default.log",
};

inline std::string publicTracePath(const char *name)
{
    const char *env = std::getenv("REMATLENS_SHARED_DIR");
    return std::string(env ? env : REMATLENS_DEFAULT_SHARED_DIR) + "/traces/dtr-2020/" + name;
}

// "unet-6-8000000000.0-...log" -> "unet"
inline std::string shortTraceName(const char *name)
{
    const std::string full(name);
    return full.substr(0, full.find('-'));
}

struct LoadedPublicTrace {
    std::shared_ptr<const rematlens::Program> program;
    rematlens::Baseline baseline;
};

// Each trace is parsed once per benchmark program; null when it is missing or unreadable.
inline const LoadedPublicTrace *loadPublicTrace(const char *name)
{
    static std::map<std::string, LoadedPublicTrace> cache;
    auto found = cache.find(name);
    if (found != cache.end())
        return &found->second;
    const rematlens::TraceReadResult read = rematlens::readTraceFile(publicTracePath(name));
    if (!read.ok())
        return nullptr;
    return &cache.emplace(name, LoadedPublicTrace{read.program, rematlens::computeBaseline(*read.program)}).first->second;
}
