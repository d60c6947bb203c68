#pragma once

#include "core/sim/replay_event.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// A recording's events as simrd's reference files list them: [kind, clock, tensor, bytes,
// memory], model computes left out.
inline nlohmann::json referenceEventsJson(const std::vector<rematlens::ReplayEvent> &events,
                                          const rematlens::Program &program)
{
    nlohmann::json list = nlohmann::json::array();
    for (const rematlens::ReplayEvent &e : events)
        if (rematlens::isReferenceKind(e.kind))
            list.push_back(nlohmann::json::array({std::string(rematlens::eventKindName(e.kind)), e.clock,
                                                  program.tensors[e.tensor].name, e.bytes, e.memory}));
    return list;
}
