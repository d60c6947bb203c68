#include "views/strip/mapped_interval_text.h"

#include "views/common/byte_units.h"
#include "views/common/number_format.h"
#include "views/strip/outcome_palette.h"

#include <QCoreApplication>

namespace rematlens {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("MappedIntervalText", text);
}

} // namespace

QString MappedIntervalText::ratio(Bytes budget, const Baseline &baseline)
{
    if (baseline.memory <= 0)
        return QStringLiteral("?");
    return QString::number(static_cast<double>(budget) / static_cast<double>(baseline.memory), 'f', 10);
}

QString MappedIntervalText::tooltip(const QString &policy, const RunResult &r, const Baseline &baseline)
{
    const QLocale c = numberLocale();
    const BudgetInterval &in = r.interval;
    const QString hi = in.hi ? c.toString(*in.hi) : QStringLiteral("∞");
    QString text = tr("<b>%1</b>, exact map: budgets [%2, %3) B<br>ratios %4 to %5")
                       .arg(policy, c.toString(in.lo), hi, ratio(in.lo, baseline),
                            in.hi ? ratio(*in.hi, baseline) : QStringLiteral("∞"));
    if (in.hi)
        text += tr("<br>width %1 B (%2)").arg(c.toString(*in.hi - in.lo), ByteUnits::format(static_cast<double>(*in.hi - in.lo)));
    text += tr("<br>result: <b>%1</b>").arg(OutcomePalette::outcomeLabel(r.outcome));
    if (baseline.compute > 0)
        text += tr("<br>overhead %1× (clock %2)")
                    .arg(static_cast<double>(r.clock) / static_cast<double>(baseline.compute), 0, 'f', 4)
                    .arg(c.toString(r.clock));
    text += tr("<br>%1 evictions, %2 remats<br>peak memory %3 B")
                .arg(c.toString(r.evictions + r.releasedEvictions), c.toString(r.remats), c.toString(r.maxMemory));
    if (r.failure)
        text += tr("<br>out of memory materializing %1 (%2): %3 B short at the lowest budget")
                    .arg(QString::fromStdString(r.failure->tensor), QString::fromStdString(r.failure->operatorName),
                         c.toString(r.failure->bytesShort));
    return text + tr("<br><i>every budget in the interval replays the same</i>");
}

QString MappedIntervalText::unmapped(const QString &policy, ByteRange gap, const Baseline &baseline)
{
    const QLocale c = numberLocale();
    return tr("<b>%1</b>, budgets [%2, %3) B<br>ratios %4 to %5<br><b>unmapped</b>: not replayed yet (the map was "
              "cancelled or stopped here); Map Exactly (Ctrl+M) again fills it in")
        .arg(policy, c.toString(gap.from), c.toString(gap.end), ratio(gap.from, baseline), ratio(gap.end, baseline));
}

} // namespace rematlens
