#include "views/strip/strip_legend.h"

#include "views/strip/hole_mark.h"
#include "views/strip/outcome_palette.h"
#include "views/strip/unmapped_mark.h"

#include <QFontMetricsF>
#include <QPainter>

namespace rematlens {

StripLegend::StripLegend(const FigureStyle &style, std::vector<Outcome> outcomes, std::vector<PolicyLine> policies,
                         bool unmapped, const std::vector<Swatch> &swatches)
    : m_style(style)
{
    for (Outcome outcome : outcomes) {
        const QString label = OutcomePalette::outcomeLabel(outcome);
        m_items.push_back({Item::Kind::Outcome, static_cast<int>(outcome), label,
                           outcome == Outcome::Thrash ? QStringLiteral("over limit") : label});
    }
    m_items.push_back({Item::Kind::Hole, 0, QStringLiteral("hole (fails between passing budgets)"), QStringLiteral("hole")});
    if (unmapped)
        m_items.push_back({Item::Kind::Unmapped, 0, QStringLiteral("unmapped (not replayed yet)"), QStringLiteral("unmapped")});
    for (const Swatch &swatch : swatches)
        m_items.push_back({Item::Kind::Swatch, 0, swatch.label, swatch.label, swatch.colour});
    for (const PolicyLine &policy : policies)
        m_items.push_back({Item::Kind::Policy, policy.colour, QStringLiteral("%1 overhead").arg(policy.name), policy.name});
}

double StripLegend::itemWidth(const Item &item, bool brief) const
{
    const QFontMetricsF metrics(m_style.font());
    const double swatch = item.kind == Item::Kind::Policy ? 1.6 * metrics.height() : 0.9 * metrics.height();
    return swatch + 0.35 * metrics.height() + metrics.horizontalAdvance(brief ? item.shortLabel : item.label) +
           1.1 * metrics.height();
}

std::vector<std::vector<StripLegend::Item>> StripLegend::lines(double width, bool &brief) const
{
    brief = false;
    std::vector<std::vector<Item>> full = flow(width, false);
    if (full.size() <= 2)
        return full;
    brief = true;
    return flow(width, true);
}

std::vector<std::vector<StripLegend::Item>> StripLegend::flow(double width, bool brief) const
{
    std::vector<std::vector<Item>> result(1);
    double used = 0;
    for (const Item &item : m_items) {
        const double w = itemWidth(item, brief);
        if (!result.back().empty() && used + w > width) {
            result.emplace_back();
            used = 0;
        }
        result.back().push_back(item);
        used += w;
    }
    return result;
}

QStringList StripLegend::labels() const
{
    QStringList result;
    for (const Item &item : m_items)
        result << item.label;
    return result;
}

double StripLegend::height(double width) const
{
    const QFontMetricsF metrics(m_style.font());
    bool brief = false;
    return static_cast<double>(lines(width, brief).size()) * 1.25 * metrics.height();
}

void StripLegend::paint(QPainter &p, const QRectF &bounds) const
{
    const QFontMetricsF metrics(m_style.font());
    p.save();
    p.setFont(m_style.font());
    double y = bounds.top();
    bool brief = false;
    for (const std::vector<Item> &line : lines(bounds.width(), brief)) {
        double lineWidth = 0;
        for (const Item &item : line)
            lineWidth += itemWidth(item, brief);
        lineWidth -= 1.1 * metrics.height(); // no gap after the last item
        double x = bounds.left() + std::max(0.0, (bounds.width() - lineWidth) / 2);
        for (const Item &item : line) {
            paintItem(p, item, brief, QPointF(x, y));
            x += itemWidth(item, brief);
        }
        y += 1.25 * metrics.height();
    }
    p.restore();
}

void StripLegend::paintItem(QPainter &p, const Item &item, bool brief, const QPointF &topLeft) const
{
    const QString &label = brief ? item.shortLabel : item.label;
    const QFontMetricsF metrics(m_style.font());
    const double h = metrics.height();
    const double swatchWidth = item.kind == Item::Kind::Policy ? 1.6 * h : 0.9 * h;
    const QRectF swatch(topLeft.x(), topLeft.y() + 0.1 * h, swatchWidth, 0.8 * h);
    p.setRenderHint(QPainter::Antialiasing, true);
    switch (item.kind) {
    case Item::Kind::Outcome:
        p.fillRect(swatch, m_style.outcome(static_cast<Outcome>(item.index)));
        break;
    case Item::Kind::Hole: {
        const QColor under = m_style.outcome(Outcome::OutOfMemory);
        p.fillRect(swatch, under);
        HoleMark::paint(p, swatch, under, m_style);
        break;
    }
    case Item::Kind::Unmapped:
        UnmappedMark::paint(p, swatch, m_style);
        break;
    case Item::Kind::Swatch:
        p.fillRect(swatch, item.colour);
        break;
    case Item::Kind::Policy:
        p.setPen(QPen(m_style.policy(item.index), m_style.lineWidth * 1.2, m_style.policyLine(item.index), Qt::FlatCap));
        p.drawLine(QPointF(swatch.left(), swatch.center().y()), QPointF(swatch.right(), swatch.center().y()));
        break;
    }
    p.setPen(m_style.ink());
    p.drawText(QRectF(swatch.right() + 0.35 * h, topLeft.y(), metrics.horizontalAdvance(label) + h, h),
               Qt::AlignLeft | Qt::AlignVCenter, label);
}

} // namespace rematlens
