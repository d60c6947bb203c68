#include "views/timeline/timeline_plot.h"

#include "views/common/byte_units.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>

namespace rematlens {

TimelinePlot TimelinePlot::build(std::shared_ptr<const Program> program, std::shared_ptr<const InspectedRun> run,
                                 std::shared_ptr<const InspectedRun> comparison, TimelineAxis axis)
{
    TimelinePlot plot;
    plot.program = std::move(program);
    plot.run = std::move(run);
    plot.comparison = std::move(comparison);
    plot.axis = axis;
    if (!plot.program || !plot.run)
        return plot;
    const Program &p = *plot.program;
    plot.track.emplace(p, plot.run->recording, plot.run->result, plot.run->request.config.budget, axis);
    if (!plot.comparison)
        return plot;
    plot.comparisonTrack.emplace(p, plot.comparison->recording, plot.comparison->result,
                                 plot.comparison->request.config.budget, axis);
    plot.divergence = findEventDivergence(plot.run->recording, plot.comparison->recording);
    if (plot.divergence) {
        const auto &d = *plot.divergence;
        if (d.a)
            plot.divergenceX = timelineX(plot.run->recording.events[*d.a], axis);
        else if (d.b)
            plot.divergenceX = timelineX(plot.comparison->recording.events[*d.b], axis);
    }
    return plot;
}

double TimelinePlot::extent() const
{
    double end = track ? track->endX() : 1.0;
    if (comparisonTrack)
        end = std::max(end, comparisonTrack->endX());
    return std::max(end, 1.0);
}

double TimelinePlot::peakBytes() const
{
    double peak = 0;
    for (const auto *t : {track ? &*track : nullptr, comparisonTrack ? &*comparisonTrack : nullptr}) {
        if (!t)
            continue;
        peak = std::max({peak, t->peakMemory(), t->peakReserved(), double(t->budget())});
        if (t->failure())
            peak = std::max(peak, double(t->failure()->failure.memoryInUse + t->failure()->failure.bytesNeeded));
    }
    return peak;
}

QString TimelinePlot::runLabel(const InspectedRun &r) const
{
    return requestLabel(r.request, false);
}

QString TimelinePlot::requestLabel(const RunRequest &request, bool withAllocator)
{
    QString label = QStringLiteral("%1 at %2")
                        .arg(QString::fromStdString(request.config.policy.name), QString::number(request.ratio, 'g', 6));
    if (withAllocator && !request.config.allocator.isSum())
        label += QStringLiteral(" (%1)").arg(QString::fromStdString(allocatorKey(request.config.allocator)));
    if (!request.keep.empty()) {
        QStringList kept;
        for (const std::string &name : request.keep)
            kept << QString::fromStdString(name);
        label += QStringLiteral(" with %1 kept").arg(kept.join(QStringLiteral(", ")));
    }
    return label;
}

QString TimelinePlot::describeStep(std::uint32_t step) const
{
    if (!program || step >= program->schedule.size())
        return QCoreApplication::translate("TimelinePlot", "final outputs");
    const Step &s = program->schedule[step];
    const auto tensorName = [this](TensorId t) { return QString::fromStdString(program->tensors[t].name); };
    switch (s.kind) {
    case StepKind::Compute: {
        const OpInfo &op = program->ops[s.id];
        return QStringLiteral("call %1 → %2").arg(QString::fromStdString(op.name), tensorName(op.firstOutput));
    }
    case StepKind::Get:
        return QStringLiteral("get %1").arg(tensorName(s.id));
    case StepKind::Release:
        return QStringLiteral("release %1").arg(tensorName(s.id));
    case StepKind::Pin:
        return QStringLiteral("pin %1").arg(tensorName(s.id));
    }
    return {};
}

std::optional<TensorId> TimelinePlot::tensorOfStep(std::uint32_t step) const
{
    if (!program || step >= program->schedule.size())
        return std::nullopt;
    const Step &s = program->schedule[step];
    return s.kind == StepKind::Compute ? program->ops[s.id].firstOutput : s.id;
}

QString TimelinePlot::describeEvent(const ReplayEvent &e) const
{
    const TensorInfo &t = program->tensors[e.tensor];
    const QString what = e.kind == ReplayEvent::Kind::Evict   ? QStringLiteral("evicted")
                         : e.kind == ReplayEvent::Kind::Free  ? QStringLiteral("freed")
                         : e.kind == ReplayEvent::Kind::Remat ? QStringLiteral("rematerialized")
                                                              : QStringLiteral("computed");
    return QStringLiteral("%1 %2 (%3, %4)")
        .arg(what, QString::fromStdString(t.name), QString::fromStdString(program->ops[t.op].name),
             ByteUnits::format(double(e.bytes)));
}

} // namespace rematlens
