#pragma once

#include "hole_link.h"

#include "app/reports/hole_story_writer.h"
#include "core/sim/baseline.h"

#include <QString>

namespace rematlens {

// A hole's story as rich text for the Hole anatomy panel: one paragraph per part, every step,
// tensor and budget a link (HoleLink), every byte count exact with its size in the chosen units
// as a tooltip.
class HoleStoryHtmlWriter : public HoleStoryWriter {
public:
    explicit HoleStoryHtmlWriter(const Baseline &baseline) : m_baseline(baseline) {}

    const QString &html() const { return m_html; }

    void beginStory(Edge edge, const EdgeStory &story) override;
    void begin(Part part, int number) override;
    void end() override;
    void wrap() override { m_html += QLatin1Char(' '); }
    void text(std::string_view words) override;
    void emphasis(std::string_view words) override;
    void count(std::int64_t value) override;
    void grouped(std::int64_t value) override;
    void bytes(Bytes value) override;
    void step(std::uint32_t step) override;
    void tensor(TensorId tensor, std::optional<std::uint32_t> step, std::string_view shownAs) override;
    void budgetBytes(Bytes budget) override;
    void budgetWithRatio(Bytes budget) override;
    void budgetLabel(Bytes budget, std::string_view label) override;
    std::size_t rescuesListed() const override { return 6; }

    // "3,525,043,904": the digits every number of the panel is written with.
    static QString digits(std::int64_t value);

private:
    void link(const HoleLink &link, const QString &shown, const QString &tip);
    QString ratioText(Bytes budget) const;

    const Baseline &m_baseline;
    QString m_html;
    Part m_open = Part::Line;
    Edge m_edge = Edge::Lower;
    Bytes m_failing = 0; // of the story told
    Bytes m_passing = 0;
};

} // namespace rematlens
