#pragma once

#include "app/reports/hole_story_writer.h"

#include "core/sim/baseline.h"

#include <sstream>
#include <string>

namespace rematlens {

// A hole's story as `rematlens explain` prints it: lines that fit a terminal, every number exact.
class PlainStoryWriter : public HoleStoryWriter {
public:
    explicit PlainStoryWriter(const Baseline &baseline) : m_baseline(baseline) {}

    std::string str() const { return m_out.str(); }

    void beginStory(Edge, const EdgeStory &) override {}
    void begin(Part part, int number) override;
    void end() override { m_out << '\n'; }
    void wrap() override { m_out << "\n     "; }
    void text(std::string_view words) override { m_out << words; }
    void emphasis(std::string_view words) override { m_out << words; }
    void count(std::int64_t value) override { m_out << value; }
    void grouped(std::int64_t value) override;
    void bytes(Bytes value) override;
    void step(std::uint32_t step) override { m_out << step; }
    void tensor(TensorId, std::optional<std::uint32_t>, std::string_view shownAs) override { m_out << shownAs; }
    void budgetBytes(Bytes budget) override;
    void budgetWithRatio(Bytes budget) override;
    void budgetLabel(Bytes, std::string_view label) override { m_out << label; }

private:
    const Baseline &m_baseline;
    std::ostringstream m_out;
};

} // namespace rematlens
