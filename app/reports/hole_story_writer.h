#pragma once

#include "core/analysis/edge_story.h"
#include "core/trace/program.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace rematlens {

// Where a hole's story is written to. The sentences are built once (hole_story.h) and each
// writer renders them: plain text for the terminal, rich text with links for the window.
// A writer sees what every number and name stands for, so it can link or explain it.
class HoleStoryWriter {
public:
    enum class Part {
        Heading,      // "hole ..", "lower edge, ..": no indent
        Line,         // a plain line: no indent
        Note,         // under a heading, indented
        Item,         // "1. avoided eviction: ..", numbered
        Continuation, // more of the item before it, on a line of its own
    };
    enum class Edge { Given, Lower, Upper };

    virtual ~HoleStoryWriter() = default;

    // The edge whose story the next parts tell (links name its runs).
    virtual void beginStory(Edge edge, const EdgeStory &story) = 0;
    virtual void begin(Part part, int number = 0) = 0;
    virtual void end() = 0;
    // A terminal's line break inside a part; a space where lines wrap by themselves.
    virtual void wrap() = 0;

    virtual void text(std::string_view words) = 0;
    virtual void emphasis(std::string_view words) = 0;
    virtual void count(std::int64_t value) = 0;   // as digits
    virtual void grouped(std::int64_t value) = 0; // digits grouped by thousands (compute)
    virtual void bytes(Bytes value) = 0;          // digits grouped; " B" follows as text
    virtual void step(std::uint32_t step) = 0;
    // A tensor as the story names it, at the model step the sentence is about (if one).
    virtual void tensor(TensorId tensor, std::optional<std::uint32_t> step, std::string_view shownAs) = 0;
    // A budget: as bytes, as bytes and ratio ("2,634,785,266 B (0.2343)"), or as a run's label.
    virtual void budgetBytes(Bytes budget) = 0;
    virtual void budgetWithRatio(Bytes budget) = 0;
    virtual void budgetLabel(Bytes budget, std::string_view label) = 0;

    // How many rescues a story lists by name before "...".
    virtual std::size_t rescuesListed() const { return 2; }
};

} // namespace rematlens
