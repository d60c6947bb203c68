#pragma once

#include "app/reports/hole_story_writer.h"

#include "core/analysis/hole_anatomy.h"
#include "core/sim/baseline.h"
#include "core/trace/program.h"

namespace rematlens {

// What the sentences of a hole's story name: the program's tensors and operators, the baseline
// the ratios are of.
struct HoleReportContext {
    const Program &program;
    const Baseline &baseline;

    const std::string &tensorName(TensorId t) const { return program.tensors[t].name; }
    const std::string &operatorOf(TensorId t) const { return program.ops[program.tensors[t].op].name; }
    // The trace line of a step (0 for the final output pins, which have none).
    int lineOf(std::uint32_t step) const { return step < program.schedule.size() ? program.schedule[step].line : 0; }
};

// The sentences of a hole's anatomy, the same for `rematlens explain` and the window's Hole
// anatomy panel: each writer renders them its own way.
void tellEdgeStory(const EdgeStory &story, const HoleReportContext &context, HoleStoryWriter &writer);
void tellHoleAnatomy(const HoleAnatomy &anatomy, const HoleReportContext &context, HoleStoryWriter &writer);
// The hole's bounds and mechanism (the first two lines of tellHoleAnatomy).
void tellHoleSummary(const HoleAnatomy &anatomy, const HoleReportContext &context, HoleStoryWriter &writer);
// One edge under its heading ("lower edge, A | B B (where it begins):").
void tellEdge(HoleStoryWriter::Edge edge, const EdgeStory &story, const HoleReportContext &context,
              HoleStoryWriter &writer);

} // namespace rematlens
