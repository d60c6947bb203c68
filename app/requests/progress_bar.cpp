#include "app/requests/progress_bar.h"

#include "app/requests/request_reporter.h"

namespace rematlens {

ProgressBar::ProgressBar(std::string label, std::size_t total) : m_label(std::move(label)), m_total(total) {}

ProgressBar::~ProgressBar()
{
    finish();
}

void ProgressBar::advance(std::size_t done)
{
    RequestReporter::current().progress(m_label, done, m_total);
}

void ProgressBar::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    RequestReporter::current().progressFinished(m_label);
}

} // namespace rematlens
