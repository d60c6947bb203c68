#pragma once

#include "python_reporter.h"

#include "app/requests/loaded_trace.h"

#include <pybind11/pybind11.h>

#include <chrono>
#include <exception>
#include <future>
#include <optional>
#include <utility>

namespace rematlens {

namespace py = pybind11;

// The exception classes of the module (set when it is imported).
struct PythonErrors {
    static inline PyObject *base = nullptr;  // RematLensError
    static inline PyObject *usage = nullptr; // UsageError: bad options (the command line's exit 2)
    static inline PyObject *input = nullptr; // InputError: a file that cannot be read or written (exit 1)
};

// Raises the exception for a request that ended with `status` (ExitOk raises nothing):
// KeyboardInterrupt for a stop, else the first error reported, as the command line says it.
void raiseForStatus(int status, const PythonReporter &reporter);

// Runs one request as a notebook wants it. The work runs on a thread of its own with the GIL
// released, the reporter in force (errors, warnings, progress, the stop flag); meanwhile the
// calling thread wakes every 50 ms to hand the progress to `progress` (a callable taking label,
// done and total, or None) and to look for signals: Ctrl+C (KeyboardInterrupt) stops the request,
// which keeps what finished (a map what it wrote), and is raised once the work has stopped.
// Warnings become Python warnings. `work` returns its exit status and fills its result.
template <class Work>
void runRequest(Work &&work, const py::object &progress, bool strictTraces)
{
    PythonReporter reporter;
    std::optional<py::error_already_set> pending; // an interrupt, or the progress callable's error
    int status = 0;
    {
        const RequestReporter::Scope scope(reporter);
        setStrictTraces(strictTraces);
        std::future<int> done;
        {
            py::gil_scoped_release release;
            done = std::async(std::launch::async, std::forward<Work>(work));
            while (done.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
                py::gil_scoped_acquire acquire;
                try {
                    if (!pending && PyErr_CheckSignals() != 0)
                        throw py::error_already_set();
                    for (const PythonReporter::Progress &told : reporter.takeProgress())
                        if (!progress.is_none())
                            progress(told.label, told.done, told.total, told.finished);
                } catch (py::error_already_set &e) {
                    if (!pending)
                        pending.emplace(std::move(e));
                    reporter.stop();
                }
            }
        }
        status = done.get();
        setStrictTraces(false);
    }
    if (!pending && !progress.is_none()) // what was told after the last look, the end among it
        for (const PythonReporter::Progress &told : reporter.takeProgress())
            progress(told.label, told.done, told.total, told.finished);
    for (const std::string &warning : reporter.takeWarnings())
        if (PyErr_WarnEx(PyExc_UserWarning, warning.c_str(), 1) != 0)
            throw py::error_already_set();
    if (pending)
        throw std::move(*pending);
    raiseForStatus(status, reporter);
}

} // namespace rematlens
