#include "python_reporter.h"

#include <utility>

namespace rematlens {

void PythonReporter::error(const std::string &message)
{
    const std::lock_guard lock(m_mutex);
    m_errors.push_back(message);
}

void PythonReporter::warning(const std::string &message)
{
    const std::lock_guard lock(m_mutex);
    m_warnings.push_back(message);
}

void PythonReporter::progress(const std::string &label, std::size_t done, std::size_t total)
{
    const std::lock_guard lock(m_mutex);
    if (!m_progress.empty() && m_progress.back().label == label && !m_progress.back().finished)
        m_progress.back() = Progress{label, done, total, false};
    else
        m_progress.push_back(Progress{label, done, total, false});
}

void PythonReporter::progressFinished(const std::string &label)
{
    const std::lock_guard lock(m_mutex);
    if (!m_progress.empty() && m_progress.back().label == label)
        m_progress.back().finished = true;
    else
        m_progress.push_back(Progress{label, 0, 0, true});
}

std::string PythonReporter::firstError() const
{
    const std::lock_guard lock(m_mutex);
    return m_errors.empty() ? std::string() : m_errors.front();
}

std::vector<std::string> PythonReporter::takeWarnings()
{
    const std::lock_guard lock(m_mutex);
    return std::exchange(m_warnings, {});
}

std::vector<PythonReporter::Progress> PythonReporter::takeProgress()
{
    const std::lock_guard lock(m_mutex);
    return std::exchange(m_progress, {});
}

} // namespace rematlens
