// rematlens traces download | status: the public DTR traces, fetched, checked and installed
// where the GUI's open dialog looks.
#include "commands.h"
#include "app/requests/request_reporter.h"

#include "app/public_traces/public_trace_installer.h"
#include "app/public_traces/public_trace_set.h"
#include "app/public_traces/url_fetch.h"

#include <QCoreApplication>

#include <algorithm>
#include <iostream>
#include <memory>

namespace rematlens {

namespace {

// The published archive is about 1 MB; no mirror of it comes near this.
constexpr qint64 kMaxArchiveBytes = qint64{512} << 20;

QString directoryOrDefault(const std::string &directory)
{
    return directory.empty() ? PublicTraceSet::defaultDirectory() : QString::fromStdString(directory);
}

// Qt Network runs in an event loop, which needs an application object; a command has none yet.
std::unique_ptr<QCoreApplication> applicationForNetwork()
{
    static int argc = 1;
    static char name[] = "rematlens";
    static char *argv[] = {name, nullptr};
    return QCoreApplication::instance() ? nullptr : std::make_unique<QCoreApplication>(argc, argv);
}

const char *describe(PublicTraceState state)
{
    switch (state) {
    case PublicTraceState::Verified: return "installed, verified";
    case PublicTraceState::Missing: return "missing";
    case PublicTraceState::Altered: return "differs from the published trace (SHA-256)";
    }
    return "";
}

} // namespace

int runTracesDownloadCommand(const TracesDownloadOptions &options)
{
    const PublicTraceSet &set = PublicTraceSet::dtr2020();
    const QString address = options.url.empty() ? set.archiveUrl() : QString::fromStdString(options.url);
    const QString directory = directoryOrDefault(options.directory);
    const std::unique_ptr<QCoreApplication> app = applicationForNetwork();
    std::cerr << "Downloading " << address.toStdString() << std::endl;
    const FetchResult fetched = fetchUrl(urlFromUserInput(address), kMaxArchiveBytes);
    if (!fetched.error.isEmpty())
        return reportError(ExitBadInput, "cannot download " + address.toStdString() + ": " + fetched.error.toStdString()
                                             + "; nothing was installed");
    if (const QString error = PublicTraceInstaller(set).install(fetched.data, directory); !error.isEmpty())
        return reportError(ExitBadInput, address.toStdString() + ": " + error.toStdString());
    std::cout << "Installed " << set.traces().size() << " traces, each matching its published SHA-256, in "
              << directory.toStdString() << std::endl;
    return ExitOk;
}

int runTracesStatusCommand(const TracesStatusOptions &options)
{
    const PublicTraceSet &set = PublicTraceSet::dtr2020();
    const QString directory = directoryOrDefault(options.directory);
    std::cout << "Public DTR traces in " << directory.toStdString() << ":\n";
    qsizetype width = 0;
    for (const PublicTrace &trace : set.traces())
        width = std::max(width, trace.fileName.size());
    std::size_t verified = 0;
    for (const PublicTrace &trace : set.traces()) {
        const PublicTraceState state = PublicTraceSet::stateIn(directory, trace);
        verified += state == PublicTraceState::Verified ? 1 : 0;
        std::cout << "  " << trace.fileName.leftJustified(width).toStdString() << "  " << describe(state) << "\n";
    }
    std::cout << verified << " of " << set.traces().size() << " installed and verified";
    if (verified < set.traces().size())
        std::cout << "; `rematlens traces download` installs them";
    std::cout << std::endl;
    return verified == set.traces().size() ? ExitOk : ExitBadInput;
}

} // namespace rematlens
