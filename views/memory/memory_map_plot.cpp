#include "views/memory/memory_map_plot.h"

#include "core/alloc/allocator_config.h"
#include "core/alloc/oom_kind.h"
#include "views/common/byte_units.h"

#include <QCoreApplication>

namespace rematlens {

namespace {

QString hexAddress(Bytes address)
{
    return QStringLiteral("0x") + QString::number(qulonglong(address), 16);
}

} // namespace

QString MemoryMapPlot::allocatorName() const
{
    return QString::fromStdString(allocatorKey(request.config.allocator));
}

QString MemoryMapPlot::runLabel() const
{
    return QStringLiteral("%1 at %2")
        .arg(QString::fromStdString(request.config.policy.name), QString::number(request.ratio, 'g', 6));
}

QString MemoryMapPlot::heading() const
{
    if (!snapshot)
        return {};
    QString where = QStringLiteral("after step %1").arg(snapshot->step);
    if (snapshot->atFailure)
        where = QStringLiteral("at the failing request of step %1").arg(snapshot->step);
    QString what;
    if (program && snapshot->step < program->schedule.size()) {
        const Step &s = program->schedule[snapshot->step];
        if (s.kind == StepKind::Compute)
            what = QStringLiteral(" (call %1)").arg(QString::fromStdString(program->ops[s.id].name));
        else
            what = QStringLiteral(" (%1 %2)")
                       .arg(s.kind == StepKind::Get       ? QStringLiteral("get")
                            : s.kind == StepKind::Release ? QStringLiteral("release")
                                                          : QStringLiteral("pin"),
                            tensorName(s.id));
    }
    return QStringLiteral("%1 allocator, %2, %3%4").arg(allocatorName(), runLabel(), where, what);
}

QString MemoryMapPlot::totals() const
{
    if (!snapshot)
        return {};
    const MemorySnapshot &s = *snapshot;
    std::size_t blocks = 0;
    for (const SnapshotSegment &segment : s.segments)
        blocks += segment.blocks.size();
    QString text = QStringLiteral("%1 segments, %2 blocks; reserved %3, allocated %4, free in segments %5")
                       .arg(s.segments.size())
                       .arg(blocks)
                       .arg(ByteUnits::format(double(s.reserved)), ByteUnits::format(double(s.allocated)),
                            ByteUnits::format(double(s.reserved - s.allocated)));
    if (s.capacity < kUnlimitedCapacity)
        text += QStringLiteral("; capacity %1").arg(ByteUnits::format(double(s.capacity)));
    return text;
}

QString MemoryMapPlot::failureText() const
{
    if (!snapshot || !snapshot->failure)
        return {};
    const Failure &f = *snapshot->failure;
    const QString kind = f.oomKind ? QString::fromLatin1(oomKindName(*f.oomKind).data(),
                                                         qsizetype(oomKindName(*f.oomKind).size()))
                                   : QStringLiteral("capacity");
    return QStringLiteral("out of memory (%1): %2 for %3 does not fit; largest free block %4")
        .arg(kind, ByteUnits::format(double(f.request)), QString::fromStdString(f.tensor),
             ByteUnits::format(double(f.largestFreeBlock)));
}

QString MemoryMapPlot::tensorName(TensorId tensor) const
{
    if (!program || tensor >= program->tensors.size())
        return QCoreApplication::translate("MemoryMapPlot", "an output being computed");
    return QString::fromStdString(program->tensors[tensor].name);
}

QString MemoryMapPlot::describeBlock(const SnapshotSegment &segment, const SnapshotBlock &block) const
{
    QString what;
    switch (block.state) {
    case BlockView::State::Allocated: {
        what = tensorName(block.tensor);
        if (program && block.tensor < program->tensors.size())
            what += QStringLiteral(" (%1)").arg(
                QString::fromStdString(program->ops[program->tensors[block.tensor].op].name));
        break;
    }
    case BlockView::State::Free: what = QStringLiteral("free"); break;
    case BlockView::State::Unmapped: what = QStringLiteral("unmapped"); break;
    }
    return QStringLiteral("%1\n%2 (%3 B) at %4–%5\nsegment %6 of %7")
        .arg(what, ByteUnits::format(double(block.size)), ByteUnits::exact(block.size), hexAddress(block.address),
             hexAddress(block.address + block.size), hexAddress(segment.base), ByteUnits::format(double(segment.size)));
}

std::optional<std::pair<std::size_t, std::size_t>> MemoryMapPlot::largestFreeBlock() const
{
    if (!snapshot)
        return std::nullopt;
    std::optional<std::pair<std::size_t, std::size_t>> best;
    Bytes bestSize = 0;
    for (std::size_t i = 0; i < snapshot->segments.size(); ++i)
        for (std::size_t j = 0; j < snapshot->segments[i].blocks.size(); ++j) {
            const SnapshotBlock &b = snapshot->segments[i].blocks[j];
            if (b.state == BlockView::State::Free && b.size > bestSize) {
                bestSize = b.size;
                best = std::pair(i, j);
            }
        }
    return best;
}

QString MemoryMapPlot::byteSumExplanation()
{
    return QCoreApplication::translate(
        "MemoryMapPlot",
        "This run counts memory as a sum of live tensor bytes (allocator \"sum\", simrd's model): it has no "
        "addresses, segments or blocks, so there is no memory map.\n\n"
        "To see one, check caching or best-fit under Allocator in the sweep panel, sweep, and pick a "
        "cell of that row (or start the window with rematlens gui TRACE --allocator caching). From the "
        "command line:\n"
        "  rematlens figure memory-map TRACE --ratio R --allocator caching --out map.png");
}

QString MemoryMapPlot::byteSumSummary()
{
    return QCoreApplication::translate(
        "MemoryMapPlot",
        "Allocator \"sum\" counts bytes and has no addresses: no memory map. Check caching or best-fit under "
        "Allocator in the sweep panel, sweep, and pick a cell of that row. Hover here for more.");
}

} // namespace rematlens
