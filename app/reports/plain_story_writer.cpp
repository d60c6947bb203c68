#include "app/reports/plain_story_writer.h"

#include "app/reports/hole_report.h"
#include "app/reports/run_report.h"

namespace rematlens {

void PlainStoryWriter::begin(Part part, int number)
{
    switch (part) {
    case Part::Heading:
    case Part::Line:
        break;
    case Part::Note:
        m_out << "  ";
        break;
    case Part::Item:
        m_out << "  " << number << ". ";
        break;
    case Part::Continuation:
        m_out << "     ";
        break;
    }
}

void PlainStoryWriter::grouped(std::int64_t value)
{
    m_out << groupDigits(value);
}

void PlainStoryWriter::bytes(Bytes value)
{
    m_out << groupDigits(value);
}

void PlainStoryWriter::budgetBytes(Bytes budget)
{
    m_out << groupDigits(budget);
}

void PlainStoryWriter::budgetWithRatio(Bytes budget)
{
    m_out << budgetText(budget, m_baseline);
}

} // namespace rematlens
