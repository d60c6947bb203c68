#include "app/requests/request_reporter.h"

#include "app/mpi/mpi_world.h"
#include "app/requests/terminal_reporter.h"

namespace rematlens {

namespace {

std::atomic<RequestReporter *> g_current{nullptr};

} // namespace

RequestReporter &RequestReporter::current()
{
    RequestReporter *reporter = g_current.load();
    return reporter ? *reporter : TerminalReporter::instance();
}

RequestReporter::Scope::Scope(RequestReporter &reporter) : m_previous(g_current.exchange(&reporter)) {}

RequestReporter::Scope::~Scope()
{
    g_current.store(m_previous);
}

int reportError(int status, const std::string &message)
{
    RequestReporter::current().error(message);
    return status;
}

void reportWarning(const std::string &message)
{
    RequestReporter::current().warning(message);
}

int usageError(const MpiWorld &world, const std::string &problem)
{
    return world.isRoot() ? reportError(ExitBadUsage, problem) : ExitBadUsage;
}

const std::atomic<bool> &interruptRequested()
{
    return RequestReporter::current().stopRequested();
}

} // namespace rematlens
