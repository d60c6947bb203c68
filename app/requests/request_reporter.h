#pragma once

#include <atomic>
#include <cstddef>
#include <string>

namespace rematlens {

class MpiWorld;

// Exit statuses of the command-line contract; the Python module raises by them.
enum ExitStatus { ExitOk = 0, ExitBadInput = 1, ExitBadUsage = 2, ExitInterrupted = 130 };

// Where a request's errors, warnings and progress go, and whether it should stop. The command
// line's reporter prints to stderr (a progress bar when stderr is a terminal) and stops on
// SIGINT or SIGTERM; the Python module's keeps the message for the exception it raises, hands
// the progress to the caller and stops on KeyboardInterrupt. One reporter is in force at a time
// (Scope puts one in force); the command line's is the default.
class RequestReporter {
public:
    virtual ~RequestReporter() = default;

    virtual void error(const std::string &message) = 0;   // one line, no prefix
    virtual void warning(const std::string &message) = 0; // one line, no prefix
    // `done` of `total` of the work labelled (e.g. "sweep", "map DTR"); finished once at the end.
    virtual void progress(const std::string &label, std::size_t done, std::size_t total) = 0;
    virtual void progressFinished(const std::string &label) = 0;
    // Turns true when the request should stop: runs going on finish, nothing new starts, what
    // finished is kept.
    virtual const std::atomic<bool> &stopRequested() const = 0;

    static RequestReporter &current();

    // Puts `reporter` in force until the scope ends.
    class Scope {
    public:
        explicit Scope(RequestReporter &reporter);
        ~Scope();
        Scope(const Scope &) = delete;
        Scope &operator=(const Scope &) = delete;

    private:
        RequestReporter *m_previous;
    };
};

// Reports `message` as an error of the request in force; returns `status`.
int reportError(int status, const std::string &message);
void reportWarning(const std::string &message);
// A usage problem every MPI rank finds alike: rank 0 alone reports it; every rank gets the status.
int usageError(const MpiWorld &world, const std::string &problem);
// The stop flag of the request in force (long work polls it).
const std::atomic<bool> &interruptRequested();

} // namespace rematlens
