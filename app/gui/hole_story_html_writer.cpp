#include "hole_story_html_writer.h"

#include "views/common/byte_units.h"
#include "views/common/number_format.h"

#include <QCoreApplication>

namespace rematlens {

namespace {

QString escaped(std::string_view words)
{
    return QString::fromUtf8(words.data(), qsizetype(words.size())).toHtmlEscaped();
}

QString tr(const char *text)
{
    return QCoreApplication::translate("HoleStoryHtmlWriter", text);
}

} // namespace

QString HoleStoryHtmlWriter::digits(std::int64_t value)
{
    return numberLocale().toString(qlonglong(value));
}

void HoleStoryHtmlWriter::beginStory(Edge edge, const EdgeStory &story)
{
    m_edge = edge;
    m_failing = story.failingBudget();
    m_passing = story.failingIsSmaller ? story.largerBudget : story.smallerBudget;
}

void HoleStoryHtmlWriter::begin(Part part, int number)
{
    m_open = part;
    switch (part) {
    case Part::Heading:
        m_html += QStringLiteral("<p style=\"margin-top:0.6em\"><b>");
        break;
    case Part::Line:
    case Part::Note:
        m_html += QStringLiteral("<p>");
        break;
    case Part::Item:
        m_html += QStringLiteral("<p style=\"margin-left:1.2em; text-indent:-1.2em\">%1. ").arg(number);
        break;
    case Part::Continuation:
        m_html += QStringLiteral("<p style=\"margin-left:1.2em; margin-top:0\">");
        break;
    }
}

void HoleStoryHtmlWriter::end()
{
    m_html += m_open == Part::Heading ? QStringLiteral("</b></p>\n") : QStringLiteral("</p>\n");
}

void HoleStoryHtmlWriter::text(std::string_view words)
{
    m_html += escaped(words);
}

void HoleStoryHtmlWriter::emphasis(std::string_view words)
{
    m_html += QStringLiteral("<b>") + escaped(words) + QStringLiteral("</b>");
}

void HoleStoryHtmlWriter::count(std::int64_t value)
{
    m_html += QString::number(value);
}

void HoleStoryHtmlWriter::grouped(std::int64_t value)
{
    m_html += digits(value);
}

void HoleStoryHtmlWriter::bytes(Bytes value)
{
    m_html += QStringLiteral("<span title=\"%1\">%2</span>")
                  .arg(tr("%1 bytes (%2)").arg(digits(value), ByteUnits::format(double(value))).toHtmlEscaped(),
                       digits(value));
}

void HoleStoryHtmlWriter::link(const HoleLink &target, const QString &shown, const QString &tip)
{
    m_html += QStringLiteral("<a href=\"%1\" title=\"%2\">%3</a>")
                  .arg(target.url().toString(QUrl::FullyEncoded).toHtmlEscaped(), tip.toHtmlEscaped(), shown);
}

void HoleStoryHtmlWriter::step(std::uint32_t step)
{
    HoleLink target;
    target.kind = HoleLink::Kind::Step;
    target.edge = m_edge;
    target.step = step;
    link(target, QString::number(step),
         tr("Show step %1 of the failing run (%2 B) in the timeline, the passing run (%3 B) overlaid")
             .arg(step)
             .arg(digits(m_failing), digits(m_passing)));
}

void HoleStoryHtmlWriter::tensor(TensorId tensor, std::optional<std::uint32_t> step, std::string_view shownAs)
{
    HoleLink target;
    target.kind = HoleLink::Kind::Tensor;
    target.edge = m_edge;
    target.step = step;
    target.tensor = tensor;
    const QString where = step ? tr(" at step %1").arg(*step) : QString();
    link(target, QStringLiteral("<tt>") + escaped(shownAs) + QStringLiteral("</tt>"),
         tr("Show %1%2 in the failing run (%3 B): timeline and cascade, the passing run (%4 B) overlaid")
             .arg(QString::fromUtf8(shownAs.data(), qsizetype(shownAs.size())), where, digits(m_failing),
                  digits(m_passing)));
}

QString HoleStoryHtmlWriter::ratioText(Bytes budget) const
{
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.9g",
                  m_baseline.memory > 0 ? static_cast<double>(budget) / static_cast<double>(m_baseline.memory) : 0.0);
    return QString::fromLatin1(ratio);
}

void HoleStoryHtmlWriter::budgetLabel(Bytes budget, std::string_view label)
{
    HoleLink target;
    target.kind = HoleLink::Kind::Budget;
    target.edge = m_edge;
    target.budget = budget;
    link(target, escaped(label), tr("Select the run at %1 B (ratio %2)").arg(digits(budget), ratioText(budget)));
}

void HoleStoryHtmlWriter::budgetBytes(Bytes budget)
{
    budgetLabel(budget, digits(budget).toStdString());
}

void HoleStoryHtmlWriter::budgetWithRatio(Bytes budget)
{
    budgetLabel(budget, QString(digits(budget) + QStringLiteral(" B (") + ratioText(budget) + QLatin1Char(')')).toStdString());
}

} // namespace rematlens
