#pragma once

#include "views/figure/figure_source.h"
#include "views/timeline/anatomy_moment.h"
#include "views/timeline/timeline_plot.h"

#include "core/analysis/edge_story.h"

#include <memory>
#include <vector>

namespace rematlens {

class AnatomyChart;

// One edge of a hole for a paper: the passing run's memory timeline over the failing run's,
// one model-step axis, with the story's moments (the avoided eviction, the later eviction, its
// reuse, the failure) marked on the runs they happen in.
class HoleAnatomyFigure : public FigureSource {
public:
    void setContent(std::shared_ptr<const TimelinePlot> passing, std::shared_ptr<const TimelinePlot> failing,
                    std::vector<AnatomyMoment> moments, QString title);
    void clear();
    bool empty() const { return !m_passing || !m_failing || m_passing->empty() || m_failing->empty(); }
    const std::vector<AnatomyMoment> &moments() const { return m_moments; }
    // An edge's story as moments: where the passing run evicts the victim the failing one keeps,
    // the failing run's later eviction, its rematerialization, and the failure. The window and
    // `rematlens figure hole-anatomy` draw the same ones.
    static std::vector<AnatomyMoment> momentsOf(const EdgeStory &story, const Program &program);

    void paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const override;
    QString figureCsv() const override;
    QString figureTitle() const override;

private:
    static void stack(AnatomyChart &upper, AnatomyChart &lower, qreal width, qreal height, double extent);
    QString heading(AnatomyMoment::Run run) const;
    static QRectF labelSpot(const QSizeF &size, qreal x, const QRectF &plot, const std::vector<QRectF> &placed);
    void paintMoments(QPainter &painter, const QPointF &origin, const FigureStyle &style, const AnatomyChart &chart,
                      AnatomyMoment::Run run) const;

    std::shared_ptr<const TimelinePlot> m_passing;
    std::shared_ptr<const TimelinePlot> m_failing;
    std::vector<AnatomyMoment> m_moments;
    QString m_title;
};

} // namespace rematlens
