#pragma once

#include "app/reports/hole_story_writer.h"

#include <QUrl>

#include <optional>

namespace rematlens {

// What a link in the Hole anatomy panel points at: a step or a tensor of one edge's runs (the
// failing run, with the passing one beside it), or a budget of its own.
struct HoleLink {
    enum class Kind { Step, Tensor, Budget };

    Kind kind = Kind::Step;
    HoleStoryWriter::Edge edge = HoleStoryWriter::Edge::Lower;
    std::optional<std::uint32_t> step;
    std::optional<TensorId> tensor;
    Bytes budget = 0; // of a budget link

    QUrl url() const;
    static std::optional<HoleLink> parse(const QUrl &url);
    bool operator==(const HoleLink &) const = default;
};

} // namespace rematlens
